// Cancel leaves the shown comparison whole: its exports still work (the pool that ran it is
// stopped: the policy runs again alone for its CSV), and a Slurm demo's run cancelled from the
// menu puts back the shown comparison's policies, cluster and sweep. (A link's run: links.test.mjs.)
// Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MOCK, BASE, launch, open, waitRuns, errorsText, table } from './helpers.mjs';

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

// A pathological slurm.conf keeps the page in hand: bf_interval=1 and sched_interval=1 on a
// ten-year log (200 jobs of the node's 4 cores, the first an hour long, the others 18 days, all
// submitted in the first seconds: one runs, the others wait, and the slurm policy wakes every
// second for ten years, about 3e8 passes of a cycle over the waiting jobs: hours). The run
// shows progress as jobs end (the bar past 0 once the first ends, 3600 passes in) and Cancel
// stops it at once.
test('a slurm run with bf_interval=1 over ten years shows progress and cancels', { skip: MOCK }, async () => {
  const { page, problems, context } = await open(browser, '#v=1&policy=slurm');
  await waitRuns(page, 1); // the link's demo shown first (the race of a later load: the test below)
  const conf = 'SchedulerType=sched/backfill\nSchedulerParameters=bf_interval=1,sched_interval=1\nNodeName=n1 CPUs=4 RealMemory=1000\nPartitionName=batch Nodes=n1 Default=YES\n';
  await page.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await page.locator('[data-testid="cluster-file"]').setInputFiles({ name: 'slurm.conf', mimeType: 'text/plain', buffer: Buffer.from(conf) });
  await page.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('slurm.conf'));
  const lines = ['JobID|User|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|State'];
  for (let i = 1; i <= 200; i++) {
    const s = `2024-01-01T00:0${Math.floor(i / 60)}:${String(i % 60).padStart(2, '0')}`;
    lines.push(`${i}|u${i % 3}|${s}|${s}|${s}|${i === 1 ? '01:00:00' : '18-00:00:00'}|20-00:00:00|4|1|COMPLETED`);
  }
  await page.locator('[data-testid="trace-file"]').setInputFiles({ name: 'ten-years.txt', mimeType: 'text/plain', buffer: Buffer.from(`${lines.join('\n')}\n`) });
  await page.waitForFunction(() => document.body.classList.contains('running'), null, { timeout: 30_000 });
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="progress"]').value) > 0, null, { timeout: 120_000 });
  assert.match(await page.locator('[data-testid="status"]').innerText(), /^Simulating slurm/);
  const began = Date.now();
  await page.locator('[data-testid="cancel"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]').textContent === 'Cancelled.', null, { timeout: 10_000 });
  assert.ok(Date.now() - began < 5_000);
  assert.deepEqual(problems, []);
  await context.close();
});

// A file picked while the link's demo still downloads is the trace that runs: the download's end
// no longer replaces the user's run with the link's (before, the demo's run cancelled the
// file's, seen in CI as a run of the file that never showed).
test('a file picked while the link\'s demo downloads is the one compared', { skip: MOCK }, async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await context.route('**/demo/hpc2n.swf.gz', async (route) => { await held; await route.continue(); });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${BASE}#v=1&policy=easy`);
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]').textContent.startsWith('Loading the trace'));
  // Three jobs on 4 processors, the second waiting for the first (SWF, 18 fields).
  const swf = '; MaxProcs: 4\n1 0 0 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n2 10 -1 50 2 -1 -1 2 50 -1 1 2 1 -1 1 -1 -1 -1\n3 20 -1 50 2 -1 -1 2 50 -1 1 1 1 -1 1 -1 -1 -1\n';
  await page.locator('[data-testid="trace-file"]').setInputFiles({ name: 'mine.swf', mimeType: 'text/plain', buffer: Buffer.from(swf) });
  await waitRuns(page, 1);
  release();
  // The demo's download ends; give its handler time to act (it must not run anything).
  await page.waitForResponse('**/demo/hpc2n.swf.gz');
  await page.waitForTimeout(1500);
  assert.equal(await page.evaluate(() => Number(document.body.dataset.runs ?? 0)), 1);
  assert.equal(await page.evaluate(() => document.body.classList.contains('running')), false);
  const facts = await page.locator('[data-testid="facts"]').innerText();
  assert.match(facts, /mine\.swf/);
  assert.doesNotMatch(facts, /HPC2N/);
  // easy: job 1 runs 0-100 on all 4; jobs 2 and 3 (2 each) start together at 100: waits 0, 90, 80.
  const easy = (await table(page)).easy;
  assert.equal(easy['counts.jobs'], 3);
  assert.ok(Math.abs(easy['wait.mean'] - 170 / 3) < 1e-6, `mean wait ${easy['wait.mean']}`);
  assert.deepEqual(problems, []);
  await context.close();
});

/** The focused element's test id ('' for none, the page's body). */
const focused = (page) => page.evaluate(() => document.activeElement?.dataset?.testid ?? '');

/** Records the focused element the moment a run starts (a microtask after the body is marked
 * running), and with `cancel` activates it as Enter would (a click on the focused button). */
const focusAtStart = (page, cancel) => page.evaluate((cancel) => {
  window.focusAtStart = null;
  new MutationObserver((_, o) => {
    if (!document.body.classList.contains('running')) return;
    o.disconnect();
    window.focusAtStart = document.activeElement?.dataset?.testid ?? '';
    if (cancel) document.activeElement.click();
  }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
}, cancel);

test('Run pressed from the keyboard: focus moves to Cancel while the run is busy, and back to Run when it ends or is cancelled', { skip: MOCK }, async () => {
  const { page, problems, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&seed=1');
  await waitRuns(page, 1);
  // Before: Run, disabled while busy, dropped the focus to the page's top (Tab began again at
  // the header), where it stayed after the run.
  await focusAtStart(page, false);
  await page.locator('[data-testid="run"]').focus();
  await page.keyboard.press('Enter');
  await waitRuns(page, 2);
  assert.equal(await page.evaluate(() => window.focusAtStart), 'cancel');
  assert.equal(await focused(page), 'run');
  // Enter on the focused Cancel cancels the run; the focus is on Run again.
  await focusAtStart(page, true);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]').textContent === 'Cancelled.');
  assert.equal(await page.evaluate(() => window.focusAtStart), 'cancel');
  assert.equal(await focused(page), 'run');
  // Focus elsewhere (a run started from a control's change) is left where it is.
  await page.locator('[data-testid="opt-seed"]').focus();
  const n = await page.evaluate(() => Number(document.body.dataset.runs));
  await page.evaluate(() => document.querySelector('[data-testid="run"]').click()); // no focus
  await waitRuns(page, n + 1);
  assert.equal(await focused(page), 'opt-seed');
  // The sweep's Run and Cancel alike.
  await page.locator('[data-testid="sweep-run"]').focus();
  await page.keyboard.press('Enter');
  assert.equal(await focused(page), 'sweep-cancel');
  await page.waitForFunction(() => !document.querySelector('[data-testid="sweep-run"]').disabled, null, { timeout: 60_000 });
  assert.equal(await focused(page), 'sweep-run');
  assert.deepEqual(problems, []);
  await context.close();
});
