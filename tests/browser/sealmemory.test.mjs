// A JavaScript policy that allocates without limit fails alone, with a message, and the tab lives
// (issue 37, item 1): its worker runs in a sandboxed frame of its own (www/sealframe.js), which
// Chromium runs in a process apart from the page, so that running out of memory ends that process
// only; the frame's heartbeat stops and the page says so (www/seal.js). Before, the same policy
// crashed the whole page. Memory stays bounded: plain arrays stop at V8's heap limit for the
// worker (a few GiB); typed arrays are stopped by the watchdog, set to 3 s here. Also the answer
// of 2^32 - 1 elements (item 5), refused with a message instead of an engine panic.
// Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, MOCK, launch, open, runs, waitRuns, table, errorsText } from './helpers.mjs';
import { EXAMPLES } from '../../www/custom.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const HASH = '#v=1&trace=demo:5K_sample&policy=fcfs&policy=easy&seed=1';

async function useCode(page, code, name) {
  await page.$eval('[data-testid="policy-code-panel"]', (d) => { d.open = true; });
  await page.locator('[data-testid="policy-code"]').fill(code);
  await page.locator('[data-testid="policy-code-name"]').fill(name);
  await page.locator('[data-testid="policy-code-add"]').click();
}

async function removeCustom(page) {
  const specs = await page.locator('[data-testid="policy-spec"]').evaluateAll((xs) => xs.map((x) => x.value));
  await page.locator('[data-testid="policy-remove"]').nth(specs.findIndex((s) => s.startsWith('js:'))).click();
}

/** Runs the comparison and waits until it is over (this throws if the page has crashed). */
async function runAndWait(page, timeout = 90_000) {
  await page.evaluate(() => { document.querySelector('[data-testid="errors"]').replaceChildren(); });
  const n = await runs(page);
  await page.locator('[data-testid="run"]').click();
  await page.waitForFunction((k) => Number(document.body.dataset.runs ?? 0) > k && !document.body.classList.contains('running'), n, { timeout });
}

const RUNAWAY = [
  // The watchdog is set far beyond the time the heap takes to fill: what ends this one is memory.
  ['plain arrays', 'const keep = [];\nfunction schedule(view) { for (;;) keep.push(new Array(1e6).fill(keep.length)); }', 600_000, /ran out of memory/],
  // Typed arrays live outside V8's heap (no limit there): the watchdog stops them after 3 s.
  ['typed arrays', 'const keep = [];\nfunction schedule(view) { for (;;) keep.push(new Float64Array(1 << 24).fill(1)); }', 3000, /stopped after 3 s without progress|ran out of memory/],
];

for (const [what, code, stallMs, expected] of RUNAWAY) {
  test(`a policy allocating ${what} without limit fails alone; the tab lives; the next comparison works`, { skip: MOCK }, async () => {
    const { page, context, problems } = await open(browser, HASH);
    // Playwright reports the frame's process ending as a 'crash' of the page, which lives on:
    // what tells is that the page still answers below.
    let crashes = 0;
    page.on('crash', () => { crashes += 1; });
    await waitRuns(page, 1);
    const clean = await table(page);
    await page.evaluate((ms) => { window.schedlab.state.runner.stallMs = ms; }, stallMs);
    await useCode(page, code, 'hog');
    const began = Date.now();
    await runAndWait(page);
    const text = await errorsText(page);
    console.log(`${what}: ${((Date.now() - began) / 1000).toFixed(1)} s (processes ended: ${crashes}): ${text.trim().split('\n')[0]}`);
    assert.match(text, /^Policy js:hog: /);
    assert.match(text, expected);
    const t = await table(page);
    assert.deepEqual(t.fcfs, clean.fcfs);
    assert.deepEqual(t.easy, clean.easy);
    assert.ok(!t['js:hog']);
    assert.match(await page.locator('[data-testid="status"]').innerText(), /policies on/);
    if (what === 'plain arrays') await page.screenshot({ path: join(SHOTS, 'seal-out-of-memory.png') });
    // the page answers, and a comparison with a well-behaved policy works after it
    await removeCustom(page);
    await useCode(page, EXAMPLES.fcfs, 'ok');
    await runAndWait(page);
    const after = await table(page);
    assert.deepEqual(after.fcfs, clean.fcfs);
    assert.deepEqual(after['js:ok'], clean.fcfs);
    assert.equal(await errorsText(page), '');
    assert.equal(await page.locator('[data-testid="sealed-host"]').count(), 1, 'the failed task\'s frame is gone');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('an answer claiming 2^32 - 1 elements is refused with a message', { skip: MOCK }, async () => {
  const { page, context, problems } = await open(browser, HASH);
  await waitRuns(page, 1);
  await useCode(page, 'function schedule(view) { const a = []; a.length = 4294967295; return a; }', 'long');
  await runAndWait(page);
  assert.match(await errorsText(page), /^Policy js:long(?: failed at t=\d+)?: .*schedule\(view\) returned an array of 4294967295 elements: at most the trace's \d+ jobs can start/);
  assert.ok((await table(page)).easy);
  assert.deepEqual(problems, []);
  await context.close();
});
