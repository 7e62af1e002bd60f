// The page's side of a sealed worker (sealed.js): one JavaScript policy's task of one comparison
// or sweep, in a worker made for it. The page listens on a MessagePort it transferred to the
// worker, never on the worker's own postMessage; it accepts only the protocol's messages, each
// checked against the task (its id, index, spec, shapes), and a watchdog ends the task with a
// message when the worker has said nothing for `stallMs` once the trace is read (an endless
// loop, memory run out), so that the other policies go on.
//
// The second wall: the worker lives in a sandboxed frame of its own (sealframe.js), under a
// Content-Security-Policy that allows no connection, in a process apart from the page where the
// browser isolates sandboxed frames (Chromium): a policy that runs out of memory ends that
// process, not the tab; the frame's heartbeat stops and the task fails with a message. The page
// itself keeps no such policy (a trace=url: link loads from anywhere).
import { sealedFrame, startIn } from './sealframe.js';

const SEALED_URL = new URL('./sealed.js', import.meta.url);
/** How long the frame's heartbeat (every 250 ms) may stay away before its process is taken as
 * ended (out of memory). */
export const LOST_MS = 2500;
/** How long a frame may take to start beating. */
const START_MS = 30_000;

/** How long a sealed worker may stay silent (once it has read the trace) before it is stopped. */
export const STALL_MS = 10_000;

const finite = (x) => typeof x === 'number' && Number.isFinite(x);
const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);

export class SealedTask {
  /** kind: 'run' | 'sweep'; message: the request without its port; on: {facts, progress,
   * result, done, failed(message), error(msg)}: error ends the whole job (the trace could not
   * be read), failed ends this task alone. */
  constructor(kind, task, message, stallMs, on) {
    this.kind = kind;
    this.task = task;
    this.id = message.id;
    this.on = on;
    this.stallMs = stallMs;
    this.state = 'reading'; // 'running' once the trace is read, then 'done' | 'failed' | 'stopped'
    this.result = false;
    this.timer = null;
    this.exports = new Map();
    this.req = 0;
    this.worker = null;
    this.frame = null;
    this.pulse = null;
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (event) => this.receive(event.data);
    this.port.onmessageerror = () => this.failed('a message from its worker could not be read');
    if (typeof document === 'undefined') {
      this.plain(message, channel.port2);
      return;
    }
    sealedFrame().then((frame) => {
      this.frame = frame;
      if (!this.active) { this.stop(); return; }
      const control = new MessageChannel();
      const beat = new MessageChannel();
      control.port1.onmessage = (event) => {
        if (event.data?.type === 'worker-error') this.failed(`its worker failed: ${event.data.message}`);
      };
      this.control = control.port1;
      this.heartbeat(beat.port1);
      return startIn(frame, message, channel.port2, control.port2, beat.port2);
    }).catch((err) => this.failed(`its worker could not be made: ${err.message}`));
  }

  /** A worker made plainly, where there is no document (Node tests of the protocol). */
  plain(message, port) {
    const worker = new Worker(SEALED_URL, { type: 'module' });
    this.worker = worker;
    worker.onmessage = () => {};
    worker.onerror = (event) => {
      event.preventDefault();
      this.failed(`its worker failed: ${event.message || 'it could not be started'}`);
    };
    worker.postMessage(message, [port]);
  }

  /** Listens to the frame's heartbeat on `port`: when it stops for LOST_MS (or never starts),
   * the browser has ended the frame's process, which only running out of memory does. */
  heartbeat(port) {
    this.beats = port;
    const began = performance.now();
    let last = null;
    port.onmessage = () => { last = performance.now(); };
    this.pulse = setInterval(() => {
      if (!this.active) return;
      const now = performance.now();
      if (last === null && now - began > START_MS) this.failed('its worker\'s frame did not start');
      else if (last !== null && now - last > LOST_MS) {
        this.failed('ran out of memory: the browser ended the process it ran in, apart from the page; the other policies\' results are shown');
      }
    }, 250);
  }

  get active() { return this.state === 'reading' || this.state === 'running'; }

  /** Restarts the watchdog (only once the trace is read: before that, no user code has run). */
  watch() {
    clearTimeout(this.timer);
    if (this.state !== 'running') return;
    this.timer = setTimeout(() => {
      const s = (this.stallMs / 1000).toLocaleString('en-US');
      this.failed(`stopped after ${s} s without progress (its code loops without end or ran out of memory); the other policies' results are shown`);
    }, this.stallMs);
  }

  receive(msg) {
    if (!isObject(msg) || typeof msg.type !== 'string') return;
    if (msg.type === 'export') { this.answer(msg); return; }
    if (!this.active || msg.id !== this.id) return;
    const index = this.kind === 'run' ? this.task.index : 0;
    switch (msg.type) {
      case 'facts':
        if (this.state !== 'reading' || !isObject(msg.facts)) return;
        this.state = 'running';
        this.watch();
        this.on.facts(msg);
        break;
      case 'alive':
        this.watch();
        break;
      case 'progress':
        if (this.state !== 'running' || msg.index !== index || !finite(msg.done) || !finite(msg.total)) return;
        this.watch();
        this.on.progress(msg);
        break;
      case 'result': {
        if (this.state !== 'running' || this.result) return;
        const ok = this.kind === 'run'
          ? msg.index === index && msg.spec === this.task.spec && isObject(msg.report)
          : msg.stats instanceof Float64Array && msg.stats.length === 3;
        if (!ok) return;
        this.result = true;
        this.watch();
        this.on.result(msg);
        break;
      }
      case 'done':
        if (!this.result) return;
        this.state = 'done';
        clearTimeout(this.timer);
        clearInterval(this.pulse);
        // A sweep's worker has nothing left to answer; a comparison's answers its exports.
        if (this.kind === 'sweep') this.stop();
        this.on.done(msg);
        break;
      case 'error':
        if (typeof msg.message !== 'string') return;
        if (msg.stage === 'trace') {
          this.stop();
          this.on.error({ type: 'error', id: this.id, stage: 'trace', message: msg.message, panicked: msg.panicked === true });
        } else this.failed(msg.message);
        break;
      default:
    }
  }

  /** Ends the task alone with `message` (once). */
  failed(message) {
    if (!this.active) return;
    this.stop('failed');
    this.on.failed(message);
  }

  /** Terminates the worker (the task's end, or the comparison's). */
  stop(state = 'stopped') {
    clearTimeout(this.timer);
    clearInterval(this.pulse);
    if (this.state !== 'failed') this.state = state;
    this.worker?.terminate();
    // Removing the frame ends its workers (and its process, when nothing else lives in it).
    this.frame?.remove();
    this.beats?.close();
    this.control?.close();
    this.port.close();
    for (const { reject, timer } of this.exports.values()) { clearTimeout(timer); reject(new Error('the policy\'s worker was stopped')); }
    this.exports.clear();
  }

  /** The CSV of this task's run (its worker stays until the comparison is replaced). */
  exportCsv(index, kind) {
    if (this.state !== 'done' || this.kind !== 'run') return Promise.reject(new Error('no finished run to export: run the comparison first'));
    this.req += 1;
    const req = this.req;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.exports.delete(req);
        reject(new Error('the policy\'s worker did not answer'));
      }, this.stallMs);
      this.exports.set(req, { resolve, reject, timer });
      this.port.postMessage({ type: 'export', req, index, kind });
    });
  }

  answer(msg) {
    const pending = this.exports.get(msg.req);
    if (!pending) return;
    this.exports.delete(msg.req);
    clearTimeout(pending.timer);
    if (typeof msg.csv === 'string') pending.resolve(msg.csv);
    else pending.reject(new Error(typeof msg.error === 'string' ? msg.error : 'the export failed'));
  }
}
