// Shared helpers of the browser tests and the benchmark: launch Debian's Chromium, open the page,
// wait for comparisons, read the results table, run the CLI for reference values.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { metricReader } from '../../www/metrics.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHOTS = join(ROOT, 'tests', 'browser', 'screenshots');
export const BASE = process.env.SCHEDLAB_URL ?? 'http://127.0.0.1:8000/';
export const MOCK = process.env.SCHEDLAB_MOCK === '1';

export async function launch() {
  mkdirSync(SHOTS, { recursive: true });
  const options = {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  };
  // Debian's Chromium now and then dies as it starts (SIGSEGV before any page opened, seen once in
  // CI): the launch alone is tried up to three times; nothing a page does is retried.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await chromium.launch(options);
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

/** A fresh context and page (`init`: script text run first in it); `problems` collects console errors and uncaught page errors. */
export async function open(browser, hash = '', { width = 1400, height = 1000, init = null } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  if (init) await context.addInitScript(init); // a script run before the page's own
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(BASE + hash);
  return { page, context, problems };
}

export const runs = (page) => page.evaluate(() => Number(document.body.dataset.runs ?? 0));

/** Waits until the page has shown `count` comparisons. */
export async function waitRuns(page, count, timeout = 30_000) {
  await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) >= n, count, { timeout });
}

/** { spec: { metric: value } } from the results table's data attributes. */
export function table(page) {
  return page.$$eval('[data-testid="results"] td[data-policy]', (cells) => {
    const out = {};
    for (const c of cells) (out[c.dataset.policy] ??= {})[c.dataset.metric] = Number(c.dataset.value);
    return out;
  });
}

/** Writes a JavaScript policy in the editor and adds it to the comparison: an example, or `code`
 * (in the selected policy, or in a new one with `fresh`), named `name` when given. */
export async function useCode(page, { example, code, name, fresh = false }) {
  await page.$eval('[data-testid="policy-code-panel"]', (d) => { d.open = true; });
  if (example) await page.locator('[data-testid="policy-code-examples"]').selectOption(example);
  else if (fresh) await page.locator('[data-testid="policy-code-new"]').click();
  if (code !== undefined) await page.locator('[data-testid="policy-code"]').fill(code);
  if (name) await page.locator('[data-testid="policy-code-name"]').fill(name);
  await page.locator('[data-testid="policy-code-add"]').click();
}

/** Clicks Run; returns the number of comparisons shown before. */
export async function clickRun(page) {
  const n = await runs(page);
  await page.locator('[data-testid="run"]').click();
  return n;
}

export function errorsText(page) {
  return page.$eval('[data-testid="errors"]', (e) => e.innerText);
}

export function cliBinary() {
  if (process.env.SCHEDLAB_BIN) return process.env.SCHEDLAB_BIN;
  for (const p of ['target/release/schedlab', 'target/debug/schedlab']) if (existsSync(join(ROOT, p))) return join(ROOT, p);
  return null;
}

/** The CLI's JSON reports (one per policy). */
export function cli(trace, policies, seed, extra = []) {
  const args = ['run', trace, ...policies.flatMap((p) => ['--policy', p]), '--seed', String(seed), '--json', ...extra];
  return JSON.parse(execFileSync(cliBinary(), args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString());
}

let catalogue = null; // the CLI's metrics catalogue (`schedlab metrics --json`), read once

/** The figure at a dotted path of a CLI report, by the page's rule (www/metrics.js) on the
 * engine's metrics catalogue. */
export function metric(report, path) {
  catalogue ??= JSON.parse(execFileSync(cliBinary(), ['metrics', '--json'], { cwd: ROOT }).toString());
  return metricReader(catalogue)(report, path);
}

export function close(a, b) {
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}

/** Number of distinct colours inside a canvas's rectangle (canvas pixels). */
export function distinctColours(page, selector, rect = null) {
  return page.$eval(selector, (c, r) => {
    const [x, y, w, h] = r ?? [0, 0, c.width, c.height];
    const d = c.getContext('2d').getImageData(x, y, w, h).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  }, rect);
}
