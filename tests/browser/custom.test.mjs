// Bring your own policy in the page: priority expressions in links, the JavaScript policy editor
// (examples equal to the built-ins, on a cluster too, errors, endless loops stopped by Cancel,
// kept across reloads, never in links). Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, MOCK, launch, open, waitRuns, table, errorsText, cli, cliBinary, metric, close, useCode, clickRun } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const enc = (s) => encodeURIComponent(s);
const EXPR = 'easy[queue=expr(max(wait,1)/(estimate*sqrt(procs)))]';
const WFP3 = 'conservative[queue=wfp3]';

test('a link with priority expressions reproduces in a fresh page and matches the CLI', { skip: MOCK }, async () => {
  const hash = `#v=1&trace=demo:5K_sample&policy=${enc(EXPR)}&policy=${enc(WFP3)}&policy=fcfs&seed=1`;
  const first = await open(browser, hash);
  await waitRuns(first.page, 1);
  const shown = await table(first.page);
  assert.deepEqual(Object.keys(shown).sort(), [WFP3, EXPR, 'fcfs'].sort());
  const link = await first.page.locator('[data-testid="share-link"]').getAttribute('href');
  assert.match(decodeURIComponent(link), /policy=easy\[queue=expr\(max\(wait,1\)\/\(estimate\*sqrt\(procs\)\)\)\]/);
  assert.deepEqual(first.problems, []);
  await first.context.close();
  // the page's own link, opened in a fresh context, gives the same numbers
  const second = await open(browser, new URL(link).hash);
  await waitRuns(second.page, 1);
  assert.deepEqual(await table(second.page), shown);
  await second.context.close();
  if (cliBinary()) {
    const [report] = cli('www/demo/5K_sample.swf.gz', [EXPR], 1);
    for (const m of ['mean_wait', 'mean_bsld', 'utilization']) {
      const v = metric(report, m);
      if (v !== undefined && shown[EXPR][m] !== undefined) assert.ok(close(v, shown[EXPR][m]), `${m}: ${v} vs ${shown[EXPR][m]}`);
    }
  }
});

/** Loads an example (or code) into the editor under `name` and adds it to the comparison. */
/** The jobs CSV of each policy shown, by spec, without the reservation columns (a JavaScript
 * policy makes no reservations the engine sees; its start reasons are compared). */
async function jobsCsvs(page) {
  return page.evaluate(async () => {
    const S = window.schedlab.state;
    const out = {};
    for (let i = 0; i < S.results.length; i++) {
      const rows = (await S.runner.exportCsv(i, 'jobs')).trimEnd().split('\n').map((l) => l.split(','));
      const drop = new Set(['first_reservation', 'waited_for'].map((c) => rows[0].indexOf(c)));
      if (drop.has(-1)) throw new Error('the jobs CSV has no reservation columns');
      out[S.results[i].spec] = rows.map((r) => r.filter((_, k) => !drop.has(k)).join(',')).join('\n');
    }
    return out;
  });
}

test('the FCFS and EASY examples give exactly the built-ins\' schedules on the demo traces', { skip: MOCK }, async () => {
  for (const demo of ['hpc2n', '5K_sample']) {
    const { page, context, problems } = await open(browser, `#v=1&trace=demo:${demo}&policy=easy&policy=fcfs`);
    await waitRuns(page, 1);
    for (const example of ['easy', 'fcfs']) {
      await useCode(page, { example });
      const n = await clickRun(page);
      await waitRuns(page, n + 1, 60_000);
      const csv = await jobsCsvs(page);
      assert.ok(csv[`js:${example}`], `${demo}: js:${example} ran`);
      assert.equal(csv[`js:${example}`], csv[example], `${demo}: js:${example} differs from ${example}`);
      const t = await table(page);
      assert.deepEqual(t[`js:${example}`], t[example]);
      // the custom policy is not in the link, and the page says so
      const link = decodeURIComponent(await page.locator('[data-testid="share-link"]').getAttribute('href'));
      assert.doesNotMatch(link, /js:|function/);
      assert.match(await page.locator('[data-testid="share-note-custom"]').innerText(), new RegExp(`js:${example} is not in this link`));
      await page.locator('[data-testid="policy-remove"]').last().click();
    }
    if (demo === 'hpc2n') await page.screenshot({ path: join(SHOTS, 'custom-policy.png'), fullPage: false });
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('on a cluster, the FCFS example gives the built-in fcfs\'s schedule: a job its free processors hold but no node does waits', { skip: MOCK }, async () => {
  // The Slurm GPU demo runs on its own cluster (4 nodes of 8 cores and 2 GPUs). Before, js:fcfs
  // failed at t=50: "returned job 10, which needs 16 processors: 16 free" (free cores on
  // nodes without the GPUs it asks).
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:slurm-gpu&policy=fcfs');
  await waitRuns(page, 1, 60_000);
  await useCode(page, { example: 'fcfs' });
  const n = await clickRun(page);
  await waitRuns(page, n + 1, 60_000);
  assert.doesNotMatch(await errorsText(page), /js:fcfs/);
  const csv = await jobsCsvs(page);
  assert.ok(csv['js:fcfs'] && csv['js:fcfs'].split('\n').length > 60, 'js:fcfs ran the 60 jobs');
  assert.equal(csv['js:fcfs'], csv.fcfs);
  const t = await table(page);
  assert.deepEqual(t['js:fcfs'], t.fcfs);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the editor keeps its code across reloads', async () => {
  const { page, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=fcfs');
  await waitRuns(page, 1);
  await page.locator('[data-testid="policy-code-panel"] summary').click();
  await page.locator('[data-testid="policy-code"]').fill('// kept\nfunction schedule(view) { return []; }\n');
  await page.locator('[data-testid="policy-code-name"]').fill('kept');
  await page.waitForTimeout(500);
  await page.reload();
  await waitRuns(page, 1);
  assert.match(await page.locator('[data-testid="policy-code"]').inputValue(), /^\/\/ kept/);
  assert.equal(await page.locator('[data-testid="policy-code-name"]').inputValue(), 'kept');
  await context.close();
});

const BAD = [
  ['throws', 'function schedule(view) {\n  const x = null;\n  return x.boom;\n}', /js:bad failed at t=\d+: TypeError: .*null.*\(line 3\)/],
  ['returns garbage', 'function schedule(view) { return view.waiting.length ? [1e99] : []; }', /js:bad: invalid decision at t=\d+: returned 1e99, which is not a job id/],
  ['returns a Promise', 'async function schedule(view) { return []; }', /schedule\(view\) returned a Promise: it must return its array of job ids at once \(not an async function, no await\)/],
  ['returns a string', 'function schedule(view) { return "x"; }', /schedule\(view\) returned "x": it must return an array of job ids/],
  // NaN was said to be null (JSON's text for it), a function "a value that is not a number".
  ['returns NaN', 'function schedule(view) { return view.waiting.length ? NaN : []; }', /schedule\(view\) returned NaN: it must return an array of job ids/],
  ['returns a function', 'function schedule(view) { return view.waiting.map; }', /schedule\(view\) returned a function \(not called\?\): it must return an array of job ids/],
  ['returns a running job', 'function schedule(view) {\n  const r = view.running[0];\n  if (r && view.waiting.length) return [r.id];\n  return view.waiting.filter((j, i) => i === 0 && j.procs <= view.free).map((j) => j.id);\n}', /returned job \d+, which is not waiting: it is running/],
  ['returns a duplicate id', 'function schedule(view) {\n  const j = view.waiting.find((j) => j.procs <= view.free);\n  return j ? [j.id, j.id] : [];\n}', /returned job \d+, which is not waiting: it was already started in this pass \(returned twice\)/],
  ['returns a job that does not fit', 'function schedule(view) {\n  const j = view.waiting.find((j) => j.procs > view.free);\n  return j ? [j.id] : view.waiting.filter((j) => j.procs <= view.free).slice(0, 1).map((j) => j.id);\n}', /returned job \d+, which needs \d+ processors: \d+ free/],
  ['starts nothing', 'function schedule(view) { return []; }', /left \d+ jobs waiting with nothing left to happen/],
  ['defines no schedule', 'function plan(view) { return []; }', /must define function schedule|defines no function schedule/],
];

test('bad JavaScript policies end the run with a clear message; the page keeps working', { skip: MOCK }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=fcfs');
  await waitRuns(page, 1);
  let first = true;
  for (const [what, code, expected] of BAD) {
    await page.evaluate(() => { document.querySelector('[data-testid="errors"]').replaceChildren(); });
    if (first) await useCode(page, { code, name: 'bad' });
    else {
      await page.locator('[data-testid="policy-code"]').fill(code);
      await page.locator('[data-testid="policy-code-add"]').click();
    }
    first = false;
    if (what !== 'defines no schedule') {
      await page.locator('[data-testid="run"]').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="errors"]').children.length > 0, null, { timeout: 30_000 });
    }
    const text = await errorsText(page);
    assert.match(text, expected, `${what}: ${text}`);
    // The policy is named once (it was "Policy js:bad: policy js:bad: invalid decision ...").
    assert.doesNotMatch(text, /js:bad:? policy js:bad/, `${what}: ${text}`);
    assert.ok(!(await page.locator('[data-testid="run"]').isDisabled()), `${what}: run button disabled`);
  }
  assert.deepEqual(problems.filter((p) => !/schedlab panicked/.test(p)), problems);
  assert.ok(!problems.some((p) => /panicked/.test(p)), problems.join('\n'));
  await context.close();
});

test('an endless loop is stopped by Cancel; the next run works', { skip: MOCK }, async () => {
  const { page, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=fcfs');
  await waitRuns(page, 1);
  await useCode(page, { code: 'function schedule(view) {\n  for (;;) {}\n}', name: 'loop' });
  await page.locator('[data-testid="run"]').click();
  await page.waitForTimeout(1500);
  assert.ok(await page.locator('[data-testid="cancel"]').isEnabled());
  await page.locator('[data-testid="cancel"]').click();
  assert.match(await page.locator('[data-testid="status"]').innerText(), /Cancelled/);
  // the worker was replaced: a comparison with a working policy runs
  await page.locator('[data-testid="policy-code-examples"]').selectOption('fcfs');
  await page.locator('[data-testid="policy-code-add"]').click();
  const n = await clickRun(page);
  await waitRuns(page, n + 1);
  const t = await table(page);
  assert.ok(t['js:fcfs'] && t.fcfs, Object.keys(t).join(', '));
  await context.close();
});

test('a syntax error names its line and column (before the run, and from the worker)', { skip: MOCK }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=fcfs');
  await waitRuns(page, 1);
  await page.evaluate(() => { document.querySelector('[data-testid="errors"]').replaceChildren(); });
  // line 3: the closing bracket has no opening one; column 4 (1-based) holds it
  await useCode(page, { code: 'function schedule(view) {\n  return [1,\n  ]]\n}\n', name: 'syntax' });
  assert.match(await errorsText(page), /syntax error at line 3, column 4: Unexpected token/);
  // strict mode, as the worker compiles it: an octal literal on line 2
  await page.evaluate(() => { document.querySelector('[data-testid="errors"]').replaceChildren(); });
  await page.locator('[data-testid="policy-code"]').fill('function schedule(view) {\n  return [010];\n}\n');
  await page.locator('[data-testid="policy-code-add"]').click();
  assert.match(await errorsText(page), /syntax error at line 2, column 11: /);
  // the worker's own check (the page's is bypassed): same position
  const msg = await page.evaluate(async () => {
    const { compile } = await import('./www/custom.js');
    try { compile('function schedule(view) {\n  return [1,\n  ]]\n}\n'); return 'compiled'; } catch (err) { return err.message; }
  });
  assert.match(msg, /does not compile: syntax error at line 3, column 4/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a syntax error past a bracket mistake names the line of the mistake', { skip: MOCK }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=fcfs');
  await waitRuns(page, 1);
  // One '}' too many on line 5 ends the function there: the parser stops only at line 7's '}'.
  // The '{' of line 1 (indent 0) is closed on line 5 (indent 2): the hint names line 5.
  const extra = 'function schedule(view) {\n  const ids = [];\n  for (const j of view.waiting) {\n    if (j.procs <= view.free) ids.push(j.id);\n  }}\n  return ids;\n}';
  // The for's '}' forgotten: line 6's '}' (indent 0) closes line 3's '{' (indent 2).
  const missing = 'function schedule(view) {\n  const ids = [];\n  for (const j of view.waiting) {\n    if (j.procs <= view.free) ids.push(j.id);\n  return ids;\n}';
  // A ')' forgotten: line 3's '}' meets line 2's '('.
  const paren = 'function schedule(view) {\n  return view.waiting.map((j) => j.id;\n}';
  for (const [code, want] of [
    [extra, /line 7, column 1: Unexpected token \(the '\{' of line 1 is closed by the '\}' of line 5, indented otherwise/],
    [missing, /line 6, column 2: .*the '\{' of line 3 is closed by the '\}' of line 6, indented otherwise/],
    [paren, /the '\}' of line 3 meets the '\(' of line 2: one too many, or a '\)' missing\?/],
  ]) {
    await page.evaluate(() => { document.querySelector('[data-testid="errors"]').replaceChildren(); });
    await useCode(page, { code, name: 'brackets' });
    assert.match(await errorsText(page), want);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('the JavaScript policy takes part in sweeps (over the pool, never in the link)', { skip: MOCK }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy');
  await waitRuns(page, 1);
  await useCode(page, { example: 'easy' });
  const n = await clickRun(page);
  await waitRuns(page, n + 1, 60_000);
  await page.locator('[data-testid="sweep-run"]').scrollIntoViewIfNeeded();
  // js:easy is a compared policy: ticked in the sweep panel next to easy
  for (const spec of ['easy', 'js:easy']) await page.locator(`[data-testid="sweep-policies"] input[value="${spec}"]`).check();
  await page.locator('[data-testid="sweep-more"]').fill('');
  await page.locator('[data-testid="sweep-vary"]').fill('queue=fcfs,sjf');
  await page.locator('[data-testid="sweep-seeds"]').fill('2');
  await page.locator('[data-testid="sweep-metric"]').selectOption('wait');
  await page.locator('[data-testid="sweep-run"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="chart-sweep"]')?.dataset.stats, null, { timeout: 60_000 });
  const data = await page.$eval('[data-testid="chart-sweep"]', (c) => ({ stats: JSON.parse(c.dataset.stats), policies: JSON.parse(c.dataset.policies) }));
  assert.deepEqual(data.policies, ['easy', 'js:easy']);
  const [easyFcfs, easySjf, jsFcfs, jsSjf] = [0, 1, 2, 3].map((k) => data.stats.slice(k * 3, k * 3 + 3));
  // js:easy has no keys: the same figures at every value, those of easy (fcfs order)
  assert.deepEqual(jsFcfs, easyFcfs);
  assert.deepEqual(jsSjf, easyFcfs);
  assert.notDeepEqual(easySjf, easyFcfs);
  // 2 values of easy + js:easy once, 2 seeds each
  assert.match(await page.locator('[data-testid="sweep-status"]').innerText(), /^6 simulations in /);
  const rows = await page.locator('[data-testid="sweep-table"] tbody tr').allInnerTexts();
  assert.equal(rows.length, 4);
  assert.match(rows[2], /js:easy\s+fcfs/);
  const link = decodeURIComponent(await page.locator('[data-testid="share-link"]').getAttribute('href'));
  assert.doesNotMatch(link, /js:|function/);
  await page.locator('section:has(#h-sweep)').screenshot({ path: join(SHOTS, 'sweep-custom.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('Cancel stops a sweep of an endless JavaScript policy; the next sweep works', { skip: MOCK }, async () => {
  const { page, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=fcfs');
  await waitRuns(page, 1);
  await useCode(page, { code: 'function schedule(view) {\n  for (;;) {}\n}', name: 'loop' });
  await page.locator('[data-testid="sweep-more"]').fill('js:loop');
  await page.locator('[data-testid="sweep-vary"]').fill('');
  await page.locator('[data-testid="sweep-seeds"]').fill('1');
  await page.locator('[data-testid="sweep-run"]').click();
  await page.waitForTimeout(1000);
  // One simulation (one policy, no key, one seed): said in the singular.
  assert.match(await page.locator('[data-testid="sweep-status"]').innerText(), /1 simulation…$/);
  await page.locator('[data-testid="sweep-cancel"]').click();
  assert.equal(await page.locator('[data-testid="sweep-status"]').innerText(), 'Sweep cancelled.');
  // the editor's FCFS example in a sweep of its own (no key): the numbers of fcfs
  await page.locator('[data-testid="policy-code-examples"]').selectOption('fcfs');
  await page.locator('[data-testid="sweep-more"]').fill('js:fcfs\nfcfs');
  await page.locator('[data-testid="sweep-metric"]').selectOption('mbs');
  await page.locator('[data-testid="sweep-run"]').click();
  await page.waitForFunction(() => /simulations in/.test(document.querySelector('[data-testid="sweep-status"]').textContent), null, { timeout: 60_000 });
  const stats = await page.$eval('[data-testid="chart-sweep"]', (c) => JSON.parse(c.dataset.stats));
  assert.deepEqual(stats.slice(0, 3), stats.slice(3, 6));
  await context.close();
});
