// The page in headless Chromium: demo on load, results equal to the CLI, upload, share link,
// corrupt input, Gantt zoom. Run through scripts/browser-test.sh (it serves the page).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, SHOTS, MOCK, launch, open, runs, waitRuns, table, errorsText, cliBinary, cli, metric, close, distinctColours } from './helpers.mjs';

const COMPARED = ['wait.mean', 'mbs', 'mwbs', 'utilization', 'counts.jobs'];
let browser;
let demo; // the page opened by the first test, reused by the ones that follow

before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

function assertMatchesCli(values, reports) {
  for (const r of reports) {
    assert.ok(values[r.policy], `no column for ${r.policy} (columns: ${Object.keys(values)})`);
    for (const m of COMPARED) {
      const page = values[r.policy][m], want = metric(r, m);
      assert.ok(close(page, want), `${r.policy} ${m}: page ${page}, CLI ${want}`);
    }
  }
}

// A hand-made SWF: 6 jobs on 4 processors (header MaxProcs 4).
const SMALL_SWF = `; MaxProcs: 4
1 0 -1 100 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1
2 10 -1 50 4 -1 -1 4 100 -1 1 2 1 -1 1 -1 -1 -1
3 20 -1 30 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1
4 30 -1 300 2 -1 -1 2 400 -1 1 3 1 -1 1 -1 -1 -1
5 40 -1 20 1 -1 -1 1 20 -1 1 2 1 -1 1 -1 -1 -1
6 50 -1 80 3 -1 -1 3 100 -1 1 1 1 -1 1 -1 -1 -1
`;

test('the page loads the demo and shows results with no console error', async () => {
  demo = await open(browser);
  const { page, problems } = demo;
  await waitRuns(page, 1);
  const values = await table(page);
  assert.deepEqual(Object.keys(values).sort(), ['easy', 'fcfs']);
  for (const spec of ['easy', 'fcfs']) assert.ok(values[spec]['counts.jobs'] > 0);
  assert.equal(await page.locator('[data-testid="chart-gantt"]').count(), 2);
  assert.ok(await distinctColours(page, '[data-testid="chart-utilization"]') > 2, 'utilization chart is blank');
  assert.ok(await distinctColours(page, '[data-testid="chart-bars-wait"]') > 2, 'bar chart is blank');
  if (!MOCK) assert.match(await page.locator('[data-testid="facts"]').innerText(), /jobs simulated\s+3,145/);
  assert.match(await page.locator('[data-testid="share-link"]').getAttribute('href'), /#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs/);
  assert.equal(await page.locator('[data-testid="progress"]').evaluate((p) => p.value), 1);
  // Gantt charts are drawn when they come into view.
  const gantts = page.locator('[data-testid="chart-gantt"]');
  await gantts.nth(1).scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.schedlab.gantts.items.every((i) => !i.dirty), null, { timeout: 10_000 });
  for (const i of [0, 1]) assert.ok(await distinctColours(page, `[data-testid="chart-gantt"] >> nth=${i}`) > 2, `Gantt ${i} is blank`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, 'demo.png'), fullPage: true });
  assert.deepEqual(problems, []);
});

test('two policies on the demo equal `schedlab run --json`', { skip: !cliBinary() || MOCK ? 'no CLI binary (or mock engine)' : false }, async () => {
  const { page } = demo;
  const seed = Number(await page.locator('[data-testid="opt-seed"]').inputValue());
  assertMatchesCli(await table(page), cli('www/demo/hpc2n.swf.gz', ['easy', 'fcfs'], seed));
});

test('a file uploaded through trace-file runs', async () => {
  const { page, problems } = demo;
  const dir = mkdtempSync(join(tmpdir(), 'schedlab-'));
  const file = join(dir, 'small.swf');
  writeFileSync(file, SMALL_SWF);
  const before = await runs(page);
  await page.locator('[data-testid="trace-file"]').setInputFiles(file);
  await waitRuns(page, before + 1);
  const values = await table(page);
  assert.equal(values.easy['counts.jobs'], 6);
  assert.match(await page.locator('[data-testid="facts"]').innerText(), /uploaded file: small\.swf/);
  assert.equal(await page.locator('[data-testid="share-note"]').isVisible(), true);
  if (cliBinary() && !MOCK) assertMatchesCli(values, cli(file, ['easy', 'fcfs'], 1));
  await page.screenshot({ path: join(SHOTS, 'upload.png') });
  assert.deepEqual(problems, []);
});

test('a corrupt file shows a message and the page keeps working', async () => {
  const { page } = demo;
  const before = await runs(page);
  const garbage = Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 3]), Buffer.from('this is not deflate data at all')]);
  await page.locator('[data-testid="trace-file"]').setInputFiles({ name: 'corrupt.swf.gz', mimeType: 'application/gzip', buffer: garbage });
  await page.waitForFunction(() => document.querySelector('[data-testid="errors"]').innerText.includes('corrupt.swf.gz'), null, { timeout: 15_000 });
  assert.equal(await page.locator('[data-testid="run"]').isEnabled(), true);
  // A binary file too.
  await page.locator('[data-testid="trace-file"]').setInputFiles({ name: 'binary.swf', mimeType: 'application/octet-stream', buffer: Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 7]) });
  await page.waitForFunction(() => document.querySelector('[data-testid="errors"]').innerText.includes('binary.swf'), null, { timeout: 15_000 });
  await page.screenshot({ path: join(SHOTS, 'corrupt.png') });
  assert.equal(await runs(page), before, 'a failed load must not replace the results');
  await page.locator('[data-testid="run"]').click();
  await waitRuns(page, before + 1);
  assert.equal((await table(page)).easy['counts.jobs'], 6, 'the run after the error uses the last good trace');
});

test('the share link opened in a fresh page reproduces the results', async () => {
  const { page } = demo;
  const shown = await runs(page);
  await page.locator('[data-testid="trace-demo"]').selectOption('5K_sample');
  await waitRuns(page, shown + 1);
  // Change the comparison: easy[order=sjf] instead of fcfs, a machine size and a seed.
  const spec = page.locator('[data-testid="policy-spec"]').nth(1);
  await spec.fill('easy[order=sjf]');
  await page.locator('[data-testid="opt-seed"]').fill('42');
  await page.locator('[data-testid="opt-procs"]').fill('150');
  const before = await runs(page);
  await page.locator('[data-testid="run"]').click();
  await waitRuns(page, before + 1);
  const values = await table(page);
  assert.deepEqual(Object.keys(values).sort(), ['easy', 'easy[order=sjf]']);
  const href = await page.locator('[data-testid="share-link"]').getAttribute('href');
  assert.match(href, /trace=demo:5K_sample&policy=easy&policy=easy\[order=sjf\]&procs=150&seed=42/);
  if (cliBinary() && !MOCK) assertMatchesCli(values, cli('www/demo/5K_sample.swf.gz', ['easy', 'easy[order=sjf]'], 42, ['--procs', '150']));

  const fresh = await open(browser, href.slice(href.indexOf('#')));
  await waitRuns(fresh.page, 1);
  assert.deepEqual(await table(fresh.page), values);
  assert.equal(await fresh.page.locator('[data-testid="opt-procs"]').inputValue(), '150');
  assert.deepEqual(fresh.problems, []);
  await fresh.context.close();
});

test('the Gantt chart is not blank after a zoom, and shows a tooltip', async () => {
  const { page, problems } = demo;
  const canvas = page.locator('[data-testid="chart-gantt"]').first();
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.5);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -300);
  await page.waitForFunction(() => /window=/.test(document.querySelector('[data-testid="share-link"]').href), null, { timeout: 5000 });
  const size = await canvas.evaluate((c) => [c.width, c.height]);
  const inside = [60, 40, size[0] - 116 - 60, size[1] - 34 - 40];
  assert.ok(await distinctColours(page, '[data-testid="chart-gantt"]', inside) > 2, 'the zoomed Gantt plotting area is blank');
  // Drag to pan, then look for a job under the pointer.
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5, { steps: 4 });
  await page.mouse.up();
  let shown = false;
  for (let fx = 0.2; fx < 0.8 && !shown; fx += 0.05) {
    for (const fy of [0.8, 0.7, 0.6, 0.5]) {
      await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
      if (await page.locator('[data-testid="gantt-tooltip"]').isVisible()) { shown = true; break; }
    }
  }
  assert.ok(shown, 'no tooltip over the Gantt chart');
  assert.match(await page.locator('[data-testid="gantt-tooltip"]').innerText(), /job \d+ .*user/s);
  // The tooltip names the job drawn under the pointer: the centre of the widest visible rectangle.
  const target = await page.evaluate(() => {
    const g = window.schedlab.gantts, item = g.items[0], r = item.result.rects, [t0, t1] = g.current(), a = item.area;
    let best = -1, width = 0;
    for (let i = 0; i < r.length; i += 7) {
      const w = Math.min(r[i + 1], t1) - Math.max(r[i], t0);
      if (r[i + 3] - r[i + 2] >= g.procs / 10 && w > width) { width = w; best = i; }
    }
    const t = (Math.max(r[best], t0) + Math.min(r[best + 1], t1)) / 2, p = (r[best + 2] + r[best + 3]) / 2;
    const x = a.x0 + ((t - t0) / (t1 - t0)) * (a.x1 - a.x0), y = a.y1 - (p / g.procs) * (a.y1 - a.y0);
    const px = item.canvas.getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data;
    const box = item.canvas.getBoundingClientRect(), k = box.width / item.canvas.width;
    return { id: item.result.jobs[r[best + 5] * 11], x: box.left + x * k, y: box.top + y * k, white: px[0] + px[1] + px[2] > 740 };
  });
  assert.equal(target.white, false, 'the page maps a job to a white pixel: the plotting area is misplaced');
  await page.mouse.move(target.x, target.y);
  assert.match(await page.locator('[data-testid="gantt-tooltip"]').innerText(), new RegExp(`^job ${target.id} `));
  await page.screenshot({ path: join(SHOTS, 'gantt-zoom.png'), fullPage: true });
  await page.mouse.dblclick(box.x + box.width * 0.5, box.y + box.height * 0.5);
  await page.waitForFunction(() => !/window=/.test(document.querySelector('[data-testid="share-link"]').href), null, { timeout: 5000 });
  assert.deepEqual(problems, []);
});

test('every input option in a link reaches the engine as the CLI flags do', { skip: !cliBinary() || MOCK ? 'no CLI binary (or mock engine)' : false }, async () => {
  const hash = '#v=1&trace=demo:5K_sample&policy=easy&policy=conservative&procs=100&seed=3&kill=0&estimate=runtime&wide=clamp&origin=trace&zero=1&status=5';
  const { page, context, problems } = await open(browser, hash);
  await waitRuns(page, 1);
  const want = cli('www/demo/5K_sample.swf.gz', ['easy', 'conservative'], 3,
    ['--procs', '100', '--no-kill', '--estimate', 'runtime', '--wide', 'clamp', '--origin', 'trace', '--skip-zero-runtime', '--skip-status', '5']);
  assertMatchesCli(await table(page), want);
  assert.equal(await page.locator('[data-testid="opt-status"]').inputValue(), '5');
  assert.equal(await page.locator('[data-testid="opt-kill"]').isChecked(), false);
  const link = await page.locator('[data-testid="share-link"]').getAttribute('href');
  const params = (h) => h.slice(h.indexOf('#') + 1).split('&').sort();
  assert.deepEqual(params(link), params(hash));
  assert.deepEqual(problems, []);
  await context.close();
});

test('queue orders, model estimates and offline mode in a link match the CLI', { skip: !cliBinary() || MOCK ? 'no CLI binary (or mock engine)' : false }, async () => {
  const specs = ['easy[queue=random-length,weight=0.0001,predictor=rfactor[r=5,mode=rnd]]', 'fcfs[queue=sjf]'];
  const hash = `#v=1&trace=demo:5K_sample&${specs.map((p) => `policy=${p}`).join('&')}&seed=4&estimate=ignore&offline=1`;
  const { page, context, problems } = await open(browser, hash);
  await waitRuns(page, 1);
  assertMatchesCli(await table(page), cli('www/demo/5K_sample.swf.gz', specs, 4, ['--estimate', 'ignore', '--offline']));
  assert.equal(await page.locator('[data-testid="opt-offline"]').isChecked(), true);
  assert.equal(await page.locator('[data-testid="opt-estimate"]').inputValue(), 'ignore');
  const link = await page.locator('[data-testid="share-link"]').getAttribute('href');
  const params = (h) => h.slice(h.indexOf('#') + 1).split('&').sort();
  assert.deepEqual(params(link), params(hash));
  // Guarantee-free sorted conservative backfilling, on-line, from the picker's spec text.
  const { page: p2, context: c2 } = await open(browser, '#v=1&trace=demo:5K_sample&policy=conservative[queue=sjf,guarantees=off]&seed=2');
  await waitRuns(p2, 1);
  assertMatchesCli(await table(p2), cli('www/demo/5K_sample.swf.gz', ['conservative[queue=sjf,guarantees=off]'], 2, []));
  await c2.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('a malformed link gives messages, not a broken page', async () => {
  const { page, context, problems } = await open(browser, '#v=7&trace=demo:nope&policy=easy[order=bogus]&policy=fcfs&procs=-3&colour=red');
  await waitRuns(page, 1);
  const text = await errorsText(page);
  for (const bit of ['v=7', 'unknown demo', 'procs=-3', 'colour', 'bogus']) assert.ok(text.includes(bit), `no message about ${bit}: ${text}`);
  assert.deepEqual(Object.keys(await table(page)), ['fcfs']);
  await page.screenshot({ path: join(SHOTS, 'bad-link.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('cancel stops a run and the next run works', async () => {
  const { page } = demo;
  const before = await runs(page);
  // Both clicks in one task: the run cannot finish in between, however fast it is.
  await page.evaluate(() => {
    document.querySelector('[data-testid="run"]').click();
    document.querySelector('[data-testid="cancel"]').click();
  });
  assert.equal(await page.locator('[data-testid="cancel"]').isDisabled(), true);
  assert.equal(await page.locator('[data-testid="status"]').innerText(), 'Cancelled.');
  await page.waitForTimeout(300);
  assert.equal(await runs(page), before, 'a cancelled run must not show results');
  await page.locator('[data-testid="run"]').click();
  await waitRuns(page, before + 1);
  assert.deepEqual(demo.problems, []);
  await demo.context.close();
});

test('the jobs and runs CSV exports equal the CLI files', { skip: !cliBinary() || MOCK ? 'no CLI binary (or mock engine)' : false }, async () => {
  const fresh = await open(browser);
  const { page } = fresh;
  await waitRuns(page, 1);
  const ready = await page.locator('[data-testid="export-policy"] option').allTextContents();
  assert.deepEqual(ready, ['easy', 'fcfs']);
  await page.locator('[data-testid="export-policy"]').selectOption({ label: 'fcfs' });
  const seed = await page.locator('[data-testid="opt-seed"]').inputValue();
  const dir = mkdtempSync(join(tmpdir(), 'schedlab-export-'));
  for (const kind of ['jobs', 'runs']) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`[data-testid="export-${kind}-csv"]`).click(),
    ]);
    assert.equal(download.suggestedFilename(), `${kind}.fcfs.csv`);
    const got = readFileSync(await download.path(), 'utf8');
    const want = join(dir, `${kind}.csv`);
    execFileSync(cliBinary(), ['run', 'www/demo/hpc2n.swf.gz', '-p', 'fcfs', '--seed', seed, `--${kind}-csv`, want], { cwd: ROOT, stdio: 'ignore' });
    const expected = readFileSync(want, 'utf8');
    assert.ok(got.split('\n').length > 3000, `${kind} CSV has ${got.split('\n').length} lines`);
    assert.equal(got, expected, `${kind} CSV differs from the CLI's`);
  }
  assert.deepEqual(fresh.problems, []);
  await fresh.context.close();
});
