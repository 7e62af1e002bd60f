// A policy left out of a comparison is said in the status line and in the results, which and
// why (www/leftout.js), while the other policies' results show: a JavaScript policy whose code
// got a syntax error after it was added, and one that throws while it runs. Run through
// scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { MOCK, SHOTS, launch, open, waitRuns, table, errorsText, useCode, clickRun } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const status = (page) => page.locator('[data-testid="status"]').innerText();
const leftRows = (page) => page.$$eval('[data-testid="results"] tr[data-failed]', (r) => r.map((x) => [x.dataset.failed, x.innerText.trim()]));

// Line 3 closes a bracket no one opened: column 4 (1-based) holds it.
const SYNTAX = 'function schedule(view) {\n  return [1,\n  ]]\n}\n';

test('a JavaScript policy with a syntax error is left out, said in the status and its row; the others show', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=fcfs&policy=easy');
  await waitRuns(page, 1);
  const before = await table(page);
  // Added while it compiled, then broken in the editor: its entry turns red.
  await useCode(page, { example: 'fcfs', name: 'typo' });
  await page.locator('[data-testid="policy-code"]').fill(SYNTAX);
  await page.waitForSelector('[data-testid="policy-entry"].invalid');
  await page.evaluate(() => { document.querySelector('[data-testid="errors"]').replaceChildren(); });
  const n = await clickRun(page);
  await waitRuns(page, n + 1, 60_000);
  // The built-ins' results stand, unchanged.
  assert.deepEqual(await table(page), before);
  const why = /js:typo was left out: its code has a syntax error, so it never ran\. Its error is under Messages\.( |$)/;
  const text = await status(page);
  assert.match(text, /^2 policies on [\d,]+ jobs in [\d.]+ s\. /, text);
  assert.match(text, why, text);
  assert.match(text, /The other policies' results are shown\.$/, text);
  assert.deepEqual((await leftRows(page)).map(([spec]) => spec), ['js:typo']);
  assert.match((await leftRows(page))[0][1], /\tleft out, not run: syntax error at line 3, column 4/);
  assert.match(await errorsText(page), /Policy “js:typo” left out: syntax error at line 3, column 4/);
  // Alone in the comparison, nothing runs, and the status says why.
  for (let k = 0; k < 2; k++) await page.locator('[data-testid="policy-remove"]').first().click();
  await page.locator('[data-testid="run"]').click();
  await page.waitForFunction(() => /^Nothing was run\./.test(document.querySelector('[data-testid="status"]').textContent));
  assert.match(await status(page), why);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a JavaScript policy that throws is left out with its error in the status; the others show', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=fcfs');
  await waitRuns(page, 1);
  await useCode(page, { code: 'function schedule(view) {\n  throw new RangeError("too far");\n}\n', name: 'thrower' });
  const n = await clickRun(page);
  await waitRuns(page, n + 1, 60_000);
  assert.deepEqual(Object.keys(await table(page)), ['fcfs']);
  const text = await status(page);
  assert.match(text, /^1 policy on .* s\. js:thrower was left out: its code stopped with an error while it ran\. Its error is under Messages\. The other policy's results are shown\.$/, text);
  assert.match(await errorsText(page), /Policy js:thrower failed at t=\d+: RangeError: too far \(line 2\)/);
  assert.match((await leftRows(page))[0][1], /\tfailed at t=\d+: RangeError: too far \(line 2\)$/);
  // Named once, by the sentence and the row's heading (both said "policy js:thrower failed
  // at ..." again after it).
  assert.doesNotMatch(text, /policy js:thrower/, text);
  assert.doesNotMatch((await leftRows(page))[0][1], /policy js:thrower/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a JavaScript policy that decides what cannot be done is named once in the status and its row', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=fcfs');
  await waitRuns(page, 1);
  await useCode(page, { code: 'function schedule(view) { return view.waiting.length ? [1e99] : []; }\n', name: 'garbage' });
  const n = await clickRun(page);
  await waitRuns(page, n + 1, 60_000);
  // The engine's message is "policy js:garbage: invalid decision at t=...": the status said
  // "js:garbage was left out: ... (policy js:garbage: invalid decision ...)", the row
  // "failed: policy js:garbage: invalid decision ...". The message itself is under Messages.
  const text = await status(page);
  assert.match(text, /js:garbage was left out: its code stopped with an error while it ran\. Its error is under Messages\./, text);
  assert.match(await errorsText(page), /Policy js:garbage: invalid decision at t=\d+: returned 1e99, which is not a job id/);
  assert.doesNotMatch(text, /policy js:garbage/, text);
  const [[spec, row]] = await leftRows(page);
  assert.equal(spec, 'js:garbage');
  assert.match(row, /\tfailed: invalid decision at t=\d+: returned 1e99/);
  assert.doesNotMatch(row, /policy js:garbage/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a run where no policy can run says each error once and the Overview says why it is empty', { skip: MOCK ? 'mock engine' : false }, async () => {
  const { page, context, problems } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy[order=nope]&policy=fcfs[x=1]');
  await page.waitForFunction(() => /^Nothing was run\./.test(document.querySelector('[data-testid="status"]').textContent), null, { timeout: 60_000 });
  const text = await status(page);
  // The status names each policy left out and the kind of error; the engine's messages are
  // under Messages, each once, and name the policy once.
  assert.equal(text, 'Nothing was run. easy[order=nope] was left out: it is not a policy the page can run. fcfs[x=1] was left out: it is not a policy the page can run. Their errors are under Messages.');
  const errors = await errorsText(page);
  for (const said of ['unknown key "x" for fcfs', 'order=nope is not valid']) {
    assert.equal(errors.split(said).length - 1, 1, errors);
    assert.doesNotMatch(text, new RegExp(said), text);
  }
  assert.doesNotMatch(errors, /policy "fcfs\[x=1\]"/, errors);
  // Nothing was ever shown: the Overview says why its charts are empty.
  const empty = page.locator('[data-testid="overview-empty"]');
  assert.equal(await empty.isVisible(), true);
  assert.match(await empty.innerText(), /^Nothing is drawn: no policy could run\. Its errors are under Messages\.$/);
  await page.locator('[data-testid="overview"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'leftout-nothing-ran.png') });
  // A policy that runs: the charts come and the note goes.
  for (let k = 0; k < 2; k++) await page.locator('[data-testid="policy-remove"]').first().click();
  await page.locator('[data-testid="policy-add-name"]').selectOption('fcfs');
  await page.locator('[data-testid="policy-add"]').click();
  const n = await clickRun(page);
  await waitRuns(page, n + 1, 60_000);
  assert.equal(await empty.isVisible(), false);
  assert.deepEqual(problems, []);
  await context.close();
});
