// Why each job started when it did, in the page: the Gantt tooltip's sentence for a backfilled
// job names the earlier job it went ahead of (worked out here from the per-job array), and a
// click on a blocked job draws its first reservation (a red dashed line) and names the job it
// waited for. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, MOCK, launch, open, waitRuns } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Zooms the first Gantt chart to [t0, t1], waits for the redraw, returns the page position of
 * the centre of job index k's final rectangle. */
async function centreOf(page, k, t0, t1) {
  await page.evaluate(([a, b]) => window.schedlab.gantts.setWindow([a, b]), [t0, t1]);
  await page.waitForFunction(([a, b]) => {
    const d = window.schedlab.gantts.items[0].drawn;
    return d && Math.abs(d[0] - a) < 1 && Math.abs(d[1] - b) < 1;
  }, [t0, t1], { timeout: 10_000 });
  return page.evaluate((job) => {
    const g = window.schedlab.gantts, item = g.items[0], r = item.result.rects, a = item.area, [w0, w1] = item.drawn;
    for (let i = 0; i < r.length; i += 7) {
      if (r[i + 5] !== job || r[i + 6] !== 0) continue;
      const t = (Math.max(r[i], w0) + Math.min(r[i + 1], w1)) / 2, p = (r[i + 2] + r[i + 3]) / 2;
      const x = a.x0 + ((t - w0) / (w1 - w0)) * (a.x1 - a.x0), y = a.y1 - (p / g.procs) * (a.y1 - a.y0);
      const box = item.canvas.getBoundingClientRect(), css = box.width / (item.canvas.width / (Number(item.canvas.dataset.dpr) || 1));
      return { x: box.left + x * css, y: box.top + y * css, cx: x, cy: y };
    }
    return null;
  }, k);
}

test('the Gantt tooltip says why a job started, and a click draws its reservation', { skip: MOCK ? 'mock engine: no start reasons' : false }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:5K_sample&policy=easy');
  await waitRuns(page, 1);
  await page.locator('[data-testid="chart-gantt"]').first().scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.schedlab.gantts?.items[0]?.area, null, { timeout: 10_000 });
  // A backfilled job (code 2) of at least an eighth of the machine, and the earliest-arrived
  // job still waiting when it started.
  const bf = await page.evaluate(() => {
    const g = window.schedlab.gantts, res = g.items[0].result, jobs = res.jobs, J = 11;
    for (let j = 0; j < jobs.length / J; j++) {
      if (jobs[j * J + 8] !== 2 || jobs[j * J + 5] < g.procs / 8) continue;
      const t = jobs[j * J + 3];
      let ahead = -1;
      for (let k = 0; k < j && jobs[k * J + 2] <= t; k++) if (jobs[k * J + 3] > t) { ahead = k; break; }
      return { j, id: jobs[j * J], start: t, end: jobs[j * J + 4], aheadId: ahead >= 0 ? jobs[ahead * J] : null };
    }
    return null;
  });
  assert.ok(bf && bf.aheadId !== null, 'a backfilled job with an earlier job waiting');
  const span = Math.max(600, bf.end - bf.start);
  let at = await centreOf(page, bf.j, bf.start - span, bf.end + span);
  await page.mouse.move(at.x, at.y);
  const why = page.locator('[data-testid="gantt-why"]');
  await why.waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await page.locator('[data-testid="gantt-tooltip"]').innerText(), new RegExp(`^job ${bf.id} `));
  assert.match(await why.innerText(), new RegExp(`^Backfilled at .+ ahead of job ${bf.aheadId}, inside the reservation made for it`));
  // The click's hint says what a click shows: the backfilled job, the job it started ahead of.
  const hint = page.locator('[data-testid="gantt-click"]');
  assert.match(await hint.innerText(), /^Click: .*the job it started ahead of$/);
  // A job that started on arrival into an empty queue (reason code 0, no reservation, no job
  // waited for) has nothing more to show.
  const prompt = await page.evaluate(() => {
    const g = window.schedlab.gantts, jobs = g.items[0].result.jobs, J = 11;
    for (let j = 0; j < jobs.length / J; j++) {
      if (jobs[j * J + 6] !== 0 || jobs[j * J + 8] > 1 || jobs[j * J + 9] >= 0 || jobs[j * J + 10] >= 0) continue;
      if (jobs[j * J + 5] < g.procs / 8 || jobs[j * J + 4] - jobs[j * J + 3] < 600) continue;
      return { j, start: jobs[j * J + 3], end: jobs[j * J + 4] };
    }
    return null;
  });
  assert.ok(prompt, 'a job that started on arrival');
  const pspan = prompt.end - prompt.start;
  const pat = await centreOf(page, prompt.j, prompt.start - pspan, prompt.end + pspan);
  await page.mouse.move(pat.x, pat.y);
  await page.waitForFunction(() => document.querySelector('[data-testid="gantt-click"]')?.textContent.startsWith('Click: outline it'), null, { timeout: 5000 });
  // A job blocked at the head with a reservation behind a running job.
  const blocked = await page.evaluate(() => {
    const g = window.schedlab.gantts, jobs = g.items[0].result.jobs, J = 11;
    for (let j = 0; j < jobs.length / J; j++) {
      const res = jobs[j * J + 9], w = jobs[j * J + 10];
      if (res < 0 || w < 0 || jobs[j * J + 5] < g.procs / 8 || jobs[j * J + 3] - jobs[j * J + 2] < 600) continue;
      return { j, id: jobs[j * J], submit: jobs[j * J + 2], start: jobs[j * J + 3], end: jobs[j * J + 4], res, waitedId: jobs[w * J] };
    }
    return null;
  });
  assert.ok(blocked, 'a blocked job with a reservation');
  const lo = Math.min(blocked.submit, blocked.res), hi = Math.max(blocked.end, blocked.res);
  at = await centreOf(page, blocked.j, lo - (hi - lo) * 0.1, hi + (hi - lo) * 0.1);
  await page.mouse.move(at.x, at.y);
  assert.match(await why.innerText(), /^Blocked at the head of the queue, started at .+ First reserved for .+, the planned end of job \d+/);
  await page.mouse.click(at.x, at.y);
  const caption = page.locator('[data-testid="gantt-selection"]').first();
  await caption.waitFor({ state: 'visible', timeout: 5000 });
  const text = await caption.innerText();
  assert.match(text, new RegExp(`^Job ${blocked.id} \\(outlined in black\\): first reservation .+ \\(red line\\), waited for job ${blocked.waitedId} \\(red outline\\)`));
  // The reservation line is drawn: red pixels in the column of the reservation time.
  await page.waitForFunction(() => !window.schedlab.gantts.items[0].dirty, null, { timeout: 5000 });
  const red = await page.evaluate((t) => {
    const item = window.schedlab.gantts.items[0], a = item.area, [w0, w1] = item.drawn, dpr = Number(item.canvas.dataset.dpr) || 1;
    const x = Math.round((a.x0 + ((t - w0) / (w1 - w0)) * (a.x1 - a.x0)) * dpr);
    const ctx = item.canvas.getContext('2d');
    let n = 0;
    for (let y = Math.round(a.y0 * dpr); y < a.y1 * dpr; y += 2) {
      const [r, g, b] = ctx.getImageData(x, y, 1, 1).data;
      if (r > 180 && g < 80 && b < 80) n++;
    }
    return n;
  }, blocked.res);
  assert.ok(red > 10, `reservation line: ${red} red pixels`);
  await page.mouse.move(at.x + 1, at.y);
  await why.waitFor({ state: 'visible', timeout: 5000 });
  await page.locator('figure.chart', { has: page.locator('[data-testid="chart-gantt"]') }).first().screenshot({ path: join(SHOTS, 'gantt-why.png') });
  // A second click on the same job clears the selection.
  await page.mouse.click(at.x, at.y);
  await caption.waitFor({ state: 'hidden', timeout: 5000 });
  assert.deepEqual(problems, []);
  await context.close();
});
