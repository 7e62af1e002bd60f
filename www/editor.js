// The custom policy editor: JavaScript that defines `function schedule(view)` (see custom.js
// for the API), a name (the policy is `js:NAME` in the comparison), the examples, saving to and
// loading from a .js file, and localStorage so that it survives a reload. The code is never
// run on the page's main thread (only parsed, to report syntax errors early) and never put in
// a link: the worker runs it.
import { EXAMPLES, MAX_CODE, syntaxMessage, forbidden } from './custom.js';
import { $, showError, download, debounce } from './ui.js';

const STORE = 'schedlab.customPolicy';
const NAME = /^[A-Za-z0-9._-]{1,40}$/;

export class CodeEditor {
  /** onAdd(spec): add `js:NAME` to the comparison; onChange(): the policy changed. */
  constructor(onAdd, onChange) {
    this.code = $('policy-code');
    this.name = $('policy-code-name');
    this.gutter = $('policy-code-lines');
    this.onChange = onChange;
    const saved = this.load();
    this.code.value = saved.code;
    this.name.value = saved.name;
    this.numberLines();
    const store = debounce(() => this.store(), 300);
    this.code.addEventListener('input', () => { this.numberLines(); store(); this.onChange(); });
    this.code.addEventListener('scroll', () => { this.gutter.scrollTop = this.code.scrollTop; });
    this.code.addEventListener('keydown', (e) => {
      if (e.key !== 'Tab' || e.shiftKey || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      this.code.setRangeText('  ', this.code.selectionStart, this.code.selectionEnd, 'end');
      this.code.dispatchEvent(new Event('input'));
    });
    this.name.addEventListener('input', () => { store(); this.onChange(); });
    $('policy-code-examples').addEventListener('change', (e) => {
      const key = e.target.value;
      e.target.value = '';
      if (!EXAMPLES[key]) return;
      this.code.value = EXAMPLES[key];
      this.name.value = key;
      this.code.dispatchEvent(new Event('input'));
      this.name.dispatchEvent(new Event('input'));
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
      this.code.value = await file.text();
      const base = file.name.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 40);
      if (base) this.name.value = base;
      this.code.dispatchEvent(new Event('input'));
      this.name.dispatchEvent(new Event('input'));
    });
  }

  load() {
    try {
      const s = JSON.parse(localStorage.getItem(STORE) ?? 'null');
      if (s && typeof s.code === 'string' && typeof s.name === 'string') return s;
    } catch { /* storage unavailable or damaged: start from the example */ }
    return { name: 'easy', code: EXAMPLES.easy };
  }

  store() {
    try { localStorage.setItem(STORE, JSON.stringify({ name: this.name.value, code: this.code.value })); } catch { /* private mode: not kept */ }
  }

  numberLines() {
    const n = this.code.value.split('\n').length;
    if (this.gutter.childElementCount !== n) {
      this.gutter.textContent = Array.from({ length: n }, (_, i) => i + 1).join('\n');
    }
    this.gutter.scrollTop = this.code.scrollTop;
  }

  spec() { return `js:${this.name.value.trim()}`; }

  /** What is wrong with the policy as it stands (parsed only, never run here), or null. */
  problem() {
    const name = this.name.value.trim();
    if (!NAME.test(name)) return `the name "${name}" must be 1 to 40 letters, digits, '-', '_' or '.'`;
    const code = this.code.value;
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

  /** Checks a `js:NAME` spec of the picker against the editor; returns it or throws. */
  check(spec) {
    if (spec !== this.spec()) {
      throw new Error(`no custom policy named "${spec.slice(3)}": the editor holds js:${this.name.value.trim()}`);
    }
    const problem = this.problem();
    if (problem) throw new Error(problem);
    return spec;
  }

  /** The policy the worker runs: {name, code}. */
  current() { return { name: this.name.value.trim(), code: this.code.value }; }
}
