// The page state in the URL fragment, versioned:
//   #v=1&trace=demo:NAME|url:https://...|file:NAME&policy=SPEC&policy=SPEC
//       &procs=N&seed=N&kill=0&estimate=runtime&wide=clamp&origin=trace&zero=1&strict=1&offline=1
//       &status=5,0&window=T0,T1&heatlog=1&heatsort=user&exclude=3,17&only=5,8
//       &nodes=1&cores=4&bw=6000&mix=med&high=2000&bwfield=19   (the node model; off without nodes=1)
//       &low=500&medium=1000   (the node model's low and medium demands, MB/s)
//       &bound=10&warmup=N&measured=M   (metrics: bounded-slowdown bound, node-model window)
//       &eetcap=equal|N&eetuser=12=64,3=32&memory=KB   (the EET model: --eet-capacity,
//                                      --eet-user-capacity, --machine-memory)
//       &sweepvary=err=0,0.1,...,1&sweepseeds=10&sweepmetric=mbs&sweepmore=SPEC&sweeppick=SPEC
//                                      (the sweep panel: key and values, seeds, metric, more
//                                      policies one per key, the compared policies ticked)
// Defaults are left out. The heatmap keys (heatlog, heatsort, exclude, only: the EET heatmaps'
// view) are optional: links without them open with the defaults. decode() never throws: it returns the state it could read plus one
// message per parameter it had to ignore.

export const VERSION = '1';
export const DEFAULT_POLICIES = ['easy', 'fcfs'];
export const DEFAULT_SWEEP = { vary: 'err=0,0.1,...,1', seeds: 10, metric: '', more: ['pv-easy[predictor=virtual]'], pick: [] };

export function defaultState(defaultDemo) {
  return {
    trace: { kind: 'demo', ref: defaultDemo },
    policies: [...DEFAULT_POLICIES],
    procs: null, seed: 1, kill: true, estimate: 'requested', wide: 'skip', origin: 'first',
    zero: false, strict: false, offline: false, status: [], window: null,
    bound: 10, warmup: 0, measured: null,
    nodes: false, cores: 4, bw: 6000, mix: 'high', high: 2000, low: 500, medium: 1000, bwfield: null,
    eetcap: 'equal', eetuser: [], memory: null,
    sweep: { ...DEFAULT_SWEEP, more: [...DEFAULT_SWEEP.more], pick: [] },
    heat: { log: false, sort: 'total', exclude: [], only: [] },
  };
}

const ENUMS = { estimate: ['requested', 'runtime', 'ignore'], wide: ['skip', 'clamp'], origin: ['first', 'trace'] };
const BOOLS = { kill: true, zero: false, strict: false, offline: false, nodes: false };
const MIXES = ['high', 'med', 'low'];
// The node model's numbers and their defaults (sent only with nodes=1).
const NODE_NUMBERS = { cores: 4, bw: 6000, high: 2000, low: 500, medium: 1000 };

// Keeps [ ] = , : / readable in the fragment; everything else is percent-encoded.
const enc = (s) => encodeURIComponent(s).replace(/%(5B|5D|3D|2C|3A|2F)/g, (_, h) => String.fromCharCode(parseInt(h, 16)));

export function encode(state) {
  const parts = [['v', VERSION], ['trace', `${state.trace.kind}:${state.trace.ref}`]];
  for (const p of state.policies) parts.push(['policy', p]);
  if (state.procs) parts.push(['procs', String(state.procs)]);
  parts.push(['seed', String(state.seed)]);
  for (const [k, def] of Object.entries(BOOLS)) if (state[k] !== def) parts.push([k, state[k] ? '1' : '0']);
  for (const [k, values] of Object.entries(ENUMS)) if (state[k] !== values[0]) parts.push([k, state[k]]);
  if (state.nodes) {
    for (const [k, def] of Object.entries(NODE_NUMBERS)) if (state[k] !== def) parts.push([k, String(state[k])]);
    if (state.mix !== 'high') parts.push(['mix', state.mix]);
    if (state.bwfield) parts.push(['bwfield', String(state.bwfield)]);
  }
  if (state.eetcap !== undefined && state.eetcap !== 'equal') parts.push(['eetcap', String(state.eetcap)]);
  if (state.eetuser?.length) parts.push(['eetuser', state.eetuser.map(([u, c]) => `${u}=${c}`).join(',')]);
  if (state.memory) parts.push(['memory', String(state.memory)]);
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
  if (state.bound !== 10) parts.push(['bound', String(state.bound)]);
  if (state.warmup) parts.push(['warmup', String(state.warmup)]);
  if (state.measured !== null) parts.push(['measured', String(state.measured)]);
  if (state.status.length) parts.push(['status', state.status.join(',')]);
  if (state.window) parts.push(['window', state.window.map((t) => Math.round(t)).join(',')]);
  const heat = state.heat;
  if (heat?.log) parts.push(['heatlog', '1']);
  if (heat && heat.sort !== 'total') parts.push(['heatsort', heat.sort]);
  if (heat?.exclude.length) parts.push(['exclude', heat.exclude.join(',')]);
  if (heat?.only.length) parts.push(['only', heat.only.join(',')]);
  return '#' + parts.map(([k, v]) => `${k}=${enc(v)}`).join('&');
}

const intIn = (text, min, max) => /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : null;

/** Reads a fragment (with or without '#'). demos: the known demo names. */
export function decode(hash, demos) {
  const state = defaultState(demos[0]);
  const problems = [];
  const text = hash.replace(/^#/, '');
  if (!text) return { state, problems, empty: true };
  const policies = [];
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
        const m = /^(demo|url|file):(.+)$/.exec(value);
        if (!m) bad('expected demo:NAME or url:https://...');
        else if (m[1] === 'demo' && !demos.includes(m[2])) bad(`unknown demo (known: ${demos.join(', ')})`);
        else if (m[1] === 'url' && !/^https?:\/\//.test(m[2])) bad('only http(s) URLs can be loaded');
        else state.trace = { kind: m[1], ref: m[2] };
        break;
      }
      case 'policy': if (value.trim()) policies.push(value.trim()); else bad('empty policy'); break;
      case 'procs': { const n = intIn(value, 1, 1e9); if (n === null) bad('expected a processor count >= 1'); else state.procs = n; break; }
      case 'seed': { const n = intIn(value, 0, Number.MAX_SAFE_INTEGER); if (n === null) bad('expected a whole number >= 0'); else state.seed = n; break; }
      case 'cores': { const n = intIn(value, 1, 1048576); if (n === null) bad('expected cores per node >= 1'); else state.cores = n; break; }
      case 'bw': case 'high': case 'low': case 'medium': {
        const n = Number(value);
        if (value.trim() === '' || !Number.isFinite(n) || n < 0 || (key === 'bw' && n === 0)) bad('expected MB/s (a number > 0)'); else state[key] = n;
        break;
      }
      case 'bwfield': { const n = intIn(value, 1, 1000); if (n === null) bad('expected an SWF field number 1-1000'); else state.bwfield = n; break; }
      case 'bound': { const n = Number(value); if (value.trim() === '' || !Number.isFinite(n) || n < 0) bad('expected seconds >= 0'); else state.bound = n; break; }
      case 'warmup': { const n = intIn(value, 0, Number.MAX_SAFE_INTEGER); if (n === null) bad('expected a whole number of jobs >= 0'); else state.warmup = n; break; }
      case 'measured': { const n = intIn(value, 1, Number.MAX_SAFE_INTEGER); if (n === null) bad('expected a whole number of jobs >= 1'); else state.measured = n; break; }
      case 'mix': if (MIXES.includes(value)) state.mix = value; else bad(`expected ${MIXES.join(', ')}`); break;
      case 'kill': case 'zero': case 'strict': case 'offline': case 'nodes':
        if (value === '1' || value === '0') state[key] = value === '1'; else bad('expected 0 or 1');
        break;
      case 'estimate': case 'wide': case 'origin':
        if (ENUMS[key].includes(value)) state[key] = value; else bad(`expected ${ENUMS[key].join(' or ')}`);
        break;
      case 'status': {
        const codes = value.split(',').map((s) => intIn(s.trim(), 0, 1e6));
        if (codes.some((c) => c === null)) bad('expected status codes like 0,5'); else state.status = codes;
        break;
      }
      case 'window': {
        const w = value.split(',').map(Number);
        if (w.length !== 2 || !w.every(Number.isFinite) || w[0] >= w[1]) bad('expected T0,T1 with T0 < T1'); else state.window = w;
        break;
      }
      case 'eetcap': {
        const n = Number(value);
        if (value === 'equal') state.eetcap = 'equal';
        else if (value.trim() !== '' && Number.isFinite(n) && n > 0) state.eetcap = n;
        else bad('expected equal or a number of processors > 0');
        break;
      }
      case 'eetuser': {
        const pairs = value.split(',').map((t) => /^(-?\d+)=(\d+(?:\.\d+)?)$/.exec(t.trim()));
        if (pairs.some((m) => !m || !Number.isSafeInteger(Number(m[1])) || !(Number(m[2]) > 0))) bad('expected USER=PROCESSORS pairs like 12=64,3=32');
        else state.eetuser = pairs.map((m) => [Number(m[1]), Number(m[2])]);
        break;
      }
      case 'memory': { const n = intIn(value, 1, Number.MAX_SAFE_INTEGER); if (n === null) bad('expected machine memory in KB >= 1'); else state.memory = n; break; }
      case 'sweepvary': if (/^[A-Za-z_][\w-]*=.+$/.test(value) && value.length <= 400) state.sweep.vary = value; else bad('expected KEY=values'); break;
      case 'sweepseeds': { const n = intIn(value, 1, 1000); if (n === null) bad('expected 1 to 1000 seeds'); else state.sweep.seeds = n; break; }
      case 'sweepmetric': if (/^[\w.]{1,60}$/.test(value)) state.sweep.metric = value; else bad('expected a metric name'); break;
      case 'sweepmore':
        if (!sweepMore) { sweepMore = true; state.sweep.more = []; }
        if (value.trim() && value.length <= 400) state.sweep.more.push(value.trim());
        else if (value.length > 400) bad('spec too long');
        break;
      case 'sweeppick': if (value.trim() && value.length <= 400) state.sweep.pick.push(value.trim()); else bad('expected a policy spec'); break;
      case 'heatlog':
        if (value === '1' || value === '0') state.heat.log = value === '1'; else bad('expected 0 or 1');
        break;
      case 'heatsort':
        if (value === 'total' || value === 'user') state.heat.sort = value; else bad('expected total or user');
        break;
      case 'exclude': case 'only': {
        const ids = value.split(',').map((s) => s.trim());
        if (!ids.every((s) => /^-?\d+$/.test(s) && Number.isSafeInteger(Number(s)))) bad('expected user ids like 3,17');
        else state.heat[key] = [...new Set(ids.map(Number))];
        break;
      }
      default: problems.push(`link: unknown parameter "${key.slice(0, 40)}"; ignored`);
    }
  }
  if (version === null) problems.push(`link: no version (v=${VERSION}); read as version ${VERSION}`);
  else if (version !== VERSION) problems.push(`link: version v=${version.slice(0, 20)} is not known (this page reads v=${VERSION}); read as version ${VERSION}`);
  if (policies.length) state.policies = policies;
  else problems.push(`link: no policy given; using ${DEFAULT_POLICIES.join(' and ')}`);
  return { state, problems, empty: false };
}
