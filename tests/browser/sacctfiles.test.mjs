// An admin's sacct log as it reaches the page: saved again by a spreadsheet (a quoted CSV), and
// with jobs whose Timelimit is Partition_Limit, which the cluster's slurm.conf gives their
// partition's DefaultTime, else MaxTime (docs/workloads.md). Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK, ROOT, launch, open, runs, waitRuns, clickRun, table } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const RUN = join(ROOT, 'tests', 'data', 'slurm', 'gpu-3', 'run1');

/** sacct.txt as a spreadsheet saves it: every field quoted, cut by commas, CRLF. */
function spreadsheet(text) {
  return text.trim().split('\n').map((l) => l.split('|').map((f) => `"${f}"`).join(',')).join('\r\n') + '\r\n';
}

test('an sacct log saved by a spreadsheet (quoted CSV) gives the jobs of its pipe export', { skip }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:5K_sample&policy=easy');
  await waitRuns(page, 1, 60_000);
  const text = readFileSync(join(RUN, 'sacct.txt'), 'utf8');
  let n = await runs(page);
  await page.locator('[data-testid="trace-file"]').setInputFiles({ name: 'sacct.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await waitRuns(page, n + 1, 60_000);
  const pipes = await table(page);
  n = await runs(page);
  await page.locator('[data-testid="trace-file"]').setInputFiles({ name: 'sacct.csv', mimeType: 'text/csv', buffer: Buffer.from(spreadsheet(text)) });
  await waitRuns(page, n + 1, 60_000);
  // It was refused: "line has 35 fields, the header names 26 ... cannot be told".
  assert.equal(await page.locator('[data-testid="errors"]').innerText(), '');
  assert.match(await page.locator('[data-testid="facts"]').innerText(), /sacct\.csv[\s\S]*jobs simulated\s+60/);
  assert.deepEqual(await table(page), pipes);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Partition_Limit jobs get their partition\'s DefaultTime from the cluster panel\'s slurm.conf', { skip }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:5K_sample&policy=easy');
  await waitRuns(page, 1, 60_000);
  // Every third job of the run without a limit of its own.
  const lines = readFileSync(join(RUN, 'sacct.txt'), 'utf8').trim().split('\n');
  const at = lines[0].split('|').indexOf('Timelimit');
  const log = lines.map((l, k) => {
    const f = l.split('|');
    if (k > 0 && k % 3 === 1) f[at] = 'Partition_Limit';
    return f.join('|');
  }).join('\n') + '\n';
  let n = await runs(page);
  await page.locator('[data-testid="trace-file"]').setInputFiles({ name: 'pl.sacct', mimeType: 'text/plain', buffer: Buffer.from(log) });
  await waitRuns(page, n + 1, 60_000);
  const facts = page.locator('[data-testid="facts"]');
  assert.match(await facts.innerText(), /20 jobs give Partition_Limit \(first: job 1, line 2\): Slurm gives such a job its partition's DefaultTime, else its MaxTime/);
  assert.match(await facts.innerText(), /20 of 60 jobs simulated give no requested time in Timelimit/);
  await page.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  const conf = readFileSync(join(RUN, 'slurm.conf'), 'utf8').replace('PartitionName=batch', 'PartitionName=batch DefaultTime=5');
  await page.locator('[data-testid="cluster-conf"]').fill(conf);
  await page.locator('[data-testid="cluster-apply"]').click();
  // The key is read, not listed among those not modelled; the share link's cluster keeps it.
  await page.waitForFunction(() => document.querySelector('[data-testid="opt-cluster"]').value.includes(':l5'));
  assert.doesNotMatch(await page.locator('[data-testid="cluster-notes"]').innerText(), /DefaultTime/);
  n = await clickRun(page);
  await waitRuns(page, n + 1, 60_000);
  const text = await facts.innerText();
  assert.match(text, /Timelimit: 20 jobs give Partition_Limit; as Slurm does when it starts such a job, 20 get their partition's DefaultTime/);
  assert.doesNotMatch(text, /give no requested time/);
  assert.deepEqual(problems, []);
  await context.close();
});
