// The page's memory per job (printed, not asserted): in headless Chromium, loads pkg/ as the
// page's worker does, reads a trace (Session), runs one policy and asks for its typed arrays
// (rects, jobs), and prints the size of the wasm memory after each step, per job. A wasm memory
// never shrinks: its size is the peak of everything the engine held on the way.
//   node tests/browser/memory.mjs TRACE.swf(.gz) [policy]      (no server needed; PKG=DIR: another pkg/)
// e.g. LANL-CM5 x40: python3 scripts/repeat-trace.py tests/data/LANL-CM5-1994-4.1-cln.swf.gz 40 /tmp/x40.swf
import { createReadStream, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { ROOT, launch } from './helpers.mjs';

const trace = resolve(process.argv[2] ?? join(ROOT, 'tests', 'data', 'LANL-CM5-1994-4.1-cln.swf.gz'));
const policy = process.argv[3] ?? 'easy';
const pkg = resolve(process.env.PKG ?? join(ROOT, 'pkg'));
const types = { js: 'text/javascript', wasm: 'application/wasm', html: 'text/html' };

// Everything served from the repository (pkg/) and the trace (streamed: it may be large).
const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname.slice(1);
  try {
    if (path === 'trace') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      createReadStream(trace).pipe(res);
      return;
    }
    const file = path.startsWith('pkg/') ? join(pkg, path.slice(4)) : join(ROOT, path);
    const body = path === '' ? '<!doctype html><title>memory</title>' : readFileSync(file);
    res.writeHead(200, { 'content-type': types[path === '' ? 'html' : path.split('.').pop()] ?? 'text/plain' });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const ORIGIN = `http://127.0.0.1:${server.address().port}/`;

const browser = await launch();
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
  await page.goto(ORIGIN);
  const out = await page.evaluate(async (spec) => {
    const mod = await import('/pkg/schedlab.js');
    const wasm = await mod.default();
    const mib = () => wasm.memory.buffer.byteLength;
    const steps = [['module loaded', mib()]];
    let bytes = new Uint8Array(await (await fetch('/trace')).arrayBuffer());
    const size = bytes.length;
    const t0 = performance.now();
    const session = new mod.Session('trace', bytes, undefined);
    bytes = null;
    const readMs = performance.now() - t0;
    steps.push(['trace read (Session)', mib()]);
    const jobs = JSON.parse(JSON.stringify(session.facts())).jobs;
    const t1 = performance.now();
    let runMs = NaN;
    try {
      session.run(spec, 1, undefined);
      runMs = performance.now() - t1;
      steps.push([`${spec} run and measured`, mib()]);
      session.rects();
      session.jobs();
      steps.push(['typed arrays (rects, jobs)', mib()]);
    } catch (e) {
      // Out of memory aborts the module: say where, and how large the memory had grown.
      steps.push([`${spec} run failed (${e.message})`, mib()]);
    }
    return { steps, jobs, size, readMs, runMs };
  }, policy);
  const name = trace.split('/').pop();
  console.log(`${name}: ${out.jobs} jobs, ${(out.size / 2 ** 20).toFixed(0)} MiB file; read ${(out.readMs / 1e3).toFixed(1)} s, ${policy} ${isNaN(out.runMs) ? 'failed' : `${(out.runMs / 1e3).toFixed(1)} s`}`);
  for (const [step, bytes] of out.steps) {
    console.log(`  wasm memory after ${step}: ${(bytes / 2 ** 20).toFixed(0)} MiB, ${(bytes / out.jobs).toFixed(0)} bytes per job`);
  }
  await context.close();
} finally {
  await browser.close();
  server.close();
}
