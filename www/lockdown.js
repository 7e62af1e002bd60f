// The wall around a JavaScript policy, raised in its sealed worker (sealed.js) once the engine
// is loaded and before the user's code is compiled: every way out of the worker is removed from
// its scope, and everything the harness and the engine's glue call is frozen, so that the
// user's code, which runs in the same realm, can neither reach the network nor rewrite a
// function the harness uses to talk to the page (the harness's MessagePort lives in a module
// variable the code cannot name; its methods, and every prototype on the way, are frozen).
// Code compiled from strings is refused too (eval, the Function constructors; no timers):
// with the syntax check of custom.js (`forbidden`: no `import(...)`), a module load, the one
// request a scope cannot take away, cannot be written.

/** Globals that reach outside the worker (network, storage, other contexts, the page). */
export const EXITS = [
  'fetch', 'XMLHttpRequest', 'importScripts', 'WebSocket', 'WebSocketStream', 'EventSource', 'WebTransport',
  'indexedDB', 'caches', 'Worker', 'SharedWorker', 'BroadcastChannel', 'postMessage', 'requestFileSystem',
  'webkitRequestFileSystem', 'webkitRequestFileSystemSync', 'webkitResolveLocalFileSystemURL',
  'webkitResolveLocalFileSystemSyncURL', 'storageBuckets', 'fetchLater',
  // code from strings (which could write an import() the syntax check never saw)
  'eval', 'Function',
  // later tasks: schedule(view) is called synchronously, a policy has no use for them, and code
  // left running after the run would keep the worker busy when the page asks for an export
  'setTimeout', 'setInterval', 'queueMicrotask', 'requestAnimationFrame',
  // closing the worker would leave the page waiting (until the watchdog) for its exports
  'close',
];

function refuse() { throw new EvalError('a policy may not compile code from strings (eval, Function)'); }

/** The constructors of functions (reachable from any function's prototype) refuse. */
function tameCode(constructors) {
  for (const C of constructors) Object.defineProperty(C.prototype, 'constructor', { value: refuse });
}

/** Intrinsics that no global property names (iterators, generator and async functions). */
function hiddenIntrinsics() {
  const proto = Object.getPrototypeOf;
  return [
    proto([][Symbol.iterator]()), proto(proto([][Symbol.iterator]())),
    proto(new Map()[Symbol.iterator]()), proto(new Set()[Symbol.iterator]()),
    proto(''[Symbol.iterator]()), proto('a'.matchAll(/a/g)),
    proto(function* gen() {}), proto(async function af() {}), proto(async function* ag() {}),
    proto(Int8Array),
  ];
}

/** Freezes `root` and everything reachable from it through properties (values, getters and
 * setters, never by calling a getter) and prototypes. Typed arrays with elements cannot be
 * frozen and are left (none is reachable from the global scope). */
function harden(roots) {
  const seen = new Set();
  const todo = [...roots];
  while (todo.length) {
    const obj = todo.pop();
    if ((typeof obj !== 'object' && typeof obj !== 'function') || obj === null || seen.has(obj)) continue;
    seen.add(obj);
    if (ArrayBuffer.isView(obj) || obj instanceof ArrayBuffer) continue;
    const proto = Object.getPrototypeOf(obj);
    if (proto) todo.push(proto);
    for (const key of Reflect.ownKeys(obj)) {
      const d = Object.getOwnPropertyDescriptor(obj, key);
      if (!d) continue;
      if ('value' in d) todo.push(d.value);
      if (d.get) todo.push(d.get);
      if (d.set) todo.push(d.set);
    }
    Object.freeze(obj);
  }
  return seen.size;
}

/** Removes `name` from the global object and every prototype of it; true when it is gone. */
function remove(name) {
  for (let o = globalThis; o; o = Object.getPrototypeOf(o)) {
    if (Object.prototype.hasOwnProperty.call(o, name)) {
      try { delete o[name]; } catch { /* reported below */ }
    }
  }
  return !(name in globalThis);
}

/** Raises the wall; throws when any part of it does not hold (the code is then never run). */
export function lockdown() {
  const proto = Object.getPrototypeOf;
  const constructors = [Function, proto(async function af() {}).constructor, proto(function* gen() {}).constructor,
    proto(async function* ag() {}).constructor];
  const left = EXITS.filter((name) => !remove(name));
  if (left.length) throw new Error(`the worker could not be sealed: ${left.join(', ')} still reachable`);
  tameCode(constructors);
  harden([globalThis, ...hiddenIntrinsics()]);
  if (constructors.some((C) => C.prototype.constructor !== refuse)) throw new Error('the worker could not be sealed: a function constructor stayed');
  const open = [globalThis, Object.prototype, Array.prototype, constructors[0].prototype, MessagePort.prototype,
    EventTarget.prototype, Object.getPrototypeOf(globalThis)].filter((o) => !Object.isFrozen(o));
  if (open.length) throw new Error('the worker could not be sealed: a prototype stayed writable');
}
