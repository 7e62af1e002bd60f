// Links: a hostile link (issue 37, item 8) with thousands of policies opens at once, with the
// first 64 and a message, the main thread never blocked for long; a link naming only a demo
// recorded on a Slurm site runs what picking the demo from the menu runs; Cancel after opening
// another link keeps the shown comparison whole; a link naming an uploaded file waits for it;
// a link whose trace URL cannot be fetched runs nothing; a link whose cluster is refused says
// "Nothing was run" with the reason. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MOCK, BASE, launch, open, errorsText, waitRuns, runs, table } from './helpers.mjs';
import { decode, encode, defaultState } from '../../www/share.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a link with 10,000 policies opens at once with the first 64 and a message', { skip: MOCK }, async () => {
  const specs = Array.from({ length: 10_000 }, (_, i) => `policy=${encodeURIComponent(`easy[order=${i % 2 ? 'sjf' : 'fcfs'}]`)}`);
  const hash = `#v=1&trace=demo:5K_sample&${specs.join('&')}`;
  // The longest task of the main thread, from the page's first script on.
  const init = `window.__longest = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: 'longtask', buffered: true });`;
  const began = Date.now();
  const { page, context } = await open(browser, hash, { init });
  await page.waitForFunction(() => document.querySelector('[data-testid="errors"]')?.innerText.includes('at most 64'), null, { timeout: 20_000 });
  const opened = Date.now() - began;
  const longest = await page.evaluate(() => window.__longest);
  assert.ok(longest < 1500, `the main thread was blocked for ${longest} ms`);
  assert.ok(opened < 15_000, `the link took ${opened} ms to read`);
  assert.match(await errorsText(page), /10,000 policies; a link holds at most 64: the first 64 are compared, the other 9,936 left out/);
  assert.equal(await page.locator('[data-testid="policy-spec"]').count(), 64);
  console.log(`10,000-policy link: longest main-thread task ${Math.round(longest)} ms, message after ${opened} ms`);
  await context.close();
});

test('a link names the sshare, qos and assoc files a slurm policy ran with, and reads the names back', () => {
  const state = { ...defaultState('hpc2n'), trace: { kind: 'file', ref: 'sacct.txt' }, policies: ['slurm'] };
  state.site = { sshareName: 'sshare.txt', qosName: 'qos.txt', assocName: 'assoc.txt' };
  const hash = encode(state);
  assert.match(hash, /&sshare=sshare\.txt&qosfile=qos\.txt&assocfile=assoc\.txt(&|$)/);
  assert.deepEqual(decode(hash, ['hpc2n']).state.siteFiles, { sshare: 'sshare.txt', qos: 'qos.txt', assoc: 'assoc.txt' });
  // Without a slurm policy the names say nothing and stay out.
  assert.doesNotMatch(encode({ ...state, policies: ['easy'] }), /assocfile/);
});

test('a link naming only the Slurm demo runs the demo\'s policies and sweep, as the menu does; other links read as before', { skip: MOCK }, async () => {
  // The link `#v=1&trace=demo:slurm-gpu` (docs name the demo) ran easy and fcfs alone: no slurm,
  // no historic, the sweep panel on pv-easy's estimate error.
  const demos = ['hpc2n', 'slurm-gpu'];
  const site = ['slurm-gpu'];
  assert.deepEqual(decode('#v=1&trace=demo:slurm-gpu', demos, site).state.policies, ['easy', 'fcfs', 'slurm', 'historic']);
  assert.deepEqual(decode('#v=1&trace=demo:hpc2n', demos, site).state.policies, ['easy', 'fcfs']);
  assert.deepEqual(decode('#v=1&trace=demo:slurm-gpu&policy=slurm', demos, site).state.policies, ['slurm']);
  assert.deepEqual(decode('#v=1&trace=demo:slurm-gpu', demos).state.policies, ['easy', 'fcfs']);

  const specs = (page) => page.$$eval('[data-testid="policy-spec"]', (xs) => xs.map((x) => x.value.trim()));
  const sweepOf = (page) => page.evaluate(() => window.schedlab.sweep.settings());
  // From the menu, on a fresh page.
  const { page: p, problems: probs, context } = await open(browser, '');
  await waitRuns(p, 1, 60_000);
  const n = await runs(p);
  await p.locator('[data-testid="trace-demo"]').selectOption('slurm-gpu');
  await waitRuns(p, n + 1, 60_000);
  const menu = { specs: await specs(p), sweep: await sweepOf(p), table: await table(p) };
  assert.deepEqual(menu.specs, ['easy', 'fcfs', 'slurm', 'historic']);
  assert.match(menu.sweep.vary, /^PriorityWeightFairshare=/);
  // From a link that names the demo alone.
  const { page: q, problems: qprobs, context: c2 } = await open(browser, '#v=1&trace=demo:slurm-gpu');
  await waitRuns(q, 1, 60_000);
  assert.deepEqual(await specs(q), menu.specs);
  assert.deepEqual(await sweepOf(q), menu.sweep);
  assert.deepEqual(await table(q), menu.table);
  assert.match(await errorsText(q), /no policy given; using the demo's: easy, fcfs, slurm and historic/);
  assert.match(await q.locator('[data-testid="share-link"]').getAttribute('href'), /&policy=easy&policy=fcfs&policy=slurm&policy=historic&/);
  await q.screenshot({ path: 'tests/browser/screenshots/link-site-demo.png' });
  assert.deepEqual(qprobs, []);
  await c2.close();
  assert.deepEqual(probs, []);
  await context.close();
});

test('Cancel after opening another link keeps the shown comparison whole: its policies, options and link come back with its results', { skip: MOCK }, async () => {
  const specs = (page) => page.$$eval('[data-testid="policy-spec"]', (xs) => xs.map((x) => x.value.trim()));
  const { page, problems, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs&seed=1');
  await waitRuns(page, 1, 60_000);
  const shown = { hash: await page.evaluate(() => location.hash), table: await table(page), facts: await page.locator('[data-testid="facts"]').innerText() };
  // Another link (typed in the address bar, or Back): its trace is read and its run starts.
  await page.evaluate(() => { location.hash = '#v=1&trace=demo:kth&policy=conservative&policy=sjbf&procs=100&seed=3'; });
  await page.waitForFunction(() => document.body.classList.contains('running'), null, { timeout: 60_000 });
  assert.deepEqual(await specs(page), ['conservative', 'sjbf']);
  await page.locator('[data-testid="cancel"]').click();
  // The HPC2N results stay, and with them their policies, options and link (before: KTH's
  // policies and options over HPC2N's results, and Run ran KTH's policies on HPC2N).
  assert.deepEqual(await table(page), shown.table);
  assert.equal(await page.locator('[data-testid="facts"]').innerText(), shown.facts);
  assert.deepEqual(await specs(page), ['easy', 'fcfs']);
  assert.equal(await page.locator('[data-testid="opt-seed"]').inputValue(), '1');
  assert.equal(await page.locator('[data-testid="opt-procs"]').inputValue(), '');
  assert.equal(await page.evaluate(() => location.hash), shown.hash);
  assert.equal(new URL(await page.locator('[data-testid="share-link"]').getAttribute('href')).hash, shown.hash);
  assert.equal(await page.evaluate(() => document.body.classList.contains('stale')), false);
  // Run again: the same comparison.
  const n = await runs(page);
  await page.locator('[data-testid="run"]').click();
  await waitRuns(page, n + 1, 60_000);
  assert.deepEqual(await table(page), shown.table);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a link naming an uploaded file runs nothing until the file comes, then the link\'s comparison on it', { skip: MOCK }, async () => {
  const hash = '#v=1&trace=file:sacct.txt&policy=easy&policy=slurm[bf_window=60]&seed=1&cluster=1/n[1-4]:c8:m16000:g2/p=batch:ALL:default';
  const { page, problems, context } = await open(browser, hash);
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]').textContent.startsWith('Upload'), null, { timeout: 30_000 });
  // Before: the HPC2N demo ran "meanwhile" on the link's 4 nodes of 8 cores (443 jobs skipped).
  assert.equal(await page.locator('[data-testid="status"]').innerText(), 'Upload sacct.txt to run the link\'s comparison.');
  assert.match(await errorsText(page), /The link names an uploaded file \(sacct\.txt\), which cannot travel in a link: upload it/);
  await page.waitForTimeout(500);
  assert.equal(await runs(page), 0);
  // The trace panel says which file the link waits for, the file input in view; before, it said
  // "Loading the demo trace…" beside the menu's HPC2N, neither of which ever came.
  assert.equal(await page.locator('[data-testid="facts"]').innerText(), 'No trace is loaded: the link\'s comparison waits for sacct.txt, a file of its sender\'s (upload it under “A file or URL”, or drop it on the page).');
  assert.equal(await page.locator('[data-testid="trace-demo"]').inputValue(), '');
  assert.ok(await page.locator('[data-testid="trace-file"]').isVisible());
  // The Overview says why its charts are empty (before, blank charts and no word).
  const empty = page.locator('[data-testid="overview-empty"]');
  assert.equal(await empty.innerText(), 'Nothing is drawn: the link\'s comparison runs once sacct.txt is uploaded.');
  await page.locator('[data-testid="trace-file"]').setInputFiles('tests/data/slurm/gpu-3/run1/sacct.txt');
  await waitRuns(page, 1, 60_000);
  assert.equal(await empty.isVisible(), false);
  assert.deepEqual(await page.$$eval('[data-testid="policy-spec"]', (xs) => xs.map((x) => x.value)), ['easy', 'slurm[bf_window=60]']);
  assert.match(await page.locator('[data-testid="facts"]').innerText(), /uploaded file: sacct\.txt[\s\S]*the cluster's cores \(4 nodes\)/);
  assert.equal(await page.evaluate(() => location.hash), hash);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a link whose trace URL cannot be fetched runs nothing and keeps the message; Load then runs the link\'s comparison', { skip: MOCK }, async () => {
  const url = 'https://down.test/sacct.txt';
  const hash = `#v=1&trace=url:${encodeURIComponent(url)}&policy=easy&policy=slurm[bf_window=60]&seed=1&cluster=1/n[1-4]:c8:m16000:g2/p=batch:ALL:default`;
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  let up = false; // the server is down, then answers
  const body = readFileSync('tests/data/slurm/gpu-3/run1/sacct.txt');
  await context.route(url, (route) => (up
    ? route.fulfill({ status: 200, body, headers: { 'access-control-allow-origin': '*' } })
    : route.abort('connectionrefused')));
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(BASE + hash);
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]').textContent.includes('could not be loaded'), null, { timeout: 30_000 });
  // Before: "... Showing the demo instead.", and the HPC2N demo ran on the link's 4 nodes of 8
  // cores (443 jobs skipped).
  assert.equal(await page.locator('[data-testid="status"]').innerText(), 'The link\'s trace could not be loaded: nothing ran.');
  assert.match(await errorsText(page), /https:\/\/down\.test\/sacct\.txt: could not fetch it .*\. Nothing ran: press Load under “A file or URL” to try again, or pick another trace\./);
  assert.doesNotMatch(await errorsText(page), /demo/);
  await page.waitForTimeout(500);
  assert.equal(await runs(page), 0);
  assert.equal(await page.locator('[data-testid="trace-url"]').inputValue(), url);
  assert.ok(await page.locator('[data-testid="trace-url"]').isVisible());
  assert.match(await page.locator('[data-testid="facts"]').innerText(), /^No trace is loaded: the link's trace could not be loaded/);
  assert.equal(await page.locator('[data-testid="trace-demo"]').inputValue(), '');
  up = true;
  await page.locator('[data-testid="trace-url-load"]').click();
  await waitRuns(page, 1, 60_000);
  assert.deepEqual(await page.$$eval('[data-testid="policy-spec"]', (xs) => xs.map((x) => x.value)), ['easy', 'slurm[bf_window=60]']);
  assert.match(await page.locator('[data-testid="facts"]').innerText(), /URL: https:\/\/down\.test\/sacct\.txt[\s\S]*the cluster's cores \(4 nodes\)/);
  assert.deepEqual(problems.filter((p) => !p.includes('Failed to load resource')), []);
  await context.close();
});

test('a link whose cluster is refused says "Nothing was run" with the reason, and marks the results shown as another run\'s', { skip: MOCK }, async () => {
  const bad = '1/n[1-4]:c0:m0/p=all:ALL:default';
  const why = 'Cluster: compact cluster: item 1 (n[1-4]:c0:m0): c (CPUs): 0; a node has at least 1';
  const status = (p) => p.locator('[data-testid="status"]').innerText();
  // Opened first: nothing is shown, and the status said "Loading the trace…" for ever before.
  const { page, problems, context } = await open(browser, `#v=1&trace=demo:hpc2n&policy=easy&cluster=${bad}`);
  await page.waitForFunction(() => /^Nothing was run/.test(document.querySelector('[data-testid="status"]').textContent), null, { timeout: 30_000 });
  assert.equal(await status(page), `Nothing was run: ${why}.`);
  assert.match(await errorsText(page), new RegExp(why.replace(/[[\]().]/g, '\\$&')));
  assert.equal(await page.locator('[data-testid="overview-empty"]').innerText(), 'Nothing is drawn: the settings were refused. Their errors are under Messages.');
  assert.equal(await runs(page), 0);
  // Opened over shown results: they stay, marked as the previous run's (before: unmarked).
  await page.evaluate(() => { location.hash = '#v=1&trace=demo:hpc2n&policy=fcfs'; });
  await waitRuns(page, 1, 60_000);
  assert.equal(await page.locator('[data-testid="stale-results"]').isHidden(), true);
  await page.evaluate((h) => { location.hash = h; }, `#v=1&trace=demo:hpc2n&policy=easy&cluster=${bad}`);
  await page.waitForFunction(() => /^Nothing was run/.test(document.querySelector('[data-testid="status"]').textContent), null, { timeout: 30_000 });
  assert.equal(await status(page), `Nothing was run: ${why}.`);
  assert.deepEqual(Object.keys(await table(page)), ['fcfs']);
  assert.equal(await page.locator('[data-testid="stale-results"]').isVisible(), true);
  assert.equal(await runs(page), 1);
  assert.deepEqual(problems, []);
  await context.close();
});
