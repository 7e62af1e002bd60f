// The sweep panel: a small sweep (2 policies x 2 values x 2 seeds) draws a non-blank chart whose
// numbers equal `schedlab sweep`; Cancel stops a long sweep and the next one works; bad input
// gives a message (beside the button too); a slurm key swept on the Slurm demo from its link. Run
// through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, SHOTS, MOCK, launch, open, waitRuns, cliBinary, distinctColours, errorsText } from './helpers.mjs';

const POLICIES = ['easy[predictor=virtual]', 'pv-easy[predictor=virtual]'];
const CHART = '[data-testid="chart-sweep"]';

let browser, page, problems;

before(async () => {
  browser = await launch();
  ({ page, problems } = await open(browser));
  await waitRuns(page, 1);
});
after(async () => { await browser?.close(); });

async function sweep(p, { policies = POLICIES, vary, seeds, metric = 'mbs' }) {
  await p.locator('[data-testid="sweep-more"]').fill(policies.join('\n'));
  await p.locator('[data-testid="sweep-vary"]').fill(vary);
  await p.locator('[data-testid="sweep-seeds"]').fill(String(seeds));
  await p.locator('[data-testid="sweep-metric"]').selectOption(metric);
  await p.locator('[data-testid="sweep-run"]').click();
}

const drawn = (p) => p.waitForFunction((sel) => document.querySelector(sel)?.dataset.stats, CHART, { timeout: 60_000 });

/** `schedlab sweep` rows: {spec: [mean, min, max] per value}. */
function cliSweep(policies, vary, seeds, metric) {
  const args = ['sweep', 'www/demo/hpc2n.swf.gz', ...policies.flatMap((p) => ['-p', p]), '--vary', vary, '--seeds', String(seeds), '--metric', metric];
  const out = execFileSync(cliBinary(), args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  return out.trim().split('\n').slice(1).map((line) => line.trim().split(/\s+/).slice(-3).map(Number));
}

test('a small sweep draws a non-blank chart with the numbers of `schedlab sweep`', { skip: MOCK ? 'mock engine' : false }, async () => {
  await page.locator('[data-testid="sweep-run"]').scrollIntoViewIfNeeded();
  await sweep(page, { vary: 'err=0,1', seeds: 2 });
  await drawn(page);
  assert.ok(await distinctColours(page, CHART) > 4, 'the sweep chart is blank');
  const data = await page.$eval(CHART, (c) => ({ stats: JSON.parse(c.dataset.stats), values: JSON.parse(c.dataset.values), policies: JSON.parse(c.dataset.policies) }));
  assert.deepEqual(data.values, ['0', '1']);
  assert.deepEqual(data.policies, POLICIES);
  assert.equal(data.stats.length, 2 * 2 * 3);
  assert.match(await page.locator('[data-testid="sweep-status"]').innerText(), /^8 simulations in /);
  if (cliBinary()) {
    const want = cliSweep(POLICIES, 'err=0,1', 2, 'mbs').flat();
    assert.equal(want.length, data.stats.length);
    data.stats.forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= 5e-5 * Math.max(1, Math.abs(want[i])), `stat ${i}: page ${x}, CLI ${want[i]}`));
  }
  await page.locator('section:has(#h-sweep)').screenshot({ path: join(SHOTS, 'sweep.png') });
  assert.deepEqual(problems, []);
});

test('Cancel stops a long sweep, the next one works, bad input gives a message', { skip: MOCK ? 'mock engine' : false }, async () => {
  await sweep(page, { vary: 'err=0,0.1,...,1', seeds: 500 });
  await page.waitForFunction(() => /simulations…$/.test(document.querySelector('[data-testid="sweep-status"]').textContent));
  assert.equal(await page.locator('[data-testid="sweep-cancel"]').isEnabled(), true);
  await page.locator('[data-testid="sweep-cancel"]').click();
  assert.equal(await page.locator('[data-testid="sweep-status"]').innerText(), 'Sweep cancelled.');
  assert.equal(await page.locator('[data-testid="sweep-run"]').isEnabled(), true);
  // A new sweep after the cancel: one policy, the wait metric.
  await page.$eval(CHART, (c) => { delete c.dataset.stats; });
  await sweep(page, { policies: ['pv-easy[predictor=virtual]'], vary: 'err=0,0.5', seeds: 1, metric: 'wait' });
  await drawn(page);
  assert.equal((await page.$eval(CHART, (c) => JSON.parse(c.dataset.stats))).length, 2 * 3);
  // A key no policy has: a message naming the policy, no crash.
  await sweep(page, { policies: ['fcfs'], vary: 'err=0,1', seeds: 1 });
  await page.waitForFunction(() => /fcfs/.test(document.querySelector('[data-testid="errors"]').innerText));
  assert.match(await errorsText(page), /fcfs has no key err/);
  assert.deepEqual(problems, []);
});

test('sweep values keep the commas inside their parentheses (priority expressions)', { skip: MOCK ? 'mock engine' : false }, async () => {
  await page.$eval(CHART, (c) => { delete c.dataset.stats; });
  // expr(max(estimate,0)) orders as sjf: the same figures
  await sweep(page, { policies: ['easy'], vary: 'queue=expr(max(estimate, 0)),sjf', seeds: 1, metric: 'wait' });
  await drawn(page);
  const data = await page.$eval(CHART, (c) => ({ stats: JSON.parse(c.dataset.stats), values: JSON.parse(c.dataset.values) }));
  assert.deepEqual(data.values, ['expr(max(estimate, 0))', 'sjf']);
  assert.deepEqual(data.stats.slice(0, 3), data.stats.slice(3, 6));
  const rows = await page.locator('[data-testid="sweep-table"] tbody tr').allInnerTexts();
  assert.equal(rows.length, 2);
  assert.deepEqual(problems, []);
});

test('a what-if of a slurm key on the Slurm demo: the link brings the sweep back; a refused sweep says why beside its button', { skip: MOCK ? 'mock engine' : false }, async () => {
  const hash = '#v=1&trace=demo:slurm-gpu&policy=historic&policy=slurm&seed=1&cluster=1/n[1-4]:c8:m16000:g2/p=batch:ALL:default'
    + '&sweepvary=bf_window=1,10,60&sweepseeds=1&sweepmetric=wait&sweepmore=&sweeppick=slurm';
  const { page: p, context, problems: probs } = await open(browser, hash);
  await waitRuns(p, 1, 60_000);
  const ticked = await p.$$eval('[data-testid="sweep-policies"] input', (is) => is.map((i) => `${i.value}:${i.checked}`));
  assert.deepEqual(ticked, ['historic:false', 'slurm:true']);
  assert.equal(await p.locator('[data-testid="sweep-vary"]').inputValue(), 'bf_window=1,10,60');
  await p.locator('[data-testid="sweep-run"]').scrollIntoViewIfNeeded();
  await p.locator('[data-testid="sweep-run"]').click();
  await drawn(p);
  const rows = await p.locator('[data-testid="sweep-table"] tbody tr').allInnerTexts();
  assert.deepEqual(rows.map((r) => r.split('\t').slice(0, 2)), [['slurm', '1'], ['slurm', '10'], ['slurm', '60']]);
  const status = p.locator('[data-testid="sweep-status"]');
  assert.match(await status.innerText(), /^3 simulations in /);
  // A misspelt key, a bad value, a ticked policy without the key: each refused, and said beside
  // the button, not only in the Messages panel a page above (the old table still shows).
  for (const [vary, tick, want] of [
    ['bf_windw=1,10', null, /^Not run: slurm: slurm has no key bf_windw/],
    ['bf_window=1,abc', null, /^Not run: slurm: .*bf_window=abc: "abc" is not a whole number from 1 to 43200/],
    ['bf_window=1,10', 'historic', /^Not run: historic: historic has no key bf_window/],
  ]) {
    if (tick) await p.locator(`[data-testid="sweep-policies"] input[value="${tick}"]`).check();
    await p.locator('[data-testid="sweep-vary"]').fill(vary);
    await p.locator('[data-testid="sweep-run"]').click();
    await p.waitForFunction((re) => new RegExp(re).test(document.querySelector('[data-testid="sweep-status"]').textContent), want.source);
    assert.match(await errorsText(p), new RegExp(want.source.replace('^Not run: ', 'Sweep: ')));
  }
  await p.locator('section:has(#h-sweep)').screenshot({ path: join(SHOTS, 'sweep-slurm-refused.png') });
  assert.deepEqual(probs, []);
  await context.close();
});

test('choosing the Slurm demo offers a sweep of a slurm key (the fairshare weight around the site\'s 10000, slurm ticked, one seed, mean wait), run and carried by the link; a panel the user set stays', { skip: MOCK ? 'mock engine' : false }, async () => {
  // The panel kept pv-easy's err=0,0.1,...,1 over 10 seeds, nothing ticked: a sweep of a policy
  // the demo does not compare, of a key Slurm does not have.
  const { page: p, context, problems: probs } = await open(browser, '#v=1&trace=demo:5K_sample&policy=easy');
  await waitRuns(p, 1, 60_000);
  await p.locator('[data-testid="trace-demo"]').selectOption('slurm-gpu');
  await waitRuns(p, 2, 60_000);
  assert.equal(await p.locator('[data-testid="sweep-vary"]').inputValue(), 'PriorityWeightFairshare=0,2500,5000,10000,20000,40000');
  assert.equal(await p.locator('[data-testid="sweep-seeds"]').inputValue(), '1');
  assert.equal(await p.locator('[data-testid="sweep-metric"]').inputValue(), 'wait');
  assert.equal(await p.locator('[data-testid="sweep-more"]').inputValue(), '');
  const ticked = await p.$$eval('[data-testid="sweep-policies"] input', (is) => is.map((i) => `${i.value}:${i.checked}`));
  assert.deepEqual(ticked, ['easy:false', 'slurm:true', 'historic:false']);
  const href = await p.locator('[data-testid="share-link"]').getAttribute('href');
  assert.match(href, /&sweepvary=PriorityWeightFairshare%3D0%2C2500|&sweepvary=PriorityWeightFairshare=0,2500/);
  assert.match(href, /&sweeppick=slurm(&|$)/);
  await p.locator('[data-testid="sweep-run"]').scrollIntoViewIfNeeded();
  await p.locator('[data-testid="sweep-run"]').click();
  await drawn(p);
  const rows = await p.locator('[data-testid="sweep-table"] tbody tr').allInnerTexts();
  assert.deepEqual(rows.map((r) => r.split('\t')[1]), ['0', '2500', '5000', '10000', '20000', '40000']);
  assert.match(await p.locator('[data-testid="sweep-table"] caption').innerText(), /^mean wait \(s\) over seed 1 /);
  // The site's own weight is the comparison's slurm run.
  const mean = Number(rows[3].split('\t')[2]);
  const compared = await p.$eval('[data-testid="results"] td[data-policy^="slurm"][data-metric="wait.mean"]', (c) => Number(c.dataset.value));
  assert.ok(Math.abs(mean - compared) < 1e-3, `sweep ${mean}, comparison ${compared}`);
  await p.locator('section:has(#h-sweep)').screenshot({ path: join(SHOTS, 'sweep-slurm-demo.png') });
  // The link opens the same panel.
  const { page: q, context: c2, problems: qprobs } = await open(browser, new URL(href).hash);
  await waitRuns(q, 1, 60_000);
  assert.equal(await q.locator('[data-testid="sweep-vary"]').inputValue(), 'PriorityWeightFairshare=0,2500,5000,10000,20000,40000');
  assert.deepEqual(await q.$$eval('[data-testid="sweep-policies"] input', (is) => is.map((i) => `${i.value}:${i.checked}`)), ticked);
  assert.deepEqual(qprobs, []);
  await c2.close();
  assert.deepEqual(probs, []);
  await context.close();
  // A panel the user set is theirs: choosing the demo leaves it.
  const { page: r, context: c3, problems: rprobs } = await open(browser, '#v=1&trace=demo:5K_sample&policy=easy');
  await waitRuns(r, 1, 60_000);
  await r.locator('[data-testid="sweep-vary"]').fill('bf_window=1,10');
  await r.locator('[data-testid="trace-demo"]').selectOption('slurm-gpu');
  await waitRuns(r, 2, 60_000);
  assert.equal(await r.locator('[data-testid="sweep-vary"]').inputValue(), 'bf_window=1,10');
  assert.equal(await r.locator('[data-testid="sweep-seeds"]').inputValue(), '10');
  assert.deepEqual(rprobs, []);
  await c3.close();
});

test('a new sweep attempt shows only its own messages: the earlier attempts\' go, the comparison\'s stay', { skip: MOCK ? 'mock engine' : false }, async () => {
  const messages = () => page.$$eval('[data-testid="errors"] li .msg', (ms) => ms.map((m) => m.textContent));
  const refused = (re) => page.waitForFunction((s) => new RegExp(s).test(document.querySelector('[data-testid="sweep-status"]').textContent), re.source);
  // A message of the comparison's (as a link's reading shows one).
  await page.evaluate(async () => (await import('./www/ui.js')).showError('a message of the comparison', 'warning'));
  await sweep(page, { policies: ['fcfs'], vary: 'err=0,1', seeds: 1 });
  await refused(/^Not run: .*fcfs has no key err/);
  await sweep(page, { policies: ['easy'], vary: 'queue=sjf,fcfs', seeds: 0 });
  await refused(/^Not run: seeds “0”/);
  // The second attempt's message alone (the list held both, the first one's below).
  assert.deepEqual((await messages()).filter((m) => m.startsWith('Sweep')), ['Sweep: seeds “0” is not a whole number from 1 to 1000.']);
  assert.ok((await messages()).includes('a message of the comparison'));
  // A sweep that runs clears the last refusal's message.
  await page.$eval(CHART, (c) => { delete c.dataset.stats; });
  await sweep(page, { policies: ['easy'], vary: 'queue=sjf,fcfs', seeds: 1, metric: 'wait' });
  await drawn(page);
  assert.deepEqual((await messages()).filter((m) => m.startsWith('Sweep')), []);
  assert.ok((await messages()).includes('a message of the comparison'));
  assert.deepEqual(problems, []);
});

test('a sweep names the trace it ran on, and says so once another trace is shown', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&sweepvary=err=0,0.5&sweepseeds=2');
  await waitRuns(p, 1);
  await p.locator('[data-testid="sweep-run"]').click();
  await p.waitForFunction(() => /simulations in/.test(document.querySelector('[data-testid="sweep-status"]').textContent), null, { timeout: 60_000 });
  const caption = () => p.locator('[data-testid="sweep-caption"]').innerText();
  assert.match(await caption(), /over seeds 1 to 2 on demo: HPC2N/);
  assert.doesNotMatch(await caption(), /not the trace shown now/);
  await p.locator('[data-testid="trace-demo"]').selectOption('5K_sample');
  await waitRuns(p, 2);
  // Before: HPC2N's numbers stayed under 5K_sample's comparison, naming no trace.
  assert.match(await caption(), /on demo: HPC2N.*: not the trace shown now, run the sweep again for it/);
  await p.locator('[data-testid="sweep-run"]').click();
  await p.waitForFunction(() => /SDSC/.test(document.querySelector('[data-testid="sweep-caption"]')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.doesNotMatch(await caption(), /not the trace shown now/);
  assert.deepEqual(probs, []);
  await context.close();
});

test('a sweep refused for the panel\'s own example policy says to remove it and which compared policy has the key', { skip: MOCK ? 'mock engine' : false }, async () => {
  // The panel opens with pv-easy[predictor=virtual] under "More policies" and nothing ticked:
  // a user who varies a key of their own policy read only "pv-easy has no key order", of a policy
  // they never chose. easy has `order`, fcfs has not.
  const { page: p, context, problems: probs } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs');
  await waitRuns(p, 1);
  await p.locator('[data-testid="sweep-run"]').scrollIntoViewIfNeeded();
  assert.equal(await p.locator('[data-testid="sweep-more"]').inputValue(), 'pv-easy[predictor=virtual]');
  await p.locator('[data-testid="sweep-vary"]').fill('order=fcfs,sjf');
  await p.locator('[data-testid="sweep-run"]').click();
  const status = p.locator('[data-testid="sweep-status"]');
  await p.waitForFunction(() => /^Not run/.test(document.querySelector('[data-testid="sweep-status"]').textContent));
  const text = await status.innerText();
  assert.match(text, /^Not run: pv-easy\[predictor=virtual\]: pv-easy has no key order/);
  assert.match(text, / \(remove it from “More policies”\); easy, compared above, has the key: tick it$/);
  // Ticked and the example removed, it runs.
  await p.locator('[data-testid="sweep-policies"] input[value="easy"]').check();
  await p.locator('[data-testid="sweep-more"]').fill('');
  await p.locator('[data-testid="sweep-seeds"]').fill('1');
  await p.locator('[data-testid="sweep-run"]').click();
  await drawn(p);
  assert.match(await status.innerText(), /^2 simulations in /);
  assert.deepEqual(probs, []);
  await context.close();
});
