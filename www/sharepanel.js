// The Share and export panel: the comparison's link (with what it cannot carry said beside it:
// an uploaded file, an sshare file, JavaScript policies) and the exports (metrics JSON, each
// policy's jobs, runs and allocations CSVs, asked of the worker that ran it).
import { encode } from './share.js';
import { Runner } from './runner.js';
import { DEMOS } from './trace.js';
import { $, download, showError } from './ui.js';

/** The slurm policies of `shown` as they ran (`results`), when a slurm.conf of the user's own
 * gave them their site: its scheduler parameters in their spec, for the file cannot travel in a
 * link (a link with plain `slurm` ran it on Slurm's defaults; a demo's site comes with the demo). */
function linkState(shown, results) {
  if (!shown.site?.conf) return shown;
  const ran = new Map(results.map((r) => [r.spec, r.report.policy]));
  const asRan = (p) => (/^slurm($|\[)/.test(p) && ran.has(p) ? ran.get(p) : p);
  return { ...shown, policies: shown.policies.map(asRan), sweep: shown.sweep && { ...shown.sweep, pick: shown.sweep.pick.map(asRan) } };
}

/** The note beside a link whose slurm policy read files of the user's own (`site`: ownSite()),
 * naming them: before, it said "the sshare file (or the association limits of the assoc file,
 * or the QOS priorities of the qos file)" whichever was read. */
function siteNote(site) {
  const files = [
    site.sshare && `the shares of ${site.sshareName ?? 'the sshare file'}`,
    site.assoc && `the association limits of ${site.assocName ?? 'the assoc file'}`,
    site.qos && `the QOS priorities and limits of ${site.qosName ?? 'the qos file'}`,
  ].filter(Boolean);
  const list = files.length > 1 ? `${files.slice(0, -1).join(', ')} and ${files.at(-1)}` : files[0];
  const them = files.length > 1 ? 'these files' : 'this file';
  return `The slurm policy ran with ${list}, read in the cluster panel: a file cannot travel in a link, and whoever opens it must read ${them} there again (a slurm.conf's scheduler parameters travel, in the policy's spec; QOS priorities travel too when given by the policy's qos key).`;
}

/** Shows the link of comparison `shown` (with its `results`) and its notes, and puts it in the
 * address bar (`history`: 'push' a new entry, else replace); returns the page's hash then. */
export function showLink(shown, results, history) {
  const hash = encode(linkState(shown, results), DEMOS.filter((d) => d.site).map((d) => d.id));
  const url = new URL(location.href);
  url.hash = hash;
  const link = $('share-link');
  link.href = url.href;
  link.textContent = url.href;
  $('share-note').hidden = shown.trace.kind !== 'file';
  // An sshare, qos or assoc file cannot travel in a link (a qos file's priorities can, as the spec's
  // qos key, when the user writes them there).
  const site = $('share-note-site');
  site.hidden = !((shown.site?.sshare || shown.site?.qos || shown.site?.assoc) && shown.policies.some((p) => /^slurm($|\[)/.test(p)));
  site.textContent = site.hidden ? '' : siteNote(shown.site);
  const customs = results.map((r) => r.spec).filter((s) => s.startsWith('js:'));
  const note = $('share-note-custom');
  note.hidden = customs.length === 0;
  note.textContent = customs.length
    ? `${customs.join(', ')} ${customs.length === 1 ? 'is' : 'are'} not in this link: code from a link would run in the visitor's page. The link carries the other policies; send the ${customs.length === 1 ? "policy's .js file" : "policies' .js files"} (Save .js) along with it.`
    : '';
  if (history === 'push' && hash !== location.hash && location.hash !== '') window.history.pushState(null, '', hash);
  else if (hash !== location.hash) window.history.replaceState(null, '', hash);
  return location.hash;
}

/** The `kind` CSV of `spec` run again alone, by a pool of its own, from `payload` (the shown
 * comparison's trace, options, seed and code: the same schedule), for when the pool that ran
 * it holds it no more: a later run started, or was cancelled, while its results still show
 * (their exports said "no finished run to export: run the comparison first"). */
function rerunCsv(payload, spec, kind) {
  const runner = new Runner();
  return new Promise((resolve, reject) => {
    runner.run({ ...payload, specs: [spec] }, {
      done: () => runner.exportCsv(0, kind).then(resolve, reject),
      failed: (m) => reject(new Error(m.message)),
      error: (m) => reject(new Error(m.message)),
    });
  }).finally(() => runner.cancel());
}

/** Wires the panel's buttons: `results()` the shown comparison's results, `runner` the pool
 * that ran them, `payload()` what it ran (for `rerunCsv`), `setStatus` the run status line. */
export function wireExports({ results, runner, payload, setStatus }) {
  $('share-copy').addEventListener('click', async () => {
    try { await navigator.clipboard.writeText($('share-link').href); setStatus('Link copied.'); } catch { setStatus('Copy the link from the page: the clipboard is not available.'); }
  });
  $('export-json').addEventListener('click', () => {
    const reports = results().map((r) => r.report);
    download('schedlab-metrics.json', new Blob([JSON.stringify(reports, null, 2) + '\n'], { type: 'application/json' }));
  });
  for (const kind of ['jobs', 'runs', 'alloc']) {
    $(`export-${kind}-csv`).addEventListener('click', async () => {
      const index = Number($('export-policy').value);
      const result = results()?.[index];
      if (!result) return;
      try {
        const csv = runner.holds(index) ? await runner.exportCsv(index, kind) : await rerunCsv(payload(), result.spec, kind);
        const tag = result.spec.replace(/[[,]/g, '_').replace(/=/g, '-').replace(/[^A-Za-z0-9_.-]/g, '');
        download(`${kind}.${tag}.csv`, new Blob([csv], { type: 'text/csv' }));
      } catch (err) {
        showError(`${kind} CSV: ${err.message}`);
      }
    });
  }
}
