// What the page says of a policy left out of a comparison: which one, and why, in words a
// newcomer reads. No DOM. A policy is left out before the run when its spec or its JavaScript
// is wrong (`stage: 'check'`: the picker's check, a syntax error among them), or during the run
// when its JavaScript throws or decides what cannot be done (`stage: 'run'`: its sealed worker
// says so); the other policies run and their results show. The status line says it after the
// figures, and the results table gives the policy a row of its own (results.js).

/** The engine's message without the policy's name it begins with, as the status line and the
 * row name the policy already ("policy js:x: invalid decision ..." -> "invalid decision ...",
 * "policy js:x failed at t=3: ..." -> "failed at t=3: ..."; they said "policy js:x: policy
 * js:x: ..." before, as the error banner did until it named it once). */
export function unnamed(spec, message) {
  const head = `policy ${spec}`;
  let m = message;
  while (m.startsWith(head) && /^[: ]/.test(m.slice(head.length))) m = m.slice(head.length).replace(/^:?\s*/, '');
  return m;
}

/** Why a policy was left out: {spec, message, stage} as one sentence's second half. */
export function leftOutWhy({ spec, message: said, stage }) {
  const message = unnamed(spec, said);
  const js = spec.startsWith('js:');
  if (js && /syntax error/.test(message)) return `its code has a syntax error, so it never ran (${message})`;
  if (stage === 'run') return `its code stopped with an error while it ran (${message})`;
  if (js) return `its code cannot run (${message})`;
  return `it is not a policy the page can run (${message})`;
}

/** The status line's sentences on the policies left out ('' when none was): which and why, then
 * that the other policies' results are shown (when `shown` is not 0). */
export function leftOutSentence(left, shown) {
  if (!left.length) return '';
  const each = left.map((l) => `${l.spec} was left out: ${leftOutWhy(l)}.`).join(' ');
  if (!shown) return ` ${each}`;
  return ` ${each} The ${shown === 1 ? 'other policy\'s results are' : 'other policies\' results are'} shown.`;
}

/** The text of a left-out policy's row in the results table. */
export function leftOutRow({ spec, message: said, stage }) {
  const message = unnamed(spec, said);
  if (stage !== 'run') return `left out, not run: ${message}`;
  return message.startsWith('failed ') ? message : `failed: ${message}`;
}
