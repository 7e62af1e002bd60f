// Files of one's own in the cluster panel are named by their own names, and read at once: a bad
// value of a key the slurm policy reads is said when the slurm.conf is loaded (the file, the
// line, the key, as the CLI says it), not first at the slurm run; an sshare or qos file's error
// names that file; an Alea workload beside its machines reads its memory as Alea does.
// Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK, ROOT, launch, open, runs, waitRuns, clickRun, errorsText } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const RUN = join('tests', 'data', 'slurm', 'gpu-3', 'run1');

test('a bad slurm.conf value is said when the file is loaded, under the file\'s own name', { skip }, async () => {
  const { page: p, problems, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=slurm');
  await waitRuns(p, 1, 60_000);
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(RUN, 'sacct.txt'));
  await waitRuns(p, 2, 60_000);
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  // Line 32 of the run's slurm.conf is its SchedulerParameters (tests/cli/site_cli.rs).
  const bad = readFileSync(join(RUN, 'slurm.conf'), 'utf8').replace('bf_window=30,', 'bf_window=abc,');
  await p.locator('[data-testid="cluster-file"]').setInputFiles({ name: 'site.conf', mimeType: 'text/plain', buffer: Buffer.from(bad) });
  await p.waitForFunction(() => !document.querySelector('[data-testid="cluster-error"]').hidden);
  assert.match(await p.locator('[data-testid="cluster-error"]').innerText(),
    /^site\.conf:32: SchedulerParameters, bf_window: "abc" is not a whole number from 1 to 43200 \(minutes\)$/);
  // The cluster itself is good: it is the form's.
  assert.match(await p.locator('[data-testid="cluster-summary"]').innerText(), /4 nodes/);
  assert.match(await p.locator('[data-testid="opt-cluster"]').inputValue(), /^1\//);
  // The run says it again, under the same name.
  const n = await clickRun(p);
  await p.waitForFunction(() => document.querySelector('[data-testid="errors"]')?.textContent.includes('site.conf:32'), null, { timeout: 60_000 });
  assert.match(await errorsText(p), /site\.conf:32: SchedulerParameters, bf_window/);
  assert.doesNotMatch(await errorsText(p), /slurm\.conf:32/);
  assert.ok(n >= 2);
  // A bad sshare file: its own name, not "sshare".
  await p.locator('[data-testid="cluster-sshare"]').setInputFiles({ name: 'mine.txt', mimeType: 'text/plain', buffer: Buffer.from('Account|User|RawShares\nroot||lots\n') });
  await p.waitForFunction(() => document.querySelector('[data-testid="cluster-error"]').textContent.startsWith('mine.txt'));
  assert.match(await p.locator('[data-testid="cluster-error"]').innerText(), /^mine\.txt:1: the header names no RawUsage field/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('an Alea workload dropped beside its machines: memory read as Alea reads it, one job left out', { skip }, async () => {
  const { page: p, problems, context } = await open(browser);
  await waitRuns(p, 1, 60_000);
  const before = await runs(p);
  const trace = readFileSync(join(ROOT, 'tests', 'data', 'nonstandard', 'wagap-2013.swf'), 'utf8');
  const machines = readFileSync(join(ROOT, 'tests', 'data', 'nonstandard', 'wagap-2013.swf.machines'), 'utf8');
  await p.evaluate(([t, m]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'wagap-2013.swf', { type: 'text/plain' }));
    dt.items.add(new File([m], 'wagap-2013.swf.machines', { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, [trace, machines]);
  await waitRuns(p, before + 1, 120_000);
  const facts = await p.locator('[data-testid="facts"]').innerText();
  // Read as SWF's KB per processor, 11319 jobs asked more than any node has.
  assert.match(facts, /17900 job lines in Alea's MetaCentrum form/);
  assert.match(facts, /1 job can never run on the cluster and is left out; first: job 8687: asks for 524288 MB per node/);
  assert.deepEqual(problems, []);
  await context.close();
});
