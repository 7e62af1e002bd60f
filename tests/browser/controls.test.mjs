// The page's other controls: policy picker, URL loading, Back / Forward, drag and drop, seeds,
// the metrics JSON export. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, BASE, SHOTS, MOCK, launch, open, runs, waitRuns, table, errorsText } from './helpers.mjs';

let browser, page, context, problems;

before(async () => {
  browser = await launch();
  ({ page, context, problems } = await open(browser));
  await waitRuns(page, 1);
});
after(async () => { await browser?.close(); });

test('the policy picker adds policies, edits keys and shows validation inline', async () => {
  const specs = page.locator('[data-testid="policy-spec"]');
  await page.locator('[data-testid="policy-add-name"]').selectOption('conservative');
  await page.locator('[data-testid="policy-add"]').click();
  assert.equal(await specs.count(), 3);
  assert.equal(await specs.nth(2).inputValue(), 'conservative');
  // A choice key is a select; changing it rewrites the spec.
  // The keys are folded under "keys" (one Tab stop per card).
  await page.locator('[data-testid="policy-entry"]').nth(0).locator('details.keys-box summary').click();
  await page.locator('[data-testid="policy-entry"]').nth(0).locator('select[data-key="order"]').selectOption('sjf');
  assert.equal(await specs.nth(0).inputValue(), 'easy[order=sjf]');
  // A bad spec shows the engine's message in the card.
  await specs.nth(1).fill('fcfs[speed=9]');
  const error = page.locator('[data-testid="policy-error"]').nth(1);
  assert.match(await error.innerText(), /speed/);
  await page.screenshot({ path: join(SHOTS, 'picker.png') });
  await specs.nth(1).fill('fcfs');
  assert.equal(await error.innerText(), '');
  // A duplicate is flagged and run once.
  await page.locator('[data-testid="policy-add-name"]').selectOption('fcfs');
  await page.locator('[data-testid="policy-add"]').click();
  assert.match(await page.locator('[data-testid="policy-error"]').nth(3).innerText(), /same policy/);
  await page.locator('[data-testid="policy-remove"]').nth(3).click();
  const before = await runs(page);
  await page.locator('[data-testid="run"]').click();
  await waitRuns(page, before + 1);
  assert.deepEqual(Object.keys(await table(page)).sort(), ['conservative', 'easy[order=sjf]', 'fcfs']);
  assert.deepEqual(problems, []);
});

test('Back returns to the previous comparison, Forward comes back', async () => {
  const now = await table(page);
  let n = await runs(page);
  await page.goBack();
  await waitRuns(page, ++n);
  assert.deepEqual(Object.keys(await table(page)).sort(), ['easy', 'fcfs']);
  assert.equal(await page.locator('[data-testid="policy-spec"]').count(), 2);
  await page.goForward();
  await waitRuns(page, ++n);
  assert.deepEqual(await table(page), now);
});

test('a trace loads from a URL, and the link carries the URL', async () => {
  const url = `${BASE}www/demo/5K_sample.swf.gz`;
  await page.locator('[data-testid="trace-sources"] summary').click(); // the file and URL are folded
  await page.locator('[data-testid="trace-url"]').fill(url);
  const before = await runs(page);
  await page.locator('[data-testid="trace-url-load"]').click();
  await waitRuns(page, before + 1);
  assert.ok((await table(page)).fcfs['counts.jobs'] > 0);
  assert.ok((await page.locator('[data-testid="share-link"]').getAttribute('href')).includes(`trace=url:${url}`));
  // A URL that does not answer gives a message and keeps the results.
  await page.locator('[data-testid="trace-url"]').fill(`${BASE}www/demo/missing.swf`);
  await page.locator('[data-testid="trace-url-load"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="errors"]').innerText.includes('404'));
  assert.equal(await runs(page), before + 1);
  // Chromium logs the failed request itself; that one console error is expected here.
  assert.deepEqual(problems.splice(0), ['console: Failed to load resource: the server responded with a status of 404 (File not found)']);
});

test('a trace dropped on the page runs', async () => {
  const text = readFileSync(join(ROOT, 'tests', 'browser', 'fixtures', 'tiny.swf'), 'utf8');
  const before = await runs(page);
  await page.evaluate((content) => {
    const dt = new DataTransfer();
    dt.items.add(new File([content], 'dropped.swf', { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, text);
  await waitRuns(page, before + 1);
  assert.match(await page.locator('[data-testid="facts"]').innerText(), /dropped\.swf/);
  assert.equal((await table(page)).fcfs['counts.jobs'], 3);
  assert.equal(await page.evaluate(() => document.body.classList.contains('dragging')), false);
});

test('the results table, the sweep metrics and the link keys come from the engine\'s registries', { skip: MOCK ? 'mock engine' : false }, async () => {
  const got = await page.evaluate(async () => {
    const engine = await import(new URL('pkg/schedlab.js', location.href).href);
    const { OPTIONS } = await import(new URL('www/options.js', location.href).href);
    const share = await import(new URL('www/share.js', location.href).href);
    // Policies as rows, the catalogue's metrics as columns (every family stays in the document).
    const rows = [...document.querySelector('[data-testid="results"] tbody tr').querySelectorAll('td')].map((td) => td.dataset.name);
    const sweep = [...document.querySelectorAll('[data-testid="sweep-metric"] option')].map((o) => o.value);
    // Every link key with a value other than its default survives decode and encode.
    const sample = (o) => ({ bool: o.default === '1' ? '0' : '1', choice: o.kind.values?.[1], list: '0,5', number: '12.5', ids: '3,17', time: '100', capacity: '64', pairs: '12=64', cluster: '1/n[1-4]:c8:m0/p=all:ALL:default', counts: '1:4,2:2' }[o.kind.type]
      ?? String(Math.min(o.kind.max, Math.max(o.kind.min, 2) + 1)));
    const trips = OPTIONS.filter((o) => o.key && o.key !== 'nodes').map((o) => {
      const hash = `#v=1&trace=demo:hpc2n&policy=easy&nodes=1&${o.key}=${sample(o)}`;
      const { state, problems } = share.decode(hash, ['hpc2n']);
      return { key: o.key, text: sample(o), problems, back: share.encode(state) };
    });
    return { metrics: engine.metrics(), schema: engine.options_schema(), page: OPTIONS, rows, sweep, trips };
  });
  const names = got.metrics.map((m) => m.name);
  // No node model and no cluster in this comparison: every other row of the catalogue, in its
  // order.
  assert.deepEqual(got.rows, got.metrics.filter((m) => m.family !== 'penalty' && m.family !== 'cluster').map((m) => m.name));
  assert.deepEqual(got.sweep, names);
  // The page's copy of the options schema (www/options.js) is the engine's.
  assert.deepEqual(got.page, got.schema);
  for (const t of got.trips) {
    assert.deepEqual(t.problems, [], t.key);
    assert.ok(t.back.includes(`&${t.key}=${t.text}`), `${t.key}=${t.text} not in ${t.back}`);
  }
  // Every key the README lists is in the schema (old links keep opening).
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const linked = got.page.filter((o) => o.key).map((o) => o.key);
  for (const key of ['procs', 'seed', 'kill', 'estimate', 'wide', 'origin', 'zero', 'strict', 'status', 'offline', 'nodes', 'cores', 'bw', 'mix', 'high', 'bwfield', 'bound', 'warmup', 'measured']) {
    assert.ok(linked.includes(key), key);
    assert.ok(readme.includes(`\`${key}\``) || key === 'procs' || key === 'seed', `README lists ${key}`);
  }
});

test('new seed fills the seed field; metrics JSON downloads the reports', async () => {
  await page.locator('[data-testid="new-seed"]').click();
  const seed = await page.locator('[data-testid="opt-seed"]').inputValue();
  assert.match(seed, /^\d+$/);
  assert.ok(Number(seed) < 2 ** 32);
  await page.locator('[data-testid="opt-seed"]').fill('x1');
  await page.locator('[data-testid="run"]').click();
  assert.match(await errorsText(page), /seed "x1"/);
  await page.locator('[data-testid="opt-seed"]').fill('7');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-json"]').click()]);
  const reports = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.ok(Array.isArray(reports) && reports.length >= 2 && reports[0].metrics.wait);
  const [png] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-png"]').first().click()]);
  assert.match(png.suggestedFilename(), /\.png$/);
  assert.deepEqual(problems, []);
  await context.close();
});
