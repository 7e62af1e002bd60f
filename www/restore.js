// After a run that showed nothing (cancelled, failed): what the page shows goes back to the shown
// comparison's, or, when none was shown yet, stays on the run's trace.
import { renderFacts } from './results.js';
import { $, el } from './ui.js';

/** The table of the results shown (`S.results`, `S.failed`), in place of a failed or cancelled
 * run's partial one; `showTable(results, failed)` draws it. */
export function restoreShownTable(S, showTable) {
  if (!S.partial) return;
  S.partial = false;
  showTable(S.results ?? [], S.failed ?? []);
}

/** The trace view goes back to the shown comparison's trace (`S.traceStats`). */
export function restoreShownTraceView(S, traceView) {
  if (traceView.stats !== (S.traceStats ?? null)) traceView.show(S.traceStats ?? null);
}

/** The page's first run (its own or a link's; `run`: {trace, facts, unreadable}) stopped or did
 * not start (no valid policy, a bad option) before any comparison was shown: its trace stays loaded, so that the facts, the demo menu and Run are
 * on it (before: the facts said "Loading the demo trace…" and Run "No trace is loaded."). A
 * trace that could not be read is not kept. `resetInputs()` shows `S.trace` in the inputs. */
export function keepRunTrace(S, run, traceView, resetInputs) {
  if (run.unreadable) {
    $('facts').replaceChildren(el('p', { class: 'muted' }, 'No trace is loaded: choose a demo, a file or a URL.'));
    return;
  }
  S.trace = run.trace;
  if (run.facts) {
    renderFacts($('facts'), run.facts, run.trace.label);
    S.traceStats = run.facts.traceStats ?? null;
    restoreShownTraceView(S, traceView);
  } else {
    $('facts').replaceChildren(el('p', { class: 'muted' }, `${run.trace.label}: not compared yet. Press “Run comparison”.`));
  }
  resetInputs();
}

/** A link's trace that did not come (an uploaded file, which cannot travel in a link; a URL
 * that failed) while no trace is loaded yet: the facts and the demo menu say that none is, and
 * which one the link waits for (`wait`), instead of the page's first words, "Loading the demo
 * trace…", beside the menu's first demo, which never came either. With a trace already shown,
 * its facts stay (its results are marked stale). `fileInputs`: the "A file or URL" fold opens. */
export function showAwaitedTrace(S, wait, { fileInputs = true } = {}) {
  if (S.trace) return;
  $('facts').replaceChildren(el('p', { class: 'muted' }, wait));
  $('trace-demo').value = '';
  if (fileInputs) $('trace-file').closest('details').open = true;
}

/** What a link's `sshare=`, `qosfile=` and `assocfile=` ask of its opener (`named`: the names;
 * `have`: which files of one's own the Cluster panel holds now), or '' when nothing: the sender's slurm policy
 * ran with those files, which cannot travel; without them the opener's slurm numbers differ
 * from the sender's (before, silently: gpu-3/run1 with its sshare, mean wait 145.3 s; without, 153.1 s). */
export function siteFilesWanted(named, have) {
  const want = [];
  if (named?.sshare && !have.sshare) want.push(`the shares of ${named.sshare} (sshare -a -l -P)`);
  if (named?.qos && !have.qos) want.push(`the QOS of ${named.qos} (sacctmgr show qos)`);
  if (named?.assoc && !have.assoc) want.push(`the association limits of ${named.assoc} (sacctmgr show assoc)`);
  if (!want.length) return '';
  const files = want.length > 2 ? `${want.slice(0, -1).join(', ')} and ${want.at(-1)}` : want.join(' and ');
  return `The link's slurm policy ran with ${files}, read in its sender's Cluster panel: a file cannot travel in a link. Read ${want.length > 1 ? 'them' : 'it'} in the Cluster panel and run the comparison again for the sender's numbers.`;
}
