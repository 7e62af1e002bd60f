// The sidebar's trace inputs: the demo menu, a file picked or dropped on the page, a URL and the
// generator. Each loads a trace and hands it on; after a run they show the shown trace.
import { DEMOS, loadRemote, loadFile } from './trace.js';
import { wireGenerator } from './generator.js';
import { wireDrop } from './chrome.js';
import { sortDropped } from './dropsort.js';
import { $, el, showError } from './ui.js';

/** The inputs show trace `shown` (the shown comparison's): no file picked, its demo chosen
 * (none when it is no demo). */
export function resetTraceInputs(shown) {
  $('trace-file').value = '';
  $('trace-demo').value = shown?.kind === 'demo' ? shown.ref : '';
}

/** Wires the inputs: `use(load)` runs the comparison on the trace `load()` gives; `site(trace)`
 * takes a demo's Slurm site before its run; `shown()` is the shown trace (the generator's
 * defaults); `dead()` says the engine has died (a dropped file is then ignored);
 * `clusterFiles(sorted)` reads the dropped files of the Cluster panel (dropsort.js: a slurm.conf
 * or Alea `.machines` file, an sshare, qos or assoc dump; alone or beside the trace). */
export function wireTraceInputs({ use, site, shown, dead, clusterFiles }) {
  const demo = $('trace-demo');
  demo.replaceChildren(el('option', { value: '', disabled: true }, '— choose a demo —'),
    ...DEMOS.map((d) => el('option', { value: d.id }, d.label)));
  demo.addEventListener('change', () => demo.value && use(async () => {
    const trace = await loadRemote('demo', demo.value);
    if (trace.site) site(trace);
    return trace;
  }));
  $('trace-file').addEventListener('change', (e) => {
    const file = e.target.files?.[0];
    if (file) use(() => loadFile(file));
  });
  const loadUrl = () => {
    const url = $('trace-url').value.trim();
    if (url) use(() => loadRemote('url', url));
    else showError('Type a URL first.');
  };
  $('trace-url-load').addEventListener('click', loadUrl);
  $('trace-url').addEventListener('keydown', (e) => { if (e.key === 'Enter') loadUrl(); });
  wireGenerator((ref, gpu) => use(() => loadRemote('gen', ref, gpu)), shown, showError);
  wireDrop(async (files) => {
    if (dead()) return;
    // Each file where it is read (dropsort.js): the cluster's and site's first, so that the
    // trace's run reads them.
    const got = await sortDropped(files);
    if (got.cluster.length || got.sshare || got.qos || got.assoc) await clusterFiles(got);
    if (got.trace) await use(() => loadFile(got.trace)); // its run clears the messages: said after
    // One message per reason (a run's whole folder dropped leaves out half a dozen files).
    const left = new Map();
    for (const { file, why } of got.extra) left.set(why, [...(left.get(why) ?? []), file.name]);
    for (const [why, names] of left) showError(`Not read: ${names.join(', ')} (${why}).`, 'warning');
  });
}
