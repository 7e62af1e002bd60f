// Runs comparisons in a module worker; cancel = terminate it (a fresh one is made for the next run).

const WORKER_URL = new URL('./worker.js', import.meta.url);

export class Runner {
  constructor() {
    this.worker = null;
    this.id = 0;
    this.handlers = null;
    this.req = 0;
    this.exports = new Map();
  }

  /** Asks the worker for the CSV (`kind`: 'jobs' or 'runs') of the finished run number `index`. */
  exportCsv(index, kind) {
    if (!this.worker || this.handlers) {
      return Promise.reject(new Error('no finished run to export: run the comparison first'));
    }
    this.req += 1;
    const req = this.req;
    return new Promise((resolve, reject) => {
      this.exports.set(req, { resolve, reject });
      this.worker.postMessage({ type: 'export', req, index, kind });
    });
  }

  /** Starts a run; a run in progress is cancelled first. handlers: {facts, progress, result,
   * done, error}; exactly one of done / error ends the run (unless it is cancelled). */
  run(payload, handlers, type = 'run') {
    if (this.handlers) this.cancel();
    const worker = this.ensure();
    this.id += 1;
    this.handlers = handlers;
    worker.postMessage({ type, id: this.id, ...payload });
  }

  /** Starts a sweep (see worker.js); the same handlers as run() but result carries `stats`. */
  sweep(payload, handlers) { this.run(payload, handlers, 'sweep'); }

  get busy() { return this.handlers !== null; }

  cancel() {
    for (const { reject } of this.exports.values()) reject(new Error('the worker was stopped'));
    this.exports.clear();
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.handlers = null;
  }

  ensure() {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_URL, { type: 'module' });
    worker.onmessage = (event) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.finish('error', { stage: 'worker', message: `the simulation worker failed: ${event.message || 'it could not be started (is pkg/ present?)'}`, panicked: false });
      this.cancel();
    };
    worker.onmessageerror = () => this.finish('error', { stage: 'worker', message: 'a message from the worker could not be read' });
    this.worker = worker;
    return worker;
  }

  receive(msg) {
    if (msg.type === 'export') {
      const pending = this.exports.get(msg.req);
      this.exports.delete(msg.req);
      if (pending) msg.error ? pending.reject(new Error(msg.error)) : pending.resolve(msg.csv);
      return;
    }
    if (!this.handlers || msg.id !== this.id) return; // a cancelled run's late message
    if (msg.type === 'done' || msg.type === 'error') {
      this.finish(msg.type, msg);
      if (msg.type === 'error' && msg.panicked) this.cancel(); // never reuse a panicked engine
    } else {
      this.handlers[msg.type]?.(msg);
    }
  }

  finish(type, msg) {
    const handlers = this.handlers;
    this.handlers = null;
    handlers?.[type]?.(msg);
  }
}
