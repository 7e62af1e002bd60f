// The charts with several policies: the policy strip hides a policy in every chart (the others
// keep their colours), the per-policy views show the first few until "Show all", many lines over
// time become small multiples, every chart has a text alternative from its data, and no two
// labels drawn on a chart overlap (each text measured as the page draws it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, MOCK, launch, open, waitRuns } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const SIX = ['fcfs', 'easy', 'conservative', 'easy[queue=sjf]', 'fcfs[queue=sjf]', 'easy[queue=width]'];
const hash = (policies, trace = 'hpc2n') => `#v=1&trace=demo:${trace}&${policies.map((p) => `policy=${encodeURIComponent(p)}`).join('&')}&seed=1`;

// Records every text drawn on a canvas, as a box in the canvas's pixels (its transform, its
// alignment and its measured width applied); a canvas filled whole starts its list again (a
// chart's redraw starts with its white background).
const RECORD_TEXT = `(() => {
  const texts = new Map();
  window.__texts = texts;
  const P = CanvasRenderingContext2D.prototype;
  const box = (ctx, text, x, y) => {
    const m = ctx.measureText(text);
    const w = m.width, asc = m.actualBoundingBoxAscent, desc = m.actualBoundingBoxDescent;
    const a = ctx.textAlign, b = ctx.textBaseline;
    const left = a === 'center' ? x - w / 2 : (a === 'right' || a === 'end') ? x - w : x;
    const base = b === 'top' || b === 'hanging' ? y + asc : b === 'middle' ? y + (asc - desc) / 2 : b === 'bottom' ? y - desc : y;
    const t = ctx.getTransform();
    const pts = [[left, base - asc], [left + w, base - asc], [left, base + desc], [left + w, base + desc]]
      .map(([px, py]) => [t.a * px + t.c * py + t.e, t.b * px + t.d * py + t.f]);
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    return { text, x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
  };
  const fillText = P.fillText;
  P.fillText = function (text, x, y, ...rest) {
    const c = this.canvas;
    if (c && c.dataset && String(text).trim()) {
      if (!texts.has(c)) texts.set(c, []);
      texts.get(c).push(box(this, String(text), x, y));
    }
    return fillText.call(this, text, x, y, ...rest);
  };
  const fillRect = P.fillRect;
  P.fillRect = function (x, y, w, h) {
    const c = this.canvas, t = this.getTransform();
    if (c && t.a * x + t.e <= 0 && t.d * y + t.f <= 0 && t.a * (x + w) + t.e >= c.width - 1 && t.d * (y + h) + t.f >= c.height - 1) texts.set(c, []);
    return fillRect.call(this, x, y, w, h);
  };
})();`;

/** Draws every chart of the page (scrolling each into view: they draw lazily). */
async function drawEverything(page) {
  const n = await page.locator('canvas[data-testid]').count();
  for (let i = 0; i < n; i++) {
    const c = page.locator('canvas[data-testid]').nth(i);
    if (!(await c.isVisible())) continue;
    await c.scrollIntoViewIfNeeded();
  }
  await page.waitForFunction(() => ['overview', 'dists', 'gantts', 'eet', 'traceView', 'compare']
    .every((k) => !window.schedlab[k]?.items?.some((it) => it.dirty && it.visible)), null, { timeout: 30_000 });
  await page.waitForTimeout(300);
}

/** Pairs of texts drawn on the same canvas whose boxes overlap by more than `slack` pixels. */
function overlaps(page, slack = 1) {
  return page.evaluate((s) => {
    const out = [];
    for (const [canvas, list] of window.__texts) {
      if (!canvas.isConnected) continue;
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const a = list[i], b = list[j];
          const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
          if (w > s && h > s) out.push(`${canvas.dataset.testid}${canvas.dataset.policy ? ` (${canvas.dataset.policy})` : ''}: "${a.text}" and "${b.text}"`);
        }
      }
    }
    return out;
  }, slack);
}

const label = (page, testid) => page.locator(`[data-testid="${testid}"]`).first().getAttribute('aria-label');

test('the policy strip hides a policy in every chart; the per-policy views show the first four until "Show all"', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser, hash(SIX), { init: RECORD_TEXT });
  await waitRuns(page, 1, 60_000);
  const toggles = page.locator('[data-testid="policy-strip"] .policy-toggle');
  assert.equal(await toggles.count(), 6);
  assert.deepEqual(await toggles.evaluateAll((b) => b.map((x) => x.getAttribute('aria-pressed'))), Array(6).fill('true'));
  const gantts = () => page.locator('[data-testid="chart-gantt"]').evaluateAll((c) => c.map((x) => x.dataset.policy));
  const heats = () => page.locator('[data-testid="chart-heatmap"]').evaluateAll((c) => c.map((x) => x.dataset.policy));
  // The first four in the Gantt charts and heatmaps, the rest one click away.
  assert.deepEqual(await gantts(), SIX.slice(0, 4));
  assert.deepEqual(await heats(), SIX.slice(0, 4));
  assert.match(await page.locator('[data-testid="policy-subset"]').innerText(), /first 4 of 6/);
  await page.locator('[data-testid="policy-subset-toggle"]').click();
  assert.deepEqual(await gantts(), SIX);
  assert.deepEqual(await heats(), SIX);
  // Six lines over time, none highlighted: a panel per policy, across the row.
  const util = page.locator('[data-testid="chart-utilization"]');
  await util.scrollIntoViewIfNeeded();
  assert.ok(Number(await util.getAttribute('data-columns')) >= 2);
  assert.ok(await util.evaluate((c) => c.closest('figure').classList.contains('wide')));
  await page.locator('[data-testid="policy-strip"]').screenshot({ path: join(SHOTS, 'policy-strip.png') });

  // Hide easy (slot 1): it leaves every chart and every text alternative; the others keep their colours.
  await page.locator('[data-testid="policy-strip"] .policy-toggle[data-policy="easy"]').click();
  assert.equal(await page.locator('[data-testid="policy-strip"] .policy-toggle[data-policy="easy"]').getAttribute('aria-pressed'), 'false');
  assert.deepEqual(await gantts(), SIX.filter((p) => p !== 'easy'));
  assert.deepEqual(await heats(), SIX.filter((p) => p !== 'easy'));
  await drawEverything(page);
  for (const id of ['chart-utilization', 'chart-queue', 'chart-bars-wait', 'chart-bars-mbs', 'chart-cdf-wait', 'chart-cdf-bsld',
    'chart-box-wait-size', 'chart-box-bsld-runtime', 'chart-veet', 'chart-wt']) {
    const alt = await label(page, id);
    assert.ok(!/\beasy /.test(alt.replace(/easy\[/g, 'x[')), `${id} still shows easy: ${alt}`);
    assert.ok(alt.includes('fcfs') && alt.includes('conservative'), `${id}: ${alt}`);
  }
  const colours = await page.evaluate(() => window.schedlab.strip.colours);
  const has = (testid, hex) => page.$eval(`[data-testid="${testid}"]`, (c, h) => {
    const [r, g, b] = [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16));
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < d.length; i += 4) if (d[i] === r && d[i + 1] === g && d[i + 2] === b) return true;
    return false;
  }, hex);
  assert.ok(!(await has('chart-bars-wait', colours[1])), 'easy\'s colour is still in the bars');
  for (const k of [0, 2, 3, 4, 5]) assert.ok(await has('chart-bars-wait', colours[k]), `slot ${k} lost its colour`);
  // Back again.
  await page.locator('[data-testid="policy-strip"] .policy-toggle[data-policy="easy"]').click();
  assert.deepEqual(await gantts(), SIX);
  // The last policy switched on stays on.
  for (const p of SIX) await page.locator(`[data-testid="policy-strip"] .policy-toggle[data-policy="${p}"]`).click();
  assert.equal(await toggles.evaluateAll((b) => b.filter((x) => x.getAttribute('aria-pressed') === 'true').length), 1);
  // A highlighted policy draws the lines overlaid again.
  for (const p of SIX) {
    const t = page.locator(`[data-testid="policy-strip"] .policy-toggle[data-policy="${p}"]`);
    if (await t.getAttribute('aria-pressed') === 'false') await t.click();
  }
  await page.locator('[data-testid="highlight"]').selectOption({ label: 'conservative' });
  assert.equal(await util.getAttribute('data-columns'), '0');
  assert.deepEqual(problems, []);
  await context.close();
});

test('every chart has a text alternative from its data, and no two labels on a chart overlap', { skip: MOCK ? 'mock engine' : false }, async () => {
  for (const [width, height] of [[1400, 1000], [390, 844]]) {
    const { page, context, problems } = await open(browser, hash(SIX), { width, height, init: RECORD_TEXT });
    await waitRuns(page, 1, 60_000);
    await page.locator('[data-testid="policy-subset-toggle"]').click();
    // The trace view is folded after the results: unfold it so its charts draw too.
    await page.$eval('[data-testid="trace-view"] details', (d) => { d.open = true; });
    await drawEverything(page);
    const alts = await page.locator('canvas[data-testid]').evaluateAll((cs) => cs.filter((c) => c.offsetParent)
      .map((c) => [c.dataset.testid, c.getAttribute('role'), c.getAttribute('aria-label') ?? '', c.closest('figure')?.querySelector('figcaption span')?.textContent ?? '']));
    assert.ok(alts.length >= 30, `${alts.length} charts`);
    for (const [id, role, alt, caption] of alts) {
      assert.equal(role, 'img', id);
      // More than the caption: a summary with numbers or names from the data.
      assert.ok(alt.length > caption.length + 20 && /\d/.test(alt), `${id} at ${width} px: "${alt}"`);
    }
    const bad = await overlaps(page);
    assert.deepEqual(bad, [], `overlapping labels at ${width} px`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});
