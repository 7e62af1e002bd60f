// The page state in the URL fragment, versioned:
//   #v=1&trace=demo:NAME|url:https://...|file:NAME|gen:MODEL:PROCS:JOBS:SEED&policy=SPEC&policy=SPEC
//       &load=F&from=T&to=T&users=3,17&xusers=5   (transforms: load scale, window, users)
//       &procs=N&seed=N&kill=0&estimate=runtime&wide=clamp&origin=trace&zero=1&strict=1&offline=1
//       &status=5,0&window=T0,T1&heatlog=1&heatsort=user&exclude=3,17&only=5,8
//       &nodes=1&cores=4&bw=6000&mix=med&high=2000&bwfield=19   (the node model; off without nodes=1)
//       &low=500&medium=1000   (the node model's low and medium demands, MB/s)
//       &bound=10&warmup=N&measured=M   (metrics: bounded-slowdown bound, node-model window)
//       &eetcap=equal|N&eetuser=12=64,3=32&memory=KB   (the EET model: --eet-capacity,
//                                      --eet-user-capacity, --machine-memory)
//       &cluster=1/gpu[01-16]:c64:...   (the cluster's compact form, docs/cluster-model.md;
//                                      left out: the trace's processors as one pool, or the
//                                      demo's own cluster for a demo that comes with its site;
//                                      cluster=none: one pool for such a demo too)
//       &sshare=NAME&qosfile=NAME&assocfile=NAME   (the sshare, qos and assoc files a slurm
//                                      policy ran with, read in
//                                      the sender's Cluster panel: named only, for their content
//                                      cannot travel; the link's opener is told to read them)
//       &sweepvary=err=0,0.1,...,1&sweepseeds=10&sweepmetric=mbs&sweepmore=SPEC&sweeppick=SPEC
//                                      (the sweep panel: key and values, seeds, metric, more
//                                      policies one per key, the compared policies ticked)
// The option keys (procs ... memory) are the options schema's (www/options.js); defaults are
// left out. Users (users, xusers, exclude, only) travel as typed: numbers, or names the trace
// gives (users=alice,bob), which are not numbers, so an old link of numbers reads as it did. The heatmap keys (heatlog, heatsort, exclude, only: the EET heatmaps'
// view) are optional: links without them open with the defaults. decode() never throws: it returns the state it could read plus one
// message per parameter it had to ignore.

import { OPTIONS } from './options.js';
import { parseUserList } from './users.js';

export const VERSION = '1';
export const DEFAULT_POLICIES = ['easy', 'fcfs'];
/** The policies a demo recorded on a Slurm site adds to the picker (from the menu, or from a link
 * that names the demo and no policy): `slurm`, and `historic` (the site's own schedule). */
export const SITE_POLICIES = ['slurm', 'historic'];
/** Most policies a link may name (each is a run and a row); more are left out with a message. */
export const MAX_LINK_POLICIES = 64;
/** Most problems decode() reports one by one; the rest are counted in one message. */
const MAX_PROBLEMS = 20;
export const DEFAULT_SWEEP = { vary: 'err=0,0.1,...,1', seeds: 10, metric: '', more: ['pv-easy[predictor=virtual]'], pick: [] };

// The options links carry: the schema's (www/options.js, generated from src/options.rs), each
// with its key, kind and default; node-model options travel only with nodes=1.
const LINKED = OPTIONS.filter((o) => o.key);

/** The value of option `o` in the page state when the user set nothing. */
export function defaultOf(o) {
  switch (o.kind.type) {
    case 'bool': return o.default === '1';
    case 'choice': return o.default;
    case 'list': case 'ids': return o.default ? o.default.split(',').map(Number) : [];
    case 'pairs': return [];
    case 'time': case 'capacity': return o.default;
    default: return o.default === '' ? null : Number(o.default);
  }
}

export function defaultState(defaultDemo) {
  const state = {
    trace: { kind: 'demo', ref: defaultDemo },
    policies: [...DEFAULT_POLICIES],
    window: null,
    sweep: { ...DEFAULT_SWEEP, more: [...DEFAULT_SWEEP.more], pick: [] },
    heat: { log: false, sort: 'total', exclude: [], only: [] },
    siteFiles: { sshare: null, qos: null, assoc: null }, // the link's sshare=, qosfile=, assocfile= (names only)
  };
  for (const o of LINKED) state[o.key] = defaultOf(o);
  return state;
}

/** The link text of value `v` of option `o`, or null when it is the default (left out). */
function encodeOption(o, v) {
  const def = defaultOf(o);
  if (o.kind.type === 'pairs') return v.length ? v.map(([u, c]) => `${u}=${c}`).join(',') : null;
  if (o.kind.type === 'list' || o.kind.type === 'ids') return v.length && v.join(',') !== def.join(',') ? v.join(',') : null;
  if (v === def || v === null || v === undefined) return null;
  if (o.kind.type === 'bool') return v ? '1' : '0';
  return String(v);
}

/** Option `o` read from link text: {value} or {error}. */
export function decodeOption(o, text) {
  const k = o.kind;
  const whole = (t, min, max) => (/^\d+$/.test(t) && Number(t) >= min && Number(t) <= max ? Number(t) : null);
  switch (k.type) {
    case 'bool': return text === '1' || text === '0' ? { value: text === '1' } : { error: 'expected 0 or 1' };
    case 'choice': return k.values.includes(text) ? { value: text } : { error: `expected ${k.values.join(', ')}` };
    case 'whole': {
      const n = whole(text, k.min, k.max);
      return n === null ? { error: `expected ${o.label}: a whole number from ${k.min} to ${k.max}` } : { value: n };
    }
    case 'number': {
      const n = Number(text);
      const ok = text.trim() !== '' && Number.isFinite(n) && (k.open ? n > k.min : n >= k.min);
      // + 0: -0 reads as 0 (what a link written again says).
      return ok ? { value: n + 0 } : { error: `expected ${o.label}: a number ${k.open ? '>' : '>='} ${k.min}` };
    }
    case 'list': {
      const codes = text.split(',').map((t) => whole(t.trim(), 0, 1e6));
      return codes.some((c) => c === null) ? { error: 'expected whole numbers like 0,5' } : { value: codes };
    }
    // Users by number or by name (users.js): numbers read as they always did; a name stays a
    // name, which the engine finds in the loaded trace (an error there when it is not).
    case 'ids': return { value: parseUserList(text) };
    case 'capacity': {
      const n = Number(text);
      if (text.trim().toLowerCase() === 'equal') return { value: 'equal' };
      return text.trim() !== '' && Number.isFinite(n) && n > 0 ? { value: n } : { error: 'expected equal or a number of processors > 0' };
    }
    case 'pairs': {
      const items = text.split(/[\s,;]+/).filter(Boolean);
      const pairs = items.map((t) => /^(-?\d+)=(\d+(?:\.\d+)?)$/.exec(t));
      return pairs.every((m) => m && Number.isSafeInteger(Number(m[1])) && Number(m[2]) > 0)
        ? { value: pairs.map((m) => [Number(m[1]) + 0, Number(m[2])]) }
        : { error: 'expected USER=PROCESSORS pairs like 12=64,3=32' };
    }
    case 'time': {
      const t = text.trim();
      return isWindowTime(t) ? { value: t } : { error: 'expected seconds or a date like 2024-03-01T10:00:00' };
    }
    case 'cluster': {
      // The compact form's own characters (the engine reads the rest when the run starts).
      const t = text.trim();
      return /^\d+\/[A-Za-z0-9_.,:=\/\[\]-]+$/.test(t) && t.length <= 1 << 20
        ? { value: t } : { error: 'expected a cluster\'s compact form like 1/n[1-4]:c32:m0/p=all:ALL:default' };
    }
    case 'counts': {
      // The generator's GPU counts, COUNT:WEIGHT,... (the engine checks the values).
      const t = text.trim();
      return /^\d{1,9}(:\d{1,9}(\.\d{1,9})?)?(,\d{1,9}(:\d{1,9}(\.\d{1,9})?)?){0,63}$/.test(t)
        ? { value: t } : { error: 'expected GPU counts and weights like 1:4,2:2,4:1' };
    }
    default: return { error: 'not an option links carry' };
  }
}

// Keeps [ ] = , : / readable in the fragment; everything else is percent-encoded.
const enc = (s) => encodeURIComponent(s).replace(/%(5B|5D|3D|2C|3A|2F)/g, (_, h) => String.fromCharCode(parseInt(h, 16)));

/** The page state as a fragment. `siteDemos`: the demos that come with their Slurm site (and
 * so their own cluster): for one of them a cleared cluster travels as `cluster=none`. */
export function encode(state, siteDemos = []) {
  const parts = [['v', VERSION], ['trace', `${state.trace.kind}:${state.trace.ref}`]];
  for (const p of state.policies) parts.push(['policy', p]);
  const siteDemo = state.trace.kind === 'demo' && siteDemos.includes(state.trace.ref);
  for (const o of LINKED) {
    if (o.group === 'nodes' && o.key !== 'nodes' && !state.nodes) continue;
    let text = o.key === 'seed' ? String(state.seed) : encodeOption(o, state[o.key]);
    if (o.key === 'cluster' && text === null && siteDemo) text = 'none';
    if (text !== null) parts.push([o.key, text]);
  }
  // The site files a slurm policy ran with, by name (as an uploaded trace's `file:NAME`).
  if (state.policies.some((p) => /^slurm($|\[)/.test(p))) {
    if (state.site?.sshareName) parts.push(['sshare', state.site.sshareName]);
    if (state.site?.qosName) parts.push(['qosfile', state.site.qosName]);
    if (state.site?.assocName) parts.push(['assocfile', state.site.assocName]);
  }
  const sw = state.sweep;
  if (sw) {
    if (sw.vary !== DEFAULT_SWEEP.vary) parts.push(['sweepvary', sw.vary]);
    if (sw.seeds !== DEFAULT_SWEEP.seeds) parts.push(['sweepseeds', String(sw.seeds)]);
    if (sw.metric) parts.push(['sweepmetric', sw.metric]);
    if (sw.more.join('\n') !== DEFAULT_SWEEP.more.join('\n')) {
      if (sw.more.length) for (const m of sw.more) parts.push(['sweepmore', m]);
      else parts.push(['sweepmore', '']);
    }
    for (const p of sw.pick) parts.push(['sweeppick', p]);
  }
  if (state.window) parts.push(['window', state.window.map((t) => Math.round(t)).join(',')]);
  const heat = state.heat;
  if (heat?.log) parts.push(['heatlog', '1']);
  if (heat && heat.sort !== 'total') parts.push(['heatsort', heat.sort]);
  if (heat?.exclude.length) parts.push(['exclude', heat.exclude.join(',')]);
  if (heat?.only.length) parts.push(['only', heat.only.join(',')]);
  return '#' + parts.map(([k, v]) => `${k}=${enc(v)}`).join('&');
}

/** A generated workload's reference `lublin-users:256:10000:1` -> {model, procs, jobs, seed}, or
 * null. The model is always written out, so a link keeps its workload whatever the page's default
 * model: `lublin` (the 1999 model: one user, its own load), `lublin-users` (users, 3/4 of the
 * arrival rate; the page's default since it exists). */
export const GEN_MAX_JOBS = 200000;
export function parseGen(ref) {
  const m = /^(lublin|lublin-users):(\d{1,7}):(\d{1,7}):(\d{1,16})$/.exec(ref);
  if (!m) return null;
  const [procs, jobs, seed] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (procs < 1 || procs > 1048576 || jobs < 1 || jobs > GEN_MAX_JOBS || !Number.isSafeInteger(seed)) return null;
  return { model: m[1], procs, jobs, seed };
}
const intIn = (text, min, max) => /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : null;

// A window time: seconds of the trace's clock or a date (2024-03-01T10:00:00[Z|+01:00]).
const TIME = /^(-?\d{1,15}|\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)?)$/;
export const isWindowTime = (t) => TIME.test(t);

/** Reads a fragment (with or without '#'). demos: the known demo names; siteDemos: those recorded
 * on a Slurm site, whose link without a policy runs the page's defaults and SITE_POLICIES, as
 * picking the demo from the menu does (`sitePolicies`: true then). */
export function decode(hash, demos, siteDemos = []) {
  const state = defaultState(demos[0]);
  const problems = [];
  const text = hash.replace(/^#/, '');
  if (!text) return { state, problems, empty: true, sitePolicies: false };
  const policies = [];
  let extraPolicies = 0; // policies past MAX_LINK_POLICIES, left out
  let extraSweep = 0; // sweep specs past MAX_LINK_POLICIES, left out
  let version = null;
  let sweepMore = false; // the first sweepmore replaces the default list
  for (const part of text.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    let value;
    try {
      value = decodeURIComponent(eq < 0 ? '' : part.slice(eq + 1));
    } catch {
      problems.push(`link: parameter "${key}" is not valid percent-encoding; ignored`);
      continue;
    }
    const bad = (what) => problems.push(`link: ${key}=${value.slice(0, 80)}: ${what}; ignored`);
    switch (key) {
      case 'v': version = value; break;
      case 'trace': {
        const m = /^(demo|url|file|gen):(.+)$/.exec(value);
        if (!m) bad('expected demo:NAME, url:https://... or gen:lublin:PROCS:JOBS:SEED');
        else if (m[1] === 'gen' && !parseGen(m[2])) bad(`expected gen:MODEL:PROCS:JOBS:SEED (MODEL lublin or lublin-users; 1 to ${GEN_MAX_JOBS} jobs)`);
        else if (m[1] === 'demo' && !demos.includes(m[2])) bad(`unknown demo (known: ${demos.join(', ')})`);
        else if (m[1] === 'url' && !/^https?:\/\//.test(m[2])) bad('only http(s) URLs can be loaded');
        else state.trace = { kind: m[1], ref: m[2] };
        break;
      }
      case 'policy':
        if (!value.trim()) bad('empty policy');
        else if (policies.length >= MAX_LINK_POLICIES) extraPolicies += 1;
        else policies.push(value.trim());
        break;
      case 'window': {
        // Whole seconds, as links write it (a window that rounds to nothing is refused).
        const w = value.split(',').map((t) => Math.round(Number(t)) + 0);
        if (w.length !== 2 || !w.every(Number.isFinite) || w[0] >= w[1]) bad('expected T0,T1 with T0 < T1 (whole seconds)'); else state.window = w;
        break;
      }
      case 'sweepvary': if (/^[A-Za-z_][\w-]*=.+$/.test(value) && value.length <= 400) state.sweep.vary = value; else bad('expected KEY=values'); break;
      case 'sweepseeds': { const n = intIn(value, 1, 1000); if (n === null) bad('expected 1 to 1000 seeds'); else state.sweep.seeds = n; break; }
      case 'sweepmetric': if (/^[\w.]{1,60}$/.test(value)) state.sweep.metric = value; else bad('expected a metric name'); break;
      case 'sweepmore':
        if (!sweepMore) { sweepMore = true; state.sweep.more = []; }
        if (value.trim() && value.length <= 400 && state.sweep.more.length >= MAX_LINK_POLICIES) extraSweep += 1;
        else if (value.trim() && value.length <= 400) state.sweep.more.push(value.trim());
        else if (value.length > 400) bad('spec too long');
        break;
      case 'sweeppick':
        if (!value.trim() || value.length > 400) bad('expected a policy spec');
        else if (state.sweep.pick.length >= MAX_LINK_POLICIES) extraSweep += 1;
        else state.sweep.pick.push(value.trim());
        break;
      case 'sshare': case 'qosfile': case 'assocfile':
        if (!value.trim() || value.length > 200) bad('expected a file name');
        else state.siteFiles[{ sshare: 'sshare', qosfile: 'qos', assocfile: 'assoc' }[key]] = value.trim();
        break;
      case 'heatlog':
        if (value === '1' || value === '0') state.heat.log = value === '1'; else bad('expected 0 or 1');
        break;
      case 'heatsort':
        if (value === 'total' || value === 'user') state.heat.sort = value; else bad('expected total or user');
        break;
      case 'exclude': case 'only': {
        state.heat[key] = parseUserList(value);
        break;
      }
      case 'cluster':
        // Named (a compact form or none): a demo's own cluster does not replace it.
        if (value === 'none') { state.cluster = ''; state.clusterNamed = true; break; }
        // falls through: a compact form, read as every option
      default: {
        const o = LINKED.find((x) => x.key === key);
        if (!o) { problems.push(`link: unknown parameter "${key.slice(0, 40)}"; ignored`); break; }
        const got = decodeOption(o, value);
        if ('error' in got) bad(got.error);
        else {
          state[key] = got.value;
          if (key === 'cluster') state.clusterNamed = true;
        }
      }
    }
  }
  if (version === null) problems.push(`link: no version (v=${VERSION}); read as version ${VERSION}`);
  else if (version !== VERSION) problems.push(`link: version v=${version.slice(0, 20)} is not known (this page reads v=${VERSION}); read as version ${VERSION}`);
  const sitePolicies = !policies.length && state.trace.kind === 'demo' && siteDemos.includes(state.trace.ref);
  if (policies.length) state.policies = policies;
  else if (sitePolicies) {
    state.policies = [...DEFAULT_POLICIES, ...SITE_POLICIES];
    problems.push(`link: no policy given; using the demo's: ${state.policies.slice(0, -1).join(', ')} and ${state.policies.at(-1)}`);
  } else problems.push(`link: no policy given; using ${DEFAULT_POLICIES.join(' and ')}`);
  if (extraPolicies) problems.unshift(`link: ${(MAX_LINK_POLICIES + extraPolicies).toLocaleString('en-US')} policies; a link holds at most ${MAX_LINK_POLICIES}: the first ${MAX_LINK_POLICIES} are compared, the other ${extraPolicies.toLocaleString('en-US')} left out`);
  if (extraSweep) problems.unshift(`link: more than ${MAX_LINK_POLICIES} sweepmore or sweeppick entries; ${extraSweep.toLocaleString('en-US')} left out`);
  if (problems.length > MAX_PROBLEMS) {
    const more = problems.length - (MAX_PROBLEMS - 1);
    problems.splice(MAX_PROBLEMS - 1, Infinity, `link: ${more.toLocaleString('en-US')} more problems not listed`);
  }
  return { state, problems, empty: false, sitePolicies };
}
