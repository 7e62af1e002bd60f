// Numbers shown alike: each column of the results table with one number of decimals (it read
// 27.64 beside 27.7), and every heading of the users-gained table named (its first was blank).
// The trace view's axes are the engine's (src/charts/columns.rs, its unit test). Run through
// scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { MOCK, SHOTS, launch, open, waitRuns } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a results column shows one number of decimals; the users table names every column', { skip: MOCK ? 'mock engine' : false }, async () => {
  const policies = ['fcfs', 'easy', 'conservative', 'easy[queue=sjf]'];
  const { page, context, problems } = await open(browser, `#v=1&trace=demo:hpc2n&${policies.map((p) => `policy=${encodeURIComponent(p)}`).join('&')}&seed=1`);
  await waitRuns(page, 1, 60_000);
  const columns = await page.$$eval('[data-testid="results"] tbody td[data-metric]', (cells) => {
    const by = {};
    for (const c of cells) (by[c.dataset.metric] ??= []).push(c.textContent.replace(/[★†]/g, '').trim());
    return by;
  });
  let fractional = 0;
  for (const [metric, texts] of Object.entries(columns)) {
    const numbers = texts.filter((t) => /^-?[\d,]+(\.\d+)?$/.test(t));
    const places = new Set(numbers.map((t) => (t.split('.')[1] ?? '').length));
    assert.ok(places.size <= 1, `${metric}: ${texts.join(' | ')}`);
    if ([...places][0] > 0) fractional += 1;
  }
  assert.ok(fractional > 3, 'some columns have decimals');
  await page.locator('[data-testid="results"]').screenshot({ path: join(SHOTS, 'results-decimals.png') });
  const heads = await page.$$eval('[data-testid="diff-users"] thead th', (t) => t.map((x) => x.textContent.trim()));
  assert.equal(heads[0], 'gained or lost');
  assert.ok(heads.every((h) => h), JSON.stringify(heads));
  assert.deepEqual(problems, []);
  await context.close();
});
