// sacct exports the reader's authors never saw, as they reach the page: sacct's own table (no
// --parsable2), read as SWF before and refused for "SWF needs 18" fields; and a Slurm 23.11
// comma export whose Flags say StartReceived, whose lines were skipped
// (tests/sacct_other_versions.rs holds the same cases natively). Run through
// scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { MOCK, launch, open, runs, waitRuns, errorsText } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The page after its first run, the count of its runs then, and `lines` picked as the trace `name`. */
async function pick(name, lines) {
  const opened = await open(browser, '#v=1&trace=demo:5K_sample&policy=easy');
  await waitRuns(opened.page, 1, 60_000);
  const n = await runs(opened.page);
  const buffer = Buffer.from(lines.join('\n'));
  await opened.page.locator('[data-testid="trace-file"]').setInputFiles({ name, mimeType: 'text/plain', buffer });
  return { ...opened, n };
}

test('sacct\'s table output is refused saying to export with --parsable2, and the results stay', { skip }, async () => {
  const { page, context, problems, n } = await pick('table.txt', [
    'JobID           JobName  Partition    Account  AllocCPUS      State ExitCode ',
    '------------ ---------- ---------- ---------- ---------- ---------- -------- ',
    '100                 sim      batch       phys         16  COMPLETED      0:0 ',
    '101_1               arr        gpu       chem          8 OUT_OF_ME+    0:125 ',
  ]);
  await page.waitForFunction(() => document.querySelector('[data-testid="errors"]').innerText.includes('table output'), null, { timeout: 30_000 });
  const errors = await errorsText(page);
  assert.match(errors, /table\.txt: no jobs: line 1: sacct's table output .* export with --parsable2/);
  assert.doesNotMatch(errors, /SWF/);
  assert.equal(await runs(page), n);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a Slurm 23.11 comma export (Flags StartReceived, a Partition list) runs every job', { skip }, async () => {
  const { page, context, problems, n } = await pick('v23.csv', [
    'JobID,Partition,Submit,Start,End,NCPUS,State,Flags',
    '7,short,batch,2024-01-01T00:00:00,2024-01-01T00:00:10,2024-01-01T00:10:10,4,COMPLETED,SchedBackfill,StartReceived',
    '8,batch,2024-01-01T00:01:00,2024-01-01T00:02:00,2024-01-01T00:03:00,1,COMPLETED,SchedMain,StartReceived',
  ]);
  await waitRuns(page, n + 1, 60_000);
  assert.equal(await errorsText(page), '');
  assert.match(await page.locator('[data-testid="facts"]').innerText(), /v23\.csv[\s\S]*jobs simulated\s+2\b/);
  assert.deepEqual(problems, []);
  await context.close();
});
