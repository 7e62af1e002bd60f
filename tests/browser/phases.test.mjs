// The loops' phases a `slurm` policy reads from an sacct log (slurm::phases_from_log: the first
// SchedBackfill start, the limit checks' grid) are said above the results in the words of
// `schedlab run -p slurm` (policy::slurm::phases_note, sent with the trace's facts), when a
// `slurm` policy runs; a run without one says nothing. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { MOCK, launch, open, waitRuns } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('the phases read from the log are said above the results when slurm runs', { skip }, async () => {
  // The demo is gpu-3/run1 with its slurm.conf (bf_interval=5, sched_interval=10): its first
  // backfill start 2 s after its first submission, its jobs ended by the checks 28 s past each
  // half minute.
  const { page: p, problems, context } = await open(browser, '#v=1&trace=demo:slurm-gpu&policy=slurm');
  await waitRuns(p, 1, 60_000);
  const note = p.locator('[data-testid="phases-note"]');
  assert.equal(await note.isVisible(), true);
  const text = await note.innerText();
  assert.match(text, /^sacct log: the loops' phases a spec does not give are read from it: bf_phase=2 \(the first of its 40 SchedBackfill starts\), sched_phase=8 \(/);
  assert.match(text, /calc_phase is not read: the checks put its whole second at 28 \+ 30k \(e\.g\. calc_phase=28 or 58 with PriorityCalcPeriod=1\)/);
  assert.equal(await note.getAttribute('role'), null);
  assert.deepEqual(problems, []);
  await context.close();
  // Without a slurm policy: nothing to say.
  const { page: q, problems: qp, context: c2 } = await open(browser, '#v=1&trace=demo:slurm-gpu&policy=easy');
  await waitRuns(q, 1, 60_000);
  assert.equal(await q.locator('[data-testid="phases-note"]').isHidden(), true);
  assert.deepEqual(qp, []);
  await c2.close();
});

test('calc_phase=read in the page says that only a replay reads it, whichever worker reads the trace', { skip }, async () => {
  // Two policies, so two workers read the trace and the first to do so sends the facts: the one
  // running `easy` must say the note of the compared `slurm` spec, not of plain `slurm`.
  const { page: p, problems, context } = await open(browser, '#v=1&trace=demo:slurm-gpu&policy=easy&policy=slurm[calc_phase=read]');
  await waitRuns(p, 1, 60_000);
  const text = await p.locator('[data-testid="phases-note"]').innerText();
  // The bf and sched phases are still read from the log, as `schedlab run` prints them.
  assert.match(text, /^sacct log: the loops' phases a spec does not give are read from it: bf_phase=2 /);
  assert.match(text, /calc_phase=read read none \(only schedlab replay reads it, from the log's recorded priorities\)/);
  assert.deepEqual(problems, []);
  await context.close();
});
