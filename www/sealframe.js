// Where a sealed worker (sealed.js) lives: a sandboxed frame of its own per task (sandbox
// "allow-scripts", no "allow-same-origin": an opaque origin), which browsers that isolate
// sandboxed frames (Chromium) run in a process apart from the page. A policy that allocates
// without limit then ends that process only, not the tab: the frame's heartbeat stops and the
// task fails with "ran out of memory" (seal.js), while the page and the other policies go on.
//
// An opaque origin cannot load this site's modules (a module load from it is a cross-origin
// request, which a static host need not allow), so the page fetches the worker's module graph
// (sealed.js and what it imports, found by reading their import lines) and the engine's wasm
// bytes once, and hands them to each frame, which makes blob: URLs of them (sealhost.js).
//
// The frame's Content-Security-Policy allows scripts from sealhost.js and blob: URLs and no
// connection at all; the workers it makes inherit it, so that, should lockdown.js miss a way out,
// nothing leaves the browser.

const ENTRY = new URL('./sealed.js', import.meta.url);
const HOST = new URL('./sealhost.js', import.meta.url);
const WASM = new URL('../pkg/schedlab_bg.wasm', import.meta.url);
const CSP = `default-src 'none'; script-src ${HOST.href} blob: 'unsafe-eval' 'wasm-unsafe-eval'`;

// `import ... from '...'`, `export ... from '...'` and `import '...'` at the start of a line.
const IMPORT_LINE = /^\s*(?:(?:import|export)\b[^'";]*?\bfrom\s*(['"])([^'"]+)\1|import\s*(['"])([^'"]+)\3)/gm;

/** The specifiers a module's text imports (relative or absolute URLs). */
export function importsOf(text) {
  return [...text.matchAll(IMPORT_LINE)].map((m) => m[2] ?? m[4]);
}

let bundle = null;

/** {modules: [{url, text, imports: [[specifier, url]]}] (each after what it imports, the entry
 * last), wasm: ArrayBuffer}, fetched once. */
export function sealedBundle() {
  bundle ??= (async () => {
    const modules = [];
    const state = new Map();
    const visit = async (url) => {
      if (state.get(url) === 'done') return;
      if (state.get(url) === 'open') throw new Error(`the policy worker's modules import each other (${url})`);
      state.set(url, 'open');
      const res = await fetch(url);
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      const text = await res.text();
      const imports = importsOf(text).map((spec) => [spec, new URL(spec, url).href]);
      for (const [, dep] of imports) await visit(dep);
      state.set(url, 'done');
      modules.push({ url, text, imports });
    };
    await visit(ENTRY.href);
    const res = await fetch(WASM);
    if (!res.ok) throw new Error(`${WASM.href}: ${res.status}`);
    return { modules, wasm: await res.arrayBuffer() };
  })();
  bundle.catch(() => { bundle = null; });
  return bundle;
}

/** A new sandboxed frame, loaded, in the document (hidden). */
export function sealedFrame() {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.setAttribute('aria-hidden', 'true');
    frame.dataset.testid = 'sealed-host';
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.srcdoc = `<meta http-equiv="Content-Security-Policy" content="${CSP}"><script src="${HOST.href}"></script>`;
    frame.onload = () => resolve(frame);
    document.body.append(frame);
  });
}

/** Starts the sealed worker of `message` in `frame`: `task` is the port the worker speaks on,
 * `control` hears the frame's worker errors, `beat` the heartbeat of its process. */
export async function startIn(frame, message, task, control, beat) {
  const { modules, wasm } = await sealedBundle();
  frame.contentWindow.postMessage({ type: 'start', modules, message: { ...message, wasm } }, '*', [task, control, beat]);
}
