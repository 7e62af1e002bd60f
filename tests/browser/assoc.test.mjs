// The cluster panel's assoc input: `sacctmgr show assoc format=Cluster,Account,User,Partition,
// ParentName,Share,GrpJobs,GrpTRES,MaxJobs,MaxTRES,MaxWall -P` output gives the slurm policy its
// association limits, as the CLI's --assoc, named in the panel; an account of the log the file
// lacks is said above the results (the engine's slurm::site_note::assoc_note, sent with the
// trace's facts); a bad file's error names its file, line and field. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { MOCK, launch, open, runs, waitRuns, clickRun, table, cli, cliBinary, metric, close } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// Three jobs of 2 processors on the log's 4 (its recorded peak), 100 s each: ann's 1 and 2 in
// phys at 0, bob's 3 in chem at 10. Without the file jobs 1 and 2 start at 0 and job 3 at 100:
// waits 0, 0, 90, mean 30 s. With ann's MaxJobs=1 (limits enforced by the spec) job 2 is held
// to 100, when job 1 ends, and job 3 starts at its submission, by the backfill cycle the
// submission wakes (the cycle at 0 tested nothing: job 2 is held before its test): waits 0,
// 100, 0, mean 100 / 3 s.
const dir = join('tests', 'browser', 'fixtures');
const spec = 'slurm[AccountingStorageEnforce=(associations,limits)]';

test('an assoc file gives the slurm policy its association limits, as the CLI\'s --assoc', { skip }, async () => {
  const { page: p, problems, context } = await open(browser, `#v=1&trace=demo:hpc2n&policy=${encodeURIComponent(spec)}`);
  await waitRuns(p, 1, 60_000);
  const n0 = await runs(p);
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(dir, 'assoc-sacct.txt'));
  await waitRuns(p, n0 + 1, 60_000);
  const key = (t) => Object.keys(t).find((k) => k.startsWith('slurm'));
  const bare = await table(p);
  assert.ok(close(bare[key(bare)]['wait.mean'], 30), JSON.stringify(bare));
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await p.locator('[data-testid="cluster-assoc"]').setInputFiles(join(dir, 'assoc.txt'));
  await p.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('association'));
  assert.match(await p.locator('[data-testid="cluster-site"]').innerText(), /the limits of 1 association \(ann in phys MaxJobs=1; held when slurm\.conf's AccountingStorageEnforce names limits\)/);
  let n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  const got = await table(p);
  assert.ok(close(got[key(got)]['wait.mean'], 100 / 3), JSON.stringify(got));
  if (cliBinary()) {
    const [want] = cli(join(dir, 'assoc-sacct.txt'), [spec], 1, ['--assoc', join(dir, 'assoc.txt')]);
    assert.ok(close(got[key(got)]['wait.mean'], metric(want, 'wait.mean')));
  }
  // The file cannot travel in a link: the share panel says so.
  assert.equal(await p.locator('[data-testid="share-note-site"]').isHidden(), false);
  const note = p.locator('[data-testid="sshare-note"]');
  assert.equal(await note.isHidden(), true);
  // A file without chem: the note says so after the next run, above the results, as the CLI.
  await p.locator('[data-testid="cluster-assoc"]').setInputFiles({ name: 'part.txt', mimeType: 'text/plain', buffer: Buffer.from('Account|User|MaxJobs\nphys||\nphys|ann|1\n') });
  await p.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('1 association'));
  n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  assert.equal(await note.isVisible(), true);
  // The note names the file by its own name, as the page's errors do.
  assert.match(await note.innerText(), /part\.txt: 1 of the log's 2 accounts is not in it \(chem\): its jobs are held by no association limit/);
  // A bad file: its name, line and field.
  await p.locator('[data-testid="cluster-assoc"]').setInputFiles({ name: 'bad.txt', mimeType: 'text/plain', buffer: Buffer.from('Account|User|MaxJobs\nphys||\nphys|ann|one\n') });
  await p.waitForFunction(() => !document.querySelector('[data-testid="cluster-error"]').hidden);
  assert.match(await p.locator('[data-testid="cluster-error"]').innerText(), /^bad\.txt:3: MaxJobs: "one" is not a whole number/);
  assert.deepEqual(problems, []);
  await context.close();
});
