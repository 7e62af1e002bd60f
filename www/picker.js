// The policy picker: one card per policy, built from the engine's catalogue. Each card has the
// spec string (editable), an editor per key (a select for choice keys, a text input otherwise)
// folded under "keys" (one Tab stop per card until opened), the engine's validation message and
// a remove button.
import { el } from './ui.js';

const CHOICE = /^[a-z0-9_.-]+(\|[a-z0-9_.-]+)+$/;

/** Splits "name[k=v,k2=x[y=1],q=expr(min(a,b))]" like the engine does (commas inside brackets
 * or parentheses belong to the value); null when it is not of that shape. */
export function parseSpec(text) {
  const s = text.trim();
  const open = s.indexOf('[');
  if (open < 0) return { name: s, params: {} };
  if (!s.endsWith(']')) return null;
  const params = {};
  let depth = 0, begin = open + 1;
  const inner = s.slice(0, -1);
  for (let i = open + 1; i <= inner.length; i++) {
    const ch = inner[i];
    if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    if (depth < 0) return null;
    if (i === inner.length || (ch === ',' && depth === 0)) {
      const part = inner.slice(begin, i).trim();
      begin = i + 1;
      if (!part) continue;
      const eq = part.indexOf('=');
      if (eq < 0) return null;
      params[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    }
  }
  return depth === 0 ? { name: s.slice(0, open).trim(), params } : null;
}

export class Picker {
  /** root: the container; catalogue: policies(); canonical: spec -> canonical spec (throws). */
  constructor(root, catalogue, canonical, onChange) {
    this.root = root;
    this.catalogue = catalogue;
    this.canonical = canonical;
    this.onChange = onChange;
    this.entries = [];
    this.list = el('ol', { class: 'policy-list' });
    const names = el('select', { 'aria-label': 'Policy to add', 'data-testid': 'policy-add-name' },
      catalogue.map((p) => el('option', { value: p.name, title: p.summary }, `${p.name} — ${p.summary}`)));
    const add = el('button', { type: 'button', 'data-testid': 'policy-add', onclick: () => { this.add(names.value); this.onChange(); } }, 'Add');
    root.replaceChildren(this.list, el('div', { class: 'policy-add' }, names, add));
  }

  info(name) { return this.catalogue.find((p) => p.name === name); }

  set(specs) {
    for (const e of this.entries) e.card.remove();
    this.entries = [];
    for (const s of specs) this.add(s);
  }

  add(specText) {
    const entry = { spec: specText, canonical: null, error: null };
    entry.input = el('input', { class: 'spec', type: 'text', spellcheck: false, value: specText, 'aria-label': 'Policy spec',
      'data-testid': 'policy-spec', oninput: () => { entry.spec = entry.input.value; this.check(entry, false); this.onChange(); } });
    entry.keys = el('div', { class: 'keys' });
    entry.keysBox = el('details', { class: 'keys-box', hidden: true }, el('summary', {}, 'keys'), entry.keys);
    entry.message = el('div', { class: 'spec-error', role: 'alert', 'data-testid': 'policy-error' });
    entry.summary = el('div', { class: 'summary' });
    const remove = el('button', { type: 'button', class: 'remove', title: 'Remove this policy', 'aria-label': 'Remove policy',
      'data-testid': 'policy-remove', onclick: () => { entry.card.remove(); this.entries.splice(this.entries.indexOf(entry), 1); this.mark(); this.onChange(); } }, '×');
    entry.card = el('li', { class: 'policy-card', 'data-testid': 'policy-entry' },
      el('div', { class: 'spec-row' }, entry.input, remove), entry.summary, entry.keysBox, entry.message);
    this.entries.push(entry);
    this.list.append(entry.card);
    this.check(entry, true);
    return entry;
  }

  /** Validates entry.spec; rebuilds the key editors when the policy name changed (or rebuild). */
  check(entry, rebuild) {
    const parsed = parseSpec(entry.spec);
    const info = parsed && this.info(parsed.name);
    if (rebuild || entry.name !== info?.name) this.buildKeys(entry, info, parsed?.params ?? {});
    else if (info) this.syncKeys(entry, info, parsed.params);
    entry.name = info?.name;
    entry.summary.textContent = info ? info.summary : '';
    entry.summary.title = info ? `${info.description}\nSource: ${info.source}` : '';
    try {
      entry.canonical = this.canonical(entry.spec);
      entry.error = null;
    } catch (err) {
      entry.canonical = null;
      entry.error = err.message;
    }
    this.mark();
  }

  /** Shows each entry's error, or a note when an earlier entry is the same policy. */
  mark() {
    const seen = new Set();
    for (const e of this.entries) {
      const dup = e.canonical && seen.has(e.canonical);
      if (e.canonical) seen.add(e.canonical);
      e.message.textContent = e.error ?? (dup ? `same policy as above (${e.canonical}); it runs once` : '');
      e.card.classList.toggle('invalid', !!e.error);
      e.card.classList.toggle('duplicate', !!dup);
    }
  }

  buildKeys(entry, info, params) {
    entry.editors = {};
    entry.keys.replaceChildren();
    entry.keysBox.hidden = !info?.keys.length;
    if (!info) return;
    entry.keysBox.querySelector('summary').textContent = `keys (${info.keys.map((k) => k.name).join(', ')})`;
    for (const key of info.keys) {
      const value = params[key.name] ?? key.default;
      let editor;
      if (CHOICE.test(key.values)) {
        const choices = key.values.split('|');
        editor = el('select', { 'data-key': key.name },
          choices.map((c) => el('option', { value: c, selected: c === value }, c + (c === key.default ? ' (default)' : ''))));
        if (!choices.includes(value)) editor.append(el('option', { value, selected: true }, value));
      } else {
        editor = el('input', { type: 'text', 'data-key': key.name, value, placeholder: key.values, spellcheck: false });
      }
      editor.addEventListener(editor.tagName === 'SELECT' ? 'change' : 'input', () => this.fromKeys(entry, info));
      entry.editors[key.name] = editor;
      entry.keys.append(el('label', { title: `${key.help}\nValues: ${key.values}; default ${key.default}` },
        el('span', {}, key.name), editor));
    }
  }

  syncKeys(entry, info, params) {
    for (const key of info.keys) {
      const editor = entry.editors[key.name];
      const value = params[key.name] ?? key.default;
      if (editor && editor.value !== value && document.activeElement !== editor) {
        if (editor.tagName === 'SELECT' && ![...editor.options].some((o) => o.value === value)) editor.append(el('option', { value }, value));
        editor.value = value;
      }
    }
  }

  /** A key editor changed: write the spec from the editors (non-default keys only). */
  fromKeys(entry, info) {
    const kept = info.keys.filter((k) => entry.editors[k.name].value.trim() !== k.default)
      .map((k) => `${k.name}=${entry.editors[k.name].value.trim()}`);
    entry.spec = kept.length ? `${info.name}[${kept.join(',')}]` : info.name;
    entry.input.value = entry.spec;
    this.check(entry, false);
    this.onChange();
  }

  /** Entries of spec `from` become `to` (a custom policy renamed in its editor). */
  rename(from, to) {
    for (const e of this.entries) {
      if (e.spec.trim() !== from) continue;
      e.spec = to;
      e.input.value = to;
      this.check(e, false);
    }
  }

  /** Canonical specs of the valid entries, without duplicates. */
  validSpecs() {
    return [...new Set(this.entries.filter((e) => e.canonical).map((e) => e.canonical))];
  }

  invalid() { return this.entries.filter((e) => !e.canonical); }
}
