// The user-aware (EET) section: box plots and heatmaps drawn, the table's EET rows equal to the
// CLI, the heatmap options (exclude, sort, log) change the heatmap and travel in the link.
// Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, MOCK, launch, open, waitRuns, table, cliBinary, cli, metric, close, distinctColours } from './helpers.mjs';

const EET_METRICS = ['eet.violated_percent', 'eet.veet.median', 'eet.veet.q3', 'eet.wt.median'];
const HEAT = '[data-testid="chart-heatmap"]';

let browser, page, context, problems;

before(async () => {
  browser = await launch();
  ({ page, context, problems } = await open(browser));
  await waitRuns(page, 1);
});
after(async () => { await browser?.close(); });

/** Scrolls every EET chart into view and waits until all are drawn. */
async function drawAll(p) {
  await p.locator('[data-testid="chart-veet"]').scrollIntoViewIfNeeded();
  for (const h of await p.locator(HEAT).all()) await h.scrollIntoViewIfNeeded();
  await p.waitForFunction(() => window.schedlab.eet.items.length > 0 && window.schedlab.eet.items.every((i) => !i.dirty), null, { timeout: 15_000 });
}

const heatUsers = (p, i) => p.locator(HEAT).nth(i).evaluate((c) => c.dataset.users);
const heatPixels = (p, i) => p.locator(HEAT).nth(i).evaluate((c) => c.toDataURL());

test('the VEET and WT box plots and one heatmap per policy are drawn', { skip: MOCK ? 'mock engine' : false }, async () => {
  await drawAll(page);
  assert.ok(await distinctColours(page, '[data-testid="chart-veet"]') > 2, 'VEET box plot is blank');
  assert.ok(await distinctColours(page, '[data-testid="chart-wt"]') > 2, 'WT box plot is blank');
  const policies = await page.locator(HEAT).evaluateAll((cs) => cs.map((c) => c.dataset.policy));
  assert.deepEqual(policies, ['easy', 'fcfs']);
  for (const i of [0, 1]) {
    assert.ok(await distinctColours(page, `${HEAT} >> nth=${i}`) > 2, `heatmap ${i} is blank`);
    assert.ok((await heatUsers(page, i)).length > 0, `heatmap ${i} shows no user`);
  }
  // Same rows in the same order for both policies.
  assert.equal(await heatUsers(page, 0), await heatUsers(page, 1));
  // The heatmaps follow the Gantt charts' time window.
  const whole = await heatPixels(page, 0);
  await page.evaluate(() => window.schedlab.gantts.zoom(0.25));
  await drawAll(page);
  assert.notEqual(await heatPixels(page, 0), whole, 'the heatmap did not follow the Gantt zoom');
  await page.evaluate(() => window.schedlab.gantts.setWindow(null));
  await drawAll(page);
  assert.equal(await heatPixels(page, 0), whole);
  // Every chart has its PNG button.
  assert.equal(await page.locator('[data-testid="eet"] [data-testid="export-png"]').count(), 4);
  await page.locator('section:has(#h-eet)').screenshot({ path: join(SHOTS, 'eet.png') });
  assert.deepEqual(problems, []);
});

test('the EET rows of the table equal `schedlab run --json`', { skip: !cliBinary() || MOCK ? 'no CLI binary (or mock engine)' : false }, async () => {
  const seed = Number(await page.locator('[data-testid="opt-seed"]').inputValue());
  const values = await table(page);
  for (const r of cli('www/demo/hpc2n.swf.gz', ['easy', 'fcfs'], seed)) {
    for (const m of EET_METRICS) {
      const got = values[r.policy][m], want = metric(r, m);
      assert.ok(Number.isFinite(want), `CLI has no ${m}`);
      assert.ok(close(got, want), `${r.policy} ${m}: page ${got}, CLI ${want}`);
    }
  }
  // The older rows still read report.metrics.
  assert.ok(values.easy['wait.mean'] > 0 && values.easy['counts.jobs'] === 3145);
});

test('excluding the heaviest user changes the heatmap, and the link carries the options', { skip: MOCK ? 'mock engine' : false }, async () => {
  await drawAll(page);
  const [heaviest] = (await heatUsers(page, 0)).split(',');
  const beforePixels = await heatPixels(page, 0);
  await page.locator('[data-testid="heat-exclude"]').fill(`${heaviest}`);
  await page.locator('[data-testid="heat-exclude"]').press('Enter');
  await drawAll(page);
  const after = (await heatUsers(page, 0)).split(',');
  assert.ok(!after.includes(heaviest), `user ${heaviest} is still shown: ${after}`);
  assert.notEqual(await heatPixels(page, 0), beforePixels, 'the heatmap did not change');
  assert.match(await page.locator('[data-testid="share-link"]').getAttribute('href'), new RegExp(`&exclude=${heaviest}(&|$)`));
  // Sort by user id, log colours: the link records them; the run is not repeated.
  const runsBefore = await page.evaluate(() => Number(document.body.dataset.runs));
  await page.locator('[data-testid="heat-sort"]').selectOption('user');
  await page.locator('[data-testid="heat-log"]').check();
  await drawAll(page);
  const sorted = (await heatUsers(page, 1)).split(',').map(Number);
  assert.deepEqual(sorted, [...sorted].sort((a, b) => a - b), 'rows are not sorted by user id');
  const href = await page.locator('[data-testid="share-link"]').getAttribute('href');
  assert.match(href, /&heatlog=1/);
  assert.match(href, /&heatsort=user/);
  assert.equal(await page.evaluate(() => location.hash), href.slice(href.indexOf('#')));
  assert.equal(await page.evaluate(() => Number(document.body.dataset.runs)), runsBefore);
  const users = await heatUsers(page, 1);

  // A fresh page opened with the link shows the same options and rows.
  const fresh = await open(browser, href.slice(href.indexOf('#')));
  await waitRuns(fresh.page, 1);
  assert.equal(await fresh.page.locator('[data-testid="heat-exclude"]').inputValue(), heaviest);
  assert.equal(await fresh.page.locator('[data-testid="heat-sort"]').inputValue(), 'user');
  assert.equal(await fresh.page.locator('[data-testid="heat-log"]').isChecked(), true);
  assert.equal(await fresh.page.locator('[data-testid="heat-only"]').inputValue(), '');
  await drawAll(fresh.page);
  assert.equal(await heatUsers(fresh.page, 1), users);
  assert.equal(await heatPixels(fresh.page, 1), await heatPixels(page, 1), 'the fresh page draws another heatmap');
  await fresh.page.locator('section:has(#h-eet)').screenshot({ path: join(SHOTS, 'eet-options.png') });
  assert.deepEqual(fresh.problems, []);
  await fresh.context.close();
  assert.deepEqual(problems, []);
});

test('"only users" shows those users alone; a name the trace does not give is flagged, and bad link values give messages', { skip: MOCK ? 'mock engine' : false }, async () => {
  const users = (await heatUsers(page, 0)).split(',');
  const pick = users.slice(0, 2);
  await page.locator('[data-testid="heat-only"]').fill(`${pick.join(', ')}, x7`);
  await page.locator('[data-testid="heat-only"]').press('Enter');
  await drawAll(page);
  assert.deepEqual((await heatUsers(page, 0)).split(',').sort(), [...pick].sort());
  assert.equal(await page.locator('[data-testid="heat-only"]').evaluate((e) => e.classList.contains('invalid')), true);
  // The trace (SWF) names no user: x7 is a name it does not give, told and kept as typed.
  assert.match(await page.locator('[data-testid="errors"]').innerText(), /heatmap only users: “x7” is not a user of this trace/);
  assert.match(await page.locator('[data-testid="share-link"]').getAttribute('href'), new RegExp(`&only=${pick.join(',')},x7(&|$)`));
  await context.close();

  const bad = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&heatsort=size&exclude=a,b&heatlog=2');
  await waitRuns(bad.page, 1);
  const text = await bad.page.locator('[data-testid="errors"]').innerText();
  for (const bit of ['heatsort=size', 'heatlog=2']) assert.ok(text.includes(bit), `no message about ${bit}: ${text}`);
  // Users may be names now: a and b are read as names, which this trace does not give.
  assert.match(text, /heatmap exclude users: “a”, “b” are not users of this trace/);
  assert.equal(await bad.page.locator('[data-testid="heat-sort"]').inputValue(), 'total');
  assert.deepEqual(bad.problems, []);
  await bad.context.close();
});
