// Cancel leaves the shown comparison whole: its exports still work (the pool that ran it is
// stopped: the policy runs again alone for its CSV), and a Slurm demo's run cancelled from the
// menu puts back the shown comparison's policies, cluster and sweep. (A link's run: links.test.mjs.)
// Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MOCK, launch, open, waitRuns, errorsText, table } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function csv(page, kind) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.locator(`[data-testid="export-${kind}-csv"]`).click()]);
  return readFileSync(await download.path(), 'utf8');
}

/** Clicks Cancel the moment a run starts (a microtask after the body is marked running: before
 * any worker's message is handled). */
const cancelAtStart = (page) => page.evaluate(() => {
  new MutationObserver((_, o) => {
    if (!document.body.classList.contains('running')) return;
    o.disconnect();
    document.querySelector('[data-testid="cancel"]').click();
  }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
});

test('after a cancelled run the shown results still export their jobs and runs CSVs, the same files', { skip: MOCK }, async () => {
  const { page, problems, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs&seed=1');
  await waitRuns(page, 1);
  await page.locator('[data-testid="export-policy"]').selectOption({ label: 'fcfs' });
  const before = { jobs: await csv(page, 'jobs'), runs: await csv(page, 'runs') };
  assert.ok(before.jobs.split('\n').length > 3000);
  await cancelAtStart(page);
  await page.locator('[data-testid="run"]').click();
  assert.equal(await page.locator('[data-testid="status"]').innerText(), 'Cancelled.');
  // Before: "jobs CSV: no finished run to export: run the comparison first", under results
  // that still showed.
  assert.equal(await csv(page, 'jobs'), before.jobs);
  assert.equal(await csv(page, 'runs'), before.runs);
  assert.doesNotMatch(await errorsText(page), /export/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the Slurm demo chosen from the menu and cancelled leaves the shown comparison\'s policies, cluster and sweep', { skip: MOCK }, async () => {
  const specs = (page) => page.$$eval('[data-testid="policy-spec"]', (xs) => xs.map((x) => x.value.trim()));
  const { page, problems, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs&seed=1');
  await waitRuns(page, 1);
  const shown = { table: await table(page), sweep: await page.evaluate(() => window.schedlab.sweep.settings()), hash: await page.evaluate(() => location.hash) };
  await cancelAtStart(page);
  await page.locator('[data-testid="trace-demo"]').selectOption('slurm-gpu');
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]').textContent === 'Cancelled.', null, { timeout: 30_000 });
  // Before: slurm and historic in the list, the demo's cluster and its fairshare sweep, over
  // HPC2N's results (and Run ran slurm on HPC2N with the demo's slurm.conf).
  assert.deepEqual(await specs(page), ['easy', 'fcfs']);
  assert.equal(await page.locator('[data-testid="opt-cluster"]').inputValue(), '');
  assert.deepEqual(await page.evaluate(() => window.schedlab.sweep.settings()), shown.sweep);
  assert.equal(await page.locator('[data-testid="cluster-site"]').isHidden(), true);
  assert.deepEqual(await table(page), shown.table);
  assert.equal(await page.evaluate(() => location.hash), shown.hash);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the page\'s first run cancelled keeps its trace: the facts name it and Run compares it', { skip: MOCK }, async () => {
  // Cancel is clicked the moment the link's own run starts, before any comparison is shown.
  const init = `document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver((_, o) => {
      if (!document.body.classList.contains('running')) return;
      o.disconnect();
      document.querySelector('[data-testid="cancel"]').click();
    }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  });`;
  const { page, problems, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs&seed=1', { init });
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]').textContent === 'Cancelled.', null, { timeout: 30_000 });
  // Before: the facts said "Loading the demo trace…", the demo menu named none, and Run said
  // "No trace is loaded." (the trace was read and dropped).
  assert.match(await page.locator('[data-testid="facts"]').innerText(), /HPC2N/);
  assert.doesNotMatch(await page.locator('[data-testid="facts"]').innerText(), /Loading/);
  assert.equal(await page.locator('[data-testid="trace-demo"]').inputValue(), 'hpc2n');
  await page.locator('[data-testid="run"]').click();
  await waitRuns(page, 1);
  assert.deepEqual(Object.keys(await table(page)), ['easy', 'fcfs']);
  assert.doesNotMatch(await errorsText(page), /No trace/);
  assert.match(await page.evaluate(() => location.hash), /trace=demo:hpc2n/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a link whose policies are all invalid keeps its trace: fixed, Run compares it', { skip: MOCK }, async () => {
  const { page, problems, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy[queue=');
  await page.waitForFunction(() => /Nothing was run/.test(document.querySelector('[data-testid="status"]').textContent), null, { timeout: 30_000 });
  // Before: the facts said "Loading the demo trace…" and, the spec fixed, Run said "No trace
  // is loaded.".
  assert.match(await page.locator('[data-testid="facts"]').innerText(), /HPC2N.*not compared yet/);
  await page.locator('[data-testid="policy-spec"]').nth(0).fill('easy');
  await page.locator('[data-testid="run"]').click();
  await waitRuns(page, 1);
  assert.deepEqual(Object.keys(await table(page)), ['easy']);
  assert.doesNotMatch(await errorsText(page), /No trace/);
  assert.deepEqual(problems, []);
  await context.close();
});
