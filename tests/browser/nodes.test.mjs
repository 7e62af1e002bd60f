// The node model in the page: options from a share link reach the engine, the penalty rows of
// the results table equal `schedlab run --json` with the same flags, and the form shows the
// options. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { MOCK, launch, open, waitRuns, table, cliBinary, cli, metric, close } from './helpers.mjs';

const PENALTY = [
  'penalty.penalized_pct.mean', 'penalty.penalized_pct.p95', 'penalty.killed_by_penalty',
  'penalty.bsld.mean', 'penalty.bsld.p95', 'penalty.wait.p95',
];
const SEED = 2;

let browser, page, problems;

before(async () => {
  if (MOCK) return;
  browser = await launch();
  ({ page, problems } = await open(browser, `#v=1&trace=demo:hpc2n&policy=sjbf&policy=rua&nodes=1&mix=med&cores=8&seed=${SEED}`));
  await waitRuns(page, 1, 60_000);
});
after(async () => { await browser?.close(); });

test('node model options from a link give the CLI penalty metrics', { skip: !cliBinary() || MOCK ? 'no CLI binary (or mock engine)' : false }, async () => {
  const values = await table(page);
  assert.deepEqual(Object.keys(values), ['sjbf', 'rua']);
  const reports = cli('www/demo/hpc2n.swf.gz', ['sjbf', 'rua'], SEED, ['--nodes', '--mix', 'med', '--cores', '8']);
  for (const r of reports) {
    for (const m of PENALTY) {
      const got = values[r.policy][m], want = metric(r, m);
      assert.ok(Number.isFinite(want), `CLI has no ${m}`);
      assert.ok(close(got, want), `${r.policy} ${m}: page ${got}, CLI ${want}`);
    }
  }
  assert.equal(await page.locator('[data-testid="opt-nodes"]').isChecked(), true);
  assert.equal(await page.locator('[data-testid="opt-mix"]').inputValue(), 'med');
  assert.equal(await page.locator('[data-testid="opt-cores"]').inputValue(), '8');
  assert.deepEqual(problems, []);
});

test('the Gantt chart can colour jobs by penalty factor', { skip: MOCK ? 'mock engine' : false }, async () => {
  const canvas = page.locator('[data-testid="chart-gantt"][data-policy="sjbf"]');
  await canvas.scrollIntoViewIfNeeded();
  const drawn = () => page.waitForFunction(() => window.schedlab.gantts.items.every((i) => !i.dirty || !i.visible));
  await drawn();
  const before = await canvas.evaluate((c) => c.toDataURL());
  const toggle = page.locator('[data-testid="gantt-by-penalty"]');
  assert.equal(await toggle.isDisabled(), false);
  await toggle.check();
  await page.waitForFunction(() => window.schedlab.gantts.byPenalty);
  await drawn();
  const after = await canvas.evaluate((c) => c.toDataURL());
  assert.notEqual(after, before, 'colouring by penalty changed nothing');
  assert.deepEqual(problems, []);
});

test('the measured window and the bounded-slowdown bound travel in the link and equal the CLI', { skip: !cliBinary() || MOCK ? 'no CLI binary (or mock engine)' : false }, async () => {
  const { page: p, context, problems: probs } = await open(browser, '#v=1&trace=demo:hpc2n&policy=sjbf[rsp=lc]&nodes=1&seed=3&bound=60&warmup=1000&measured=1500');
  await waitRuns(p, 1, 60_000);
  const values = (await table(p))['sjbf[rsp=lc]'];
  const [want] = cli('www/demo/hpc2n.swf.gz', ['sjbf[rsp=lc]'], 3, ['--nodes', '--bsld-bound', '60', '--warmup', '1000', '--measured', '1500']);
  const [whole] = cli('www/demo/hpc2n.swf.gz', ['sjbf[rsp=lc]'], 3, ['--nodes', '--bsld-bound', '60']);
  for (const m of [...PENALTY, 'mbs']) assert.ok(close(values[m], metric(want, m)), `${m}: page ${values[m]}, CLI ${metric(want, m)}`);
  // The window changes the node-model figures (the test would pass vacuously otherwise).
  assert.notEqual(metric(want, 'penalty.bsld.mean'), metric(whole, 'penalty.bsld.mean'));
  assert.equal(await p.locator('[data-testid="opt-bound"]').inputValue(), '60');
  assert.equal(await p.locator('[data-testid="opt-measured"]').inputValue(), '1500');
  const link = await p.locator('[data-testid="share-link"]').getAttribute('href');
  for (const k of ['bound=60', 'warmup=1000', 'measured=1500']) assert.ok(link.includes(k), `${k} missing from ${link}`);
  assert.deepEqual(probs, []);
  await context.close();
});
