// Hostile links (issue 37, item 8): a link with thousands of policies opens at once, with the
// first 64 and a message, the main thread never blocked for long. Run through
// scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { MOCK, launch, open, errorsText } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a link with 10,000 policies opens at once with the first 64 and a message', { skip: MOCK }, async () => {
  const specs = Array.from({ length: 10_000 }, (_, i) => `policy=${encodeURIComponent(`easy[order=${i % 2 ? 'sjf' : 'fcfs'}]`)}`);
  const hash = `#v=1&trace=demo:5K_sample&${specs.join('&')}`;
  // The longest task of the main thread, from the page's first script on.
  const init = `window.__longest = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: 'longtask', buffered: true });`;
  const began = Date.now();
  const { page, context } = await open(browser, hash, { init });
  await page.waitForFunction(() => document.querySelector('[data-testid="errors"]')?.innerText.includes('at most 64'), null, { timeout: 20_000 });
  const opened = Date.now() - began;
  const longest = await page.evaluate(() => window.__longest);
  assert.ok(longest < 1500, `the main thread was blocked for ${longest} ms`);
  assert.ok(opened < 15_000, `the link took ${opened} ms to read`);
  assert.match(await errorsText(page), /10,000 policies; a link holds at most 64: the first 64 are compared, the other 9,936 left out/);
  assert.equal(await page.locator('[data-testid="policy-spec"]').count(), 64);
  console.log(`10,000-policy link: longest main-thread task ${Math.round(longest)} ms, message after ${opened} ms`);
  await context.close();
});
