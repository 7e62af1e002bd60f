// An sshare file of another cluster or time (its associations miss the trace's users and
// accounts) is said in the page above the results, where one looks after a run, in the words of
// `schedlab run --sshare` (the engine's slurm::site_note::sshare_note, sent with the trace's
// facts), once; the run's own sshare says nothing. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK, launch, open, runs, waitRuns, clickRun } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// One account, one user: none of the log's (alice ... frank; bio, chem, eng, phys).
const FOREIGN = 'Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS\n'
  + 'root|||0.000000|0||1.000000||\n'
  + ' astro||10|0.5|1000|0.5|0.5||1\n'
  + '  astro|zoe|1|1.0|1000|0.5|0.5|0.5|1\n';

test('a foreign sshare file is said above the results once, as the CLI says it', { skip }, async () => {
  const dir = join('tests', 'data', 'slurm', 'gpu-3', 'run1');
  const { page: p, problems, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=slurm');
  await waitRuns(p, 1, 60_000);
  const n0 = await runs(p);
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(dir, 'sacct.txt'));
  await waitRuns(p, n0 + 1, 60_000);
  const note = p.locator('[data-testid="sshare-note"]');
  assert.equal(await note.isHidden(), true);
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await p.locator('[data-testid="cluster-conf"]').fill(readFileSync(join(dir, 'slurm.conf'), 'utf8'));
  await p.locator('[data-testid="cluster-apply"]').click();
  await p.locator('[data-testid="cluster-sshare"]').setInputFiles({ name: 'other.txt', mimeType: 'text/plain', buffer: Buffer.from(FOREIGN) });
  await p.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('shares of other.txt'));
  let n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  assert.equal(await note.isVisible(), true);
  const text = await note.innerText();
  assert.match(text, /6 of the log's 6 users have no association in it \(alice, bob, carol, dave, erin, \.\.\.\): each is charged under root with one share/);
  assert.match(text, /4 of its 4 accounts are not in it \(bio, chem, eng, phys\)/);
  assert.match(text, /is it the sshare of the cluster and time of this log\?/);
  // Named by the file's own name (it read "sshare: ", whatever the file), as the CLI names it.
  assert.match(text, /^other\.txt: /);
  // Not an alert: a note above the results, seen with the cluster panel closed, said once.
  assert.equal(await note.getAttribute('role'), null);
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = false; });
  assert.equal(await note.isVisible(), true);
  assert.equal(await p.locator('.results-panel [data-testid="sshare-note"]').count(), 1);
  assert.equal(await p.getByText('have no association in it').count(), 1);
  await p.locator('.results-panel').screenshot({ path: 'tests/browser/screenshots/sshare-note.png' });
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  // The run's own sshare: every user and account has its association, nothing to say.
  await p.locator('[data-testid="cluster-sshare"]').setInputFiles(join(dir, 'sshare-start.txt'));
  await p.waitForFunction(() => document.querySelector('[data-testid="sshare-note"]').hidden);
  n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  assert.equal(await note.isHidden(), true);
  assert.deepEqual(problems, []);
  await context.close();
});
