// Measures how long each papers-gallery entry takes in the page (headless Chromium on this
// machine: Run clicked, until "Done"), and writes www/gallery/timings.json, which the gallery
// shows before an entry starts ("measured: ..."). Not a test: run it after changing entries or
// the engine's speed, with the page served (scripts/serve.sh), e.g.
//   SCHEDLAB_URL=http://127.0.0.1:8000/ node tests/browser/gallery-timings.mjs [ID...]
// IDs: only those entries (the others keep their recorded times).
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { ROOT, launch, open } from './helpers.mjs';

const OUT = join(ROOT, 'www/gallery/timings.json');
const { entries } = JSON.parse(readFileSync(join(ROOT, 'www/gallery/entries.json'), 'utf8'));
const only = process.argv.slice(2);
const old = existsSync(OUT) ? JSON.parse(readFileSync(OUT, 'utf8')) : { seconds: {} };
const cores = os.cpus().length;

const browser = await launch();
const seconds = { ...old.seconds };
try {
  const { page } = await open(browser, '', { width: 1200, height: 900 });
  await page.goto(new URL('papers.html', page.url()).href);
  await page.waitForFunction(() => Number(document.body.dataset.gallery ?? 0) > 0, null, { timeout: 30_000 });
  for (const e of entries) {
    if (only.length && !only.includes(e.id)) continue;
    const item = page.locator(`[data-testid="gallery-item"][data-entry="${e.id}"]`);
    await item.locator('[data-testid="gallery-run"]').click();
    await page.waitForFunction((id) => document.querySelector(`[data-entry="${id}"]`)?.dataset.seconds, e.id, { timeout: 1_800_000 });
    seconds[e.id] = Number(await item.getAttribute('data-seconds'));
    console.log(`${e.id}: ${seconds[e.id]} s`);
  }
} finally {
  await browser.close();
}
const out = {
  where: `headless Chromium on a ${cores}-core machine`,
  date: new Date().toISOString().slice(0, 10),
  note: 'Written by tests/browser/gallery-timings.mjs: the time from Run to Done of each entry, including loading the trace; the machine was shared with other work, so these are upper figures.',
  seconds: Object.fromEntries(entries.filter((e) => seconds[e.id] !== undefined).map((e) => [e.id, seconds[e.id]])),
};
writeFileSync(OUT, `${JSON.stringify(out, null, 1)}\n`);
console.log(`wrote ${OUT}`);
