// The options form: the options schema's controls (www/options.js) read into the share-link
// state (share.js shape) and written back from it, and the EET heatmap's view controls.

import { defaultState, defaultOf, decodeOption } from './share.js';
import { OPTIONS } from './options.js';
import { showGenerated } from './generator.js';
import { DEFAULT_HEAT, parseUsers } from './eet.js';
import { $, showError } from './ui.js';

// The form's controls are the options schema's (www/options.js): each option's control, kind,
// range and default; the same rules read a link (share.js).
export const FORM = OPTIONS.filter((o) => o.form && o.key);

/** The options from the controls (share.js state shape), or null after reporting problems
 * (also pushed to `problems`, for the status line). `cluster`: the cluster panel (its problem,
 * if any, is one of them). */
export function readForm(cluster, problems = []) {
  const form = {};
  const nodes = $('opt-nodes').checked;
  for (const o of FORM) {
    const control = $(o.form);
    if (o.kind.type === 'bool') { form[o.key] = control.checked; continue; }
    let text = control.value.trim();
    if (o.kind.type === 'list') text = text.split(/[\s,]+/).filter(Boolean).join(',');
    const got = text === '' ? { value: defaultOf(o) } : decodeOption(o, text);
    if ('error' in got) {
      // Node-model values count only with the node model on.
      if (o.group !== 'nodes' || nodes) problems.push(`${o.label} "${text}": ${got.error}`);
      form[o.key] = defaultOf(o);
    } else {
      form[o.key] = got.value;
    }
  }
  // Without a cluster in the form, slurm.conf lines that made none still refuse the run (the
  // user meant a cluster; the run would be on the trace's processors as one pool).
  const bad = cluster?.problem() ?? '';
  if (bad) problems.push(`Cluster: ${bad.replace(/^cluster: /, '')}`); // the engine's "cluster: " said once
  for (const p of problems) showError(p);
  return problems.length ? null : form;
}

export function writeForm(state, cluster, sweep) {
  for (const o of FORM) {
    const v = state[o.key];
    if (o.kind.type === 'bool') $(o.form).checked = v;
    else if (o.kind.type === 'pairs') $(o.form).value = (v ?? []).map(([u, c]) => `${u}=${c}`).join(', ');
    else $(o.form).value = v === null ? '' : Array.isArray(v) ? v.join(',') : String(v);
  }
  showGenerated(state.trace);
  if (state.nodes || state.warmup || state.measured) $('opt-nodes').closest('details').open = true;
  const def = defaultState('');
  if (['wide', 'origin', 'zero', 'strict', 'offline', 'bound', 'from', 'to'].some((k) => state[k] !== def[k])
    || state.status.length || state.users.length || state.xusers.length) {
    $('opt-status').closest('details').open = true;
  }
  cluster?.refresh();
  writeHeat(state.heat ?? DEFAULT_HEAT);
  if (state.sweep) sweep.apply(state.sweep);
}

// ---------- EET heatmap options (a view: they change the link, not the run) ----------

export function writeHeat(heat) {
  $('heat-log').checked = heat.log;
  $('heat-sort').value = heat.sort;
  $('heat-exclude').value = heat.exclude.join(', ');
  $('heat-only').value = heat.only.join(', ');
  for (const id of ['heat-exclude', 'heat-only']) $(id).classList.remove('invalid');
}

/** The heatmap options from the controls: users by number or by name; a name the loaded trace
 * does not give is flagged (kept in the list and the link, it matches no row). */
export function readHeat(report = false) {
  const lists = {};
  for (const [key, id] of [['exclude', 'heat-exclude'], ['only', 'heat-only']]) {
    const { users, bad } = parseUsers($(id).value);
    $(id).classList.toggle('invalid', bad.length > 0);
    if (bad.length && report) showError(`heatmap ${key} users: ${bad.map((b) => `“${b.slice(0, 20)}”`).join(', ')} ${bad.length === 1 ? 'is not a user of this trace' : 'are not users of this trace'} (give a number or a name it gives)`, 'warning');
    lists[key] = users;
  }
  return { log: $('heat-log').checked, sort: $('heat-sort').value === 'user' ? 'user' : 'total', ...lists };
}
