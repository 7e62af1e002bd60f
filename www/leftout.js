// What the page says of a policy left out of a comparison: which one, and why, in words a
// newcomer reads. No DOM. A policy is left out before the run when its spec or its JavaScript
// is wrong (`stage: 'check'`: the picker's check, a syntax error among them), or during the run
// when its JavaScript throws or decides what cannot be done (`stage: 'run'`: its sealed worker
// says so); the other policies run and their results show. The status line says it after the
// figures, and the results table gives the policy a row of its own (results.js).

/** The engine's message without the policy's name it begins with, as the status line and the
 * row name the policy already ("policy js:x: invalid decision ..." -> "invalid decision ...",
 * "policy js:x failed at t=3: ..." -> "failed at t=3: ..."; they said "policy js:x: policy
 * js:x: ..." before, as the error banner did until it named it once); a refused spec's
 * 'policy "x[k=1]": ' likewise. */
export function unnamed(spec, message) {
  // A spec the engine refused is named quoted ('policy "x[k=1]": unknown key ...').
  const heads = [`policy ${spec}`, `policy "${spec}"`];
  let m = message;
  for (let head = heads.find((h) => m.startsWith(h)); head && /^[: ]/.test(m.slice(head.length)); head = heads.find((h) => m.startsWith(h))) {
    m = m.slice(head.length).replace(/^:?\s*/, '');
  }
  return m;
}

/** What kind of error left a policy out: {spec, message, stage} as one sentence's second half.
 * The engine's message itself is said under Messages (the page's error list), once. */
export function leftOutWhy({ spec, message, stage }) {
  const js = spec.startsWith('js:');
  if (js && /syntax error/.test(message)) return 'its code has a syntax error, so it never ran';
  if (stage === 'run') return 'its code stopped with an error while it ran';
  if (js) return 'its code cannot run';
  return 'it is not a policy the page can run';
}

/** The status line's sentences on the policies left out ('' when none was): which and what
 * kind of error, then that the other policies' results are shown (when `shown` is not 0). Each
 * error's own message is said once, under Messages (the page's error list), not again here. */
export function leftOutSentence(left, shown) {
  if (!left.length) return '';
  const each = left.map((l) => `${l.spec} was left out: ${leftOutWhy(l)}.`).join(' ');
  const where = left.length === 1 ? 'Its error is under Messages.' : 'Their errors are under Messages.';
  if (!shown) return ` ${each} ${where}`;
  return ` ${each} ${where} The ${shown === 1 ? 'other policy\'s results are' : 'other policies\' results are'} shown.`;
}

/** The text of a left-out policy's row in the results table. */
export function leftOutRow({ spec, message: said, stage }) {
  const message = unnamed(spec, said);
  if (stage !== 'run') return `left out, not run: ${message}`;
  return message.startsWith('failed ') ? message : `failed: ${message}`;
}

/** The status line of a run refused before it starts (the form's `problems`, said under
 * Messages too: a link's cluster the engine refuses). Before, the status stayed "Loading the
 * trace…" over the shown results (the previous link's), unmarked. */
export function refusedSentence(problems) {
  const n = problems.length - 1;
  const more = n > 0 ? ` (${n} more problem${n === 1 ? '' : 's'} under Messages)` : '';
  return `Nothing was run: ${(problems[0] ?? 'the settings are not valid').replace(/\.$/, '')}${more}.`;
}
