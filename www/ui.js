// Small DOM helpers, number formatting and the error list shared by the page's modules.

/** `el('div', {class: 'x', onclick: f}, child, 'text')` */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k in node && typeof v !== 'string') node[k] = v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) node.append(c);
  return node;
}

export const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

const errorList = () => $('errors');

/** Who the messages shown now come from ('' the comparison; see `asSource`). */
let source = '';

/** Runs `fn` with the messages it shows tagged as `tag`'s (a panel's attempt), so that the
 * panel's next attempt clears them alone (`clearErrors(tag)`). */
export function asSource(tag, fn) {
  const was = source;
  source = tag;
  try { return fn(); } finally { source = was; }
}

/** Adds a message to the visible error area (newest first, at most 12 kept); `from`: who shows
 * it (a panel's tag, see `asSource`). */
export function showError(message, kind = 'error', from = source) {
  const list = errorList();
  const text = String(message instanceof Error ? message.message : message);
  const item = el('li', { class: kind, 'data-source': from || null },
    el('span', { class: 'msg' }, text),
    el('button', { class: 'dismiss', title: 'Dismiss', 'aria-label': 'Dismiss', onclick: () => { item.remove(); sync(); } }, '×'));
  list.prepend(item);
  while (list.children.length > 12) list.lastChild.remove();
  sync();
}

/** Clears the messages: all, or those of `tag` alone (a panel's earlier attempts). */
export function clearErrors(tag = '') {
  if (!tag) errorList().replaceChildren();
  else for (const li of errorList().querySelectorAll(`li[data-source="${tag}"]`)) li.remove();
  sync();
}

function sync() { errorList().closest('section').hidden = errorList().children.length === 0; }

/** A busy spell's buttons (`start` disabled while `on`, `stop` enabled): the keyboard's place
 * follows them. Focus on `start` moves to `stop` as the spell begins (before, it stayed on the
 * disabled `start`, where Enter did nothing), and on `stop` back to `start` as it ends; focus
 * anywhere else stays where it is. */
export function setBusy(on, start, stop) {
  const had = document.activeElement;
  start.disabled = on;
  stop.disabled = !on;
  if (on && had === start) stop.focus();
  else if (!on && had === stop && !start.disabled) start.focus();
}

export function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const nf = (digits, least = 0) => new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, minimumFractionDigits: least });
const NF = [0, 1, 2, 3, 4].map((d) => [0, 1, 2, 3, 4].map((l) => nf(d, Math.min(l, d))));

/** `x` with at most `digits` decimals, trailing zeros dropped down to `least` decimals (a
 * column's common number: 27.64 beside 27.70, not 27.7). */
export function fmtNumber(x, digits = 2, least = 0) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞';
  return NF[Math.min(digits, 4)][Math.min(least, 4)].format(x);
}

/** The decimals a column of `values` shows in common with at most `digits` each: the most any
 * of them needs, so that one column does not read 27.64 beside 27.7. */
export function commonDecimals(values, digits) {
  let most = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    const frac = fmtNumber(v, digits).split('.')[1];
    most = Math.max(most, frac ? frac.length : 0);
  }
  return most;
}

/** `n` and `one` in the plural unless `n` is 1, `n` as fmtNumber writes whole numbers:
 * count(1, 'job') is "1 job", count(1200, 'job') "1,200 jobs", count(2, 'policy', 'policies'). */
export function count(n, one, many = `${one}s`) {
  return `${fmtNumber(n, 0)} ${n === 1 ? one : many}`;
}

/** `text` cut to `n` characters with an ellipsis (a policy's whole spec, e.g. `slurm` with a
 * slurm.conf's parameters, can run to hundreds). */
export const clip = (text, n = 48) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** 93784 -> "1d 2h 3m"; 59 -> "59s". */
export function fmtDuration(seconds) {
  if (!Number.isFinite(seconds)) return '–';
  const neg = seconds < 0;
  let s = Math.round(Math.abs(seconds));
  const parts = [];
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60]]) {
    if (s >= size) { parts.push(`${Math.floor(s / size)}${unit}`); s %= size; }
  }
  if (s || parts.length === 0) parts.push(`${s}s`);
  return (neg ? '-' : '') + parts.slice(0, 3).join(' ');
}

export function debounce(fn, ms) {
  let timer = 0;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

/** Draws the charts of `owner` lazily: one per animation frame, the first of `owner.items` that is
 * dirty and visible, with `owner.draw(item)`, until none is left. `owner.pending` guards against
 * scheduling twice; `describe(item)` names a chart in the message when drawing it fails. */
export function scheduleDraws(owner, describe) {
  if (owner.pending) return;
  owner.pending = true;
  requestAnimationFrame(() => {
    owner.pending = false;
    const item = owner.items.find((i) => i.dirty && i.visible);
    if (!item) return;
    try {
      owner.draw(item);
    } catch (err) {
      showError(`Could not draw ${describe(item)}: ${err.message}`);
      return;
    }
    if (owner.items.some((i) => i.dirty && i.visible)) scheduleDraws(owner, describe);
  });
}
