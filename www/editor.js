// The custom policy editor: named JavaScript policies, each defining `function schedule(view)`
// (see custom.js for the API). Each is its own entry (the list above the code; New, Delete, an
// example or a loaded .js file makes another), `js:NAME` in the comparison, and all of them are
// kept in localStorage so that they survive a reload. Several can run in one comparison, each
// in a sealed worker of its own (runner.js), failing alone. The code is never run on the page's
// main thread (only parsed, to report syntax errors early) and never put in a link.
import { EXAMPLES, MAX_CODE, syntaxMessage, forbidden } from './custom.js';
import { $, el, showError, download, debounce } from './ui.js';

const STORE = 'schedlab.customPolicies';
const OLD_STORE = 'schedlab.customPolicy'; // one policy {name, code}, before there were several
const NAME = /^[A-Za-z0-9._-]{1,40}$/;
/** Most policies the editor keeps. */
export const MAX_POLICIES = 20;

export class CodeEditor {
  /** onAdd(spec): add `js:NAME` to the comparison; onChange(): a policy changed;
   * onRename(oldSpec, newSpec): the selected policy was renamed (the comparison follows). */
  constructor(onAdd, onChange, onRename = () => {}) {
    this.code = $('policy-code');
    this.name = $('policy-code-name');
    this.gutter = $('policy-code-lines');
    this.list = $('policy-code-list');
    this.onChange = onChange;
    const saved = this.load();
    this.policies = saved.policies;
    this.at = saved.at;
    this.showCurrent();
    const store = debounce(() => this.store(), 300);
    this.code.addEventListener('input', () => {
      this.policies[this.at].code = this.code.value;
      this.numberLines();
      store();
      this.onChange();
    });
    this.code.addEventListener('scroll', () => { this.gutter.scrollTop = this.code.scrollTop; });
    this.code.addEventListener('keydown', (e) => {
      if (e.key !== 'Tab' || e.shiftKey || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      this.code.setRangeText('  ', this.code.selectionStart, this.code.selectionEnd, 'end');
      this.code.dispatchEvent(new Event('input'));
    });
    this.name.addEventListener('input', () => {
      const entry = this.policies[this.at];
      const old = entry.name.trim();
      entry.name = this.name.value;
      const now = entry.name.trim();
      // The comparison's entry follows a rename, unless another policy had the old name.
      if (old !== now && !this.policies.some((p) => p !== entry && p.name.trim() === old)) onRename(`js:${old}`, `js:${now}`);
      this.fillList();
      store();
      this.onChange();
    });
    this.list.addEventListener('change', () => { this.at = Number(this.list.value); this.showCurrent(); store(); });
    $('policy-code-new').addEventListener('click', () => {
      this.create({ name: this.freeName('policy'), code: 'function schedule(view) {\n  return [];\n}\n' });
    });
    $('policy-code-delete').addEventListener('click', () => {
      if (this.policies.length <= 1) return;
      this.policies.splice(this.at, 1);
      this.at = Math.min(this.at, this.policies.length - 1);
      this.showCurrent();
      this.store();
      this.onChange();
    });
    $('policy-code-examples').addEventListener('change', (e) => {
      const key = e.target.value;
      e.target.value = '';
      if (!EXAMPLES[key]) return;
      // The example as its own policy (the one already kept, if unchanged).
      const same = this.policies.findIndex((p) => p.name.trim() === key && p.code === EXAMPLES[key]);
      if (same >= 0) { this.at = same; this.showCurrent(); this.store(); return; }
      this.create({ name: this.freeName(key), code: EXAMPLES[key] });
    });
    $('policy-code-add').addEventListener('click', () => {
      const problem = this.problem();
      if (problem) { showError(`Custom policy: ${problem}`); return; }
      onAdd(this.spec());
    });
    $('policy-code-save').addEventListener('click', () => {
      download(`${this.name.value.trim() || 'policy'}.js`, new Blob([this.code.value], { type: 'text/javascript' }));
    });
    $('policy-code-file').addEventListener('change', async (e) => {
      const file = e.target.files?.[0];
      e.target.value = '';
      if (!file) return;
      if (file.size > MAX_CODE) { showError(`Custom policy: ${file.name} is larger than ${MAX_CODE.toLocaleString('en-US')} bytes.`); return; }
      const code = await file.text();
      const base = file.name.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 40) || 'policy';
      this.create({ name: this.freeName(base), code });
    });
  }

  /** Adds `policy` as a new entry and selects it. */
  create(policy) {
    if (this.policies.length >= MAX_POLICIES) {
      showError(`Custom policy: the editor keeps at most ${MAX_POLICIES} policies; delete one first.`);
      return;
    }
    this.policies.push(policy);
    this.at = this.policies.length - 1;
    this.showCurrent();
    this.store();
    this.onChange();
  }

  /** `base`, or `base-2`, `base-3`... : a name no policy has. */
  freeName(base) {
    const taken = new Set(this.policies.map((p) => p.name.trim()));
    if (!taken.has(base)) return base;
    for (let k = 2; ; k++) if (!taken.has(`${base.slice(0, 36)}-${k}`)) return `${base.slice(0, 36)}-${k}`;
  }

  showCurrent() {
    const p = this.policies[this.at];
    this.code.value = p.code;
    this.name.value = p.name;
    this.fillList();
    this.numberLines();
    $('policy-code-delete').disabled = this.policies.length <= 1;
  }

  fillList() {
    this.list.replaceChildren(...this.policies.map((p, i) => el('option', { value: String(i) }, `js:${p.name.trim() || '(no name)'}`)));
    this.list.value = String(this.at);
  }

  load() {
    const valid = (p) => p && typeof p.code === 'string' && typeof p.name === 'string';
    try {
      const s = JSON.parse(localStorage.getItem(STORE) ?? 'null');
      if (s && Array.isArray(s.policies)) {
        const policies = s.policies.filter(valid).slice(0, MAX_POLICIES).map(({ name, code }) => ({ name, code }));
        if (policies.length) return { policies, at: Number.isInteger(s.at) && s.at >= 0 && s.at < policies.length ? s.at : 0 };
      }
      const old = JSON.parse(localStorage.getItem(OLD_STORE) ?? 'null');
      if (valid(old)) return { policies: [{ name: old.name, code: old.code }], at: 0 };
    } catch { /* storage unavailable or damaged: start from the example */ }
    return { policies: [{ name: 'easy', code: EXAMPLES.easy }], at: 0 };
  }

  store() {
    try { localStorage.setItem(STORE, JSON.stringify({ at: this.at, policies: this.policies })); } catch { /* private mode: not kept */ }
  }

  numberLines() {
    const n = this.code.value.split('\n').length;
    if (this.gutter.childElementCount !== n) {
      this.gutter.textContent = Array.from({ length: n }, (_, i) => i + 1).join('\n');
    }
    this.gutter.scrollTop = this.code.scrollTop;
  }

  /** The selected policy's spec. */
  spec() { return `js:${this.name.value.trim()}`; }

  /** What is wrong with `policy` (the selected one by default; parsed only, never run here), or null. */
  problem(policy = this.policies[this.at]) {
    const name = policy.name.trim();
    if (!NAME.test(name)) return `the name "${name}" must be 1 to 40 letters, digits, '-', '_' or '.'`;
    if (this.policies.filter((p) => p.name.trim() === name).length > 1) return `two custom policies are named ${name}: rename one`;
    const code = policy.code;
    if (!code.trim()) return 'the code is empty';
    if (code.length > MAX_CODE) return `the code is longer than ${MAX_CODE.toLocaleString('en-US')} characters`;
    try {
      // Parsing only: the body is compiled into a function that is never called.
      new Function(`"use strict";${code}`); // eslint-disable-line no-new-func
    } catch (err) {
      return err instanceof SyntaxError ? syntaxMessage(code, err) : `the code does not compile: ${err.message}`;
    }
    const refused = forbidden(code);
    if (refused) return refused;
    if (!/\bfunction\s+schedule\s*\(|\bschedule\s*=/.test(code)) return 'the code must define function schedule(view)';
    return null;
  }

  /** Checks a `js:NAME` spec of the picker against the editor's policies; returns it or throws. */
  check(spec) {
    const policy = this.policies.find((p) => `js:${p.name.trim()}` === spec);
    if (!policy) {
      const names = this.policies.map((p) => `js:${p.name.trim()}`).join(', ');
      throw new Error(`no custom policy named "${spec.slice(3)}": the editor holds ${names}`);
    }
    const problem = this.problem(policy);
    if (problem) throw new Error(problem);
    return spec;
  }

  /** The policy the worker runs for `spec` (`js:NAME`): {name, code}, or null. */
  policy(spec) {
    const p = this.policies.find((q) => `js:${q.name.trim()}` === spec);
    return p ? { name: p.name.trim(), code: p.code } : null;
  }

  /** The selected policy: {name, code}. */
  current() { return { name: this.name.value.trim(), code: this.code.value }; }
}
