// The pool of workers: a comparison's policies spread over several workers (the page's
// navigator.hardwareConcurrency forced to 4) give the CLI's numbers in the policies' order, each
// worker's run exports its own CSV, and Cancel stops every worker. Run through
// scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, MOCK, launch, open, runs, waitRuns, table, cliBinary, cli, metric, close } from './helpers.mjs';

const POLICIES = ['easy', 'fcfs', 'conservative', 'easy[queue=sjf]', 'fairshare-easy'];
const HASH = `#v=1&trace=demo:hpc2n&${POLICIES.map((p) => `policy=${encodeURIComponent(p)}`).join('&')}&seed=3`;
const FOUR = "Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 4 })";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('five policies in four workers equal `schedlab run --json`, in order, and export from their worker', { skip: !cliBinary() || MOCK ? 'no CLI binary (or mock engine)' : false }, async () => {
  const { page, context, problems } = await open(browser, HASH, { init: FOUR });
  await waitRuns(page, 1, 60_000);
  assert.equal(await page.evaluate(() => window.schedlab.state.runner.size), 4, 'four workers');
  const heads = await page.locator('[data-testid="results"] tbody tr[data-policy]').evaluateAll((ths) => ths.map((t) => t.dataset.policy));
  assert.deepEqual(heads, POLICIES);
  const values = await table(page);
  for (const r of cli('www/demo/hpc2n.swf.gz', POLICIES, 3)) {
    for (const m of ['wait.mean', 'mbs', 'utilization', 'counts.jobs', 'fairness.strict.delayed']) {
      assert.ok(close(values[r.policy][m], metric(r, m)), `${r.policy} ${m}: page ${values[r.policy][m]}, CLI ${metric(r, m)}`);
    }
  }
  // The fifth policy ran in whichever worker was free first: its export comes from that worker.
  await page.locator('[data-testid="export-policy"]').selectOption({ label: 'fairshare-easy' });
  const dir = mkdtempSync(join(tmpdir(), 'schedlab-pool-'));
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-jobs-csv"]').click()]);
  const want = join(dir, 'jobs.csv');
  execFileSync(cliBinary(), ['run', 'www/demo/hpc2n.swf.gz', '-p', 'fairshare-easy', '--seed', '3', '--jobs-csv', want], { cwd: ROOT, stdio: 'ignore' });
  assert.equal(readFileSync(await download.path(), 'utf8'), readFileSync(want, 'utf8'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('Cancel stops every worker of the pool, and the next run works', async () => {
  const { page, context, problems } = await open(browser, HASH, { init: FOUR });
  await waitRuns(page, 1, 60_000);
  const before = await runs(page);
  // Both clicks in one task: the run cannot finish in between; the four workers are busy.
  const busy = await page.evaluate(() => {
    document.querySelector('[data-testid="run"]').click();
    const n = window.schedlab.state.runner.size;
    document.querySelector('[data-testid="cancel"]').click();
    return n;
  });
  assert.equal(busy, 4);
  assert.equal(await page.evaluate(() => window.schedlab.state.runner.size), 0, 'no worker left running');
  assert.equal(await page.locator('[data-testid="status"]').innerText(), 'Cancelled.');
  await page.waitForTimeout(300);
  assert.equal(await runs(page), before, 'a cancelled run must not show results');
  const cols = await page.locator('[data-testid="results"] tbody tr[data-policy]').count();
  assert.equal(cols, POLICIES.length, 'the shown results stay whole');
  await page.locator('[data-testid="run"]').click();
  await waitRuns(page, before + 1, 60_000);
  assert.deepEqual(problems, []);
  await context.close();
});
