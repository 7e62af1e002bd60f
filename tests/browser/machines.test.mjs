// An Alea `.machines` file as the cluster (docs/cluster-model.md, "Alea's machines"): chosen in
// the cluster panel's file input, or dropped on the page beside its trace; a bad line is named
// by the file, the line and the field. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK, ROOT, launch, open, runs, waitRuns, table } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Alea's own example (wagap-2013.swf.machines): zewura, 20 nodes of 80 CPUs; zegox, 48 of 12. */
const WAGAP = '0\tzewura\t20\t80\t1\t529426432\n1\tzegox\t48\t12\t1\t94035968\n';

test('a .machines file chosen in the cluster panel is the cluster; a bad line is named', { skip }, async () => {
  const { page, problems } = await open(browser, '#v=1&trace=demo:5K_sample&policy=fcfs');
  await waitRuns(page, 1, 60_000);
  await page.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  const file = page.locator('[data-testid="cluster-file"]');
  await file.setInputFiles({ name: 'wagap-2013.swf.machines', mimeType: 'text/plain', buffer: Buffer.from(WAGAP) });
  await page.waitForFunction(() => !document.querySelector('[data-testid="cluster-summary"]').hidden);
  assert.match(await page.locator('[data-testid="cluster-summary"]').innerText(),
    /cluster: 68 nodes in 2 groups, 2176 cores, 14748296 MB memory, 0 GPUs, 1 partition/);
  assert.match(await page.locator('[data-testid="opt-cluster"]').inputValue(), /zewura\[1-20\]:c80:m517018/);
  // Its lines fill the panel's text, as a slurm.conf's do; they are no slurm.conf for the site.
  assert.equal(await page.locator('[data-testid="cluster-site"]').isHidden(), true);
  await file.setInputFiles({ name: 'bad.machines', mimeType: 'text/plain', buffer: Buffer.from('0\tbig\t1\t8\t1\t8388608\n1\tsmall\t2\tfour\t1\t4194304\n') });
  await page.waitForFunction(() => !document.querySelector('[data-testid="cluster-error"]').hidden);
  assert.match(await page.locator('[data-testid="cluster-error"]').innerText(),
    /^bad\.machines:2: CPUs_per_node: "four": not a whole number of at least 1/);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('a .machines file dropped beside its trace becomes the cluster the trace runs on', { skip }, async () => {
  const { page, problems } = await open(browser);
  await waitRuns(page, 1, 60_000);
  const text = readFileSync(join(ROOT, 'tests', 'browser', 'fixtures', 'tiny.swf'), 'utf8');
  const before = await runs(page);
  // Two nodes of 4 CPUs: tiny.swf's job of 8 spans both.
  await page.evaluate(([trace, machines]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([trace], 'tiny.swf', { type: 'text/plain' }));
    dt.items.add(new File([machines], 'tiny.machines', { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, [text, '0\tn\t2\t4\t1\t1048576\n']);
  await waitRuns(page, before + 1, 60_000);
  assert.match(await page.locator('[data-testid="facts"]').innerText(), /tiny\.swf/);
  assert.match(await page.locator('[data-testid="cluster-summary"]').innerText(), /cluster: 2 nodes in 1 group, 8 cores, 2048 MB memory/);
  assert.equal(await page.locator('[data-testid="cluster-panel"]').evaluate((d) => d.open), true);
  assert.match(await page.locator('[data-testid="opt-cluster"]').inputValue(), /n\[1-2\]:c4:m1024/);
  const t = await table(page);
  for (const spec of Object.keys(t)) assert.equal(t[spec]['counts.jobs'], 3, spec);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('a trace in Alea\'s form dropped without its machines file names the file and how to give it, as the CLI does', { skip }, async () => {
  const { page, problems } = await open(browser);
  await waitRuns(page, 1, 60_000);
  const before = await runs(page);
  // Two jobs of 4 processors in Alea's MetaCentrum form (a node list, a queue, a PBS node spec).
  const line = (id) => `${id} 0 0 100 4 1 1024 4 200 1048576 1 1 1 1 -1 1 1 1 {n1} q_1d 1:ppn=4\n`;
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'wagap-2013.swf', { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, `; MaxProcs: 4\n${line(1)}${line(2)}`);
  await waitRuns(page, before + 1, 60_000);
  assert.match(await page.locator('[data-testid="facts"]').innerText(),
    /this trace's nodes are in Alea's machines file \(wagap-2013\.swf\.machines where the trace comes from\): drop it on the page with the trace, or choose it in the Cluster panel/);
  // With the machines file dropped beside it: its nodes, and no hint.
  const n = await runs(page);
  await page.evaluate(([text, machines]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'wagap-2013.swf', { type: 'text/plain' }));
    dt.items.add(new File([machines], 'wagap-2013.swf.machines', { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, [`; MaxProcs: 4\n${line(1)}${line(2)}`, '0\tn\t2\t4\t1\t1048576\n']);
  await waitRuns(page, n + 1, 60_000);
  assert.doesNotMatch(await page.locator('[data-testid="facts"]').innerText(), /Alea's machines file \(/);
  assert.deepEqual(problems, []);
  await page.context().close();
});
