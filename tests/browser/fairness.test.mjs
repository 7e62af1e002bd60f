// PV-EASY in the page: the fairness / preemption rows of the results table equal
// `schedlab run --json`. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, MOCK, launch, open, waitRuns, table, cliBinary, cli, metric, close } from './helpers.mjs';

const FAIRNESS = [
  'fairness.strict.delayed', 'fairness.strict.mean_delay',
  'fairness.violations.count', 'fairness.violations.mean_delay',
  'fairness.preemption.preempted', 'fairness.preemption.wasted_load_pct',
  'fairness.blocked.big_mbs', 'fairness.blocked.small_mbs',
];
const SEED = 3;

let browser, page, problems;

before(async () => {
  browser = await launch();
  ({ page, problems } = await open(browser, `#v=1&trace=demo:hpc2n&policy=easy&policy=pv-easy&seed=${SEED}`));
  await waitRuns(page, 1);
});
after(async () => { await browser?.close(); });

test('the fairness and preemption rows equal `schedlab run --json` for easy and pv-easy', { skip: !cliBinary() || MOCK ? 'no CLI binary (or mock engine)' : false }, async () => {
  const values = await table(page);
  assert.deepEqual(Object.keys(values), ['easy', 'pv-easy']);
  const reports = cli('www/demo/hpc2n.swf.gz', ['easy', 'pv-easy'], SEED);
  for (const r of reports) {
    for (const m of FAIRNESS) {
      const got = values[r.policy][m], want = metric(r, m);
      assert.ok(Number.isFinite(want), `CLI has no ${m}`);
      assert.ok(close(got, want), `${r.policy} ${m}: page ${got}, CLI ${want}`);
    }
    // The blocked-jobs count is the older row (counts.blocked): the same figure.
    assert.equal(values[r.policy]['counts.blocked'], r.fairness.strict.blocked);
  }
  // PV-EASY preempts on the demo, EASY never does.
  assert.equal(values.easy['fairness.preemption.preempted'], 0);
  assert.ok(values['pv-easy']['fairness.preemption.preempted'] > 0);
  await page.locator('[data-testid="results"]').screenshot({ path: join(SHOTS, 'fairness-table.png') });
  assert.deepEqual(problems, []);
});

test('the Gantt chart draws preempted runs distinctly and its tooltip says so', { skip: MOCK ? 'mock engine' : false }, async () => {
  const canvas = page.locator('[data-testid="chart-gantt"][data-policy="pv-easy"]');
  await canvas.scrollIntoViewIfNeeded();
  // The largest preempted attempt of pv-easy; zoom the charts around it.
  const killed = await page.evaluate(() => {
    const g = window.schedlab.gantts, item = g.items.find((i) => i.result.spec === 'pv-easy'), r = item.result.rects;
    let best = -1, size = 0;
    for (let i = 0; i < r.length; i += 7) {
      const s = (r[i + 1] - r[i]) * (r[i + 3] - r[i + 2]);
      if (r[i + 6] === 1 && r[i + 3] - r[i + 2] >= g.procs / 8 && s > size) { size = s; best = i; }
    }
    if (best < 0) return null;
    const span = r[best + 1] - r[best];
    g.setWindow([r[best] - span, r[best + 1] + span]);
    return Array.from(r.subarray(best, best + 7));
  });
  assert.ok(killed, 'pv-easy has no preempted attempt wide enough to point at');
  await canvas.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const item = window.schedlab.gantts.items.find((i) => i.result.spec === 'pv-easy');
    return item.visible && !item.dirty && item.drawn;
  }, null, { timeout: 10_000 });
  const at = await page.evaluate(([start, end, lo, hi]) => {
    const g = window.schedlab.gantts, item = g.items.find((i) => i.result.spec === 'pv-easy'), a = item.area, [t0, t1] = item.drawn;
    const t = (start + end) / 2, p = (lo + hi) / 2;
    const x = a.x0 + ((t - t0) / (t1 - t0)) * (a.x1 - a.x0), y = a.y1 - (p / g.procs) * (a.y1 - a.y0);
    const box = item.canvas.getBoundingClientRect(), k = box.width / item.canvas.width;
    return { x: box.left + x * k, y: box.top + y * k };
  }, killed);
  await page.mouse.move(at.x, at.y);
  const tip = page.locator('[data-testid="gantt-tooltip"]');
  await tip.waitFor({ state: 'visible', timeout: 5000 });
  const text = await tip.innerText();
  const id = await page.evaluate((j) => window.schedlab.gantts.items[1].result.jobs[j * 11], killed[5]); // JOB.stride (www/layouts.js)
  assert.match(text, new RegExp(`^job ${id} `));
  assert.match(text, /preempted run/);
  await canvas.screenshot({ path: join(SHOTS, 'gantt-preempted.png') });
  assert.deepEqual(problems, []);
});

test('guarantee accuracy shows for a guaranteed conservative run only, with the CLI\'s numbers', { skip: !cliBinary() || MOCK ? 'no CLI binary (or mock engine)' : false }, async () => {
  const { page: p, context, problems: probs } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=conservative&seed=1');
  await waitRuns(p, 1);
  const values = await table(p);
  const [, cons] = cli('www/demo/hpc2n.swf.gz', ['easy', 'conservative'], 1);
  const paths = ['fairness.guarantee.median_ratio', 'fairness.guarantee.p80_ratio', 'fairness.guarantee.at_once_pct', 'fairness.guarantee.late_pct'];
  for (const m of paths) {
    const want = metric(cons, m);
    assert.ok(Number.isFinite(want), `CLI has no ${m}`);
    assert.ok(close(values.conservative[m], want), `${m}: page ${values.conservative[m]}, CLI ${want}`);
    // EASY promises nothing on arrival: no figure (a dash)
    assert.ok(!Number.isFinite(values.easy[m]), `easy ${m}: ${values.easy[m]}`);
  }
  assert.equal(values.conservative['fairness.guarantee.late_pct'], 0, 'a guarantee is never broken');
  assert.equal(await p.locator('td[data-policy="easy"][data-metric="fairness.guarantee.median_ratio"]').innerText(), '–');
  // Without a guaranteed run the columns are not shown at all.
  assert.deepEqual(probs, []);
  await context.close();
  const other = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs&seed=1');
  await waitRuns(other.page, 1);
  assert.equal(await other.page.locator('th[data-metric="fairness.guarantee.median_ratio"]').count(), 0);
  await other.context.close();
});
