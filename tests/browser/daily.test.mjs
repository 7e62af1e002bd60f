// The page for daily use: several named JavaScript policies in one run, each failing alone;
// stale results and link marked; a run's messages replacing the previous run's; no sideways
// overflow at 390 px (the page and the papers page), the results right after the trace and Run
// on a phone; table colours only for differences the cells show, units per column, relative
// cells that cannot be computed, no star for figures counting discarded work; keyboard sorting,
// skip links, Tab stops before Run; an axe-core check; the sweep's default metric and CSV; the
// generator's users. Screenshots at 1400 x 1000 and 390 px with 2 and 12 policies.
// Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ROOT, SHOTS, MOCK, BASE, launch, open, runs, waitRuns, table, errorsText, useCode, clickRun } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const TWO = '#v=1&trace=demo:hpc2n&policy=fcfs&policy=easy';
// The twelve policies of views.test.mjs (importing that file would run its tests here).
const TWELVE = ['fcfs', 'easy', 'conservative', 'pv-easy', 'fairshare-fcfs', 'fairshare-easy', 'easy[queue=sjf]',
  'easy[queue=width]', 'conservative[queue=sjf]', 'easy[predictor=exact]', 'fcfs[queue=sjf]', 'historic'];
const twelve = `#v=1&trace=demo:hpc2n&${TWELVE.map((p) => `policy=${encodeURIComponent(p)}`).join('&')}&seed=1`;

/** The elements that stick out of the viewport's right edge without a scrolling box around them. */
function overflowing(page) {
  return page.evaluate(() => {
    const clipped = (e) => {
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    const out = [];
    for (const e of document.querySelectorAll('body *')) {
      const r = e.getBoundingClientRect();
      if (r.width > 0 && r.right > innerWidth + 0.5 && !clipped(e)) out.push(`${e.tagName.toLowerCase()}[${e.dataset.testid ?? e.className}] right ${Math.round(r.right)}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, out: out.slice(0, 8) };
  });
}

/** The page at 390 px with the Slurm demo, whose cluster panel opens on its node groups and
 * partitions (tables wider than a phone, with screen-reader labels in their headings). */
test('no sideways overflow at 390 px with the cluster panel open on the Slurm demo\'s tables', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:slurm-gpu&policy=slurm&policy=historic&seed=1', { width: 390, height: 844 });
  await waitRuns(page, 1, 90_000);
  assert.equal(await page.$eval('[data-testid="cluster-panel"]', (d) => d.open), true);
  // Before: 818 (the partitions table's width): its headings' .sr-only labels, absolutely
  // placed, escaped the table's scrolling box, and the whole page scrolled sideways into blank.
  const o = await overflowing(page);
  assert.equal(o.scrollWidth, 390, JSON.stringify(o));
  assert.deepEqual(problems, []);
  await context.close();
});

async function editor(page) {
  await page.$eval('[data-testid="policy-code-panel"]', (d) => { d.open = true; });
}

async function addCode(page, what) {
  await useCode(page, { fresh: true, ...what });
}

async function run(page) {
  await waitRuns(page, (await clickRun(page)) + 1, 60_000);
}

const THROWS = 'function schedule(view) {\n  if (view.now > 0) throw new Error("boom");\n  return [];\n}\n';

test('two custom policies run beside the built-ins; a throwing one fails alone, its row says why', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser, TWO);
  await waitRuns(page, 1, 60_000);
  await addCode(page, { example: 'easy' });
  await addCode(page, { example: 'fcfs' });
  await addCode(page, { code: THROWS, name: 'thrower' });
  // Three named policies in the editor, each its own entry; none turned the others red.
  assert.deepEqual(await page.$$eval('[data-testid="policy-code-list"] option', (o) => o.map((x) => x.textContent)), ['js:easy', 'js:fcfs', 'js:thrower']);
  const cards = await page.$$eval('[data-testid="policy-entry"]', (c) => c.map((x) => [x.querySelector('input').value, x.classList.contains('invalid')]));
  assert.deepEqual(cards, [['fcfs', false], ['easy', false], ['js:easy', false], ['js:fcfs', false], ['js:thrower', false]]);
  await run(page);
  const t = await table(page);
  assert.deepEqual(Object.keys(t), ['fcfs', 'easy', 'js:easy', 'js:fcfs']);
  // The examples are the built-ins: the same figures.
  assert.deepEqual(t['js:easy'], t.easy);
  assert.deepEqual(t['js:fcfs'], t.fcfs);
  const failed = await page.$$eval('[data-testid="results"] tr[data-failed]', (r) => r.map((x) => [x.dataset.failed, x.innerText]));
  assert.equal(failed.length, 1);
  assert.equal(failed[0][0], 'js:thrower');
  assert.match(failed[0][1], /failed at t=\d+: .*Error: boom \(line 2\)/);
  assert.match(await page.locator('[data-testid="status"]').innerText(), /^4 policies on .* s\. js:thrower was left out: its code stopped with an error while it ran\. Its error is under Messages\. The other policies' results are shown\.$/);
  // The link carries the built-ins and names the two custom policies it leaves out.
  assert.match(await page.locator('[data-testid="share-note-custom"]').innerText(), /js:easy, js:fcfs are not in this link/);
  await page.screenshot({ path: join(SHOTS, 'daily-custom-desktop.png') });
  // Messages of a run replace the previous run's: the second run shows one message, not two.
  await run(page);
  assert.equal(await page.locator('[data-testid="errors"] li').count(), 1, await errorsText(page));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a throwing policy beside two built-ins: the built-ins\' results stand', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser, TWO);
  await waitRuns(page, 1, 60_000);
  const before = await table(page);
  await addCode(page, { code: 'function schedule(view) {\n  throw new TypeError("no");\n}\n', name: 'bad' });
  await run(page);
  const t = await table(page);
  assert.deepEqual(t, before);
  assert.match(await page.locator('[data-testid="results"] tr[data-failed="js:bad"]').innerText(), /TypeError: no \(line 2\)/);
  assert.doesNotMatch(await page.locator('[data-testid="status"]').innerText(), /The run failed/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the editor keeps several policies across reloads; a rename follows in the comparison', async () => {
  const { page, context } = await open(browser, TWO);
  await waitRuns(page, 1, 60_000);
  await addCode(page, { example: 'fcfs' });
  await addCode(page, { code: 'function schedule(view) { return []; }\n', name: 'second' });
  await page.locator('[data-testid="policy-code-name"]').fill('renamed');
  const specs = () => page.$$eval('[data-testid="policy-spec"]', (i) => i.map((x) => x.value));
  assert.deepEqual(await specs(), ['fcfs', 'easy', 'js:fcfs', 'js:renamed']);
  await page.waitForTimeout(500); // the editor stores after 300 ms
  await page.reload();
  await waitRuns(page, 1, 60_000);
  const names = await page.$$eval('[data-testid="policy-code-list"] option', (o) => o.map((x) => x.textContent));
  assert.deepEqual(names.slice(-2), ['js:fcfs', 'js:renamed']);
  assert.equal(await page.locator('[data-testid="policy-code-name"]').inputValue(), 'renamed');
  await context.close();
});

test('after a change the results and the link are marked stale until the next run', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser, TWO);
  await waitRuns(page, 1, 60_000);
  const stale = () => page.evaluate(() => [document.querySelector('[data-testid="stale-results"]').hidden,
    document.querySelector('[data-testid="stale-link"]').hidden, document.querySelector('[data-testid="results"]').dataset.stale]);
  assert.deepEqual(await stale(), [true, true, 'false']);
  await page.locator('[data-testid="opt-seed"]').fill('7');
  await page.locator('[data-testid="opt-seed"]').dispatchEvent('change');
  assert.deepEqual(await stale(), [false, false, 'true']);
  assert.ok(await page.locator('[data-testid="stale-results"]').isVisible());
  await page.screenshot({ path: join(SHOTS, 'daily-stale.png') });
  await run(page);
  assert.deepEqual(await stale(), [true, true, 'false']);
  assert.match(await page.locator('[data-testid="share-link"]').getAttribute('href'), /seed=7/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('no sideways overflow at 390 px; on a phone the results come right after the trace and Run', { skip: MOCK ? 'mock engine' : false }, async () => {
  for (const [hash, tag] of [[TWO, 2], [twelve, 12]]) {
    const { page, context, problems } = await open(browser, hash, { width: 390, height: 844 });
    await waitRuns(page, 1, 90_000);
    await page.waitForTimeout(300);
    const o = await overflowing(page);
    assert.equal(o.scrollWidth, 390, JSON.stringify(o));
    assert.deepEqual(o.out, []);
    const top = (id) => page.$eval(id, (e) => e.getBoundingClientRect().top + scrollY);
    const [trace, runPanel, results, options, policies] = await Promise.all(['.trace-panel', '.run-panel', '.results-panel', '.options-panel', '.policies-panel'].map(top));
    assert.ok(trace < runPanel && runPanel < results && results < options && results < policies, `${trace} ${runPanel} ${results} ${options}`);
    assert.ok(results < 1100, `results ${results} px down`);
    await page.screenshot({ path: join(SHOTS, `daily-phone-${tag}.png`) });
    await page.$eval('.results-panel', (e) => e.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, `daily-phone-${tag}-results.png`) });
    // While a run goes, the status stays in view wherever the page is scrolled.
    // (Measured as the run starts: the demo's runs can end within a frame.)
    await page.evaluate(() => window.scrollTo(0, 2500));
    const [running, y, bottom] = await page.evaluate(() => {
      document.querySelector('[data-testid="run"]').click();
      const r = document.querySelector('[data-testid="status"]').getBoundingClientRect();
      return [document.body.classList.contains('running'), r.top, r.bottom];
    });
    assert.ok(running);
    assert.ok(y >= 0 && bottom <= 844, `status at ${y}..${bottom}`);
    await waitRuns(page, 2, 90_000);
    assert.deepEqual(problems, []);
    await context.close();
  }
  const { page, context } = await open(browser, '', { width: 390, height: 844 });
  await page.goto(`${BASE}papers.html`);
  await page.waitForSelector('[data-testid="gallery-item"]');
  const o = await overflowing(page);
  assert.equal(o.scrollWidth, 390, JSON.stringify(o));
  // The "recorded" and "this run" columns are on the screen.
  const right = await page.$$eval('.gallery-item thead th:last-child', (t) => Math.max(...t.map((x) => x.getBoundingClientRect().right)));
  assert.ok(right <= 390, `"this run" ends at ${right} px`);
  await page.screenshot({ path: join(SHOTS, 'daily-papers-phone.png') });
  await context.close();
});

test('on a desktop the status line is on the first screen; screenshots with 2 and 12 policies', { skip: MOCK ? 'mock engine' : false }, async () => {
  for (const [hash, tag] of [[TWO, 2], [twelve, 12]]) {
    const { page, context, problems } = await open(browser, hash, { width: 1400, height: 1000 });
    await waitRuns(page, 1, 90_000);
    const box = await page.locator('[data-testid="status"]').boundingBox();
    assert.ok(box.y + box.height <= 1000, `status at ${box.y}`);
    await page.screenshot({ path: join(SHOTS, `daily-desktop-${tag}.png`) });
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('table: colours and stars only for differences the cells show, units per column, n/a where a change cannot be computed, no star for discarded work', async () => {
  const { page, context } = await open(browser, TWO);
  await page.waitForFunction(() => window.schedlab?.resultsTable);
  const got = await page.evaluate(async () => {
    const { ResultsTable } = await import('./www/results.js');
    const catalogue = [
      { name: 'wait', path: 'wait.mean', label: 'mean wait', short: 'mean wait (s)', unit: 's', digits: 1, better: 'lower', family: 'classic' },
      { name: 'utilization', path: 'utilization', label: 'utilization', short: 'utilization', unit: '', digits: 4, better: 'higher', family: 'classic' },
      { name: 'makespan', path: 'makespan', label: 'makespan', short: 'makespan (s)', unit: 's', digits: 0, better: 'lower', family: 'classic' },
      { name: 'killed', path: 'counts.killed', label: 'killed', short: 'killed', unit: '', digits: 0, better: 'lower', family: 'classic' },
    ];
    const report = (policy, wait, utilization, makespan, killed, wasted) => ({ policy, metrics: { wait: { mean: wait }, utilization, makespan, counts: { killed }, wasted_cpu_seconds: wasted } });
    const reports = [
      report('a', 4_419_109.3, 0.56501, 62_292_428, 0, 0),
      report('b', 2_209_554.65, 0.56504, 62_292_447, 3, 0),
      report('c', 5_000_000, 0.9, 62_292_428, 0, 1e6),
    ];
    const sel = () => document.createElement('select');
    const mode = sel();
    mode.append(new Option('% change', 'pct'));
    const t = new ResultsTable(document.createElement('table'), { family: sel(), baseline: sel(), mode }, catalogue);
    const read = () => Object.fromEntries([...t.table.querySelectorAll('td[data-policy]')].map((c) => [`${c.dataset.policy} ${c.dataset.name}`,
      [c.textContent, c.style.background ? 'coloured' : '', c.classList.contains('best') ? 'best' : '', c.title]]));
    t.show(reports);
    const heads = [...t.table.querySelectorAll('thead th[data-metric] button')].map((b) => b.textContent);
    const absolute = read();
    t.c.baseline.value = '0';
    t.render();
    return { heads, absolute, relative: read() };
  });
  // Mean waits of 25 to 58 days: shown in days; makespans of 62 million s (720.98 d) too.
  assert.deepEqual(got.heads, ['mean wait (d)', 'utilization', 'makespan (d)', 'killed']);
  const a = got.absolute;
  // 4,419,109.3 s = 51.147 d; 2,209,554.65 s = 25.574 d; 5,000,000 s = 57.870 d.
  // b best (green, ★), a in the middle (neutral), c worst (red).
  assert.deepEqual(a['a wait'].slice(0, 3), ['51.15', '', '']);
  assert.deepEqual(a['b wait'].slice(0, 3), ['25.57 ★', 'coloured', 'best']);
  assert.deepEqual(a['c wait'].slice(0, 3), ['57.87', 'coloured', '']);
  assert.match(a['b wait'][3], /2,209,554\.7 s \(25d 13h 45m\)/); // the raw value in the tooltip
  // 0.56501 and 0.56504 both show 0.565: no colour, no star; c counts discarded work: no star.
  // The column shows one number of decimals, the most a cell needs: c's 0.9 reads 0.900.
  assert.deepEqual(a['a utilization'].slice(0, 3), ['0.565', '', '']);
  assert.deepEqual(a['b utilization'].slice(0, 3), ['0.565', '', '']);
  assert.deepEqual(a['c utilization'].slice(0, 3), ['0.900 †', '', '']);
  assert.match(a['c utilization'][3], /discarded work/);
  // 62,292,428 s and 62,292,447 s both show 720.98 d: a 19-s difference colours nothing.
  for (const p of ['a', 'b', 'c']) assert.deepEqual(a[`${p} makespan`].slice(0, 3), ['720.98', '', '']);
  // Relative to a, whose killed count is 0: b's change cannot be computed, c's is none.
  const r = got.relative;
  assert.equal(r['b killed'][0], 'n/a');
  assert.match(r['b killed'][3], /cannot be computed: the baseline's value is 0/);
  assert.equal(r['c killed'][0], '±0 % ★'); // as low as the baseline: tied best
  assert.deepEqual(r['b makespan'].slice(0, 2), ['+0 %', '']);
  assert.deepEqual(r['b wait'].slice(0, 2), ['−50 % ★', 'coloured']);
  await context.close();
});

test('keyboard: skip links, headings that sort, fewer Tab stops before Run', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context } = await open(browser, TWO);
  await waitRuns(page, 1, 60_000);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'skip-run');
  let stops = 1;
  while (stops < 60 && await page.evaluate(() => document.activeElement.dataset.testid) !== 'run') {
    await page.keyboard.press('Tab');
    stops += 1;
  }
  // Two skip links, the papers link, the trace's demo, its two folded sources and its skipped
  // lines, six options and three folded groups, two policy cards of three stops, the policy to
  // add and its button, the custom editor, the cluster's select: 27 (31 before, without skip
  // links and the cluster).
  assert.ok(stops <= 27, `${stops} Tab stops before Run`);
  // The first skip link takes the keyboard to Run.
  await page.locator('[data-testid="skip-run"]').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'run');
  // The skip link to the results moves the focus there.
  await page.locator('[data-testid="skip-results"]').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'h-results');
  // A heading is a button: Enter sorts by its column, again reverses.
  const waits = () => page.$$eval('[data-testid="results"] tbody td[data-metric="wait.mean"]', (c) => c.map((x) => Number(x.dataset.value)));
  await page.locator('[data-testid="results"] th[data-metric="wait.mean"] button').focus();
  await page.keyboard.press('Enter');
  const up = await waits();
  assert.deepEqual(up, [...up].sort((x, y) => x - y));
  assert.equal(await page.getAttribute('[data-testid="results"] th[data-metric="wait.mean"]', 'aria-sort'), 'ascending');
  assert.equal(await page.evaluate(() => document.activeElement.closest('th')?.dataset.metric), 'wait.mean');
  await page.keyboard.press('Enter');
  assert.deepEqual(await waits(), [...up].reverse());
  await context.close();
});

/** axe-core's serious and critical violations of the page as it is. */
async function axe(page) {
  await page.addScriptTag({ content: readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8') });
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
  });
}

test('axe-core finds no serious or critical violation (page at 1400 and 390 px, papers page)', { skip: MOCK ? 'mock engine' : false }, async () => {
  for (const width of [1400, 390]) {
    const { page, context } = await open(browser, TWO, { width, height: 900 });
    await waitRuns(page, 1, 60_000);
    await editor(page);
    assert.deepEqual(await axe(page), [], `page at ${width} px`);
    await context.close();
  }
  const { page, context } = await open(browser, '');
  await page.goto(`${BASE}papers.html`);
  await page.waitForSelector('[data-testid="gallery-item"]');
  assert.deepEqual(await axe(page), [], 'papers page');
  await context.close();
});

test('the sweep shows mean bounded slowdown by default and exports its table as CSV', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=fcfs&policy=easy&sweepvary=queue=fcfs,sjf&sweepseeds=1&sweepmore=');
  await waitRuns(page, 1, 60_000);
  assert.equal(await page.locator('[data-testid="sweep-metric"]').inputValue(), 'mbs');
  assert.doesNotMatch(await page.locator('[data-testid="share-link"]').getAttribute('href'), /sweepmetric/);
  await page.locator('[data-testid="sweep-policies"] input[value="easy"]').check();
  await page.locator('[data-testid="sweep-run"]').click();
  await page.waitForFunction(() => /simulations in/.test(document.querySelector('[data-testid="sweep-status"]').textContent), null, { timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="sweep-csv"]').click()]);
  const csv = readFileSync(await download.path(), 'utf8').trim().split('\n');
  assert.equal(csv[0], 'policy,queue,metric,seeds,mean,min,max');
  assert.equal(csv.length, 3);
  const rows = await page.locator('[data-testid="sweep-table"] tbody tr').allInnerTexts();
  csv.slice(1).forEach((line, i) => {
    const [policy, value, metric, seeds, mean] = line.split(',');
    assert.deepEqual([policy, value, metric, seeds], ['easy', ['fcfs', 'sjf'][i], 'mbs', '1']);
    assert.match(rows[i], new RegExp(`easy\\s+${value}\\s+${Number(mean).toFixed(4)}`));
  });
  assert.deepEqual(problems, []);
  await context.close();
});

test('generated workloads: users with Zipf-like job counts and realistic waits; old links reproduce', { skip: MOCK ? 'mock engine' : false }, async () => {
  // The page's default model has users and 3/4 of the 1999 model's arrival rate.
  const { page, context, problems } = await open(browser, TWO);
  await waitRuns(page, 1, 60_000);
  assert.equal(await page.locator('[data-testid="generate-model"]').inputValue(), 'lublin-users');
  await page.locator('[data-testid="generate-panel"] summary').click();
  await page.locator('[data-testid="generate-jobs"]').fill('2000');
  await page.locator('[data-testid="generate-procs"]').fill('128');
  const n = await runs(page);
  await page.locator('[data-testid="trace-generate"]').click();
  await waitRuns(page, n + 1, 60_000);
  const link = await page.locator('[data-testid="share-link"]').getAttribute('href');
  assert.match(link, /trace=gen%3Alublin-users%3A128%3A2000%3A1|trace=gen:lublin-users:128:2000:1/);
  assert.match(await page.locator('[data-testid="facts"]').innerText(), /users\s+45\b/); // ⌈√2000⌉
  const users = await table(page);
  await context.close();
  // A link of the 1999 model still gives that model's workload (one user; its SWF is pinned
  // byte for byte in tests/generate_users.rs), at a higher load.
  const old = await open(browser, '#v=1&trace=gen:lublin:128:2000:1&policy=fcfs&policy=easy');
  await waitRuns(old.page, 1, 60_000);
  assert.match(await old.page.locator('[data-testid="facts"]').innerText(), /users\s+1\b/);
  const before = await table(old.page);
  assert.ok(users.easy['wait.mean'] < before.easy['wait.mean'], `${users.easy['wait.mean']} vs ${before.easy['wait.mean']}`);
  assert.deepEqual([...problems, ...old.problems], []);
  await old.context.close();
});
