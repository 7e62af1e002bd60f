// Runs comparisons and sweeps in a pool of module workers (one engine each): the policies of a
// comparison (or the points of a sweep) are handed out one at a time to whichever worker is free,
// results reach the page as each finishes, and cancel terminates every worker (fresh ones are
// made for the next run). Each worker reads the trace once per run and keeps it for its next tasks.
// A JavaScript policy (`js:NAME`) never runs in the pool: each of its tasks gets a sealed worker
// of its own (seal.js, sealed.js), made for it and terminated with the comparison, which fails
// alone (`failed`) while the other policies finish.
import { SealedTask, STALL_MS } from './seal.js';

const WORKER_URL = new URL('./worker.js', import.meta.url);
/** Most workers, whatever navigator.hardwareConcurrency says. */
export const MAX_WORKERS = 8;
/** Memory the workers' copies of the trace and schedules may take together (wasm32: 4 GiB each). */
const MEMORY_BUDGET = 3 * 2 ** 30;

/** Workers for `tasks` tasks on a trace of these bytes: the cores (capped), no more than the
 * tasks, and fewer when each worker's copy of a large trace would not fit the memory budget
 * (about 8 bytes of engine memory per byte of trace text; gzip taken as 1:6). */
export function poolSize(bytes, tasks) {
  const cores = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, MAX_WORKERS));
  const gz = bytes && bytes.length > 1 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  const text = (bytes ? bytes.length : 0) * (gz ? 6 : 1);
  const byMemory = Math.floor(MEMORY_BUDGET / (text * 8 + 64 * 2 ** 20));
  return Math.max(1, Math.min(cores, tasks, byMemory));
}

/** The code of `spec` (`js:NAME`) in a payload's `custom`: one policy {name, code}, or an object
 * of them by spec (several JavaScript policies in one comparison or sweep). Each sealed worker
 * gets its own policy's code alone. */
export function customFor(custom, spec) {
  if (!custom) return null;
  if (typeof custom.code === 'string') return custom;
  return Object.hasOwn(custom, spec) ? custom[spec] : null;
}

/** The first `slurm` spec of a payload's `specs` (a run's list, or a sweep's lists per policy):
 * the worker that reads the trace sends that spec's phases note with the facts, whichever
 * policy it runs itself. */
export function noteSpecOf(specs) {
  return specs.flat().find((s) => s === 'slurm' || s.startsWith('slurm['));
}

export class Runner {
  constructor() {
    this.workers = [];
    this.id = 0;
    this.job = null;
    this.req = 0;
    this.exports = new Map();
    this.owner = new Map(); // comparison index -> worker slot holding its run (for exports)
    this.sealed = []; // the sealed workers of the current (or last shown) comparison
    this.stallMs = STALL_MS; // the sealed workers' watchdog
  }

  /** Does a worker still hold the run of comparison index `index` (none once a later run has
   * started, or been cancelled)? */
  holds(index) {
    const slot = this.owner.get(index);
    return !this.job && slot !== undefined && (slot instanceof SealedTask || Boolean(this.workers[slot]));
  }

  /** Asks the worker that ran comparison index `index` for its CSV (`kind`: 'jobs' or 'runs'). */
  exportCsv(index, kind) {
    const slot = this.owner.get(index);
    if (!this.job && slot instanceof SealedTask) return slot.exportCsv(index, kind);
    if (this.job || slot === undefined || !this.workers[slot]) {
      return Promise.reject(new Error('no finished run to export: run the comparison first'));
    }
    this.req += 1;
    const req = this.req;
    return new Promise((resolve, reject) => {
      this.exports.set(req, { resolve, reject });
      this.workers[slot].postMessage({ type: 'export', req, index, kind });
    });
  }

  /** Starts a comparison (payload: bytes, name, options, specs, seed, custom: see customFor); a run in progress is
   * cancelled first. handlers: {facts, progress, result, failed, done, error}; exactly one of done /
   * error ends the run (unless it is cancelled); failed({index, spec, message}) reports a
   * policy that failed alone (the run goes on without its result). `result` comes once per policy as each
   * finishes (any order; `index` says which); `progress` carries `overall` (0..1),
   * `finished` and `running` (policy indices being simulated). */
  run(payload, handlers) {
    const tasks = payload.specs.map((spec, index) => ({ index, spec }));
    this.start('run', payload, handlers, tasks);
  }

  /** Starts a sweep (payload: bytes, name, options, specs [[spec per value] per policy], seeds,
   * metric, custom): every distinct spec is a task run over the seeds by one worker (a spec
   * that recurs, such as a JavaScript policy's at every value, runs once); `result` comes
   * once with `stats` ([mean, min, max] per value per policy, as worker.js's sweep). */
  sweep(payload, handlers) {
    const all = payload.specs.flat();
    const first = new Map(); // spec -> its task's index
    const tasks = [];
    for (const spec of all) if (!first.has(spec)) { first.set(spec, tasks.length); tasks.push({ index: tasks.length, spec }); }
    const copies = all.map((spec) => first.get(spec));
    this.start('sweep', payload, handlers, tasks, copies);
  }

  /** Simulations a sweep runs: distinct specs times seeds. */
  static sweepRuns(specs, seeds) { return new Set(specs.flat()).size * seeds; }

  get busy() { return this.job !== null; }

  /** Workers now alive (for tests and the benchmark). */
  get size() { return this.workers.filter(Boolean).length; }

  cancel() {
    this.stopAll();
    this.job = null;
    this.owner.clear();
  }

  /** The first worker, started ahead of the first run (it compiles its own copy of the wasm). */
  ensure() { return this.worker(0); }

  worker(slot) {
    if (this.workers[slot]) return this.workers[slot];
    const worker = new Worker(WORKER_URL, { type: 'module' });
    worker.onmessage = (event) => this.receive(slot, event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.fail({ stage: 'worker', message: `the simulation worker failed: ${event.message || 'it could not be started (is pkg/ present?)'}`, panicked: false });
    };
    worker.onmessageerror = () => this.fail({ stage: 'worker', message: 'a message from the worker could not be read' });
    this.workers[slot] = worker;
    return worker;
  }

  stopAll() {
    for (const { reject } of this.exports.values()) reject(new Error('the worker was stopped'));
    this.exports.clear();
    for (const w of this.workers) w?.terminate();
    this.workers = [];
    this.stopSealed();
  }

  stopSealed() {
    for (const t of this.sealed) t.stop();
    this.sealed = [];
  }

  start(kind, payload, handlers, tasks, copies = null) {
    if (this.job) this.cancel();
    this.owner.clear();
    this.stopSealed();
    this.id += 1;
    const job = {
      id: this.id, kind, payload, handlers, queue: tasks, total: tasks.length, finished: 0,
      running: new Map(), // slot -> { task, part (0..1) }
      facts: false,
      stats: kind === 'sweep' ? new Float64Array(tasks.length * 3) : null,
      copies, // sweep: per (policy, value), the task whose stats it shows
    };
    this.job = job;
    job.queue = tasks.filter((t) => !t.spec.startsWith('js:'));
    for (const task of tasks) if (task.spec.startsWith('js:')) this.seal(job, task);
    const n = poolSize(payload.bytes, job.queue.length);
    for (let slot = 0; slot < n && job.queue.length; slot++) this.next(slot);
  }

  /** Runs `task` (a JavaScript policy) in a sealed worker of its own. */
  seal(job, task) {
    const { bytes, name, options, seed, seeds, metric } = job.payload;
    const base = { id: job.id, bytes, name, options, noteSpec: noteSpecOf(job.payload.specs), custom: customFor(job.payload.custom, task.spec) };
    const message = job.kind === 'run'
      ? { ...base, type: 'run', specs: [task.spec], indices: [task.index], seed }
      : { ...base, type: 'sweep', specs: [[task.spec]], seeds, metric };
    const live = () => this.job === job;
    let sealed = null;
    sealed = new SealedTask(job.kind, task, message, this.stallMs, {
      facts: (m) => { if (live() && !job.facts) { job.facts = true; job.handlers.facts?.(m); } },
      progress: (m) => {
        const current = job.running.get(sealed);
        if (!live() || !current) return;
        current.part = m.total > 0 ? Math.min(1, m.done / m.total) : 0;
        this.progress();
      },
      result: (m) => {
        if (!live()) return;
        if (job.kind === 'sweep') job.stats.set(m.stats, task.index * 3);
        else { this.owner.set(task.index, sealed); job.handlers.result?.(m); }
      },
      done: (m) => { if (live()) this.finish(job, sealed, m); },
      failed: (message) => {
        if (!live()) return;
        if (job.kind === 'sweep') { this.fail({ type: 'error', id: job.id, stage: task.spec, message, panicked: false }); return; }
        job.handlers.failed?.({ index: task.index, spec: task.spec, message });
        this.finish(job, sealed, { type: 'done', id: job.id });
      },
      error: (m) => { if (live()) this.fail(m); },
    });
    this.sealed.push(sealed);
    job.running.set(sealed, { task, part: 0 });
  }

  /** Counts the task of `key` (a pool slot or a sealed task) as finished; ends the job after the last. */
  finish(job, key, msg) {
    job.running.delete(key);
    job.finished += 1;
    if (job.finished === job.total) {
      this.job = null;
      if (job.kind === 'sweep') {
        const stats = new Float64Array(job.copies.length * 3);
        job.copies.forEach((t, i) => stats.set(job.stats.subarray(t * 3, t * 3 + 3), i * 3));
        job.handlers.result?.({ type: 'result', id: job.id, index: 0, stats });
      }
      job.handlers.done?.(msg);
      return true;
    }
    this.progress();
    return false;
  }

  /** Hands the next task to worker `slot`, if any is left. */
  next(slot) {
    const job = this.job;
    const task = job.queue.shift();
    if (!task) return;
    job.running.set(slot, { task, part: 0 });
    // The page's JavaScript policy never reaches a pool worker (seal() runs it).
    const { bytes, name, options, seed, seeds, metric } = job.payload;
    const base = { id: job.id, bytes, name, options, noteSpec: noteSpecOf(job.payload.specs) };
    this.worker(slot).postMessage(job.kind === 'run'
      ? { ...base, type: 'run', specs: [task.spec], indices: [task.index], seed }
      : { ...base, type: 'sweep', specs: [[task.spec]], seeds, metric });
  }

  receive(slot, msg) {
    if (msg.type === 'export') {
      const pending = this.exports.get(msg.req);
      this.exports.delete(msg.req);
      if (pending) msg.error ? pending.reject(new Error(msg.error)) : pending.resolve(msg.csv);
      return;
    }
    const job = this.job;
    if (!job || msg.id !== job.id) return; // a cancelled run's late message
    const current = job.running.get(slot);
    switch (msg.type) {
      case 'facts':
        if (!job.facts) { job.facts = true; job.handlers.facts?.(msg); }
        break;
      case 'progress':
        if (current) current.part = msg.total > 0 ? Math.min(1, msg.done / msg.total) : 0;
        this.progress();
        break;
      case 'result':
        if (job.kind === 'sweep') {
          if (current) job.stats.set(msg.stats, current.task.index * 3);
        } else {
          this.owner.set(msg.index, slot);
          job.handlers.result?.(msg);
        }
        break;
      case 'done':
        if (!this.finish(job, slot, msg)) this.next(slot);
        break;
      case 'error':
        // A policy that fails alone (one that refuses a cluster, say): its row says why and
        // the others go on; a failed trace or worker ends the run.
        if (job.kind === 'run' && current && !msg.panicked && msg.stage === current.task.spec) {
          job.handlers.failed?.({ index: current.task.index, spec: current.task.spec, message: msg.message });
          if (!this.finish(job, slot, { type: 'done', id: job.id })) this.next(slot);
          break;
        }
        this.fail(msg);
        break;
      default:
    }
  }

  progress() {
    const job = this.job;
    let parts = 0;
    for (const r of job.running.values()) parts += r.part;
    const running = [...job.running.values()].map((r) => r.task.index).sort((a, b) => a - b);
    const overall = (job.finished + parts) / job.total;
    // done / total count simulations: a sweep's task is one run per seed.
    const unit = job.kind === 'sweep' ? job.payload.seeds : 1;
    job.handlers.progress?.({
      type: 'progress', id: job.id, index: running[0] ?? 0, overall, finished: job.finished, running,
      done: Math.floor((job.finished + parts) * unit), total: job.total * unit,
    });
  }

  /** Ends the job with an error; the other workers are stopped (their work is of no use now). */
  fail(msg) {
    const job = this.job;
    this.cancel();
    job?.handlers.error?.(msg);
  }
}
