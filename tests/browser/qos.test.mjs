// The cluster panel's qos input: `sacctmgr show qos format=Name,Priority -P` output gives the
// slurm policy its QOS priorities, as the CLI's --qos (with the limits' columns, the limits
// too, named in the panel); a QOS of the log the file lacks is said
// beside the Slurm inputs (the engine's slurm::site_note::qos_note, sent with the trace's facts);
// a bad file's error names its file, line and field. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { MOCK, launch, open, runs, waitRuns, clickRun, table, cli, cliBinary, metric, close } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// Three jobs of 4 processors on the log's 4 (its recorded peak): 1 (submit 0, 100 s, normal),
// 2 (submit 10, 50 s, low), 3 (submit 20, 100 s, high). With the file (normal 10, high 100,
// low 0) job 3 starts at 100 before job 2 (200): waits 0, 190, 80, mean 90 s. Without it every
// QOS has priority 0 and job 2 starts first: 2 at 100, 3 at 150, mean (0 + 90 + 130) / 3.
const dir = join('tests', 'browser', 'fixtures');
const spec = 'slurm[PriorityWeightQOS=1000]';

test('a qos file gives the slurm policy its QOS priorities, as the CLI\'s --qos', { skip }, async () => {
  const { page: p, problems, context } = await open(browser, `#v=1&trace=demo:hpc2n&policy=${encodeURIComponent(spec)}`);
  await waitRuns(p, 1, 60_000);
  const n0 = await runs(p);
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(dir, 'qos-sacct.txt'));
  await waitRuns(p, n0 + 1, 60_000);
  const key = (t) => Object.keys(t).find((k) => k.startsWith('slurm'));
  const bare = await table(p);
  assert.ok(close(bare[key(bare)]['wait.mean'], 220 / 3), JSON.stringify(bare));
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await p.locator('[data-testid="cluster-qos"]').setInputFiles(join(dir, 'qos.txt'));
  await p.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('QOS'));
  assert.match(await p.locator('[data-testid="cluster-site"]').innerText(), /the priorities of 3 QOS \(normal 10, high 100, low 0\)/);
  let n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  const got = await table(p);
  assert.ok(close(got[key(got)]['wait.mean'], 90), JSON.stringify(got));
  if (cliBinary()) {
    const [want] = cli(join(dir, 'qos-sacct.txt'), [spec], 1, ['--qos', join(dir, 'qos.txt')]);
    assert.ok(close(got[key(got)]['wait.mean'], metric(want, 'wait.mean')));
  }
  // The file cannot travel in a link: the share panel says so.
  assert.match(await p.locator('[data-testid="share-note-site"]').innerText(), /^The slurm policy ran with the QOS priorities and limits of qos\.txt, read in the cluster panel: a file cannot travel in a link, and whoever opens it must read this file there again/);
  const note = p.locator('[data-testid="sshare-note"]');
  assert.equal(await note.isHidden(), true);
  // A file without high: the note says so after the next run, above the results.
  await p.locator('[data-testid="cluster-qos"]').setInputFiles({ name: 'site.txt', mimeType: 'text/plain', buffer: Buffer.from('Name|Priority\nnormal|10\nlow|0\n') });
  await p.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('2 QOS'));
  n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  assert.equal(await note.isVisible(), true);
  // Named by the file's own name (it read "qos: "), as the CLI names it.
  assert.match(await note.innerText(), /^site\.txt: 1 of the log's 3 QOS is not in it \(high\): its jobs get QOS priority 0/);
  // A bad file: its name, line and field.
  await p.locator('[data-testid="cluster-qos"]').setInputFiles({ name: 'bad.txt', mimeType: 'text/plain', buffer: Buffer.from('Name|Priority\nnormal|10\nhigh|lots\n') });
  await p.waitForFunction(() => !document.querySelector('[data-testid="cluster-error"]').hidden);
  assert.match(await p.locator('[data-testid="cluster-error"]').innerText(), /^bad\.txt:3: Priority: "lots" is not a whole number/);
  // A file with the limits' columns (the qoslimits runs' qos.txt): the panel names them.
  await p.locator('[data-testid="cluster-qos"]').setInputFiles({ name: 'limits.txt', mimeType: 'text/plain', buffer: Buffer.from('Name|Priority|MaxJobsPU|MaxTRESPU|GrpTRES|GrpJobs|MaxWall|Flags\nnormal|10|2|||||\nhigh|100||cpu=16||||\nlow|0|||cpu=12|3||\n') });
  await p.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('limits'));
  assert.match(await p.locator('[data-testid="cluster-site"]').innerText(), /the limits of 3 QOS \(normal MaxJobsPU=2; high MaxTRESPU=cpu=16; low GrpTRES=cpu=12 GrpJobs=3; held when slurm\.conf's AccountingStorageEnforce names limits\)/);
  assert.deepEqual(problems, []);
  await context.close();
});

// A job whose own cores are over its QOS's GrpTRES (job 2, 4 cores, low GrpTRES=cpu=2) is held
// for ever by Slurm: the run leaves it out before it starts, and the status line says which job
// and why, as the CLI does (before, the worker's run never ended: the slurm policy's periodic
// passes went on). The other two jobs run: job 1 at 0, job 3 at 100 (4 processors).
test('a job a QOS limit holds for ever is left out and named in the status line', { skip }, async () => {
  const held = 'slurm[AccountingStorageEnforce=limits]';
  const { page: p, problems, context } = await open(browser, `#v=1&trace=demo:hpc2n&policy=${encodeURIComponent(held)}`);
  await waitRuns(p, 1, 60_000);
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await p.locator('[data-testid="cluster-qos"]').setInputFiles({ name: 'limits.txt', mimeType: 'text/plain', buffer: Buffer.from('Name|Priority|MaxJobsPU|MaxTRESPU|GrpTRES|GrpJobs|MaxWall|Flags\nnormal|10||||||\nhigh|100||||||\nlow|0|||cpu=2|||\n') });
  await p.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('limits'));
  const n0 = await runs(p);
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(dir, 'qos-sacct.txt'));
  await waitRuns(p, n0 + 1, 60_000);
  const status = await p.locator('[data-testid="status"]').innerText();
  assert.match(status, /1 job left out by the policy, never run \(counted as skipped\); first: job 2: it asks cpu=4, over GrpTRES's cpu=2 in QOS low: held for ever \(Slurm's reason QOSGrpCpuLimit\)/);
  const got = await table(p);
  const key = Object.keys(got).find((k) => k.startsWith('slurm'));
  assert.ok(close(got[key]['wait.mean'], 40), JSON.stringify(got));
  assert.deepEqual(problems, []);
  await context.close();
});
