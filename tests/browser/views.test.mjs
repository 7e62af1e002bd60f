// The views that explain a comparison: the trace view (before any run), distributions, two
// schedules job by job, the results table with many policies. Every chart is drawn non-blank.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, MOCK, launch, open, waitRuns, distinctColours } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Scrolls every chart `testid` into view, waits until all are drawn, checks none is blank. */
async function assertDrawn(page, testid, owner) {
  const charts = page.locator(`[data-testid="${testid}"]`);
  const n = await charts.count();
  assert.ok(n > 0, `no ${testid}`);
  for (let i = 0; i < n; i++) {
    await charts.nth(i).scrollIntoViewIfNeeded();
    await page.waitForFunction(([o, t, k]) => {
      const item = window.schedlab[o].items.find((it) => it.canvas === document.querySelectorAll(`[data-testid="${t}"]`)[k]);
      return item && !item.dirty;
    }, [owner, testid, i], { timeout: 10_000 });
    assert.ok(await distinctColours(page, `[data-testid="${testid}"] >> nth=${i}`) > 2, `${testid} ${i} is blank`);
  }
}

test('the trace view shows the loaded trace in every chart', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser);
  await waitRuns(page, 1);
  const view = page.locator('[data-testid="trace-view"]');
  assert.match(await view.locator('[data-testid="trace-summary"]').innerText(), /^3,145 jobs of \d+ users on 240 processors/);
  const names = await page.evaluate(() => window.schedlab.traceView.items.map((i) => i.name));
  assert.deepEqual(names, ['hour', 'weekday', 'week', 'procs', 'runtime', 'accuracy', 'requested', 'load', 'users']);
  for (const name of names) await assertDrawn(page, `chart-trace-${name}`, 'traceView');
  await view.scrollIntoViewIfNeeded();
  await view.screenshot({ path: join(SHOTS, 'trace-view.png') });
  assert.deepEqual(problems, []);
  await context.close();
});
