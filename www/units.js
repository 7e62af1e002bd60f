// Units of the results table's time columns, and the precision a cell shows. A column of the
// catalogue's unit `s` is shown in seconds, hours or days, chosen per column from the size of
// its values; every other column keeps its unit and the catalogue's digits.
// No DOM: the tests import it in Node too.

const HOUR = 3600;
const DAY = 86_400;

/** The unit of a column of `values` whose catalogue unit is `unit` with `digits` decimals:
 * {unit, scale (seconds per unit), digits}. Seconds below 2 hours (the median of the finite
 * values), hours below 2 days, days above. */
export function columnUnit(unit, digits, values) {
  if (unit !== 's') return { unit, scale: 1, digits };
  const finite = values.filter(Number.isFinite).map(Math.abs).sort((a, b) => a - b);
  const median = finite.length ? finite[Math.floor(finite.length / 2)] : 0;
  if (median < 2 * HOUR) return { unit: 's', scale: 1, digits };
  if (median < 2 * DAY) return { unit: 'h', scale: HOUR, digits: 2 };
  return { unit: 'd', scale: DAY, digits: 2 };
}

/** `v` as the column shows it: rounded to the unit's precision as the CLI's table rounds it (a
 * number, or v itself when not finite). Values that show the same are the same for colours and
 * stars. */
export function shown(v, u) {
  if (!Number.isFinite(v)) return v;
  return roundAsCli(v / u.scale, u.digits);
}

/** `x` rounded to `digits` decimals as Rust's `{:.N}` rounds it (the CLI's table): from the
 * double's exact value, an exact half to the even digit. 183.45 is 183.4499999999999886 as a
 * double: 183.4 (`Math.round(x * 10) / 10` gave 183.5, as the page once showed the Slurm demo's
 * mean response where the CLI says 183.4); 0.125 to 2 decimals is an exact half: 0.12. */
export function roundAsCli(x, digits) {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return x;
  const [, frac] = Math.abs(x).toFixed(100).split('.'); // the double's exact decimal digits
  const rest = frac.slice(digits);
  if (/^50*$/.test(rest)) {
    // An exact half: toFixed would go away from zero; to the even digit instead.
    const kept = Math.abs(x).toFixed(100).slice(0, -rest.length).replace(/\.$/, '');
    const last = Number(kept[kept.length - 1]);
    if (last % 2 === 0) return Math.sign(x) * Number(kept);
  }
  return Number(x.toFixed(digits));
}

/** A heading's label with the column's unit: "mean wait (s)" -> "mean wait (h)". */
export function withUnit(label, u) {
  return u.scale === 1 ? label : label.replace(/\((s)\)$/, `(${u.unit})`);
}
