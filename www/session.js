// The options the worker hands Session::new, from the options schema (www/options.js,
// generated from src/options.rs): each option's engine field, kind and default in one place,
// whether the values come from the page's form (app.js) or from CLI flags (the papers
// gallery's entries, `schedlab run` flags).
import { OPTIONS } from './options.js';
import { defaultOf, decodeOption } from './share.js';

/** An option's name in a values object: its share-link key, else its CLI flag (`--max-jobs`). */
export const nameOf = (o) => o.key || o.flag;

/** What the worker hands Session::new for `values` (by nameOf; share.js's value shapes): each
 * option at its engine field (the schema's `field`); unset values left out; the node model only
 * when it is on (its demands drawn from the mix with the run's seed). */
export function sessionOptions(values) {
  const options = {};
  for (const o of OPTIONS) {
    const v = values[nameOf(o)];
    if (!o.field || v === null || v === undefined || v === '') continue;
    if (o.key === 'nodes') { if (v) options.nodes ??= {}; continue; }
    if (o.group === 'nodes' && !values.nodes) continue;
    const keys = o.field.split('.');
    const last = keys.pop();
    let at = options;
    for (const k of keys) at = at[k] ??= {};
    // The EET capacity is `equal` or {procs: N} for the engine.
    at[last] = o.kind.type === 'capacity' && v !== 'equal' ? { procs: v } : v;
  }
  return options;
}

// `--demands LOW,MEDIUM,HIGH`: text the CLI parses, the page's three demand options.
const DEMANDS = ['low', 'medium', 'high'];

/** The values (by nameOf) of CLI flags as `schedlab run` reads them, every other option at its
 * default: a flag without a value turns its option on (`--no-kill` off), a node-model option
 * turns the node model on. Throws on a flag the schema does not know or a bad value. */
export function fromFlags(args) {
  const values = Object.fromEntries(OPTIONS.map((o) => [nameOf(o), defaultOf(o)]));
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const o = OPTIONS.find((x) => x.flag === flag);
    if (!o) throw new Error(`${flag} is not an option of the page (www/options.js)`);
    if (o.group === 'nodes') values.nodes = true;
    if (o.kind.type === 'bool') { values[nameOf(o)] = !flag.startsWith('--no-'); continue; }
    if (i + 1 >= args.length) throw new Error(`${flag} needs a value`);
    const text = args[++i];
    if (flag === '--demands') {
      const d = text.split(',').map((t) => (t.trim() === '' ? NaN : Number(t)));
      if (d.length !== 3 || d.some((x) => !Number.isFinite(x) || x < 0)) throw new Error(`--demands: "${text}" is not low,medium,high in MB/s`);
      DEMANDS.forEach((k, j) => { values[k] = d[j]; });
      continue;
    }
    const got = decodeOption(o, text);
    if ('error' in got) throw new Error(`${flag} ${text}: ${got.error}`);
    values[nameOf(o)] = got.value;
  }
  return values;
}
