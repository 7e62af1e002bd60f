// The papers gallery (papers.html): every entry of www/gallery/entries.json is shown with its
// paper's numbers; Run fills "this run" with the numbers of `schedlab run` (one entry per paper,
// the CLI run here with the entry's flags); Cancel stops a long entry; a link opens one entry.
// Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SHOTS, MOCK, launch, open, cliBinary, distinctColours, metric } from './helpers.mjs';

const { entries } = JSON.parse(readFileSync(join(ROOT, 'www/gallery/entries.json'), 'utf8'));
const byId = (id) => entries.find((e) => e.id === id);
// One entry per paper, the cheap ones (the CLI in this test is a debug build).
const CHECKED = ['orders-table6', 'pv-figures23', 'rua-figures89-hpc2n', 'eet-hpc2n'];
const FILES = { kth: 'KTH-SP2-1996-2.1-cln.swf.gz', lanl: 'LANL-CM5-1994-4.1-cln.swf.gz', hpc2n: 'hpc2n.swf.gz', '5K_sample': '5K_sample.swf.gz' };

let browser, page, problems;

before(async () => {
  browser = await launch();
  ({ page, problems } = await open(browser, '', { width: 1200, height: 900 }));
  await page.goto(new URL('papers.html', page.url()).href);
  await page.waitForFunction(() => Number(document.body.dataset.gallery ?? 0) > 0, null, { timeout: 30_000 });
});
after(async () => { await browser?.close(); });

const field = (row, entry, key, fallback) => row[key] ?? entry[key] ?? fallback;

/** The entry's row values from the CLI (the mean over each row's seeds, divided by its scale). */
function cliValues(entry) {
  const top = Math.max(...entry.rows.map((r) => field(r, entry, 'seeds', 1)));
  const reports = new Map();
  for (let seed = 1; seed <= top; seed++) {
    const specs = [...new Set(entry.rows.filter((r) => field(r, entry, 'seeds', 1) >= seed).map((r) => r.spec))];
    const args = ['run', `www/demo/${FILES[entry.trace]}`, ...entry.args, '--seed', String(seed), ...specs.flatMap((s) => ['-p', s]), '--json'];
    const out = JSON.parse(execFileSync(cliBinary(), args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 }).toString());
    specs.forEach((s, i) => reports.set(`${s}\n${seed}`, out[i]));
  }
  return entry.rows.map((r) => {
    const n = field(r, entry, 'seeds', 1);
    let sum = 0;
    for (let s = 1; s <= n; s++) sum += metric(reports.get(`${r.spec}\n${s}`), field(r, entry, 'metric', null));
    return sum / n / field(r, entry, 'scale', 1);
  });
}

test('the gallery shows at least 12 entries across the four papers, each with the paper\'s numbers', async () => {
  const items = page.locator('[data-testid="gallery-item"]');
  assert.equal(await items.count(), entries.length);
  assert.ok(entries.length >= 12);
  const papers = await items.evaluateAll((els) => els.map((e) => e.dataset.paper));
  for (const p of ['pv-easy', 'rua', 'orders', 'eet']) assert.ok(papers.includes(p), `no entry for ${p}`);
  for (const e of entries) {
    const item = page.locator(`[data-testid="gallery-item"][data-entry="${e.id}"]`);
    const paper = await item.locator('[data-testid="gallery-paper"]').allInnerTexts();
    assert.equal(paper.length, e.rows.length, e.id);
    assert.ok(paper.every((t) => t.trim() !== ''), `${e.id}: a paper cell is empty`);
    assert.ok((await item.locator('[data-testid="gallery-verdict"]').innerText()).length > 20, `${e.id}: no verdict`);
    // No time is promised before this browser has measured one (the machine that wrote a guess
    // is not this one): the number of simulations, and whether the entry is a long one.
    assert.match(await item.locator('.status').innerText(), /^\d+ simulations?( \(a long entry\))?\.$/, `${e.id}: a time before it ran here`);
  }
});

test('the gallery and the results table read a report through the catalogue (www/metrics.js)', async () => {
  const got = await page.evaluate(async () => {
    const at = (p) => new URL(p, location.href).href;
    const { values } = await import(at('www/gallery/gallery.js'));
    const { renderTable } = await import(at('www/results.js'));
    const { metricReader } = await import(at('www/metrics.js'));
    // A family of the catalogue's own at the report's `extra` object, and a report whose own
    // `counts` differ from the classic family's (report.metrics.counts): only the catalogue's
    // rule reads 7 and 2.5.
    const row = { unit: '', digits: 2, better: 'lower' };
    const catalogue = [
      { ...row, name: 'blocked', label: 'blocked', short: 'blocked', family: 'classic', path: 'counts.blocked' },
      { ...row, name: 'x', label: 'x', short: 'x', family: 'extra', path: 'extra.x' },
    ];
    const report = { policy: 'easy', counts: { blocked: 1 }, extra: { x: 2.5 }, metrics: { counts: { blocked: 7 }, extra: { x: 99 } } };
    const entry = { rows: catalogue.map((m) => ({ label: m.name, spec: 'easy', metric: m.path })) };
    const gallery = values(entry, new Map([['easy\n1', report]]), catalogue).map((v) => v.exact);
    const table = document.createElement('table');
    renderTable(table, [report], catalogue);
    const cells = [...table.querySelectorAll('td')].map((td) => Number(td.dataset.value));
    const read = metricReader(catalogue);
    return { gallery, cells, want: catalogue.map((m) => read(report, m.path)) };
  });
  assert.deepEqual(got.want, [7, 2.5]);
  assert.deepEqual(got.gallery, got.want);
  assert.deepEqual(got.cells, got.want);
});

test('bar labels drop what every label of a chart shares (its title names it)', async () => {
  const got = await page.evaluate(async () => {
    const { barLabels } = await import(new URL('www/gallery/gallery.js', location.href).href);
    return [barLabels(['big blocked MBS EASY', 'big blocked MBS PV-EASY']), barLabels(['FIFO: median x', 'LSBF: median x']),
      barLabels(['a b', 'a']), barLabels(['EASY', 'EASY'])];
  });
  assert.deepEqual(got, [['EASY', 'PV-EASY'], ['FIFO', 'LSBF'], ['a b', 'a'], ['EASY', 'EASY']]);
});

for (const id of CHECKED) {
  test(`Run fills ${id} with the CLI's numbers`, { skip: MOCK ? 'mock engine' : false }, async () => {
    const entry = byId(id);
    const item = page.locator(`[data-testid="gallery-item"][data-entry="${id}"]`);
    await item.scrollIntoViewIfNeeded();
    await item.locator('[data-testid="gallery-run"]').click();
    await page.waitForFunction((i) => document.getElementById(i)?.dataset.ran, id, { timeout: 120_000 });
    const ours = await item.locator('[data-testid="gallery-ours"]').evaluateAll((els) => els.map((e) => Number(e.dataset.value)));
    assert.equal(ours.length, entry.rows.length);
    if (cliBinary()) {
      const want = cliValues(entry);
      ours.forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= 1e-9 * Math.max(1, Math.abs(want[i])), `${id} row ${i}: page ${x}, CLI ${want[i]}`));
    }
    // The recorded numbers are these (scripts/gallery.py --check keeps them so).
    entry.rows.forEach((r, i) => assert.equal(Number(ours[i].toFixed(field(r, entry, 'digits', 2))), r.ours, `${id} row ${i} differs from the recorded value`));
    assert.match(await item.locator('.status').innerText(), /^Done: /);
    // The time of this run, measured here, is what the entry now says of its time.
    assert.match(await item.locator('[data-testid="gallery-run"]').innerText(), /^Run \(\d+(\.\d)? (s|min) last time\)$/);
    if (id === 'orders-table6') await item.screenshot({ path: join(SHOTS, 'gallery-entry.png') });
    if (entry.chart) {
      // Figure entries draw one bar chart per metric of this run (and a figure over a
      // parameter its lines).
      const metrics = new Set(entry.rows.map((r) => field(r, entry, 'metric', null)));
      assert.equal(await item.locator('[data-testid="gallery-charts"] canvas').count(), metrics.size + (entry.lines ? 1 : 0));
      assert.ok(await distinctColours(page, `#${id} [data-testid="gallery-charts"] canvas`) > 3, `${id}: the chart is blank`);
      // Titled by the metrics catalogue's labels, never by a JSON path; each with a text alternative.
      const charts = await item.locator('[data-testid="gallery-charts"] canvas').evaluateAll((cs) => cs.map((c) => [c.dataset.title, c.getAttribute('role'), c.getAttribute('aria-label')]));
      for (const [title, role, alt] of charts) {
        assert.ok(title && !/^[a-z_]+(\.[a-z_0-9]+)+$/.test(title), `${id}: a chart titled by a key: ${title}`);
        assert.equal(role, 'img');
        assert.ok(alt.startsWith(title) || alt.includes(`, ${title}:`), `${id}: ${alt}`);
      }
      await item.screenshot({ path: join(SHOTS, `gallery-${id}.png`) });
    }
  });
}

test('Cancel stops a long entry and the next run works', { skip: MOCK ? 'mock engine' : false }, async () => {
  const long = page.locator('[data-testid="gallery-item"][data-entry="rua-figures89-lanl"]');
  await long.scrollIntoViewIfNeeded();
  assert.equal(await long.locator('[data-testid="gallery-run"]').innerText(), 'Run');
  assert.match(await long.locator('.status').innerText(), /\(a long entry\)/);
  await long.locator('[data-testid="gallery-run"]').click();
  await page.waitForFunction(() => /Simulating/.test(document.getElementById('rua-figures89-lanl').querySelector('.status').textContent), null, { timeout: 60_000 });
  await long.locator('[data-testid="gallery-cancel"]').click();
  assert.equal(await long.locator('.status').innerText(), 'Cancelled.');
  assert.equal(await long.locator('[data-testid="gallery-ours"]').first().innerText(), '');
  const small = page.locator('[data-testid="gallery-item"][data-entry="eet-hpc2n"]');
  const before = Number(await small.getAttribute('data-ran') ?? 0);
  await small.locator('[data-testid="gallery-run"]').click();
  await page.waitForFunction(([i, n]) => Number(document.getElementById(i)?.dataset.ran ?? 0) > n, ['eet-hpc2n', before], { timeout: 60_000 });
  assert.deepEqual(problems, []);
});

test('a link opens one entry', async () => {
  const { page: p, context, problems: probs } = await open(browser, '', { width: 1200, height: 900 });
  await p.goto(new URL('papers.html#pv-table2', p.url()).href);
  await p.waitForFunction(() => document.getElementById('pv-table2')?.classList.contains('target'), null, { timeout: 30_000 });
  const top = await p.$eval('#pv-table2', (e) => e.getBoundingClientRect().top);
  assert.ok(Math.abs(top) < 50, `the entry is not scrolled into view (top ${top})`);
  await p.goto(new URL('papers.html#no-such-entry', p.url()).href);
  await p.reload();
  await p.waitForFunction(() => /no gallery entry/.test(document.querySelector('[data-testid="gallery-errors"]').textContent), null, { timeout: 30_000 });
  assert.deepEqual(probs, []);
  await context.close();
});
