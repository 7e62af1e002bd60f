// Users by name in the page (an sacct log numbers its users for SWF and keeps their names in the
// header notes): the real Slurm run demo's users table, furthest-jobs table, trace "users" chart
// and jobs CSV read alice, bob..., not 1, 2; the CSV keeps user_id and adds `user`. A TIMEOUT
// job reads as killed at its limit. Jobs by Slurm's JobID: an sacct log's furthest-jobs table
// names them as `schedlab run --fidelity` does. Screenshots: names-*.png. Run through
// scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHOTS, MOCK, ROOT, launch, open, runs, waitRuns, cliBinary } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// The demo's users in order of first appearance (its lines are in submit order): the numbers the
// reader gives them, from 1. And its TIMEOUT jobs' JobIDs (the job numbers too, for that order).
const SACCT = readFileSync(join('www', 'demo', 'slurm-gpu-run.sacct'), 'utf8').trim().split('\n');
const HEAD = SACCT[0].split('|');
const rows = SACCT.slice(1).map((l) => l.split('|'));
const NAMES = [...new Set(rows.map((r) => r[HEAD.indexOf('User')]))];
const TIMEOUT = rows.filter((r) => r[HEAD.indexOf('State')] === 'TIMEOUT').map((r) => r[0]);

async function download(p, testid) {
  const [d] = await Promise.all([p.waitForEvent('download'), p.locator(`[data-testid="${testid}"]`).click()]);
  return readFileSync(await d.path(), 'utf8');
}

test('the real Slurm run demo shows its users by name, in its tables, charts and jobs CSV', { skip: MOCK ? 'mock engine' : false }, async () => {
  assert.deepEqual(NAMES, ['alice', 'dave', 'erin', 'bob', 'carol', 'frank']);
  assert.ok(TIMEOUT.length >= 2, TIMEOUT.join(','));
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:5K_sample&policy=easy');
  await waitRuns(page, 1, 60_000);
  const n = await runs(page);
  await page.locator('[data-testid="trace-demo"]').selectOption('slurm-gpu');
  await waitRuns(page, n + 1, 60_000);
  // The module every view asks.
  const named = await page.evaluate(async () => {
    const m = await import('./www/users.js');
    return [1, 2, 3, 4, 5, 6, 7].map((u) => m.userName(u));
  });
  assert.deepEqual(named, [...NAMES, '7']);
  // The compare panel's users table (A easy, B slurm): each row's user by name, its data-user
  // the number.
  await page.locator('[data-testid="diff-b"]').selectOption('1');
  const users = page.locator('[data-testid="diff-users"]');
  await users.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="diff-users"] tbody tr[data-user]').length > 0);
  const userRows = await page.$$eval('[data-testid="diff-users"] tbody tr[data-user]', (trs) => trs.map((tr) => [Number(tr.dataset.user), tr.children[1].textContent]));
  assert.ok(userRows.length > 0);
  for (const [id, shown] of userRows) assert.equal(shown, NAMES[id - 1], `user ${id}`);
  // The jobs furthest apart: the user column by name.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="diff-furthest"] tbody tr[data-job]').length > 0);
  const furthest = await page.$$eval('[data-testid="diff-furthest"] tbody tr[data-job]', (trs) => trs.map((tr) => tr.children[1].textContent));
  assert.ok(furthest.length > 0 && furthest.every((u) => NAMES.includes(u)), furthest.join(','));
  // The trace's "users" chart (folded under the trace's heading) names its heaviest users in
  // its text alternative.
  const view = page.locator('[data-testid="trace-view"]');
  await view.locator('summary').first().click();
  await page.locator('[data-testid="chart-trace-users"]').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => /highest: /.test(document.querySelector('[data-testid="chart-trace-users"]')?.getAttribute('aria-label') ?? ''), null, { timeout: 10_000 });
  const usersChart = await page.locator('[data-testid="chart-trace-users"]').getAttribute('aria-label');
  assert.match(usersChart, /highest: (alice|bob|carol|dave|erin|frank) \(/, usersChart);
  assert.doesNotMatch(usersChart, /highest: \d/, usersChart);
  // The jobs CSV: user_id a number where it was, the name last; the TIMEOUT jobs killed.
  const csv = (await download(page, 'export-jobs-csv')).trim().split('\n').map((l) => l.split(','));
  const col = (name) => csv[0].indexOf(name);
  // The name, then the job's JobID in the log (counted from the end: `nodes` may hold commas).
  assert.deepEqual(csv[0].slice(-2), ['user', 'log_job_id']);
  assert.equal(csv.length - 1, rows.length);
  for (const r of csv.slice(1)) {
    // (The columns up to waited_for hold no commas; the cluster's `nodes` may: "n[2,4]".)
    assert.equal(r.at(-2), NAMES[Number(r[col('user_id')]) - 1], r.join(','));
    assert.match(r.at(-1), /^\d+$/, r.join(','));
    const timeout = TIMEOUT.includes(r[col('job_id')]);
    assert.equal(r[col('final_state')], timeout ? 'COMPLETED_WALLTIME_REACHED' : 'COMPLETED_SUCCESSFULLY', r.join(','));
  }
  await page.screenshot({ path: join(SHOTS, 'names-page.png'), fullPage: false });
  const gantt = page.locator('[data-testid="chart-gantt"]').first();
  await gantt.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.schedlab.gantts.items.every((i) => !i.visible || (!i.dirty && i.drawn)), null, { timeout: 10_000 });
  await gantt.screenshot({ path: join(SHOTS, 'names-gantt.png') });
  await users.screenshot({ path: join(SHOTS, 'names-users.png') });
  // The EET heatmap's rows: drawn with the names (look at names-heatmap.png: alice, not user 1).
  await page.locator('[data-testid="chart-veet"]').scrollIntoViewIfNeeded();
  const heat = page.locator('[data-testid="chart-heatmap"]').first();
  await heat.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.schedlab.eet.items.length > 0 && window.schedlab.eet.items.every((i) => !i.dirty), null, { timeout: 30_000 });
  await heat.screenshot({ path: join(SHOTS, 'names-heatmap.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('users are picked by name: the options\' user lists and the heatmap\'s; a name the trace does not give is told', { skip: MOCK ? 'mock engine' : false }, async () => {
  // alice's jobs left out of the simulation, dave's row out of the heatmap, both by name.
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:slurm-gpu&policy=easy&xusers=alice&exclude=dave');
  await waitRuns(page, 1, 60_000);
  assert.equal(await page.locator('[data-testid="opt-xusers"]').inputValue(), 'alice');
  assert.equal(await page.locator('[data-testid="heat-exclude"]').inputValue(), 'dave');
  // The link carries the names as typed.
  const href = await page.locator('[data-testid="share-link"]').getAttribute('href');
  assert.match(href, /&xusers=alice(&|$)/);
  assert.match(href, /&exclude=dave(&|$)/);
  const csv = (await download(page, 'export-jobs-csv')).trim().split('\n').map((l) => l.split(','));
  const kept = csv.slice(1).map((r) => r.at(-2));
  assert.equal(kept.length, rows.filter((r) => r[HEAD.indexOf('User')] !== 'alice').length);
  assert.ok(!kept.includes('alice') && kept.includes('bob'), kept.join(','));
  // The heatmap's rows (data-users: numbers) leave dave, user 2, out.
  await page.locator('[data-testid="chart-veet"]').scrollIntoViewIfNeeded();
  await page.locator('[data-testid="chart-heatmap"]').first().scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.schedlab.eet.items.length > 0 && window.schedlab.eet.items.every((i) => !i.dirty), null, { timeout: 30_000 });
  const shown = await page.locator('[data-testid="chart-heatmap"]').first().evaluate((c) => c.dataset.users);
  assert.ok(!shown.split(',').includes('2'), shown);
  assert.equal(await page.locator('[data-testid="heat-exclude"]').evaluate((e) => e.classList.contains('invalid')), false);
  assert.deepEqual(problems, []);
  await context.close();

  // A name this trace does not give: told, naming the option and the name; no run shown.
  const bad = await open(browser, '#v=1&trace=demo:slurm-gpu&policy=easy&users=zed');
  await bad.page.waitForFunction(() => /zed/.test(document.querySelector('[data-testid="errors"]')?.innerText ?? ''), null, { timeout: 60_000 });
  const text = await bad.page.locator('[data-testid="errors"]').innerText();
  assert.match(text, /--users zed: no user of this trace is named so \(its users: alice, dave, erin, bob, carol, frank\)/);
  assert.equal(await runs(bad.page), 0);
  await bad.context.close();
});

test('an sacct log\'s furthest jobs are named by their JobID, as `schedlab run --fidelity` names them', { skip: MOCK ? 'mock engine' : (cliBinary() ? false : 'no CLI binary') }, async () => {
  // gpu-3/run1 with JobIDs that are not the job numbers: 7001, 7002, array tasks 7100_3, ...
  // (the committed logs number their jobs 1, 2, ... as the trace does: the page read the same).
  const lines = readFileSync(join('tests', 'data', 'slurm', 'gpu-3', 'run1', 'sacct.txt'), 'utf8').trim().split('\n');
  const ids = lines.slice(1).map((_, k) => ((k + 1) % 3 === 0 ? `7100_${k + 1}` : String(7001 + k)));
  const text = [lines[0], ...lines.slice(1).map((l, k) => [ids[k], ...l.split('|').slice(1)].join('|'))].join('\n') + '\n';
  const file = join(mkdtempSync(join(tmpdir(), 'schedlab-ids-')), 'ids.sacct');
  writeFileSync(file, text);
  const out = execFileSync(cliBinary(), ['run', file, '-p', 'historic', '-p', 'slurm', '--fidelity', '10'], { cwd: ROOT }).toString();
  // `slurm` is labelled by its canonical spec, the loops' phases read from the log in it.
  const listed = out.split(/Furthest off under slurm\[bf_phase=2,sched_phase=28\]:/)[1].trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/)[0]);
  assert.equal(listed.length, 10);
  assert.ok(listed.every((id) => ids.includes(id)), listed.join(','));

  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=slurm&policy=historic&seed=1');
  await waitRuns(page, 1, 60_000);
  const n = await runs(page);
  await page.locator('[data-testid="trace-file"]').setInputFiles({ name: 'ids.sacct', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await waitRuns(page, n + 1, 60_000);
  const furthest = page.locator('[data-testid="diff-furthest"]');
  await furthest.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => /from A, historic .* to B \(slurm\)/.test(document.querySelector('[data-testid="diff-furthest"] caption')?.textContent));
  const shown = await page.$$eval('[data-testid="diff-furthest"] tbody tr[data-job]', (trs) => trs.map((tr) => [Number(tr.dataset.job), tr.children[0].textContent]));
  // Each row's JobID is its job's (the log's lines are in submit order: job k is line k + 1).
  for (const [number, name] of shown) assert.equal(name, ids[number - 1], `job ${number}`);
  assert.deepEqual(shown.map(([, name]) => name), listed);
  // The why sentences name the jobs they mention by JobID too.
  for (const why of await furthest.locator('td.why').allInnerTexts()) {
    for (const [, id] of why.matchAll(/\bjob (\d\S*?)[ ,.;)']/g)) assert.ok(ids.includes(id), why);
  }
  await furthest.screenshot({ path: join(SHOTS, 'names-jobids.png') });
  assert.deepEqual(problems, []);
  await context.close();
});
