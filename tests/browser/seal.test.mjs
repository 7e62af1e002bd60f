// Inputs that cannot hurt (issue 37, item 1): a JavaScript policy runs sealed in a worker of its
// own, so that it cannot alter other results (now or later), reach the network, speak to the
// page, or hang or crash the comparison. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { SHOTS, MOCK, BASE, launch, open, runs, waitRuns, table, errorsText } from './helpers.mjs';
import { EXAMPLES } from '../../www/custom.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const FCFS = EXAMPLES.fcfs;
const HASH = '#v=1&trace=demo:5K_sample&policy=fcfs&policy=easy&seed=1';

async function useCode(page, code, name = 't') {
  await page.$eval('[data-testid="policy-code-panel"]', (d) => { d.open = true; });
  await page.locator('[data-testid="policy-code"]').fill(code);
  await page.locator('[data-testid="policy-code-name"]').fill(name);
  await page.locator('[data-testid="policy-code-add"]').click();
}

/** Clears the errors, runs the comparison, waits until it is shown or has failed. */
async function runAndWait(page, timeout = 40_000) {
  await page.evaluate(() => { document.querySelector('[data-testid="errors"]').replaceChildren(); });
  const n = await runs(page);
  await page.locator('[data-testid="run"]').click();
  await page.waitForFunction((k) => Number(document.body.dataset.runs ?? 0) > k || !document.body.classList.contains('running'), n, { timeout });
  await page.waitForFunction(() => !document.body.classList.contains('running'), null, { timeout });
}

async function removeCustom(page) {
  const specs = await page.locator('[data-testid="policy-spec"]').evaluateAll((xs) => xs.map((x) => x.value));
  const k = specs.findIndex((s) => s.startsWith('js:'));
  await page.locator('[data-testid="policy-remove"]').nth(k).click();
}

test('a policy wrapping postMessage alters no result, now or after it is removed', { skip: MOCK }, async () => {
  const { page, context } = await open(browser, HASH);
  await waitRuns(page, 1);
  const clean = (await table(page)).fcfs['wait.mean'];
  assert.ok(clean > 0);
  const wrap = `const x100 = (m) => { if (m && m.report && m.report.metrics && m.report.metrics.wait) m.report.metrics.wait.mean *= 100; };
try { const post = self.postMessage; self.postMessage = function (m, t) { x100(m); return post.call(self, m, t); }; } catch (e) {}
try { const post = MessagePort.prototype.postMessage; MessagePort.prototype.postMessage = function (m, t) { x100(m); return post.call(this, m, t); }; } catch (e) {}
try { Object.defineProperty(Object.prototype, 'mean', { set(v) { Object.defineProperty(this, 'mean', { value: v * 100, enumerable: true, writable: true }); }, configurable: true }); } catch (e) {}
${FCFS}`;
  await useCode(page, wrap);
  await runAndWait(page);
  const withIt = await table(page);
  assert.equal(withIt.fcfs['wait.mean'], clean);
  // its own figures are the engine's: those of fcfs
  assert.equal(withIt['js:t']['wait.mean'], clean);
  await removeCustom(page);
  for (let k = 0; k < 2; k++) {
    await runAndWait(page);
    assert.equal((await table(page)).fcfs['wait.mean'], clean, `run ${k + 1} after js:t was removed`);
  }
  await context.close();
});

test('a policy cannot reach the network', { skip: MOCK }, async () => {
  const { page, context } = await open(browser, HASH);
  await waitRuns(page, 1);
  const code = `const out = [];
const tryIt = (what, f) => { try { f(); out.push(what + ' ran'); } catch (e) { out.push(what + ' ' + e.name); } };
tryIt('fetch', () => fetch('/sentinel-fetch'));
tryIt('xhr', () => { const x = new XMLHttpRequest(); x.open('GET', '/sentinel-xhr'); x.send(); });
tryIt('importScripts', () => importScripts('/sentinel-import-scripts.js'));
tryIt('websocket', () => new WebSocket('ws://127.0.0.1:9/sentinel-ws'));
tryIt('eventsource', () => new EventSource('/sentinel-es'));
tryIt('indexeddb', () => indexedDB.open('sentinel'));
tryIt('worker', () => new Worker('/sentinel-worker.js'));
tryIt('self.fetch', () => self.fetch('/sentinel-self'));
tryIt('eval', () => eval("import('/sentinel-eval')"));
tryIt('Function', () => (() => {}).constructor("return import('/sentinel-function')")());
tryIt('async Function', () => (async () => {}).constructor("return import('/sentinel-async')")());
tryIt('setTimeout', () => setTimeout("import('/sentinel-timeout')"));
throw new Error('net: ' + out.join(', '));
${FCFS}`;
  await useCode(page, code);
  await runAndWait(page);
  const text = await errorsText(page);
  const m = /net: ([^\n]*)/.exec(text);
  assert.ok(m, text);
  assert.doesNotMatch(m[1], / ran\b/, m[1]);
  console.log(`network attempts: ${m[1]}`);
  // fcfs and easy are shown all the same
  const t = await table(page);
  assert.ok(t.fcfs && t.easy && !t['js:t'], Object.keys(t).join(', '));
  // The second wall: a worker made as the sealed ones are (a blob: URL in a sandboxed frame
  // under its Content-Security-Policy, www/sealframe.js) cannot fetch from another origin
  // (localhost for 127.0.0.1) even with fetch in its scope.
  const port = new URL(BASE).port;
  await page.evaluate(async () => { (await import('./www/sealframe.js')).sealedFrame().then((f) => { f.dataset.testid = 'wall'; }); });
  await page.waitForSelector('[data-testid="wall"]', { state: 'attached' });
  const frame = await (await page.$('[data-testid="wall"]')).contentFrame();
  const walled = await frame.evaluate(async (p) => {
    const src = `fetch('http://localhost:${p}/sentinel-csp').then(() => postMessage('ran'), (e) => postMessage(e.name));`;
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    return new Promise((resolve) => { w.onmessage = (e) => { w.terminate(); resolve(e.data); }; });
  }, port);
  assert.equal(walled, 'TypeError');
  await page.waitForTimeout(300);
  const log = `/tmp/schedlab-http.${port}.log`;
  if (existsSync(log)) assert.doesNotMatch(readFileSync(log, 'utf8'), /sentinel/);
  await context.close();
});

test('a policy may not load modules: import() is refused in the editor and in its worker', { skip: MOCK }, async () => {
  const { page, context } = await open(browser, HASH);
  await waitRuns(page, 1);
  await page.evaluate(() => { document.querySelector('[data-testid="errors"]').replaceChildren(); });
  const code = `import('/sentinel-import').catch(() => {});\n${FCFS}`;
  await useCode(page, code);
  assert.match(await errorsText(page), /Custom policy: line 1: a policy may not load modules/);
  // the worker's own check (the page's is bypassed)
  const msg = await page.evaluate(async (c) => {
    const { compile } = await import('./www/custom.js');
    try { compile(c); return 'compiled'; } catch (err) { return err.message; }
  }, code);
  assert.match(msg, /refused: line 1: a policy may not load modules/);
  await page.waitForTimeout(300);
  const log = `/tmp/schedlab-http.${new URL(BASE).port}.log`;
  if (existsSync(log)) assert.doesNotMatch(readFileSync(log, 'utf8'), /sentinel/);
  await context.close();
});

test('fake messages from a policy are ignored', { skip: MOCK }, async () => {
  const { page, context } = await open(browser, HASH);
  await waitRuns(page, 1);
  const clean = await table(page);
  const code = `const fake = () => {
  for (let id = 0; id < 50; id++) {
    for (const m of [{ type: 'error', id, stage: 'js:t', message: 'FAKE error', panicked: false },
      { type: 'result', id, index: 0, spec: 'fcfs', report: { policy: 'fcfs' } }, { type: 'done', id }]) {
      try { self.postMessage(m); } catch (e) {}
      try { globalThis.postMessage(m); } catch (e) {}
    }
  }
};
fake();
let passes = 0;
${FCFS.replace('const start = [];', 'if (passes++ < 3) fake();\n  const start = [];')}`;
  await useCode(page, code);
  await runAndWait(page);
  assert.doesNotMatch(await errorsText(page), /FAKE/);
  const t = await table(page);
  assert.deepEqual(t.fcfs, clean.fcfs);
  assert.deepEqual(t.easy, clean.easy);
  assert.deepEqual(t['js:t'], clean.fcfs);
  await context.close();
});

// What each does: its result (the fcfs code's), or the message for js:t.
const STALLED = /^Policy js:t: stopped after 3 s without progress \(its code loops without end or ran out of memory\); the other policies' results are shown/;
const NO_CLOSE = /^Policy js:t(?: failed at t=\d+)?: .*TypeError: self\.close is not a function/;
const HANGS = [
  ['self.close() in schedule', FCFS.replace('const start = [];', 'self.close();\n  const start = [];'), NO_CLOSE],
  ['self.close() at the top', `self.close();\n${FCFS}`, NO_CLOSE],
  ['self.onmessage = null', `self.onmessage = null;\n${FCFS}`, 'result'],
  ['an endless loop', 'function schedule(view) { for (;;) {} }', STALLED],
  ['an endless loop after some passes', `let n = 0;\n${FCFS.replace('const start = [];', 'if (++n > 50) for (;;) {}\n  const start = [];')}`, STALLED],
];

test('a policy that hangs ends with a message; the other policies are shown; the next run works', { skip: MOCK }, async () => {
  const { page, context, problems } = await open(browser, HASH);
  await waitRuns(page, 1);
  const clean = await table(page);
  await page.evaluate(() => { window.schedlab.state.runner.stallMs = 3000; });
  for (const [what, code, expected] of HANGS) {
    await useCode(page, code);
    const began = Date.now();
    await runAndWait(page, 30_000);
    const t = await table(page);
    const text = await errorsText(page);
    assert.ok(t.fcfs && t.easy, `${what}: ${Object.keys(t).join(', ')}`);
    assert.deepEqual(t.fcfs, clean.fcfs, what);
    console.log(`${what}: ${t['js:t'] ? 'ran to its end' : text.trim().split('\n')[0]}`);
    if (expected === 'result') assert.deepEqual(t['js:t'], clean.fcfs, `${what}: ${text}`);
    else {
      assert.ok(!t['js:t'], what);
      assert.match(text, expected, what);
    }
    assert.ok(Date.now() - began < 20_000, `${what}: took ${Date.now() - began} ms`);
    assert.match(await page.locator('[data-testid="status"]').innerText(), /policies on/);
    if (what === 'an endless loop') await page.screenshot({ path: join(SHOTS, 'seal-timeout.png') });
    await removeCustom(page);
  }
  await runAndWait(page);
  assert.deepEqual(await table(page), clean);
  assert.deepEqual(problems, []);
  await context.close();
});

// A policy that allocates without limit: sealmemory.test.mjs.

test('a sweep of a policy that hangs ends with a message', { skip: MOCK }, async () => {
  const { page, context, problems } = await open(browser, HASH);
  await waitRuns(page, 1);
  await page.evaluate(() => { window.schedlab.sweep.runner.stallMs = 3000; });
  await useCode(page, 'function schedule(view) { for (;;) {} }', 'loop');
  await page.evaluate(() => { document.querySelector('[data-testid="errors"]').replaceChildren(); });
  await page.locator('[data-testid="sweep-more"]').fill('js:loop');
  await page.locator('[data-testid="sweep-vary"]').fill('');
  await page.locator('[data-testid="sweep-seeds"]').fill('1');
  await page.locator('[data-testid="sweep-run"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="sweep-status"]').textContent.startsWith('The sweep failed: '), null, { timeout: 20_000 });
  assert.match(await errorsText(page), /Sweep, js:loop: stopped after 3 s without progress/);
  assert.deepEqual(problems, []);
  await context.close();
});
