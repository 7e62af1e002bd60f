// The views that explain a comparison: the trace view (before any run), distributions, two
// schedules job by job, the results table with many policies. Every chart is drawn non-blank.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, SHOTS, MOCK, launch, open, waitRuns, distinctColours, table, cli, cliBinary, metric, close } from './helpers.mjs';

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
  await view.locator('summary').first().click(); // the trace's charts are folded under its heading
  assert.match(await view.locator('[data-testid="trace-summary"]').innerText(), /^3,145 jobs of \d+ users on 240 processors/);
  const names = await page.evaluate(() => window.schedlab.traceView.items.map((i) => i.name));
  assert.deepEqual(names, ['hour', 'weekday', 'week', 'procs', 'runtime', 'accuracy', 'requested', 'requested-log', 'overestimation', 'load', 'users']);
  for (const name of names) await assertDrawn(page, `chart-trace-${name}`, 'traceView');
  // Zotkin et al.'s section 7 (the estimates): the same figures as `schedlab trace --json`.
  assert.match(await view.locator('[data-testid="trace-summary"]').innerText(), /[\d.]+ % of the requests are round/);
  if (cliBinary()) {
    const json = JSON.parse(execFileSync(cliBinary(), ['trace', 'www/demo/hpc2n.swf.gz', '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString());
    const stats = await page.evaluate(() => window.schedlab.traceView.stats);
    for (const k of ['top_requested', 'requested_log2', 'round_requested', 'overestimation']) assert.deepEqual(stats[k], json[k], k);
    assert.ok(stats.overestimation.some((f) => f > 1), 'users overestimate');
  }
  await view.scrollIntoViewIfNeeded();
  await view.screenshot({ path: join(SHOTS, 'trace-view.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('distributions and two schedules job by job: CDFs, class boxes, scatter with hover, diff-Gantt, users', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser);
  await waitRuns(page, 1);
  for (const id of ['chart-cdf-wait', 'chart-cdf-bsld', 'chart-box-wait-size', 'chart-box-bsld-size', 'chart-box-wait-runtime', 'chart-box-bsld-runtime']) {
    await assertDrawn(page, id, 'dists');
  }
  await page.locator('[data-testid="distributions"]').screenshot({ path: join(SHOTS, 'distributions.png') });
  assert.deepEqual(await page.locator('[data-testid="diff-a"] option').allTextContents(), ['easy', 'fcfs']);
  assert.equal(await page.locator('[data-testid="diff-b"]').inputValue(), '1');
  for (const id of ['chart-scatter', 'chart-diff-gantt']) await assertDrawn(page, id, 'compare');
  // The users table: means worked out from the per-job arrays here must equal the page's.
  const check = await page.evaluate(() => {
    const [A, B] = window.schedlab.state.results;
    const sums = new Map();
    for (let i = 0; i < A.jobs.length; i += 11) {
      if (A.jobs[i + 3] < 0 || B.jobs[i + 3] < 0) continue;
      const s = sums.get(A.jobs[i + 1]) ?? [0, 0];
      s[0] += 1; s[1] += B.jobs[i + 6] - A.jobs[i + 6];
      sums.set(A.jobs[i + 1], s);
    }
    const rows = [...document.querySelectorAll('[data-testid="diff-users"] tbody tr[data-user]')];
    return rows.map((r) => ({ kind: r.dataset.kind, page: Number(r.dataset.change), want: sums.get(Number(r.dataset.user))[1] / sums.get(Number(r.dataset.user))[0] }));
  });
  assert.ok(check.length > 0, 'no user rows');
  for (const c of check) {
    assert.ok(Math.abs(c.page - c.want) < 1e-6 * Math.max(1, Math.abs(c.want)), JSON.stringify(c));
    assert.ok(c.kind === 'gained' ? c.page < 0 : c.page > 0, JSON.stringify(c));
  }
  // Hover on a point names its job: aim at the first job that ran in both schedules.
  const target = await page.evaluate(() => {
    const item = window.schedlab.compare.scatter;
    const ar = item.area, xs = window.schedlab.compare.cols.wait[0], ys = window.schedlab.compare.cols.wait[1];
    const jobs = window.schedlab.state.results[0].jobs;
    const box = item.canvas.getBoundingClientRect();
    const sx = box.width / item.canvas.width, sy = box.height / item.canvas.height;
    const floor = Math.exp(ar.lo), span = ar.hi - ar.lo;
    for (let i = 0; i < xs.length; i++) {
      if (!(xs[i] > 100 && ys[i] > 100)) continue;
      const cx = ar.x0 + ((Math.log(Math.max(xs[i], floor)) - ar.lo) / span) * (ar.x1 - ar.x0);
      const cy = ar.y1 - ((Math.log(Math.max(ys[i], floor)) - ar.lo) / span) * (ar.y1 - ar.y0);
      return { x: box.left + cx * sx, y: box.top + cy * sy, a: xs[i], b: ys[i], id: jobs[i * 11] };
    }
    return null;
  });
  assert.ok(target, 'no job waited in both schedules');
  await page.mouse.move(target.x, target.y);
  const tip = page.locator('[data-testid="scatter-tooltip"]');
  await tip.waitFor({ state: 'visible' });
  assert.match(await tip.innerText(), /^job \d+ user/);
  // Switching the figure redraws with bounded slowdown.
  await page.locator('[data-testid="diff-figure"]').selectOption('bsld');
  await page.waitForFunction(() => window.schedlab.compare.scatter.drawn?.fig === 'bsld');
  assert.match(await page.locator('[data-testid="diff-users"] caption').innerText(), /bounded slowdown/);
  await page.locator('[data-testid="compare"]').screenshot({ path: join(SHOTS, 'compare.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

// Twelve policies: the table must stay readable at 1400 px without scrolling sideways.
export const TWELVE = ['fcfs', 'easy', 'conservative', 'pv-easy', 'fairshare-fcfs', 'fairshare-easy', 'easy[queue=sjf]',
  'easy[queue=width]', 'conservative[queue=sjf]', 'easy[predictor=exact]', 'fcfs[queue=sjf]', 'historic'];

test('twelve policies: the table fits at 1400 px, sorts, compares with a baseline; overview binned and highlighted', { skip: MOCK ? 'mock engine' : false }, async () => {
  const hash = `#v=1&trace=demo:hpc2n&${TWELVE.map((p) => `policy=${encodeURIComponent(p)}`).join('&')}&seed=1`;
  const { page, context, problems } = await open(browser, hash);
  await waitRuns(page, 1, 60_000);
  const wrap = page.locator('.results-wrap');
  const [scroll, client] = await wrap.evaluate((w) => [w.scrollWidth, w.clientWidth]);
  assert.ok(scroll <= client, `the table scrolls sideways: ${scroll} > ${client}`);
  const rows = page.locator('[data-testid="results"] tbody tr');
  assert.equal(await rows.count(), 12);
  // Sort by mean wait: ascending, then descending on a second click.
  const waits = () => page.$$eval('[data-testid="results"] tbody td[data-metric="wait.mean"]', (c) => c.map((x) => Number(x.dataset.value)));
  await page.locator('[data-testid="results"] thead th[data-metric="wait.mean"]').click();
  const up = await waits();
  assert.deepEqual(up, [...up].sort((a, b) => a - b));
  await page.locator('[data-testid="results"] thead th[data-metric="wait.mean"]').click();
  const down = await waits();
  assert.deepEqual(down, [...up].reverse());
  // Relative to fcfs, as % change: easy's mean wait cell reads (easy - fcfs) / fcfs.
  await page.locator('[data-testid="baseline"]').selectOption({ label: 'fcfs' });
  const cell = (p) => page.locator(`[data-testid="results"] td[data-policy="${p}"][data-metric="wait.mean"]`);
  const [e, f] = [Number(await cell('easy').getAttribute('data-value')), Number(await cell('fcfs').getAttribute('data-value'))];
  const pct = ((e - f) / f) * 100;
  assert.equal(await cell('easy').innerText(), `${pct >= 0 ? '+' : '−'}${Math.abs(pct).toLocaleString('en-US', { maximumFractionDigits: 1 })} %`);
  assert.match(await cell('easy').getAttribute('style'), /background/);
  await page.locator('[data-testid="baseline-mode"]').selectOption('ratio');
  assert.equal(await cell('easy').innerText(), `×${(e / f).toLocaleString('en-US', { maximumFractionDigits: 2 })}`);
  await page.locator('[data-testid="metric-family"]').selectOption('eet');
  assert.ok(await page.locator('[data-testid="results"] thead th[data-metric="eet.veet.median"]').isVisible());
  assert.ok(!(await page.locator('[data-testid="results"] thead th[data-metric="wait.mean"]').isVisible()));
  await page.locator('[data-testid="metric-family"]').selectOption('wait');
  await page.locator('[data-testid="results"]').screenshot({ path: join(SHOTS, 'results-12.png') });
  // Overview: bin means per day (the demo spans two months), a highlighted policy.
  assert.equal(await page.locator('[data-testid="chart-utilization"]').getAttribute('data-bin'), 'day');
  await page.locator('[data-testid="highlight"]').selectOption({ label: 'easy' });
  assert.equal(await page.evaluate(() => window.schedlab.dists.highlight), 1);
  for (const id of ['chart-utilization', 'chart-queue']) assert.ok(await distinctColours(page, `[data-testid="${id}"]`) > 2, `${id} blank`);
  await page.locator('[data-testid="overview"]').scrollIntoViewIfNeeded();
  await page.locator('[data-testid="overview"]').screenshot({ path: join(SHOTS, 'overview-12.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('at device pixel ratio 2 canvases are drawn at twice the pixels and hovering still finds the job', { skip: MOCK ? 'mock engine' : false }, async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto(process.env.SCHEDLAB_URL ?? 'http://127.0.0.1:8000/');
  await waitRuns(page, 1);
  const util = page.locator('[data-testid="chart-utilization"]');
  const [w, cw, dpr] = await util.evaluate((c) => [c.width, c.clientWidth, c.dataset.dpr]);
  assert.equal(dpr, '2');
  assert.ok(Math.abs(w - 2 * cw) <= 4, `canvas ${w} px for ${cw} CSS px`);
  // Hover the middle of the first job's rectangle in the Gantt chart: the tooltip names that job.
  const gantt = page.locator('[data-testid="chart-gantt"]').first();
  await gantt.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => !window.schedlab.gantts.items[0].dirty);
  const target = await page.evaluate(() => {
    const item = window.schedlab.gantts.items[0];
    const r = item.result.rects, a = item.area, [t0, t1] = item.drawn, procs = window.schedlab.gantts.procs;
    const box = item.canvas.getBoundingClientRect();
    const css = box.width / (item.canvas.width / Number(item.canvas.dataset.dpr));
    // The widest rectangle, to aim well inside it.
    let best = 0;
    for (let i = 0; i < r.length; i += 7) if ((r[i + 1] - r[i]) * (r[i + 3] - r[i + 2]) > (r[best + 1] - r[best]) * (r[best + 3] - r[best + 2])) best = i;
    const t = (r[best] + r[best + 1]) / 2, p = (r[best + 2] + r[best + 3]) / 2;
    const x = a.x0 + ((t - t0) / (t1 - t0)) * (a.x1 - a.x0), y = a.y1 - (p / procs) * (a.y1 - a.y0);
    const jobs = item.result.jobs;
    return { x: box.left + x * css, y: box.top + y * css, id: jobs[r[best + 5] * 11] };
  });
  await page.mouse.move(target.x, target.y);
  const tip = page.locator('[data-testid="gantt-tooltip"]');
  await tip.waitFor({ state: 'visible' });
  assert.match(await tip.innerText(), new RegExp(`^job ${target.id} `));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, 'dpr2.png') });
  await page.$eval('[data-testid="trace-view"] details', (d) => { d.open = true; });
  await page.locator('[data-testid="trace-view"]').scrollIntoViewIfNeeded();
  await page.locator('[data-testid="chart-trace-hour"]').screenshot({ path: join(SHOTS, 'dpr2-trace-hour.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('EET options, node-model demands and the sweep settings travel in the link and reach the engine as the CLI flags', { skip: MOCK || !cliBinary() ? 'mock engine or no CLI' : false }, async () => {
  const hash = '#v=1&trace=demo:hpc2n&policy=easy&seed=2&eetcap=32&eetuser=1=64,4=16&memory=200000000'
    + '&sweepvary=err=0,0.5&sweepseeds=3&sweepmore=easy[predictor=virtual]&sweeppick=easy';
  const { page, context, problems } = await open(browser, hash);
  await waitRuns(page, 1);
  assert.equal(await page.locator('[data-testid="opt-eet-capacity"]').inputValue(), '32');
  assert.equal(await page.locator('[data-testid="opt-eet-users"]').inputValue(), '1=64, 4=16');
  assert.equal(await page.locator('[data-testid="opt-memory"]').inputValue(), '200000000');
  const [want] = cli('www/demo/hpc2n.swf.gz', ['easy'], 2, ['--eet-capacity', '32', '--eet-user-capacity', '1=64', '--eet-user-capacity', '4=16', '--machine-memory', '200000000']);
  const [plain] = cli('www/demo/hpc2n.swf.gz', ['easy'], 2);
  const values = (await table(page)).easy;
  for (const m of ['eet.violated_percent', 'eet.veet.median', 'eet.wt.median']) {
    assert.ok(close(values[m], metric(want, m)), `${m}: page ${values[m]}, CLI ${metric(want, m)}`);
  }
  assert.notEqual(metric(want, 'eet.violated_percent'), metric(plain, 'eet.violated_percent'), 'the options change the EETs');
  assert.equal(await page.locator('[data-testid="sweep-vary"]').inputValue(), 'err=0,0.5');
  assert.equal(await page.locator('[data-testid="sweep-seeds"]').inputValue(), '3');
  assert.equal(await page.locator('[data-testid="sweep-more"]').inputValue(), 'easy[predictor=virtual]');
  assert.ok(await page.locator('[data-testid="sweep-policies"] input[value="easy"]').isChecked());
  const link = decodeURIComponent(await page.locator('[data-testid="share-link"]').getAttribute('href'));
  for (const part of ['eetcap=32', 'eetuser=1=64,4=16', 'memory=200000000', 'sweepvary=err=0,0.5', 'sweepseeds=3', 'sweepmore=easy[predictor=virtual]', 'sweeppick=easy']) {
    assert.ok(link.includes(part), `${part} missing from ${link}`);
  }
  // Changing a sweep setting updates the link at once.
  await page.locator('[data-testid="sweep-seeds"]').fill('4');
  await page.locator('[data-testid="sweep-seeds"]').dispatchEvent('change');
  assert.match(await page.locator('[data-testid="share-link"]').getAttribute('href'), /sweepseeds=4/);
  // A bad value gets a message, not a broken page.
  const bad = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&eetcap=-3&eetuser=x=1&memory=lots&low=-1');
  await waitRuns(bad.page, 1);
  const errors = await bad.page.locator('[data-testid="errors"]').innerText();
  for (const k of ['eetcap', 'eetuser', 'memory', 'low']) assert.match(errors, new RegExp(`${k}=`));
  assert.deepEqual(problems, []);
  await bad.context.close();
  await context.close();
});

test("the node model's low and medium demands reach the engine as --demands", { skip: MOCK || !cliBinary() ? 'mock engine or no CLI' : false }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=sjbf&nodes=1&mix=low&low=300&medium=800&seed=3');
  await waitRuns(page, 1, 60_000);
  assert.equal(await page.locator('[data-testid="opt-low"]').inputValue(), '300');
  assert.equal(await page.locator('[data-testid="opt-medium"]').inputValue(), '800');
  const [want] = cli('www/demo/hpc2n.swf.gz', ['sjbf'], 3, ['--nodes', '--mix', 'low', '--demands', '300,800,2000']);
  const [plain] = cli('www/demo/hpc2n.swf.gz', ['sjbf'], 3, ['--nodes', '--mix', 'low']);
  const got = (await table(page)).sjbf['penalty.penalized_pct.mean'];
  assert.ok(close(got, metric(want, 'penalty.penalized_pct.mean')), `page ${got}, CLI ${metric(want, 'penalty.penalized_pct.mean')}`);
  assert.notEqual(metric(want, 'penalty.penalized_pct.mean'), metric(plain, 'penalty.penalized_pct.mean'));
  assert.match(await page.locator('[data-testid="share-link"]').getAttribute('href'), /low=300&medium=800/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('replay fidelity: the jobs furthest from the recorded schedule, with why they started then', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=historic&policy=easy&seed=1');
  await waitRuns(page, 1);
  const furthest = page.locator('[data-testid="diff-furthest"]');
  await furthest.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="diff-furthest"] tbody tr[data-job]').length > 0);
  // Worked out here from the two runs' per-job arrays: |easy − recorded| per job, the largest
  // first, and the mean over the jobs that ran in both.
  const want = await page.evaluate(() => {
    const [A, B] = window.schedlab.state.results;
    const d = [];
    for (let i = 0; i < A.jobs.length / 11; i++) {
      if (A.jobs[i * 11 + 3] < 0 || B.jobs[i * 11 + 3] < 0) continue;
      d.push({ id: B.jobs[i * 11], e: Math.abs(B.jobs[i * 11 + 6] - A.jobs[i * 11 + 6]) });
    }
    d.sort((x, y) => y.e - x.e);
    return { top: d[0], mean: d.reduce((s, x) => s + x.e, 0) / d.length, n: d.length };
  });
  const rows = furthest.locator('tbody tr[data-job]');
  assert.equal(await rows.count(), 10);
  const firstId = Number(await rows.first().getAttribute('data-job'));
  const firstError = await page.evaluate((id) => {
    const [A, B] = window.schedlab.state.results;
    for (let i = 0; i < B.jobs.length; i += 11) if (B.jobs[i] === id) return Math.abs(B.jobs[i + 6] - A.jobs[i + 6]);
    return -1;
  }, firstId);
  assert.equal(firstError, want.top.e, `first row job ${firstId}`);
  const caption = await furthest.locator('caption').innerText();
  assert.match(caption, /historic \(the trace's own schedule\)/);
  const over = caption.match(/over ([\d,.\s\u00a0\u202f]+) jobs/);
  assert.ok(over, caption);
  assert.equal(Number(over[1].replace(/\D/g, '')), want.n, caption);
  // Each row says why easy started the job then.
  const why = await rows.first().locator('td.why').innerText();
  assert.ok(why.length > 10, why);
  await furthest.screenshot({ path: join(SHOTS, 'fidelity.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the results table labels a long slurm spec as written, its whole spec in the title', { skip: MOCK ? 'mock engine' : false }, async () => {
  // With the demo's slurm.conf merged in, every slurm spec's canonical form starts
  // `slurm[PriorityWeightAge=5000,…`: the table's rows (and the baseline's choices) read the same
  // for `slurm` and `slurm[bf_window=1]`, where the legend, the A/B choices and the sweep named
  // them apart. A short canonical spec stays as it was.
  const hash = '#v=1&trace=demo:slurm-gpu&policy=slurm&policy=' + encodeURIComponent('slurm[bf_window=1]') + '&policy=fcfs&seed=1';
  const { page, context, problems } = await open(browser, hash);
  await waitRuns(page, 1, 60_000);
  const heads = page.locator('[data-testid="results"] tbody th');
  assert.deepEqual(await heads.allInnerTexts(), ['slurm', 'slurm[bf_window=1]', 'fcfs']);
  const titles = await heads.evaluateAll((xs) => xs.map((x) => x.title));
  assert.ok(titles[0].startsWith('slurm[PriorityWeightAge=5000,') && titles[0].includes('bf_window=30'), titles[0]);
  assert.ok(titles[1].includes('bf_window=1,'), titles[1]);
  assert.equal(titles[2], 'fcfs');
  // The cells keep the canonical spec (what the tests and the JSON read).
  assert.deepEqual(Object.keys(await table(page)), titles);
  const baseline = page.locator('[data-testid="baseline"]');
  assert.deepEqual((await baseline.locator('option').allInnerTexts()).slice(1), ['slurm', 'slurm[bf_window=1]', 'fcfs']);
  await baseline.selectOption('1');
  assert.match(await page.locator('[data-testid="results"] caption').innerText(), /^Relative to slurm\[bf_window=1\] \(/);
  // Hovering a row highlights its policy in the charts: the rows carry the canonical spec, which
  // the hover matched against the spec as written (no highlight for any slurm row on a site).
  await heads.nth(1).hover();
  await page.waitForFunction(() => window.schedlab.dists.highlight === 1);
  await heads.nth(0).hover();
  await page.waitForFunction(() => window.schedlab.dists.highlight === 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('with historic compared, the two-schedules view opens on it as A: the replay fidelity view', { skip: MOCK ? 'mock engine' : false }, async () => {
  // historic added after the policies (as the picker adds it): A was the first policy, slurm,
  // and the fidelity view one choice away.
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:slurm-gpu&policy=slurm&policy=easy&policy=historic&seed=1');
  await waitRuns(page, 1, 60_000);
  const [a, b] = [page.locator('[data-testid="diff-a"]'), page.locator('[data-testid="diff-b"]')];
  assert.deepEqual([await a.inputValue(), await b.inputValue()], ['2', '1']);
  const furthest = page.locator('[data-testid="diff-furthest"]');
  await furthest.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="diff-furthest"] tbody tr[data-job]').length > 0);
  assert.match(await furthest.locator('caption').innerText(), /^Jobs furthest apart from A, historic \(the trace's own schedule\), to B \(easy\): over 60 jobs/);
  // A choice by hand stays on its policy across a new comparison of the same policies.
  await b.selectOption('0');
  await page.locator('[data-testid="run"]').click();
  await waitRuns(page, 2, 60_000);
  assert.deepEqual([await a.inputValue(), await b.inputValue()], ['2', '0']);
  // Why slurm started each job, in Slurm's words (it read: by the policy's own rule: "backfill").
  await page.waitForFunction(() => /to B \(slurm\)/.test(document.querySelector('[data-testid="diff-furthest"] caption')?.textContent));
  const whys = await furthest.locator('td.why').allInnerTexts();
  assert.ok(whys.length > 0 && whys.every((w) => /^Started at .+ by Slurm's (main scheduler|backfill cycle), /.test(w)), whys.join('\n'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('historic on a cluster smaller than the log\'s says why a job started late', { skip: MOCK ? 'mock engine' : false }, async () => {
  // The demo's log on two of its four nodes: jobs recorded on n3, n4 start when room is free, with
  // the start reason replay-late (it read: by the policy's own rule: "replay-late").
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:slurm-gpu&policy=slurm&policy=historic&seed=1&cluster=1/n[1-2]:c8:m16000:g2/p=batch:ALL:default');
  await waitRuns(page, 1, 60_000);
  await page.locator('[data-testid="diff-a"]').selectOption('0');
  await page.locator('[data-testid="diff-b"]').selectOption('1');
  const furthest = page.locator('[data-testid="diff-furthest"]');
  await furthest.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => /to B \(historic\)/.test(document.querySelector('[data-testid="diff-furthest"] caption')?.textContent));
  const whys = await furthest.locator('td.why').allInnerTexts();
  assert.ok(whys.some((w) => /^Started at .+, later than the trace recorded: its recorded nodes \(or enough room\) were not free then \(after waiting /.test(w)), whys.join('\n'));
  assert.ok(!whys.some((w) => /own rule/.test(w)), whys.join('\n'));
  assert.deepEqual(problems, []);
  await context.close();
});
