// An admin's own site: an sacct log of one's own dropped on the page and its slurm.conf read in
// the Cluster panel add `slurm` (which reads that slurm.conf) and `historic` (the log's recorded
// schedule) to the compared policies, once, said in the status line; removed by the user, they
// are not added again; the link of the run names them (before, the page kept comparing easy and
// fcfs, and the admin had to know to add them by hand). Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK, SHOTS, launch, open, runs, waitRuns, clickRun, table } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const DIR = join('tests', 'data', 'slurm', 'gpu-3', 'run1');
const specs = (p) => p.locator('[data-testid="policy-spec"]').evaluateAll((xs) => xs.map((x) => x.value));
const readConf = async (p, text) => {
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await p.locator('[data-testid="cluster-conf"]').fill(text);
  await p.locator('[data-testid="cluster-apply"]').click();
};

test('an sacct log of one\'s own and its slurm.conf read in the Cluster panel add slurm and historic once; removed, they stay out', { skip }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs');
  await waitRuns(p, 1, 60_000);
  let n = await runs(p);
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(DIR, 'sacct.txt'));
  await waitRuns(p, n + 1, 60_000);
  assert.deepEqual(await specs(p), ['easy', 'fcfs']);
  const conf = readFileSync(join(DIR, 'slurm.conf'), 'utf8');
  await readConf(p, conf);
  assert.deepEqual(await specs(p), ['easy', 'fcfs', 'slurm', 'historic']);
  assert.match(await p.locator('[data-testid="status"]').innerText(), /^slurm and historic added: the slurm policy reads this slurm\.conf/);
  await p.screenshot({ path: join(SHOTS, 'adminsite-added.png') });
  n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  const got = await table(p);
  const rows = Object.keys(got);
  assert.equal(rows.length, 4, JSON.stringify(rows));
  assert.ok(rows[2].startsWith('slurm[') && rows[2].includes('PriorityWeightFairshare=10000'), rows[2]);
  assert.equal(rows[3], 'historic');
  // The link names what ran: the slurm policy with the slurm.conf's parameters, and historic.
  const href = decodeURIComponent(await p.locator('[data-testid="share-link"]').getAttribute('href'));
  assert.match(href, /&policy=easy&policy=fcfs&policy=slurm\[[^&]*PriorityWeightFairshare=10000[^&]*\]&policy=historic&/);
  // Removed by the user, they are not added again when the slurm.conf is read again.
  await p.locator('[data-testid="policy-remove"]').nth(3).click();
  await p.locator('[data-testid="policy-remove"]').nth(2).click();
  await readConf(p, conf.replace('PriorityWeightFairshare=10000', 'PriorityWeightFairshare=5000'));
  assert.deepEqual(await specs(p), ['easy', 'fcfs']);
  assert.doesNotMatch(await p.locator('[data-testid="status"]').innerText(), /added/);
  assert.deepEqual(probs, []);
  await context.close();
});

test('the status saying slurm and historic were added stays when the site\'s sshare file is read next', { skip }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs');
  await waitRuns(p, 1, 60_000);
  const n = await runs(p);
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(DIR, 'sacct.txt'));
  await waitRuns(p, n + 1, 60_000);
  await readConf(p, readFileSync(join(DIR, 'slurm.conf'), 'utf8'));
  const added = /^slurm and historic added: the slurm policy reads this slurm\.conf\. Press “Run comparison”\.$/;
  assert.match(await p.locator('[data-testid="status"]').innerText(), added);
  // Before, the sshare file's change replaced it with "Settings changed: press “Run comparison”."
  await p.locator('[data-testid="cluster-sshare"]').setInputFiles(join(DIR, 'sshare-start.txt'));
  await p.waitForTimeout(1000); // the small file is read (FileReader) and the change said
  assert.match(await p.locator('[data-testid="status"]').innerText(), added);
  // A change after the run that read them is said as any change.
  const m = await clickRun(p);
  await waitRuns(p, m + 1, 60_000);
  await p.locator('[data-testid="opt-seed"]').fill('2');
  await p.locator('[data-testid="opt-seed"]').dispatchEvent('change');
  assert.equal(await p.locator('[data-testid="status"]').innerText(), 'Settings changed: press “Run comparison”.');
  assert.deepEqual(probs, []);
  await context.close();
});

test('a slurm.conf read before the sacct log: slurm and historic are added once the log is shown; an SWF trace adds nothing', { skip }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy');
  await waitRuns(p, 1, 60_000);
  // On HPC2N (SWF, no recorded Slurm schedule) a slurm.conf is a cluster only.
  await readConf(p, 'NodeName=n[1-240] CPUs=1\nPartitionName=all Nodes=ALL Default=YES\n');
  assert.deepEqual(await specs(p), ['easy']);
  const n = await runs(p);
  await readConf(p, readFileSync(join(DIR, 'slurm.conf'), 'utf8'));
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(DIR, 'sacct.txt'));
  await waitRuns(p, n + 1, 60_000);
  assert.deepEqual(await specs(p), ['easy', 'slurm', 'historic']);
  assert.match(await p.locator('[data-testid="status"]').innerText(), /^slurm and historic added/);
  assert.deepEqual(probs, []);
  await context.close();
});
