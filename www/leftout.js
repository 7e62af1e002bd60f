// What the page says of a policy left out of a comparison: which one, and why, in words a
// newcomer reads. No DOM. A policy is left out before the run when its spec or its JavaScript
// is wrong (`stage: 'check'`: the picker's check, a syntax error among them), or during the run
// when its JavaScript throws or decides what cannot be done (`stage: 'run'`: its sealed worker
// says so); the other policies run and their results show. The status line says it after the
// figures, and the results table gives the policy a row of its own (results.js).

/** Why a policy was left out: {spec, message, stage} as one sentence's second half. */
export function leftOutWhy({ spec, message, stage }) {
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
export function leftOutRow({ message, stage }) {
  return stage === 'run' ? `failed: ${message}` : `left out, not run: ${message}`;
}
