// The wasm engine without the browser (printed, not asserted): loads pkg/ (or PKG=DIR) in Node and
// times Session (read the trace) and run(policy) on a trace, REPEAT times, printing the minimum
// (the machine is shared: the minimum is the least disturbed figure). Session and run are what
// the page's workers call (www/simulate.js), with the options they pass.
//   node tests/browser/engine-bench.mjs [trace.swf(.gz)] [policy ...]
//   CLUSTER=COMPACT node tests/browser/engine-bench.mjs ...   the trace on a cluster (compact form)
//   GPU_CLUSTER=100000,1000000 node tests/browser/engine-bench.mjs [policy ...]
// GPU_CLUSTER: instead of a trace, N generated jobs on the GPU cluster of `schedlab bench
// --gpu-cluster N` (a Lublin-Feitelson workload for 32,000 processors, seed 1, a quarter of the
// jobs asking for GPUs, on 1/n[1-1000]:c32:m256000:g4), for each N. The SWF is written by the
// CLI (SCHEDLAB=PATH, default target/release/schedlab): the page generates at most 200,000 jobs.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './helpers.mjs';

const pkg = resolve(process.env.PKG ?? join(ROOT, 'pkg'));
const REPEAT = Number(process.env.REPEAT ?? 5);
// The cluster of `schedlab bench --gpu-cluster` (src/bin/schedlab/bench.rs GPU_CLUSTER).
const GPU_CLUSTER = '1/n[1-1000]:c32:m256000:g4';
const gpuSizes = (process.env.GPU_CLUSTER ?? '').split(',').filter(Boolean).map(Number);
const args = process.argv.slice(2);
const trace = gpuSizes.length ? null : args.shift() ?? join(ROOT, '..', '..', 'shared', 'data', 'swf', 'LANL-CM5-1994-4.1-cln.swf.gz');
const policies = args.length ? args : ['easy'];

const { initSync, Session } = await import(pathToFileURL(join(pkg, 'schedlab.js')).href);
const t0 = performance.now();
initSync({ module: readFileSync(join(pkg, 'schedlab_bg.wasm')) });
const compile = performance.now() - t0;
const ms = (x) => `${x.toFixed(0)} ms`;

/** Reads `bytes` into a Session with `options` and runs each policy, REPEAT times; prints the
 * minima. */
function bench(name, bytes, options) {
  const best = { read: Infinity };
  for (let i = 0; i < REPEAT; i++) {
    let t = performance.now();
    const session = new Session(name, bytes, options);
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
  console.log(`${pkg}: compile ${ms(compile)}; ${name}: read ${ms(best.read)}, ` +
    policies.map((p) => `${p} (run + arrays) ${ms(best[p])}`).join(', ') + ` (minimum of ${REPEAT})`);
}

if (trace) {
  const cluster = process.env.CLUSTER;
  bench(trace.split('/').pop() + (cluster ? ` on ${cluster}` : ''), readFileSync(trace), cluster ? { cluster } : undefined);
}
for (const n of gpuSizes) {
  const swf = join(tmpdir(), `schedlab-gpu-cluster-${n}-${process.pid}.swf`);
  const cli = resolve(process.env.SCHEDLAB ?? join(ROOT, 'target', 'release', 'schedlab'));
  execFileSync(cli, ['generate', '--model', 'lublin', '--procs', '32000', '--jobs', String(n), '--seed', '1',
    '--gpu-share', '0.25', '--out', swf], { stdio: 'ignore' });
  try {
    bench(`${n} jobs, GPU cluster ${GPU_CLUSTER}`, readFileSync(swf), { cluster: GPU_CLUSTER });
  } finally {
    rmSync(swf, { force: true });
  }
}
