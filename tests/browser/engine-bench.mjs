// The wasm engine without the browser (printed, not asserted): loads pkg/ (or PKG=DIR) in Node and
// times Session (read the trace) and run(policy) on a trace, REPEAT times, printing the minimum
// (the machine is shared: the minimum is the least disturbed figure).
//   node tests/browser/engine-bench.mjs [trace.swf(.gz)] [policy ...]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './helpers.mjs';

const pkg = resolve(process.env.PKG ?? join(ROOT, 'pkg'));
const trace = process.argv[2] ?? join(ROOT, '..', '..', 'shared', 'data', 'swf', 'LANL-CM5-1994-4.1-cln.swf.gz');
const policies = process.argv.length > 3 ? process.argv.slice(3) : ['easy'];
const REPEAT = Number(process.env.REPEAT ?? 5);

const { initSync, Session } = await import(pathToFileURL(join(pkg, 'schedlab.js')).href);
const t0 = performance.now();
initSync({ module: readFileSync(join(pkg, 'schedlab_bg.wasm')) });
const compile = performance.now() - t0;
const bytes = readFileSync(trace);
const best = { read: Infinity };
for (let i = 0; i < REPEAT; i++) {
  let t = performance.now();
  const session = new Session(trace, bytes, undefined);
  best.read = Math.min(best.read, performance.now() - t);
  for (const p of policies) {
    t = performance.now();
    session.run(p, 1, undefined);
    session.rects();
    session.jobs();
    best[p] = Math.min(best[p] ?? Infinity, performance.now() - t);
  }
  session.free();
}
const ms = (x) => `${x.toFixed(0)} ms`;
console.log(`${pkg}: compile ${ms(compile)}; ${trace.split('/').pop()}: read ${ms(best.read)}, ` +
  policies.map((p) => `${p} (run + arrays) ${ms(best[p])}`).join(', ') + ` (minimum of ${REPEAT})`);
