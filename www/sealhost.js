// The script of a sealed worker's sandboxed frame (sealframe.js makes the frame): on the page's
// one 'start' message it makes blob: URLs of the worker's modules (their imports pointed at each
// other's blob: URLs), starts the sealed worker with the task's message and port, and a second,
// tiny worker that beats every BEAT_MS on the beat port: the page hears the beats stop when the
// browser ends this frame's process (memory run out). A worker keeps its timers when the tab is
// in the background, where the frame's own would be slowed. A classic script: nothing to import.
(() => {
  const BEAT_MS = 250;
  const BEAT = `onmessage = (e) => { const p = e.ports[0]; setInterval(() => p.postMessage(1), ${BEAT_MS}); };`;
  // A module worker cannot be made from an opaque origin's blob: URL (Chromium: it fails to
  // start); a classic one can, and imports the module graph. Messages that come before the
  // module has set its handler are kept and handed to it.
  const BOOT = (entry) => `const early = []; self.onmessage = (e) => early.push(e);
import(${JSON.stringify(entry)}).then(() => { for (const e of early) self.onmessage?.(e); },
  (err) => setTimeout(() => { throw err; }));`;
  const blob = (text) => URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
  let started = false;
  addEventListener('message', (event) => {
    const msg = event.data;
    const [task, control, beat] = event.ports;
    if (started || event.source !== parent || msg?.type !== 'start' || !beat) return;
    started = true;
    const urls = new Map();
    for (const m of msg.modules) {
      let text = m.text;
      for (const [spec, url] of m.imports) {
        for (const q of ['\'', '"']) text = text.split(q + spec + q).join(q + urls.get(url) + q);
      }
      urls.set(m.url, blob(text));
    }
    const pulse = new Worker(blob(BEAT));
    pulse.postMessage(null, [beat]);
    const worker = new Worker(blob(BOOT(urls.get(msg.modules.at(-1).url))));
    worker.onmessage = () => {};
    worker.onerror = (e) => {
      e.preventDefault();
      control.postMessage({ type: 'worker-error', message: String(e.message || 'it could not be started') });
    };
    worker.postMessage(msg.message, [task]);
  });
})();
