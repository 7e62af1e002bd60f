// The workload generator's panel: the model, jobs, processors and seed make the trace reference
// (`trace=gen:MODEL:PROCS:JOBS:SEED`, share.js); its GPU controls are options of the schema
// (www/options.js, group `generate`: link keys `gpushare` and `gpucounts`, as `schedlab generate
// --gpu-share --gpu-counts`), which apply to a generated trace only. Changing them while a
// generated trace is shown generates it again, so that the link always says what was run.
import { $ } from './ui.js';
import { OPTIONS } from './options.js';
import { parseGen, GEN_MAX_JOBS, decodeOption, defaultOf } from './share.js';

const GPU = OPTIONS.filter((o) => o.group === 'generate' && o.form);

/** The generator's GPU options of a state (share.js shape): {share, counts}. */
export function gpuOf(state) {
  return { share: state.gpushare ?? 0, counts: state.gpucounts ?? '' };
}

/** The GPU options as the controls say: {gpu} or {error}. */
function gpuFromControls() {
  const state = {};
  for (const o of GPU) {
    const text = $(o.form).value.trim();
    const got = text === '' ? { value: defaultOf(o) } : decodeOption(o, text);
    if ('error' in got) return { error: `${o.label} "${text}": ${got.error}` };
    state[o.key] = got.value;
  }
  return { gpu: gpuOf(state) };
}

/** Shows a generated trace's parameters in the panel (its GPU options are the form's). */
export function showGenerated(trace) {
  const g = trace?.kind === 'gen' ? parseGen(trace.ref) : null;
  if (!g) return;
  $('generate-jobs').value = String(g.jobs);
  $('generate-procs').value = String(g.procs);
  $('generate-seed').value = String(g.seed);
  $('generate-model').value = g.model;
}

/** Wires the panel: `generate(ref, gpu)` loads and runs a generated trace; `current()` is the
 * shown trace; `showError(message)`. */
export function wireGenerator(generate, current, showError) {
  const run = () => {
    const ref = `${$('generate-model').value}:${$('generate-procs').value.trim()}:${$('generate-jobs').value.trim()}:${$('generate-seed').value.trim()}`;
    if (!parseGen(ref)) {
      showError(`Generate: give 1 to ${GEN_MAX_JOBS.toLocaleString('en')} jobs, 1 to 1,048,576 processors and a whole-number seed.`);
      return;
    }
    const { gpu, error } = gpuFromControls();
    if (error) { showError(`Generate: ${error}`); return; }
    generate(ref, gpu);
  };
  $('trace-generate').addEventListener('click', run);
  for (const o of GPU) {
    $(o.form).addEventListener('change', () => { if (current()?.kind === 'gen') run(); });
  }
}
