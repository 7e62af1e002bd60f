// Page benchmark of a JavaScript policy (printed, not asserted): the editor's EASY example
// (`js:easy`) against the built-in `easy` on LANL-CM5, uploaded through trace-file; worker time
// of each run (read + simulate + metrics + arrays), interleaved, fastest of REPEAT; then a policy
// that starts nothing, until the engine's error shows (click to message). Run with
//   SCHEDLAB_URL=http://127.0.0.1:8000/ node tests/browser/bench-custom.mjs   (after scripts/serve.sh)
import { join } from 'node:path';
import { ROOT, launch, open, runs, waitRuns } from './helpers.mjs';

const LANL = process.env.LANL ?? join(ROOT, '..', 'shared', 'data', 'swf', 'LANL-CM5-1994-4.1-cln.swf.gz');
const REPEAT = Number(process.env.REPEAT ?? 3);
const fmt = (ms) => `${ms.toFixed(0)} ms`;

const browser = await launch();
try {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&seed=1');
  await waitRuns(page, 1);
  await page.locator('[data-testid="policy-code-panel"] summary').click();
  await page.locator('[data-testid="policy-code-examples"]').selectOption('easy');
  let n = await runs(page);
  await page.locator('[data-testid="trace-file"]').setInputFiles(LANL);
  await waitRuns(page, ++n, 120_000);
  const times = { easy: [], 'js:easy': [] };
  for (let i = 0; i < REPEAT; i++) {
    for (const spec of ['js:easy', 'easy']) {
      await page.locator('[data-testid="policy-spec"]').first().fill(spec);
      await page.locator('[data-testid="run"]').click();
      await waitRuns(page, ++n, 300_000);
      times[spec].push(await page.evaluate(() => window.schedlab.timings.lastRunMs));
    }
  }
  const t = await page.evaluate(() => window.schedlab.state.results.map((r) => [r.spec, r.report.metrics.wait.mean]));
  // A policy that never starts anything: the time until the engine's error (every job left
  // waiting) shows, from the click.
  await page.locator('[data-testid="policy-code"]').fill('function schedule(view) { return []; }');
  await page.locator('[data-testid="policy-code-name"]').fill('none');
  const none = [];
  for (let i = 0; i < REPEAT; i++) {
    await page.evaluate(() => { document.querySelector('[data-testid="errors"]').replaceChildren(); });
    await page.locator('[data-testid="policy-spec"]').first().fill('js:none');
    const began = Date.now();
    await page.locator('[data-testid="run"]').click();
    await page.waitForFunction(() => /nothing left to happen/.test(document.querySelector('[data-testid="errors"]').textContent), null, { timeout: 600_000 });
    none.push(Date.now() - began);
  }
  console.log(`LANL-CM5, js:none (starts nothing) until the engine's error: fastest ${fmt(Math.min(...none))} (${none.map(fmt).join(', ')})`);
  for (const [spec, xs] of Object.entries(times)) {
    console.log(`LANL-CM5, ${spec} in the worker: fastest ${fmt(Math.min(...xs))} (${xs.map(fmt).join(', ')})`);
  }
  console.log('last run:', JSON.stringify(t));
  if (problems.length) console.log('console errors:', problems);
  await context.close();
} finally {
  await browser.close();
}
