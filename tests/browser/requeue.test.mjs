// sacct --duplicates in the page (issue 37, item 7): a requeued job's earlier run is replayed by
// `historic` as a preempted run, which the Gantt draws where it draws restarts (kind 1 in the
// rectangles: a lighter shade, outlined). Worked by hand: job 7 ran from 10 s to 610 s
// (PREEMPTED), then from 720 s for 90 minutes; job 8 from 300 s to 360 s. Before, the page
// drew job 7 once. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, MOCK, launch, open, runs, waitRuns } from './helpers.mjs';

const SACCT = `JobID|Submit|Start|End|Elapsed|NCPUS|State
7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:10:10|00:10:00|4|PREEMPTED
7.batch|2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T00:10:10|00:10:00|4|CANCELLED
8|2024-01-01T00:05:00|2024-01-01T00:05:00|2024-01-01T00:06:00|00:01:00|2|COMPLETED
7|2024-01-01T00:10:11|2024-01-01T00:12:00|2024-01-01T01:42:00|01:30:00|4|COMPLETED
`;

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('historic draws a requeued job\'s earlier run as a preempted run in the Gantt', { skip: MOCK }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&policy=historic&policy=fcfs&procs=8&seed=1');
  await waitRuns(page, 1);
  const n = await runs(page);
  await page.locator('[data-testid="trace-file"]').setInputFiles({ name: 'requeue.sacct', mimeType: 'text/plain', buffer: Buffer.from(SACCT) });
  await waitRuns(page, n + 1);
  const drawn = await page.evaluate(() => {
    const out = {};
    for (const res of window.schedlab.state.results) {
      const r = res.rects, rows = [];
      for (let i = 0; i < r.length; i += 7) rows.push([r[i], r[i + 1], r[i + 3] - r[i + 2], r[i + 6]]);
      out[res.spec] = rows.sort((a, b) => a[0] - b[0]);
    }
    return out;
  });
  // [start, end, processors, kind]
  assert.deepEqual(drawn.historic, [[10, 610, 4, 1], [300, 360, 2, 0], [720, 6120, 4, 0]]);
  assert.ok(drawn.fcfs.every((r) => r[3] === 0), 'fcfs schedules each job once');
  const gantt = page.locator('[data-testid="chart-gantt"][data-policy="historic"]');
  await gantt.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const item = window.schedlab.gantts.items.find((i) => i.result.spec === 'historic');
    return item && item.visible && !item.dirty && item.drawn;
  }, null, { timeout: 10_000 });
  await gantt.screenshot({ path: join(SHOTS, 'requeue-gantt.png') });
  assert.deepEqual(problems, []);
  await context.close();
});
