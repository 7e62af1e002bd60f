// The sealed worker of a JavaScript policy (`js:NAME`): made by the runner for one task of one
// comparison or sweep, terminated when that comparison is over (or replaced, or cancelled),
// never given a built-in policy nor a second task.
//
// Protocol: the page posts one message, {type: 'run' | 'sweep', ...} as to a pool worker
// (worker.js) with `custom` (and `wasm`, the engine's bytes, when the worker is made from blob:
// URLs in the sandboxed frame of sealframe.js, where it cannot fetch them), and transfers a
// MessagePort with it. Every answer (facts,
// progress, result, done, error, export) goes back over that port only, plus
//   {type: 'alive', id}   at most every 500 ms while the policy's passes go on (the heartbeat
//                         the runner's watchdog waits for).
// The page never reads what the worker posts on its own scope (`self.postMessage`, which the
// wall removes anyway), so the user's code cannot speak to the page: the port sits in this
// module's closure, and lockdown.js freezes everything on the way to it before the code is
// compiled. Exports of the run ({type: 'export', req, index, kind}) come over the port too.
import init from '../pkg/schedlab.js';
import { simulator } from './simulate.js';
import { lockdown } from './lockdown.js';

const ALIVE_MS = 500;
let taken = false;

self.onmessage = async (event) => {
  const msg = event.data;
  const port = event.ports?.[0];
  if (taken || !port || !msg || (msg.type !== 'run' && msg.type !== 'sweep')) return;
  taken = true;
  self.onmessage = null;
  const send = (message, transfer = []) => port.postMessage(message, transfer);
  try {
    await init(msg.wasm instanceof ArrayBuffer ? { module_or_path: msg.wasm } : undefined);
    lockdown();
  } catch (err) {
    send({ type: 'error', id: msg.id, stage: 'load', message: `the policy's worker could not start: ${err.message}`, panicked: false });
    return;
  }
  let last = -Infinity;
  const alive = () => {
    const now = performance.now();
    if (now - last >= ALIVE_MS) { last = now; send({ type: 'alive', id: msg.id }); }
  };
  const sim = simulator(send, alive);
  port.onmessage = (e) => { if (e.data?.type === 'export') sim.exportCsv(e.data); };
  if (msg.type === 'sweep') sim.sweep(msg); else sim.run(msg);
};
