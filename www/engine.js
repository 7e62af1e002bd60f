// The main thread's copy of the wasm module: catalogue, spec checking, seeds and the chart
// functions. Every call goes through `call`, which stops all calls once the module has panicked.

let wasm = null;
let dead = false;
const panicListeners = [];

export class PanicError extends Error {}

/** Loads pkg/schedlab.js and initialises it; throws a readable Error when it cannot. */
export async function loadEngine() {
  let mod;
  try {
    mod = await import('../pkg/schedlab.js');
  } catch (err) {
    throw new Error(`The engine (pkg/schedlab.js) could not be loaded: ${err.message}`);
  }
  try {
    await mod.default();
  } catch (err) {
    throw new Error(`The engine's WebAssembly could not be started: ${err.message}`);
  }
  wasm = mod;
  return mod;
}

export const isDead = () => dead;
export const onPanic = (fn) => panicListeners.push(fn);

/** Calls wasm[name](...args); an Error thrown by the engine is re-thrown as is, a panic marks the
 * module dead (no further calls) and throws a PanicError. */
export function call(name, ...args) {
  if (dead || !wasm) throw new PanicError('The engine is not available.');
  try {
    return wasm[name](...args);
  } catch (err) {
    checkPanic();
    throw err;
  } finally {
    if (!dead) checkPanic();
  }
}

function checkPanic() {
  if (dead) return;
  let panicked = false;
  try { panicked = wasm.has_panicked(); } catch { panicked = true; }
  if (panicked) {
    dead = true;
    for (const fn of panicListeners) fn();
    throw new PanicError('The engine panicked (a bug in schedlab); reload the page.');
  }
}
