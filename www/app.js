// The page: loads the engine, wires the controls, runs comparisons in the worker, shows results,
// and keeps the comparison in the URL fragment (see share.js).
import { loadEngine, call, onPanic, isDead } from './engine.js';
import { Runner } from './runner.js';
import { Picker } from './picker.js';
import { encode, decode } from './share.js';
import { ResultsTable, renderFacts } from './results.js';
import { Overview, Gantts, timings } from './charts.js';
import { EetCharts, DEFAULT_HEAT, parseUsers } from './eet.js';
import { SweepPanel } from './sweep.js';
import { TraceView } from './traceview.js';
import { Distributions, Compare } from './compare.js';
import { DEMOS, loadRemote, loadFile } from './trace.js';
import { $, el, showError, download, debounce, fmtDuration } from './ui.js';

const S = {
  trace: null,   // the trace of the shown comparison: {kind, ref, name, label, bytes}
  shown: null,   // the shown comparison's state (share.js shape)
  results: [],   // per policy {spec, report, rects, jobs, series, eetUsers, violations, memory}
  lastHash: '',
  runner: new Runner(),
};
let picker, resultsTable, overview, gantts, eet, sweep, traceView, dists, compare;

// Exposed for the benchmark and for debugging from the console.
window.schedlab = { timings, state: S };
timings.boot = performance.now();

// ---------- form ----------

function readForm() {
  const problems = [];
  const procsText = $('opt-procs').value.trim();
  const procs = procsText === '' ? null : Number(procsText);
  if (procs !== null && !(Number.isInteger(procs) && procs >= 1)) problems.push(`machine size "${procsText}" is not a whole number >= 1`);
  const seedText = $('opt-seed').value.trim();
  const seed = Number(seedText);
  if (!/^\d+$/.test(seedText) || !Number.isSafeInteger(seed)) problems.push(`seed "${seedText}" is not a whole number >= 0`);
  const statusText = $('opt-status').value.trim();
  const status = statusText ? statusText.split(/[\s,]+/).map(Number) : [];
  if (status.some((s) => !Number.isInteger(s) || s < 0)) problems.push(`status list "${statusText}" is not like 0,5`);
  const boundText = $('opt-bound').value.trim();
  const bound = boundText === '' ? 10 : Number(boundText);
  if (!(Number.isFinite(bound) && bound >= 0)) problems.push(`bounded slowdown bound "${boundText}" is not a number of seconds >= 0`);
  const warmupText = $('opt-warmup').value.trim();
  const warmup = warmupText === '' ? 0 : Number(warmupText);
  if (!(Number.isSafeInteger(warmup) && warmup >= 0)) problems.push(`warm-up "${warmupText}" is not a whole number of jobs >= 0`);
  const measuredText = $('opt-measured').value.trim();
  const measured = measuredText === '' ? null : Number(measuredText);
  if (measured !== null && !(Number.isSafeInteger(measured) && measured >= 1)) problems.push(`measured "${measuredText}" is not a whole number of jobs >= 1`);
  const nodes = $('opt-nodes').checked;
  const cores = Number($('opt-cores').value);
  const bw = Number($('opt-bw').value);
  const high = Number($('opt-high').value);
  const low = Number($('opt-low').value);
  const medium = Number($('opt-medium').value);
  // The EET model (as --eet-capacity, --eet-user-capacity, --machine-memory).
  const capText = $('opt-eet-capacity').value.trim().toLowerCase() || 'equal';
  const eetcap = capText === 'equal' ? 'equal' : Number(capText);
  if (eetcap !== 'equal' && !(Number.isFinite(eetcap) && eetcap > 0)) problems.push(`EET capacity "${capText}" is not "equal" or a number of processors > 0`);
  const eetuser = [];
  for (const t of $('opt-eet-users').value.split(/[\s,;]+/).filter(Boolean)) {
    const m = /^(-?\d+)=(\d+(?:\.\d+)?)$/.exec(t);
    if (m && Number.isSafeInteger(Number(m[1])) && Number(m[2]) > 0) eetuser.push([Number(m[1]), Number(m[2])]);
    else problems.push(`per-user capacity "${t.slice(0, 30)}" is not USER=PROCESSORS (e.g. 12=64)`);
  }
  const memoryText = $('opt-memory').value.trim();
  const memory = memoryText === '' ? null : Number(memoryText);
  if (memory !== null && !(Number.isSafeInteger(memory) && memory >= 1)) problems.push(`machine memory "${memoryText}" is not a whole number of KB >= 1`);
  const bwfieldText = $('opt-bwfield').value.trim();
  const bwfield = bwfieldText === '' ? null : Number(bwfieldText);
  if (nodes) {
    if (bwfield !== null && !(Number.isInteger(bwfield) && bwfield >= 1 && bwfield <= 1000)) problems.push(`bandwidth field "${bwfieldText}" is not a field number 1-1000`);
    if (!(Number.isInteger(cores) && cores >= 1)) problems.push(`cores per node "${$('opt-cores').value}" is not a whole number >= 1`);
    if (!(Number.isFinite(bw) && bw > 0)) problems.push(`bandwidth "${$('opt-bw').value}" is not a number of MB/s > 0`);
    for (const [name, v, id] of [['low', low, 'opt-low'], ['medium', medium, 'opt-medium'], ['high', high, 'opt-high']]) {
      if (!(Number.isFinite(v) && v >= 0)) problems.push(`${name} demand "${$(id).value}" is not a number of MB/s >= 0`);
    }
  }
  for (const p of problems) showError(p);
  if (problems.length) return null;
  return {
    procs, seed, status, kill: $('opt-kill').checked, estimate: $('opt-estimate').value,
    wide: $('opt-wide').value, origin: $('opt-origin').value, zero: $('opt-zero').checked, strict: $('opt-strict').checked,
    offline: $('opt-offline').checked, bound, warmup, measured,
    nodes, cores, bw, mix: $('opt-mix').value, high, low, medium, bwfield, eetcap, eetuser, memory,
  };
}

function writeForm(state) {
  $('opt-procs').value = state.procs ?? '';
  $('opt-seed').value = String(state.seed);
  $('opt-status').value = state.status.join(',');
  $('opt-kill').checked = state.kill;
  $('opt-estimate').value = state.estimate;
  $('opt-wide').value = state.wide;
  $('opt-origin').value = state.origin;
  $('opt-zero').checked = state.zero;
  $('opt-strict').checked = state.strict;
  $('opt-offline').checked = state.offline;
  $('opt-bound').value = String(state.bound);
  $('opt-warmup').value = String(state.warmup);
  $('opt-measured').value = state.measured ?? '';
  $('opt-nodes').checked = state.nodes;
  $('opt-cores').value = String(state.cores);
  $('opt-bw').value = String(state.bw);
  $('opt-mix').value = state.mix;
  $('opt-high').value = String(state.high);
  $('opt-low').value = String(state.low);
  $('opt-medium').value = String(state.medium);
  $('opt-eet-capacity').value = String(state.eetcap);
  $('opt-eet-users').value = state.eetuser.map(([u, c]) => `${u}=${c}`).join(', ');
  $('opt-memory').value = state.memory ?? '';
  if (state.eetcap !== 'equal' || state.eetuser.length || state.memory !== null) $('opt-memory').closest('details').open = true;
  $('opt-bwfield').value = state.bwfield ?? '';
  if (state.nodes || state.warmup || state.measured) $('opt-nodes').closest('details').open = true;
  if (state.wide !== 'skip' || state.origin !== 'first' || state.status.length || state.zero || state.strict || state.offline || state.bound !== 10) {
    $('opt-status').closest('details').open = true;
  }
  writeHeat(state.heat ?? DEFAULT_HEAT);
  if (state.sweep) sweep.apply(state.sweep);
}

// ---------- EET heatmap options (a view: they change the link, not the run) ----------

function writeHeat(heat) {
  $('heat-log').checked = heat.log;
  $('heat-sort').value = heat.sort;
  $('heat-exclude').value = heat.exclude.join(', ');
  $('heat-only').value = heat.only.join(', ');
  for (const id of ['heat-exclude', 'heat-only']) $(id).classList.remove('invalid');
}

/** The heatmap options from the controls; user lists with typos are flagged, their ids kept. */
function readHeat(report = false) {
  const lists = {};
  for (const [key, id] of [['exclude', 'heat-exclude'], ['only', 'heat-only']]) {
    const { ids, bad } = parseUsers($(id).value);
    $(id).classList.toggle('invalid', bad.length > 0);
    if (bad.length && report) showError(`${key} users: ${bad.map((b) => `“${b.slice(0, 20)}”`).join(', ')} ${bad.length === 1 ? 'is not a user id' : 'are not user ids'}; ignored`, 'warning');
    lists[key] = ids;
  }
  return { log: $('heat-log').checked, sort: $('heat-sort').value === 'user' ? 'user' : 'total', ...lists };
}

function heatChanged() {
  const heat = readHeat(true);
  if (!S.shown) return;
  S.shown.heat = heat;
  eet.setHeat(heat);
  updateLink('replace');
}

function sessionOptions(form) {
  const options = {
    strict: form.strict, wide: form.wide, skip_status: form.status, skip_zero_runtime: form.zero,
    estimate: form.estimate, kill: form.kill, origin: form.origin, offline: form.offline,
  };
  if (form.procs) options.procs = form.procs;
  options.metrics = { bsld_bound: form.bound, window: { warmup: form.warmup, measured: form.measured } };
  options.eet = {
    capacity: form.eetcap === 'equal' ? 'equal' : { procs: form.eetcap },
    user_capacity: form.eetuser,
    machine_memory: form.memory,
  };
  // The node model; demands are drawn from the mix with the run's seed.
  if (form.nodes) {
    options.nodes = { cores: form.cores, bandwidth: form.bw, mix: form.mix, high: form.high, low: form.low, medium: form.medium };
    if (form.bwfield) options.nodes.field = form.bwfield;
  }
  return options;
}

function markStale() {
  if (!S.shown || S.runner.busy) return;
  $('run').classList.add('stale');
  setStatus('Settings changed: press “Run comparison”.');
}

// ---------- running ----------

function setStatus(text) { $('status').textContent = text; }

function setRunning(on) {
  $('run').disabled = on || isDead();
  $('cancel').disabled = !on;
  document.body.classList.toggle('running', on);
  if (on) $('run').classList.remove('stale');
}

/** Runs the picker's policies on `trace`; history: 'push' | 'replace' once results are shown. */
function startRun({ trace = S.trace, history = 'push', window = null } = {}) {
  if (isDead()) return;
  if (!trace) { showError('No trace is loaded.'); return; }
  const form = readForm();
  if (!form) return;
  for (const e of picker.invalid()) showError(`Policy “${e.spec}” left out: ${e.error}`);
  const specs = picker.validSpecs();
  if (!specs.length) { showError('No valid policy to run: add one in the policy list.'); return; }
  const state = { trace: { kind: trace.kind, ref: trace.ref }, policies: specs, ...form, window, heat: readHeat(), sweep: sweep.settings() };
  const results = [];
  let facts = null;
  const began = performance.now();
  timings.runStart ??= began;
  setRunning(true);
  $('progress').value = 0;
  setStatus(`Reading ${trace.name}…`);
  S.runner.run({ bytes: trace.bytes, name: trace.name, options: sessionOptions(form), specs, seed: form.seed }, {
    facts: (m) => {
      facts = m.facts;
      facts.traceStats = m.traceStats;
      // The trace view as soon as the trace is read, before the policies run.
      try { traceView.show(m.traceStats); } catch (err) { showError(`Could not show the trace: ${err.message}`); }
    },
    progress: (m) => {
      const part = m.total > 0 ? m.done / m.total : 0;
      $('progress').value = (m.index + Math.min(1, part)) / specs.length;
      setStatus(`Simulating ${specs[m.index]} (${m.index + 1} of ${specs.length})…`);
    },
    result: (m) => { results[m.index] = m; $('progress').value = (m.index + 1) / specs.length; },
    done: () => {
      setRunning(false);
      $('progress').value = 1;
      const ms = performance.now() - began;
      timings.runDone ??= performance.now();
      try {
        show(trace, state, facts, results, history);
        setStatus(`${specs.length} ${specs.length === 1 ? 'policy' : 'policies'} on ${facts.jobs.toLocaleString('en-US')} jobs in ${(ms / 1000).toFixed(2)} s.`);
      } catch (err) {
        showError(`Could not show the results: ${err.message}`);
      }
      timings.lastRunMs = ms;
    },
    error: (m) => {
      setRunning(false);
      restoreTraceView();
      $('progress').value = 0;
      const where = m.stage === 'trace' ? 'Could not read the trace' : m.stage === 'worker' || m.stage === 'load' ? 'Simulation worker' : `Policy ${m.stage}`;
      showError(m.panicked
        ? `${where}: the engine panicked (a bug in schedlab): ${m.message}. The worker was restarted; the page still works.`
        : `${where}: ${m.message}`);
      setStatus(trace === S.trace ? 'The run failed.' : `The run failed; still showing ${S.trace ? S.trace.name : 'nothing'}.`);
      resetTraceInputs();
    },
  });
}

/** After a cancelled or failed run, the trace view goes back to the shown comparison's trace. */
function restoreTraceView() {
  if (traceView.stats !== (S.traceStats ?? null)) traceView.show(S.traceStats ?? null);
}

function cancelRun() {
  S.runner.cancel();
  restoreTraceView();
  setRunning(false);
  $('progress').value = 0;
  setStatus('Cancelled.');
  resetTraceInputs();
}

/** Highlights policy `index` (-1: none) in the overview and the CDFs. */
function highlight(index, pick = true) {
  if (pick) $('highlight').value = String(index);
  overview.setHighlight(index);
  dists.setHighlight(index);
}

function show(trace, state, facts, results, history) {
  const began = performance.now();
  S.trace = trace;
  S.shown = state;
  S.results = results;
  S.traceStats = facts.traceStats ?? null;
  renderFacts($('facts'), facts, trace.label);
  resetTraceInputs();
  resultsTable.show(results.map((r) => r.report));
  $('highlight').replaceChildren(el('option', { value: '-1' }, 'no policy'), ...results.map((r, i) => el('option', { value: String(i) }, r.spec)));
  overview.highlight = -1;
  dists.highlight = -1;
  gantts.show(results, results[0].report.machine_procs, state.window);
  // Colouring by penalty needs the node model; a new comparison starts coloured by user.
  $('gantt-by-penalty').checked = false;
  $('gantt-by-penalty').disabled = !results.some((r) => r.report.penalty);
  eet.show(results, results[0].report.machine_procs, state.heat);
  try {
    dists.show(results, results[0].report.machine_procs);
    compare.show(results, results[0].report.machine_procs);
  } catch (err) { showError(`Could not show the distributions: ${err.message}`); }
  $('export-json').disabled = false;
  const pick = $('export-policy');
  pick.replaceChildren(...results.map((r, i) => el('option', { value: String(i) }, r.spec)));
  for (const id of ['export-policy', 'export-jobs-csv', 'export-runs-csv']) $(id).disabled = false;
  $('run').classList.remove('stale');
  sweep.refresh();
  state.sweep = sweep.settings();
  updateLink(history);
  // The charts in the next frame, so that the table appears at once.
  requestAnimationFrame(() => {
    if (S.results !== results) return;
    try { overview.show(results); } catch (err) { showError(`Could not draw the charts: ${err.message}`); }
    if (!timings.firstChart) timings.firstChart = performance.now();
    // Results in: table, per-job columns, sorted values, class boxes, overview drawn (ms).
    timings.showMs = performance.now() - began;
    document.body.dataset.runs = String(Number(document.body.dataset.runs ?? 0) + 1); // comparisons shown
  });
}

// ---------- share link and history ----------

function updateLink(history) {
  const hash = encode(S.shown);
  const url = new URL(location.href);
  url.hash = hash;
  const link = $('share-link');
  link.href = url.href;
  link.textContent = url.href;
  $('share-note').hidden = S.shown.trace.kind !== 'file';
  if (history === 'push' && hash !== location.hash && location.hash !== '') window.history.pushState(null, '', hash);
  else if (hash !== location.hash) window.history.replaceState(null, '', hash);
  S.lastHash = location.hash;
}

const saveWindow = debounce(() => { if (S.shown) updateLink('replace'); }, 300);

async function applyLink(hash, history) {
  const demos = DEMOS.map((d) => d.id);
  const { state, problems } = decode(hash, demos);
  for (const p of problems) showError(p, 'warning');
  writeForm(state);
  picker.set(state.policies);
  let trace;
  if (state.trace.kind === 'file') {
    if (S.trace?.kind === 'file' && S.trace.ref === state.trace.ref) trace = S.trace;
    else {
      showError(`The link names an uploaded file (${state.trace.ref}), which cannot travel in a link: upload it with the file picker. Showing the demo meanwhile.`, 'warning');
      state.trace = { kind: 'demo', ref: demos[0] };
    }
  }
  if (!trace) {
    setStatus('Loading the trace…');
    try {
      trace = await loadRemote(state.trace.kind, state.trace.ref);
    } catch (err) {
      showError(`${err.message}. Showing the demo instead.`);
      trace = await loadRemote('demo', demos[0]);
    }
  }
  startRun({ trace, history, window: state.window });
}

// ---------- trace inputs ----------

function resetTraceInputs() {
  $('trace-file').value = '';
  $('trace-demo').value = S.trace?.kind === 'demo' ? S.trace.ref : '';
}

async function useTrace(load) {
  try {
    setStatus('Loading the trace…');
    const trace = await load();
    startRun({ trace, history: 'push' });
  } catch (err) {
    showError(err.message);
    setStatus('');
    resetTraceInputs();
  }
}

function wireDrop() {
  let depth = 0;
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  document.addEventListener('dragenter', (e) => { if (hasFiles(e)) { depth++; document.body.classList.add('dragging'); } });
  document.addEventListener('dragleave', () => { depth = Math.max(0, depth - 1); if (!depth) document.body.classList.remove('dragging'); });
  document.addEventListener('dragover', (e) => { if (hasFiles(e)) e.preventDefault(); });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    document.body.classList.remove('dragging');
    const file = e.dataTransfer?.files?.[0];
    if (file && !isDead()) useTrace(() => loadFile(file));
  });
}

// ---------- boot ----------

function wire() {
  const demo = $('trace-demo');
  demo.replaceChildren(el('option', { value: '', disabled: true }, '— choose a demo —'),
    ...DEMOS.map((d) => el('option', { value: d.id }, d.label)));
  demo.addEventListener('change', () => demo.value && useTrace(() => loadRemote('demo', demo.value)));
  $('trace-file').addEventListener('change', (e) => {
    const file = e.target.files?.[0];
    if (file) useTrace(() => loadFile(file));
  });
  const loadUrl = () => {
    const url = $('trace-url').value.trim();
    if (url) useTrace(() => loadRemote('url', url));
    else showError('Type a URL first.');
  };
  $('trace-url-load').addEventListener('click', loadUrl);
  $('trace-url').addEventListener('keydown', (e) => { if (e.key === 'Enter') loadUrl(); });
  $('new-seed').addEventListener('click', () => {
    try { $('opt-seed').value = String(call('random_seed')); markStale(); } catch (err) { showError(err.message); }
  });
  for (const id of ['opt-procs', 'opt-seed', 'opt-status', 'opt-kill', 'opt-estimate', 'opt-wide', 'opt-origin', 'opt-zero', 'opt-strict', 'opt-offline', 'opt-bound', 'opt-warmup', 'opt-measured', 'opt-nodes', 'opt-cores', 'opt-bw', 'opt-mix', 'opt-high', 'opt-low', 'opt-medium', 'opt-bwfield', 'opt-eet-capacity', 'opt-eet-users', 'opt-memory']) {
    $(id).addEventListener('change', markStale);
  }
  $('run').addEventListener('click', () => startRun({ history: 'push' }));
  $('cancel').addEventListener('click', cancelRun);
  $('share-copy').addEventListener('click', async () => {
    try { await navigator.clipboard.writeText($('share-link').href); setStatus('Link copied.'); } catch { setStatus('Copy the link from the page: the clipboard is not available.'); }
  });
  $('export-json').addEventListener('click', () => {
    const reports = S.results.map((r) => r.report);
    download('schedlab-metrics.json', new Blob([JSON.stringify(reports, null, 2) + '\n'], { type: 'application/json' }));
  });
  for (const kind of ['jobs', 'runs']) {
    $(`export-${kind}-csv`).addEventListener('click', async () => {
      const index = Number($('export-policy').value);
      const result = S.results?.[index];
      if (!result) return;
      try {
        const csv = await S.runner.exportCsv(index, kind);
        const tag = result.spec.replace(/[[,]/g, '_').replace(/=/g, '-').replace(/[^A-Za-z0-9_.-]/g, '');
        download(`${kind}.${tag}.csv`, new Blob([csv], { type: 'text/csv' }));
      } catch (err) {
        showError(`${kind} CSV: ${err.message}`);
      }
    });
  }
  // The sweep panel's settings travel in the link too.
  for (const id of ['sweep-vary', 'sweep-seeds', 'sweep-metric', 'sweep-more', 'sweep-policies']) {
    $(id).addEventListener('change', () => { if (S.shown) { S.shown.sweep = sweep.settings(); updateLink('replace'); } });
  }
  $('heat-log').addEventListener('change', heatChanged);
  $('heat-sort').addEventListener('change', heatChanged);
  for (const id of ['heat-exclude', 'heat-only']) $(id).addEventListener('change', heatChanged); // also on Enter
  $('gantt-zoom-in').addEventListener('click', () => gantts.zoom(0.5));
  $('gantt-zoom-out').addEventListener('click', () => gantts.zoom(2));
  $('gantt-reset').addEventListener('click', () => gantts.setWindow(null));
  $('gantt-by-penalty').addEventListener('change', () => gantts.setByPenalty($('gantt-by-penalty').checked));
  window.addEventListener('popstate', () => {
    if (location.hash !== S.lastHash && !isDead()) applyLink(location.hash, 'replace').catch((err) => showError(err.message));
  });
  let width = window.innerWidth;
  window.addEventListener('resize', debounce(() => {
    if (window.innerWidth === width || isDead()) return;
    width = window.innerWidth;
    try { overview.draw(); gantts.redraw(); eet.redraw(); traceView.redraw(); dists.redraw(); compare.redraw(); } catch (err) { showError(err.message); }
  }, 200));
  wireDrop();
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
  if (early.kind !== 'file') loadRemote(early.kind, early.ref).catch(() => { /* reported by applyLink */ });
  try {
    await loadEngine();
    timings.engine = performance.now();
    $('version').textContent = `engine ${call('version')}`;
    picker = new Picker($('policy-picker'), call('policies'), (spec) => call('canonical_spec', spec), markStale);
  } catch (err) {
    showError(err.message);
    setStatus('The engine is not available.');
    return;
  }
  resultsTable = new ResultsTable($('results'), { family: $('metric-family'), baseline: $('baseline'), mode: $('baseline-mode') });
  overview = new Overview($('overview'), { bin: $('overview-bin') });
  $('highlight').addEventListener('change', () => highlight(Number($('highlight').value)));
  // Hovering a policy's row in the results table highlights it in the charts; leaving the table
  // goes back to the policy picked in the select.
  $('results').addEventListener('mouseover', (e) => {
    const row = e.target.closest?.('tr[data-policy]');
    if (row) highlight(S.results.findIndex((r) => r.spec === row.dataset.policy), false);
  });
  $('results').addEventListener('mouseleave', () => highlight(Number($('highlight').value), false));
  traceView = new TraceView($('trace-charts'));
  window.schedlab.traceView = traceView;
  gantts = new Gantts($('gantts'), (w) => { if (S.shown) { S.shown.window = w; saveWindow(); eet.redrawHeat(); compare.redrawWindow(); } });
  dists = new Distributions($('distributions'));
  compare = new Compare($('compare'), { a: $('diff-a'), b: $('diff-b'), figure: $('diff-figure'), colour: $('diff-colour'), users: $('diff-users') },
    () => gantts.current());
  Object.assign(window.schedlab, { dists, compare, resultsTable, overview });
  eet = new EetCharts($('eet'), () => gantts.current());
  window.schedlab.gantts = gantts;
  window.schedlab.eet = eet;
  sweep = new SweepPanel({
    trace: () => S.trace,
    options: () => { const form = readForm(); return form && sessionOptions(form); },
    compared: () => (S.shown ? S.shown.policies : []),
  });
  window.schedlab.sweep = sweep;
  wire();
  $('run').disabled = false;
  await applyLink(location.hash, 'replace');
}

boot().catch((err) => showError(`The page failed to start: ${err.message}`));
