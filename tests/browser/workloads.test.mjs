// Workloads beyond SWF files in the page: an sacct file (and sacct --json, plain and gzipped)
// dropped on the page runs (results equal to the CLI's), a generated workload from a link
// reproduces in a fresh page (and equals the CLI's generator + load scale), the generate and
// load-scale controls. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, SHOTS, launch, open, runs, waitRuns, table, errorsText, cli, cliBinary, metric, close } from './helpers.mjs';

const COMPARED = ['wait.mean', 'mbs', 'mwbs', 'utilization', 'counts.jobs'];
let browser;

before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

function assertMatchesCli(values, reports) {
  for (const r of reports) {
    assert.ok(values[r.policy], `no column for ${r.policy} (columns: ${Object.keys(values)})`);
    for (const m of COMPARED) {
      const want = metric(r, m);
      if (want === undefined) continue;
      assert.ok(close(values[r.policy][m], want), `${r.policy} ${m}: page ${values[r.policy][m]}, CLI ${want}`);
    }
  }
}

test('a Slurm sacct file dropped on the page runs, as the CLI reads it', async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs&seed=1');
  await waitRuns(page, 1);
  const file = join(ROOT, 'tests', 'data', 'workloads', 'hand.sacct');
  const text = readFileSync(file, 'utf8');
  await page.evaluate((content) => {
    const dt = new DataTransfer();
    dt.items.add(new File([content], 'accounting.txt', { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, text);
  await waitRuns(page, 2);
  const facts = await page.locator('[data-testid="facts"]').innerText();
  assert.match(facts, /accounting\.txt/);
  const values = await table(page);
  assert.equal(values.easy['counts.jobs'], 6);
  assertMatchesCli(values, cli(file, ['easy', 'fcfs'], 1));
  assert.deepEqual(problems, []);
  await context.close();
});

test('sacct --json dropped on the page, plain and gzipped, runs as the CLI reads it', async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs&seed=1');
  await waitRuns(page, 1);
  const file = join(ROOT, 'tests', 'data', 'slurm', 'json-16', 'sacct.json');
  const plain = readFileSync(file);
  let done = 1;
  for (const [name, bytes] of [['jobs.json', plain], ['jobs.json.gz', gzipSync(plain)]]) {
    await page.evaluate(([name, content]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(content)], name, { type: 'application/octet-stream' }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }
    }, [name, Array.from(bytes)]);
    done += 1;
    await waitRuns(page, done);
    const facts = await page.locator('[data-testid="facts"]').innerText();
    assert.ok(facts.includes(name), facts);
    const values = await table(page);
    assert.equal(values.easy['counts.jobs'], 52);
    assertMatchesCli(values, cli(file, ['easy', 'fcfs'], 1));
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('a generated workload from a link reproduces in a fresh page and equals the CLI', async () => {
  const hash = '#v=1&trace=gen:lublin:64:2000:5&policy=easy&policy=fcfs&seed=1&load=1.5';
  const first = await open(browser, hash);
  await waitRuns(first.page, 1, 60_000);
  const a = await table(first.page);
  assert.equal(a.easy['counts.jobs'], 2000);
  assert.equal(await first.page.locator('[data-testid="generate-jobs"]').inputValue(), '2000');
  assert.equal(await first.page.locator('[data-testid="generate-procs"]').inputValue(), '64');
  assert.equal(await first.page.locator('[data-testid="generate-seed"]').inputValue(), '5');
  assert.equal(await first.page.locator('[data-testid="load-scale"]').inputValue(), '1.5');
  assert.deepEqual(first.problems, []);
  await first.context.close();
  const second = await open(browser, hash);
  await waitRuns(second.page, 1, 60_000);
  assert.deepEqual(await table(second.page), a);
  await second.context.close();
  // The CLI: the same generator, seed and load scale.
  const dir = mkdtempSync(join(tmpdir(), 'schedlab-gen-'));
  const swf = join(dir, 'w.swf');
  execFileSync(cliBinary(), ['generate', '--model', 'lublin', '--procs', '64', '--jobs', '2000', '--seed', '5', '--out', swf], { stdio: 'ignore' });
  assertMatchesCli(a, cli(swf, ['easy', 'fcfs'], 1, ['--load-scale', '1.5']));
});

test('the generate controls and the load scale make the link', async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&seed=1');
  await waitRuns(page, 1);
  await page.locator('[data-testid="generate-panel"] summary').click();
  await page.locator('[data-testid="generate-jobs"]').fill('1500');
  await page.locator('[data-testid="generate-procs"]').fill('128');
  await page.locator('[data-testid="generate-seed"]').fill('9');
  await page.locator('[data-testid="load-scale"]').fill('1.2');
  await page.locator('[data-testid="opt-status"]').evaluate((e) => { e.closest('details').open = true; });
  await page.locator('[data-testid="trace-generate"]').click();
  await waitRuns(page, 2, 60_000);
  const link = await page.locator('[data-testid="share-link"]').getAttribute('href');
  // The page's default model: users, 3/4 of the 1999 model's arrival rate (docs/workloads.md).
  assert.match(link, /trace=gen:lublin-users:128:1500:9/);
  assert.match(link, /load=1\.2/);
  assert.equal((await table(page)).easy['counts.jobs'], 1500);
  const facts = await page.locator('[data-testid="facts"]').innerText();
  assert.match(facts, /generated: lublin-users model, 1,500 jobs, 128 processors, seed 9/);
  assert.match(facts, /load scaled by 1\.2/);
  await page.locator('aside.controls').screenshot({ path: join(SHOTS, 'workload-controls.png') });
  // Bad values are named, nothing runs.
  await page.locator('[data-testid="generate-jobs"]').fill('0');
  const n = await runs(page);
  await page.locator('[data-testid="trace-generate"]').click();
  assert.match(await errorsText(page), /Generate: give 1 to 200,000 jobs/);
  await page.locator('[data-testid="load-scale"]').fill('-2');
  await page.locator('[data-testid="run"]').click();
  assert.match(await errorsText(page), /load scale "-2"/);
  assert.equal(await runs(page), n);
  assert.deepEqual(problems, []);
  await context.close();
  // A bad generator reference in a link is reported and the demo shown.
  const bad = await open(browser, '#v=1&trace=gen:lublin:64:0:1&policy=easy');
  await waitRuns(bad.page, 1);
  assert.match(await errorsText(bad.page), /expected gen:MODEL:PROCS:JOBS:SEED \(MODEL lublin or lublin-users/);
  await bad.context.close();
});

test('KTH-SP2 is a demo fetched only when chosen', async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&seed=1');
  const fetched = [];
  page.on('request', (r) => fetched.push(r.url()));
  await waitRuns(page, 1);
  assert.ok(!fetched.some((u) => /KTH|LANL/.test(u)), 'no big demo fetched at start');
  const labels = await page.locator('[data-testid="trace-demo"] option').allInnerTexts();
  assert.ok(labels.some((l) => /KTH SP2/.test(l)) && labels.some((l) => /LANL CM-5/.test(l)), labels.join(' | '));
  await page.locator('[data-testid="trace-demo"]').selectOption('kth');
  await waitRuns(page, 2, 120_000);
  assert.ok(fetched.some((u) => /KTH-SP2-1996-2\.1-cln\.swf\.gz$/.test(u)));
  assert.equal((await table(page)).easy['counts.jobs'], 28475);
  assert.match(await page.locator('[data-testid="share-link"]').getAttribute('href'), /trace=demo:kth/);
  assert.deepEqual(problems, []);
  await context.close();
});
