// The page: loads the engine, wires the controls, runs comparisons in the worker, shows results,
// and keeps the comparison in the URL fragment (see share.js).
import { loadEngine, call, onPanic, isDead } from './engine.js';
import { Runner } from './runner.js';
import { Picker } from './picker.js';
import { decode } from './share.js';
import { offerSite as offer, offerOwnSite as offerOwn, readDroppedSite } from './siteoffer.js';
import { showLink, wireExports } from './sharepanel.js';
import { FORM, readForm as readControls, writeForm as writeControls, readHeat } from './form.js';
import { sessionOptions } from './session.js';
import { renderFacts } from './results.js';
import { Views } from './views.js';
import { ClusterPanel } from './cluster.js';
import { gpuOf } from './generator.js';
import { timings } from './figure.js';
import { SweepPanel } from './sweep.js';
import { CodeEditor } from './editor.js';
import { TraceView } from './traceview.js';
import { DEMOS, loadRemote } from './trace.js';
import { wireTraceInputs, resetTraceInputs as resetInputs } from './traceinputs.js';
import { $, el, showError, clearErrors, debounce, fmtDuration, count, setBusy } from './ui.js';
import { setStale, wireSkipLinks, fitSidebar } from './chrome.js';
import { setUserNames } from './users.js';
import { setJobIds } from './jobids.js';
import { leftOutSentence, unnamed, refusedSentence } from './leftout.js';
import { restoreShownTable, restoreShownTraceView, keepRunTrace, showAwaitedTrace, siteFilesWanted } from './restore.js';

const S = {
  trace: null,   // the trace of the shown comparison: {kind, ref, name, label, bytes}
  shown: null,   // the shown comparison's state (share.js shape)
  results: [],   // per policy {spec, report, rects, jobs, series, eetUsers, violations, memory}
  metrics: [],   // the engine's metrics catalogue (the results table's rows)
  lastHash: '',
  sacct: false, ownSiteOffered: false, // the shown trace is an sacct log; slurm offered (siteoffer.js)
  loads: 0,      // trace loads begun: a load's trace runs only if none began after it (newestLoad)
  runner: new Runner(),
};
let picker, views, sweep, editor, traceView, cluster;

window.schedlab = { timings, state: S }; // for the benchmark and for debugging from the console
timings.boot = performance.now();

/** The options from the controls, or null after reporting problems (pushed to `problems`). */
const readForm = (problems) => readControls(cluster, problems);
const writeForm = (state) => writeControls(state, cluster, sweep);

const offerSite = () => offer(picker, sweep); // what a demo recorded on a Slurm site offers

/** An admin's own site (siteoffer.js): slurm and historic join the compared policies once,
 * said in the status line. Returns whether they did. */
function offerOwnSite() {
  const added = offerOwn(picker, sweep, S, cluster.ownSite().conf);
  if (!added) return false;
  markStale();
  askRun(`${added.join(' and ')} added: the slurm policy reads this slurm.conf. Press “Run comparison”.`);
  return true;
}

/** The status line asking for a run after a change (`text`), kept as the one said last: a
 * further change (the site's sshare file read next) says nothing new and leaves it. */
function askRun(text) {
  S.askRun = text;
  setStatus(text);
}

function heatChanged() {
  const heat = readHeat(true);
  if (!S.shown) return;
  S.shown.heat = heat;
  views.eet.setHeat(heat);
  updateLink('replace');
}

/** Re-validates the picker's `js:NAME` entries after the editor changed. */
function recheckCustom() {
  for (const e of picker?.entries ?? []) if (e.spec.trim().startsWith('js:')) picker.check(e, false);
}

/** After a change of the settings, the results and the link shown are marked as those of the
 * previous settings until the next run. */
function markStale() {
  if (!S.shown || S.runner.busy) return;
  $('run').classList.add('stale');
  setStale(true);
  // Already asking for a run (slurm and historic just added: said once, not replaced).
  if ($('status').textContent !== S.askRun) askRun('Settings changed: press “Run comparison”.');
}

// ---------- running ----------

function setStatus(text) { $('status').textContent = text; }

/** After a run that showed nothing, or a link whose trace is not there: when no comparison is
 * shown either, the Overview says why its charts are empty (`why`, a sentence's end); a shown
 * comparison keeps its charts and the note stays hidden. */
function noteEmptyOverview(why) {
  const note = $('overview-empty');
  note.hidden = S.results.length > 0;
  note.textContent = note.hidden ? '' : `Nothing is drawn: ${why}`;
}

function setRunning(on) {
  setBusy(on, $('run'), $('cancel')); // the keyboard's focus follows Run and Cancel
  if (isDead()) $('run').disabled = true;
  document.body.classList.toggle('running', on);
  if (on) $('run').classList.remove('stale');
}

/** Runs the picker's policies on `trace`; history: 'push' | 'replace' once results are shown.
 * The messages of the previous run go (`keep`: those shown since, by the link this run reads).
 * `restore`: the page set the controls for this run (a link's, a Slurm demo's with its site),
 * which go back if it shows nothing (runStopped). */
function startRun({ trace = S.trace, history = 'push', window = null, keep = false, restore = false } = {}) {
  if (isDead()) return;
  if (!keep) clearErrors();
  if (!trace) { showError('No trace is loaded.'); return; }
  const problems = [], form = readForm(problems);
  if (!form) { // said where the eye is (leftout.js), shown results marked as another run's
    markStale();
    setStatus(refusedSentence(problems));
    noteEmptyOverview('the settings were refused. Their errors are under Messages.');
    keepFirst(trace);
    return;
  }
  // Policies left out before the run (a wrong spec, JavaScript with a syntax error): said as
  // messages, in the status line and as rows of the results (leftout.js).
  const leftOut = picker.invalid().filter((e) => e.spec.trim())
    .map((e) => ({ spec: e.spec.trim(), message: e.error ?? 'not a valid policy', stage: 'check' }));
  for (const e of leftOut) showError(`Policy “${e.spec}” left out: ${unnamed(e.spec, e.message)}`);
  const specs = picker.validSpecs();
  if (!specs.length) {
    showError('No valid policy to run: add one in the policy list.');
    setStatus(`Nothing was run.${leftOutSentence(leftOut, 0)}`);
    noteEmptyOverview('no policy could run. Its errors are under Messages.');
    keepFirst(trace);
    return;
  }
  // A JavaScript policy runs here but stays out of the link (code never travels in links).
  // Each JavaScript policy's code goes to a sealed worker of its own.
  const custom = Object.fromEntries(specs.filter((s) => s.startsWith('js:')).map((s) => [s, editor.policy(s)]));
  const state = { trace: { kind: trace.kind, ref: trace.ref }, policies: specs.filter((s) => !s.startsWith('js:')), ...form, window, heat: readHeat(), sweep: sweep.settings(), site: cluster.ownSite() };
  const results = [];
  const failed = [...leftOut];
  const site = cluster.snapshot();
  const running = { restore, trace, facts: null };
  S.running = running;
  let facts = null;
  const began = performance.now();
  timings.runStart ??= began;
  setRunning(true);
  $('progress').value = 0;
  setStatus(`Reading ${trace.name}…`);
  const payload = { bytes: trace.bytes, name: trace.name, options: { ...sessionOptions(form), ...cluster.siteOptions() }, specs, seed: form.seed, custom };
  S.runner.run(payload, {
    facts: (m) => {
      facts = m.facts;
      facts.traceStats = m.traceStats;
      running.facts = facts;
      // An sshare file of another cluster or time, a qos file without the log's QOS, an assoc file without its accounts: said above
      // the results, as the CLI says it.
      cluster.showSshareNote([facts.sshare_note, facts.qos_note, facts.assoc_note].filter(Boolean).join(' '));
      // The loops' phases a `slurm` policy of this run reads from the log (it writes them into
      // its spec, the label's title), said as the CLI says them.
      const slurm = specs.some((s) => s === 'slurm' || s.startsWith('slurm['));
      cluster.showPhasesNote(slurm ? facts.phases_note ?? '' : '');
      // The trace view as soon as the trace is read, before the policies run.
      try { traceView.show(m.traceStats); } catch (err) { showError(`Could not show the trace: ${err.message}`); }
    },
    // The policies run in a pool of workers: progress over all of them, and the table fills in
    // as each policy finishes (the charts come when all are done).
    progress: (m) => {
      $('progress').value = m.overall;
      setStatus(`Simulating ${m.running.map((i) => specs[i]).join(', ')} (${m.finished} of ${specs.length} done)…`);
    },
    result: (m) => {
      results[m.index] = m;
      if (specs.length > 1) { showTable(results.filter(Boolean), failed); S.partial = true; }
    },
    // A JavaScript policy that failed alone (in its sealed worker): the others go on, its row
    // in the table says why.
    failed: (m) => {
      failed.push({ spec: m.spec, message: m.message, stage: 'run' });
      // The engine's message may name the policy already ("policy js:x failed at ..."): said
      // once, as the status line and the results row say it (leftout.js `unnamed`).
      const why = unnamed(m.spec, m.message);
      showError(`Policy ${m.spec}${why.startsWith('failed ') ? ' ' : ': '}${why}`);
      if (specs.length > 1) { showTable(results.filter(Boolean), failed); S.partial = true; }
    },
    done: () => {
      setRunning(false);
      $('progress').value = 1;
      const ms = performance.now() - began;
      timings.runDone ??= performance.now();
      const shown = results.filter(Boolean);
      if (!shown.length || !facts) {
        restoreTraceView();
        restoreTable();
        $('progress').value = 0;
        setStatus(`The run failed: no policy finished.${leftOutSentence(failed, 0)}`);
        noteEmptyOverview('the run failed, no policy finished. Its errors are under Messages.');
        resetTraceInputs();
        runStopped();
        return;
      }
      try {
        S.running = null;
        Object.assign(S, { site, payload }); // the shown comparison's site and run (exports)
        show(trace, state, facts, shown, history, failed);
        const n = shown.length;
        // A policy that left jobs out as never runnable (a QOS limit that holds them for ever)
        // says which and why, as the CLI does; they count as skipped in the table.
        const jobsLeft = shown.map((r) => (r.report?.left_out ? ` ${r.spec}: ${r.report.left_out}.` : '')).join('');
        setStatus(`${count(n, 'policy', 'policies')} on ${count(facts.jobs, 'job')} in ${(ms / 1000).toFixed(2)} s.${jobsLeft}${leftOutSentence(failed, n)}`);
        offerOwnSite(); // a slurm.conf read before the sacct log came
      } catch (err) {
        showError(`Could not show the results: ${err.message}`);
      }
      timings.lastRunMs = ms;
    },
    error: (m) => {
      if (m.stage === 'trace') running.unreadable = true;
      setRunning(false);
      restoreTraceView();
      $('progress').value = 0;
      restoreTable();
      const where = m.stage === 'trace' ? 'Could not read the trace' : m.stage === 'worker' || m.stage === 'load' ? 'Simulation worker' : `Policy ${m.stage}`;
      showError(m.panicked
        ? `${where}: the engine panicked (a bug in schedlab): ${m.message}. The worker was restarted; the page still works.`
        : `${where}: ${m.message}`);
      setStatus(trace === S.trace ? 'The run failed.' : `The run failed; still showing ${S.trace ? S.trace.name : 'nothing'}.`);
      noteEmptyOverview('the run failed. Its error is under Messages.');
      resetTraceInputs();
      runStopped();
    },
  });
}

const showTable = (results, failed) => views.showTable(results, failed);

// After a run that showed nothing: the shown table, trace view and trace go back (restore.js).
const restoreTable = () => restoreShownTable(S, showTable);
const restoreTraceView = () => restoreShownTraceView(S, traceView);

function cancelRun() {
  S.runner.cancel();
  restoreTable();
  restoreTraceView();
  setRunning(false);
  $('progress').value = 0;
  setStatus('Cancelled.');
  resetTraceInputs();
  runStopped();
}

/** A run that showed nothing (cancelled, failed) leaves the shown comparison, whose results,
 * trace, policies and link stay together: a link's run (or a Slurm demo's) had set the
 * controls, the site and the address bar to its own, which go back to the shown comparison's
 * (its trace was never shown); a run of the user's own settings leaves them, still marked as
 * not run. */
function runStopped() {
  const run = S.running;
  S.running = null;
  if (run && !S.shown) keepTrace(run);
  if (!run || !S.shown) return;
  if (!run.restore) {
    if (document.body.classList.contains('stale')) $('run').classList.add('stale');
    return;
  }
  writeForm(S.shown);
  picker.set([...S.shown.policies, ...S.results.map((r) => r.spec).filter((s) => s.startsWith('js:'))]);
  cluster.restore(S.site);
  if (location.hash !== S.lastHash) window.history.replaceState(null, '', S.lastHash);
}

const keepTrace = (run) => keepRunTrace(S, run, traceView, resetTraceInputs);
const keepFirst = (trace) => S.shown || keepTrace({ trace }); // a first run that did not start

function show(trace, state, facts, results, history, failed = []) {
  const began = performance.now();
  S.trace = trace;
  S.shown = state;
  S.results = results;
  S.failed = failed;
  noteEmptyOverview('');
  setStale(false);
  S.partial = false;
  S.traceStats = facts.traceStats ?? null;
  S.sacct = Boolean(facts.job_ids); // an sacct log (its jobs' Slurm JobIDs)
  setUserNames(facts.user_names);
  setJobIds(facts.job_ids);
  readHeat(true); // the heatmap's users by name are this trace's: flags (and tells) any other
  renderFacts($('facts'), facts, trace.label);
  resetTraceInputs();
  showTable(results, failed);
  const shownPolicies = views.show(results, state.window);
  $('export-json').disabled = false;
  const pick = $('export-policy');
  pick.replaceChildren(...results.map((r, i) => el('option', { value: String(i) }, r.spec)));
  for (const id of ['export-policy', 'export-jobs-csv', 'export-runs-csv', 'export-alloc-csv']) $(id).disabled = false;
  $('export-alloc-csv').hidden = !results[0].nodeRows; // on a cluster
  $('run').classList.remove('stale');
  sweep.refresh();
  state.sweep = sweep.settings();
  updateLink(history);
  // The charts in the next frame, so that the table appears at once.
  requestAnimationFrame(() => {
    if (S.results !== results) return;
    views.drawOverview(shownPolicies);
    if (!timings.firstChart) timings.firstChart = performance.now();
    // Results in: table, per-job columns, sorted values, class boxes, overview drawn (ms).
    timings.showMs = performance.now() - began;
    document.body.dataset.runs = String(Number(document.body.dataset.runs ?? 0) + 1); // comparisons shown
  });
}

// ---------- share link and history ----------

function updateLink(history) {
  S.lastHash = showLink(S.shown, S.results, history);
}

const saveWindow = debounce(() => { if (S.shown) updateLink('replace'); }, 300);

async function applyLink(hash, history) {
  const demos = DEMOS.map((d) => d.id);
  const { state, problems, sitePolicies } = decode(hash, demos, DEMOS.filter((d) => d.site).map((d) => d.id));
  clearErrors();
  for (const p of problems) showError(p, 'warning');
  const files = siteFilesWanted(state.siteFiles, cluster.hasOwnFiles());
  if (files) showError(files, 'warning');
  writeForm(state);
  picker.set(state.policies);
  let trace;
  if (state.trace.kind === 'file') {
    if (S.trace?.kind === 'file' && S.trace.ref === state.trace.ref) trace = S.trace;
    else {
      // Nothing runs until the file comes: the link's policies and options (its cluster perhaps)
      // are the file's, and the demo it ran meanwhile on them said nothing (HPC2N on a link's
      // 4 nodes: 443 jobs skipped, a 20-second run). Shown results become stale.
      showError(`The link names an uploaded file (${state.trace.ref}), which cannot travel in a link: upload it with the file picker or drop it on the page, and the link's comparison runs on it.`, 'warning');
      markStale();
      showAwaitedTrace(S, `No trace is loaded: the link's comparison waits for ${state.trace.ref}, a file of its sender's (upload it under “A file or URL”, or drop it on the page).`);
      setStatus(`Upload ${state.trace.ref} to run the link's comparison.`);
      noteEmptyOverview(`the link's comparison runs once ${state.trace.ref} is uploaded.`);
      return;
    }
  }
  if (!trace) {
    setStatus('Loading the trace…');
    const load = newestLoad();
    try {
      trace = await loadRemote(state.trace.kind, state.trace.ref, gpuOf(state));
      if (!load()) return;
    } catch (err) {
      if (!load()) return;
      // Nothing runs, as for a link naming an uploaded file: the link's policies and options
      // (its cluster perhaps) are that trace's, and the demo it ran instead on them said nothing
      // (HPC2N on a link's 4 nodes: 443 jobs skipped). The message stays; the URL waits in its
      // box for Load; shown results become stale.
      const again = state.trace.kind === 'url' ? ': press Load under “A file or URL” to try again, or pick another trace' : '';
      showError(`${err.message}. Nothing ran${again}.`);
      if (state.trace.kind === 'url') {
        $('trace-url').value = state.trace.ref;
        $('trace-url').closest('details').open = true;
      }
      markStale();
      showAwaitedTrace(S, 'No trace is loaded: the link\'s trace could not be loaded (the message above says why); choose a demo, a file or a URL.');
      setStatus('The link\'s trace could not be loaded: nothing ran.');
      noteEmptyOverview('the link\'s trace could not be loaded. Its error is under Messages.');
      return;
    }
  }
  // A demo's Slurm site: its scheduler parameters and shares, and its cluster unless the link
  // names one (a what-if of it, or cluster=none: one pool). Any other trace leaves a Slurm demo's
  // site, as the menu does (Back from it to HPC2N ran `slurm` there with the demo's).
  if (trace.site) cluster.useSite(trace.site, { cluster: !state.clusterNamed });
  else cluster.leaveDemoSite();
  if (trace.site && sitePolicies) offerSite();
  startRun({ trace, history, window: state.window, keep: true, restore: true });
}

// ---------- trace inputs ----------

const resetTraceInputs = () => resetInputs(S.trace);

/** Begins a trace load: the function returned says whether it is still the newest (a link's
 * demo still downloading when the user picks a file gives way to the file, and the file's run
 * is not replaced when the download ends). */
function newestLoad() {
  S.loads += 1;
  const mine = S.loads;
  return () => mine === S.loads;
}

async function useTrace(load) {
  const newest = newestLoad();
  try {
    setStatus('Loading the trace…');
    const trace = await load();
    if (!newest()) return;
    const left = !trace.site && cluster.leaveDemoSite(); // a Slurm demo's machine goes with it
    startRun({ trace, history: 'push', restore: Boolean(trace.site) || left }); // as a link's
  } catch (err) {
    if (!newest()) return;
    showError(err.message);
    setStatus('');
    resetTraceInputs();
  }
}

// ---------- boot ----------

function wire() {
  // A real Slurm run comes with its site: its cluster, the slurm policy to compare, and
  // historic, its own schedule, which the two-schedules view opens on as A (replay fidelity:
  // how far each policy is from what Slurm did, before any what-if).
  const site = (trace) => { cluster.useSite(trace.site, { cluster: true }); offerSite(); };
  wireTraceInputs({ use: useTrace, site, shown: () => S.trace, dead: isDead, clusterFiles: (sorted) => readDroppedSite(sorted, { cluster, picker, sweep, shown: S }) });
  $('new-seed').addEventListener('click', () => {
    try { $('opt-seed').value = String(call('random_seed')); markStale(); } catch (err) { showError(err.message); }
  });
  for (const o of FORM) $(o.form).addEventListener('change', markStale);
  $('run').addEventListener('click', () => startRun({ history: 'push' }));
  $('cancel').addEventListener('click', cancelRun);
  wireExports({ results: () => S.results, runner: S.runner, payload: () => S.payload, setStatus });
  // The sweep panel's settings travel in the link too.
  for (const id of ['sweep-vary', 'sweep-seeds', 'sweep-metric', 'sweep-more', 'sweep-policies']) {
    $(id).addEventListener('change', () => { if (S.shown) { S.shown.sweep = sweep.settings(); updateLink('replace'); } });
  }
  $('heat-log').addEventListener('change', heatChanged);
  $('heat-sort').addEventListener('change', heatChanged);
  for (const id of ['heat-exclude', 'heat-only']) $(id).addEventListener('change', heatChanged); // also on Enter
  window.addEventListener('popstate', () => {
    if (location.hash !== S.lastHash && !isDead()) applyLink(location.hash, 'replace').catch((err) => showError(err.message));
  });
  let width = window.innerWidth;
  window.addEventListener('resize', debounce(() => {
    if (window.innerWidth === width || isDead()) return;
    width = window.innerWidth;
    try { traceView.redraw(); views.redraw(); } catch (err) { showError(err.message); }
  }, 200));
  wireSkipLinks();
  fitSidebar();
}

function die() {
  S.runner.cancel();
  const banner = $('panic');
  banner.textContent = 'The engine crashed (a bug in schedlab): the page has stopped. Reload it to start again; the share link above keeps your comparison.';
  banner.hidden = false;
  for (const c of document.querySelectorAll('.controls button, .controls input, .controls select')) c.disabled = true;
  showError('The engine panicked in the page; no further calls are made. Reload the page.');
}

async function boot() {
  $('run').disabled = true;
  onPanic(die);
  // Start the worker (it compiles its own copy of the wasm) and the trace download while the
  // page's copy of the engine loads.
  S.runner.ensure();
  const early = decode(location.hash, DEMOS.map((d) => d.id)).state.trace;
  if (early.kind !== 'file' && early.kind !== 'gen') loadRemote(early.kind, early.ref).catch(() => { /* reported by applyLink */ });
  try {
    await loadEngine();
    timings.engine = performance.now();
    $('version').textContent = `engine ${call('version')}`;
    editor = new CodeEditor((spec) => {
      if (!picker.entries.some((e) => e.spec.trim() === spec)) picker.add(spec);
      recheckCustom();
      markStale();
    }, () => { recheckCustom(); markStale(); }, (from, to) => picker.rename(from, to));
    picker = new Picker($('policy-picker'), call('policies'),
      (spec) => (spec.trim().startsWith('js:') ? editor.check(spec.trim()) : call('canonical_spec', spec)), markStale);
    window.schedlab.editor = editor;
    S.metrics = call('metrics');
    cluster = new ClusterPanel(() => { if (!offerOwnSite()) markStale(); });
  } catch (err) {
    showError(err.message);
    setStatus('The engine is not available.');
    return;
  }
  views = new Views(S, { metrics: S.metrics, colours: call('chart_colours'), windowChanged: saveWindow });
  traceView = new TraceView($('trace-charts'));
  const { resultsTable, overview, strip, gantts, eet, dists, compare } = views;
  Object.assign(window.schedlab, { traceView, dists, compare, resultsTable, overview, strip, gantts, eet });
  sweep = new SweepPanel({
    trace: () => S.trace,
    options: () => { const form = readForm(); return form && { ...sessionOptions(form), ...cluster.siteOptions() }; },
    // The link's policies, then the comparison's JavaScript policy (which the link leaves out).
    compared: () => (S.shown ? [...S.shown.policies, ...(S.results ?? []).map((r) => r.spec).filter((s) => s.startsWith('js:'))] : []),
    custom: editor,
  });
  window.schedlab.sweep = sweep;
  wire();
  $('run').disabled = false;
  await applyLink(location.hash, 'replace');
}

boot().catch((err) => showError(`The page failed to start: ${err.message}`));
