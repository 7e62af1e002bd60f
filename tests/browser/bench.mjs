// Page benchmark (printed, not asserted). Needs a served page: run it through
//   SCHEDLAB_URL=http://127.0.0.1:8000/ node tests/browser/bench.mjs      (after scripts/serve.sh)
// Measures: page load -> first chart on the demo; EASY on LANL-CM5 uploaded through trace-file
// (worker time, and until the charts are drawn); Gantt redraw time while zooming on LANL-CM5;
// 12 policies on LANL-CM5 in the pool of workers and in one worker.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, launch, open, runs, waitRuns } from './helpers.mjs';

const POLICY = process.env.BENCH_POLICY ?? 'easy'; // the policy of the LANL-CM5 figures
const LANL = process.env.LANL ?? join(ROOT, 'www', 'demo', 'LANL-CM5-1994-4.1-cln.swf.gz');
const REPEAT = 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const fmt = (ms) => `${ms.toFixed(0)} ms`;

// Twelve policies on LANL-CM5: every view of the comparison drawn (not lazily: all at once),
// then each chart redrawn; per chart the minimum over REPEAT rounds.
const TWELVE = (process.env.BENCH_TWELVE ?? 'fcfs,easy,conservative,pv-easy,fairshare-fcfs,fairshare-easy,easy[queue=sjf],easy[queue=width],easy[predictor=exact],fcfs[queue=sjf],easy[queue=random],historic').split(',');

async function manyPolicies(lanl) {
  const hash = `#v=1&trace=demo:hpc2n&${TWELVE.map((p) => `policy=${encodeURIComponent(p)}`).join('&')}&seed=1`;
  const { page, context, problems } = await open(browser, hash);
  await waitRuns(page, 1, 120_000);
  const t0 = Date.now();
  await page.locator('[data-testid="trace-file"]').setInputFiles(lanl);
  await waitRuns(page, 2, 600_000);
  const runMs = await page.evaluate(() => window.schedlab.timings.lastRunMs);
  console.log(`LANL-CM5, ${TWELVE.length} policies: runs in the worker ${fmt(runMs)} (upload -> shown ${fmt(Date.now() - t0)})`);
  const showMs = await page.evaluate(() => window.schedlab.timings.showMs);
  console.log(`LANL-CM5, ${TWELVE.length} policies: runs done -> table, prepared views (per-job columns, sorted values, class boxes) and overview drawn: ${fmt(showMs)}`);
  const rounds = [];
  for (let i = 0; i < REPEAT; i++) {
    rounds.push(await page.evaluate(() => {
      const s = window.schedlab;
      const out = {};
      const timed = (name, fn) => { const b = performance.now(); fn(); out[name] = performance.now() - b; };
      timed('table', () => s.resultsTable.render());
      timed('overview (busy, queue, 2 bars)', () => s.overview.draw());
      for (const [view, owner] of [['trace view', s.traceView], ['distributions', s.dists], ['two schedules', s.compare]]) {
        for (const item of owner.items) owner.drawTimed(item);
        for (const item of owner.items) out[`${view}: ${item.canvas.dataset.testid}`] = item.ms;
      }
      timed('users gained / lost', () => s.compare.renderUsers());
      return out;
    }));
  }
  const names = Object.keys(rounds[0]);
  const best = Object.fromEntries(names.map((n) => [n, Math.min(...rounds.map((r) => r[n]))]));
  const total = names.reduce((sum, n) => sum + best[n], 0);
  console.log(`LANL-CM5, ${TWELVE.length} policies: all views drawn (table, overview, trace view, distributions, two schedules; Gantt and EET charts excluded, drawn lazily): ${fmt(total)} (min of ${REPEAT} rounds per chart)`);
  for (const n of names) console.log(`  ${n}: ${best[n].toFixed(1)} ms`);
  console.log(`  slowest single redraw: ${Math.max(...names.map((n) => best[n])).toFixed(1)} ms`);
  if (problems.length) console.log('console errors:', problems);
  await context.close();
}

const browser = await launch();
try {
  // 1. Load -> first chart (fresh page each time; includes fetching and compiling the wasm twice:
  //    the page's copy and the worker's).
  const firsts = [];
  for (let i = 0; i < REPEAT; i++) {
    const { page, context } = await open(browser);
    await waitRuns(page, 1);
    firsts.push(await page.evaluate(() => window.schedlab.timings.firstChart));
    await context.close();
  }
  console.log(`demo (hpc2n, easy + fcfs): page load -> first chart: median ${fmt(median(firsts))} (runs: ${firsts.map(fmt).join(', ')})`);

  if (!existsSync(LANL)) {
    console.log(`LANL-CM5 not found at ${LANL}: skipping the LANL figures`);
  } else {
    // 2. POLICY (EASY by default) on LANL-CM5 through the file picker.
    const { page, context, problems } = await open(browser, `#v=1&trace=demo:hpc2n&policy=${POLICY}&seed=1`);
    await waitRuns(page, 1);
    const worker = [], total = [];
    for (let i = 0; i < REPEAT; i++) {
      const before = await runs(page);
      const t0 = Date.now();
      if (i === 0) await page.locator('[data-testid="trace-file"]').setInputFiles(LANL);
      else await page.locator('[data-testid="run"]').click();
      await waitRuns(page, before + 1, 120_000);
      total.push(Date.now() - t0);
      worker.push(await page.evaluate(() => window.schedlab.timings.lastRunMs));
    }
    const jobs = await page.locator('[data-testid="results"] td[data-metric="counts.jobs"]').first().getAttribute('data-value');
    const rects = await page.evaluate(() => window.schedlab.state.results[0].rects.length / 7); // [start, end, lo, hi, user, job, preempted]
    console.log(`LANL-CM5 (${jobs} jobs, ${rects} Gantt rectangles), ${POLICY} in the worker (read + simulate + arrays): median ${fmt(median(worker))} (${worker.map(fmt).join(', ')})`);
    console.log(`LANL-CM5, ${POLICY}: click -> table and overview charts shown (Gantt drawn when scrolled into view): median ${fmt(median(total))} (${total.map(fmt).join(', ')})`);

    // 3. Gantt redraws while zooming (each redraw = one draw_gantt call here: one policy).
    const canvas = page.locator('[data-testid="chart-gantt"]').first();
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await page.evaluate(() => { window.schedlab.timings.ganttDraws.length = 0; });
    for (let i = 0; i < 12; i++) {
      await page.mouse.wheel(0, i < 8 ? -250 : 400);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    const draws = await page.evaluate(() => [...window.schedlab.timings.ganttDraws]);
    console.log(`LANL-CM5 Gantt redraw during zoom (${draws.length} redraws): median ${fmt(median(draws))}, max ${fmt(Math.max(...draws))}`);
    await page.locator('[data-testid="gantt-reset"]').click();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const whole = await page.evaluate(() => window.schedlab.timings.ganttDraws.at(-1));
    console.log(`LANL-CM5 Gantt redraw of the whole 2-year schedule: ${fmt(whole)}`);
    if (problems.length) console.log('console errors:', problems);
    await context.close();

    // 4. Twelve policies on LANL-CM5: the page's pool of workers (navigator.hardwareConcurrency,
    //    capped) against one worker (hardwareConcurrency forced to 1: the policies one after another).
    const twelve = ['easy', 'fcfs', 'conservative', 'easy[order=sjf]', 'easy[queue=sjf]', 'fcfs[queue=sjf]',
      'conservative[queue=sjf]', 'pv-easy', 'fairshare-easy', 'fairshare-fcfs', 'easy[predictor=exact]', 'conservative[guarantees=off]'];
    const hash = `#v=1&trace=demo:hpc2n&${twelve.map((p) => `policy=${encodeURIComponent(p)}`).join('&')}&seed=1`;
    for (const cores of [null, 1]) {
      const { page: p12, context: c12 } = await open(browser, hash, { init: cores && `Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => ${cores} })` });
      await waitRuns(p12, 1, 120_000);
      const times = [];
      for (let i = 0; i < REPEAT; i++) {
        const before = await runs(p12);
        if (i === 0) await p12.locator('[data-testid="trace-file"]').setInputFiles(LANL);
        else await p12.locator('[data-testid="run"]').click();
        await waitRuns(p12, before + 1, 300_000);
        times.push(await p12.evaluate(() => window.schedlab.timings.lastRunMs));
      }
      const workers = await p12.evaluate(() => window.schedlab.state.runner.size);
      const hc = await p12.evaluate(() => navigator.hardwareConcurrency);
      console.log(`LANL-CM5, 12 policies, ${workers} worker${workers === 1 ? '' : 's'} (hardwareConcurrency ${hc}): run -> all results: median ${fmt(median(times))}, min ${fmt(Math.min(...times))} (${times.map(fmt).join(', ')})`);
      await c12.close();
    }
    await manyPolicies(LANL);
  }
} finally {
  await browser.close();
}
