// A link of a run whose slurm policy read an sshare or qos file of one's own names the files
// (sshare=, qosfile=): their content cannot travel, and whoever opens the link is told to read
// them, for without them the slurm numbers differ from the sender's (before, silently). Run
// through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK, launch, open, runs, waitRuns, clickRun, table, errorsText } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const DIR = join('tests', 'data', 'slurm', 'gpu-3', 'run1');
const slurmOf = (t) => t[Object.keys(t).find((k) => k.startsWith('slurm'))];

test('a link names the sshare and qos files its slurm policy ran with; its opener is told to read them, and with them gets the sender\'s numbers', { skip }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy');
  await waitRuns(p, 1, 60_000);
  let n = await runs(p);
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(DIR, 'sacct.txt'));
  await waitRuns(p, n + 1, 60_000);
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await p.locator('[data-testid="cluster-conf"]').fill(readFileSync(join(DIR, 'slurm.conf'), 'utf8'));
  await p.locator('[data-testid="cluster-apply"]').click();
  await p.locator('[data-testid="cluster-sshare"]').setInputFiles(join(DIR, 'sshare-start.txt'));
  await p.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('sshare'));
  await p.locator('[data-testid="cluster-qos"]').setInputFiles(join('tests', 'data', 'slurm', 'qos-6', 'run1', 'qos.txt'));
  // The slurm.conf read beside an sacct log added slurm (and historic) to easy (adminsite.test.mjs).
  assert.ok((await p.locator('[data-testid="policy-spec"]').evaluateAll((xs) => xs.map((x) => x.value))).includes('slurm'));
  n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  const sent = slurmOf(await table(p));
  const href = await p.locator('[data-testid="share-link"]').getAttribute('href');
  assert.match(href, /&sshare=sshare-start\.txt&qosfile=qos\.txt(&|$)/);
  // Opened in a fresh page: told which files to read, before and after the trace comes.
  const { page: q, problems: qprobs, context: c2 } = await open(browser, new URL(href).hash);
  await q.waitForFunction(() => document.querySelector('[data-testid="status"]').textContent.startsWith('Upload'), null, { timeout: 30_000 });
  const want = /The link's slurm policy ran with the shares of sshare-start\.txt \(sshare -a -l -P\) and the QOS of qos\.txt \(sacctmgr show qos\), read in its sender's Cluster panel: a file cannot travel in a link\. Read them in the Cluster panel/;
  assert.match(await errorsText(q), want);
  await q.locator('[data-testid="trace-file"]').setInputFiles(join(DIR, 'sacct.txt'));
  await waitRuns(q, 1, 60_000);
  assert.notEqual(slurmOf(await table(q))['wait.mean'], sent['wait.mean'], 'the shares change nothing here');
  await q.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await q.locator('[data-testid="cluster-sshare"]').setInputFiles(join(DIR, 'sshare-start.txt'));
  await q.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('sshare'));
  await q.locator('[data-testid="cluster-qos"]').setInputFiles(join('tests', 'data', 'slurm', 'qos-6', 'run1', 'qos.txt'));
  n = await clickRun(q);
  await waitRuns(q, n + 1, 60_000);
  assert.deepEqual(slurmOf(await table(q)), sent);
  assert.equal(await q.locator('[data-testid="share-link"]').getAttribute('href').then((h) => new URL(h).hash), new URL(href).hash);
  // A link without the files' names asks nothing.
  const { page: r, context: c3 } = await open(browser, '#v=1&trace=demo:hpc2n&policy=slurm');
  await waitRuns(r, 1, 60_000);
  assert.doesNotMatch(await errorsText(r), /Cluster panel/);
  await c3.close();
  assert.deepEqual(qprobs, []);
  await c2.close();
  assert.deepEqual(probs, []);
  await context.close();
});
