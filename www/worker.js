// The simulation worker (a module worker). It owns its own copy of the engine, so a long run never
// blocks the page. Protocol (every message carries the run's `id`):
//   page -> worker  {type: 'run', id, bytes, name, options, specs, seed}
//   worker -> page  {type: 'facts', facts}
//                   {type: 'progress', index, done, total}          at most every 100 ms
//                   {type: 'result', index, spec, report, rects, jobs, series, eetUsers, violations, memory}
//                                                                   arrays transferred
//                   {type: 'done'} | {type: 'error', stage, message, panicked}
//   page -> worker  {type: 'export', req, index, kind: 'jobs' | 'runs'}   (after a run is done)
//   worker -> page  {type: 'export', req, csv} | {type: 'export', req, error}
// The session of the last run stays alive until the next run, to answer exports.
import init, { Session, has_panicked } from '../pkg/schedlab.js';

const PROGRESS_MS = 100;
const ready = init();

let current = null;

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg && msg.type === 'export') {
    exportCsv(msg);
    return;
  }
  if (!msg || msg.type !== 'run') return;
  try {
    await ready;
  } catch (err) {
    self.postMessage({ type: 'error', id: msg.id, stage: 'load', message: `the engine could not start in the worker: ${err.message}` });
    return;
  }
  run(msg);
};

function fail(id, stage, err) {
  let panicked = false;
  try { panicked = has_panicked(); } catch { panicked = true; }
  const message = err instanceof Error ? err.message : String(err);
  self.postMessage({ type: 'error', id, stage, message, panicked });
}

function exportCsv({ req, index, kind }) {
  try {
    if (!current) throw new Error('no finished run to export: run the comparison again');
    const csv = kind === 'runs' ? current.runs_csv(index) : current.jobs_csv(index);
    self.postMessage({ type: 'export', req, csv });
  } catch (err) {
    self.postMessage({ type: 'export', req, error: err instanceof Error ? err.message : String(err) });
  }
}

function run({ id, bytes, name, options, specs, seed }) {
  if (current) {
    try { current.free(); } catch { /* already gone after a panic */ }
    current = null;
  }
  let session;
  try {
    session = new Session(name, bytes, options);
  } catch (err) {
    fail(id, 'trace', err);
    return;
  }
  let stage = 'trace';
  try {
    self.postMessage({ type: 'facts', id, facts: session.facts() });
    for (let index = 0; index < specs.length; index++) {
      stage = specs[index];
      let last = performance.now();
      self.postMessage({ type: 'progress', id, index, done: 0, total: 1 });
      const report = session.run(specs[index], seed, (done, total) => {
        const now = performance.now();
        if (now - last >= PROGRESS_MS) {
          last = now;
          self.postMessage({ type: 'progress', id, index, done, total });
        }
        return true;
      });
      const rects = session.rects();
      const jobs = session.jobs();
      const series = session.series();
      const eetUsers = session.eet_users();
      const violations = session.violations();
      const memory = session.memory();
      self.postMessage({ type: 'result', id, index, spec: specs[index], report, rects, jobs, series, eetUsers, violations, memory },
        [rects.buffer, jobs.buffer, series.buffer, eetUsers.buffer, violations.buffer, memory.buffer]);
    }
    current = session;
    self.postMessage({ type: 'done', id });
  } catch (err) {
    fail(id, stage, err);
    try { session.free(); } catch { /* already gone after a panic */ }
  }
}
