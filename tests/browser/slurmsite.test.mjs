// The Slurm site in the page (docs/slurm.md): a slurm.conf and an sshare file give the slurm
// policy its site as the CLI's --slurm-conf and --sshare do; the real Slurm run demo brings its
// slurm.conf and sshare, and its link reruns it (without a cluster, the demo's; cluster=none, one
// pool); a what-if beside the site is its own policy; a link carries a slurm.conf's scheduler
// parameters in the slurm spec and says an sshare file does not travel; the demo's machine goes
// when another trace is chosen, unless the user changed it. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK, launch, open, runs, waitRuns, clickRun, table, cli, cliBinary, metric, close } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a slurm.conf and an sshare file give the slurm policy its site, as the CLI\'s --slurm-conf and --sshare', { skip }, async () => {
  const dir = join('tests', 'data', 'slurm', 'gpu-3', 'run1');
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=slurm');
  await waitRuns(p, 1, 60_000);
  const n0 = await runs(p);
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(dir, 'sacct.txt'));
  await waitRuns(p, n0 + 1, 60_000);
  const bare = await table(p);
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await p.locator('[data-testid="cluster-conf"]').fill(readFileSync(join(dir, 'slurm.conf'), 'utf8'));
  await p.locator('[data-testid="cluster-apply"]').click();
  await p.locator('[data-testid="cluster-sshare"]').setInputFiles(join(dir, 'sshare-start.txt'));
  // The file is read asynchronously: wait until the note names it.
  await p.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('sshare'));
  const note = await p.locator('[data-testid="cluster-site"]').innerText();
  // 17: the run's slurm.conf sets 17 keys the policy reads (AccountingStorageEnforce among them).
  assert.match(note, /18 scheduler parameters of slurm\.conf \(KillWait=5, OverTimeLimit=0, bf_interval=5, /);
  // The sshare file by its own name: its file input is cleared once read ("No file chosen"),
  // and the note said "of sshare" whatever file was read.
  assert.match(note, /account tree and shares of sshare-start\.txt \(13 rows\)/);
  const n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  const got = await table(p);
  const slurm = Object.keys(got).find((k) => k.startsWith('slurm'));
  assert.ok(slurm, JSON.stringify(Object.keys(got)));
  if (cliBinary()) {
    const site = ['--slurm-conf', join(dir, 'slurm.conf'), '--sshare', join(dir, 'sshare-start.txt')];
    const [want] = cli(join(dir, 'sacct.txt'), ['slurm'], 1, site);
    for (const m of ['wait.mean', 'utilization']) assert.ok(close(got[slurm][m], metric(want, m)), `${m}: page ${got[slurm][m]}, CLI ${metric(want, m)}`);
    // Without the site the policy runs on Slurm's defaults: another schedule here.
    const [plain] = cli(join(dir, 'sacct.txt'), ['slurm'], 1);
    // Labelled by its canonical spec: the loops' phases read from the log are in it.
    const b = bare['slurm[bf_phase=2,sched_phase=28]'];
    assert.ok(close(b['wait.mean'], metric(plain, 'wait.mean')), `bare: page ${b['wait.mean']}, CLI ${metric(plain, 'wait.mean')}`);
    assert.ok(!close(metric(plain, 'wait.mean'), metric(want, 'wait.mean')), 'the site changes nothing here');
  }
  assert.deepEqual(probs, []);
  await context.close();
});

test('the real Slurm run demo brings its site: the cluster, the scheduler\'s parameters and shares, and the slurm policy; its link reruns it', { skip }, async () => {
  const dir = join('tests', 'data', 'slurm', 'gpu-3', 'run1');
  // The demo's files are that committed run's.
  for (const [demo, file] of [['slurm-gpu-run.sacct', 'sacct.txt'], ['slurm-gpu-run.conf', 'slurm.conf'], ['slurm-gpu-run.sshare', 'sshare-start.txt']]) {
    assert.equal(readFileSync(join('www', 'demo', demo), 'utf8'), readFileSync(join(dir, file), 'utf8'), demo);
  }
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:5K_sample&policy=easy');
  await waitRuns(p, 1, 60_000);
  const n = await runs(p);
  await p.locator('[data-testid="trace-demo"]').selectOption('slurm-gpu');
  await waitRuns(p, n + 1, 60_000);
  const specs = await p.locator('[data-testid="policy-spec"]').evaluateAll((xs) => xs.map((x) => x.value));
  assert.deepEqual(specs, ['easy', 'slurm', 'historic']);
  // The two-schedules view opens on historic as A, slurm as B: replay fidelity in one choice.
  assert.deepEqual([await p.locator('[data-testid="diff-a"]').inputValue(), await p.locator('[data-testid="diff-b"]').inputValue()], ['2', '1']);
  assert.match(await p.locator('[data-testid="opt-cluster"]').inputValue(), /n\[1-4\]/);
  const note = await p.locator('[data-testid="cluster-site"]').innerText();
  // The demo's slurm.conf by its file's name.
  assert.match(note, /18 scheduler parameters of slurm-gpu-run\.conf/);
  // The field's label says so (it said every line but NodeName= and PartitionName= was ignored).
  assert.match(await p.locator('label:has([data-testid="cluster-conf"])').innerText(), /the slurm policy reads the scheduling keys too/);
  assert.match(note, /account tree and shares of sshare/);
  const facts = await p.locator('[data-testid="facts"]').innerText();
  assert.ok(!facts.includes('ask for GPUs'), facts);
  // A run of 13 minutes: the overview's means per minute (per hour it was one flat bin).
  assert.equal(await p.locator('[data-testid="chart-utilization"]').getAttribute('data-bin'), 'minute');
  const got = await table(p);
  if (cliBinary()) {
    const site = ['--slurm-conf', join(dir, 'slurm.conf'), '--sshare', join(dir, 'sshare-start.txt')];
    const want = cli(join(dir, 'sacct.txt'), ['easy', 'slurm'], 1, site);
    // The page's row names the slurm policy with the site's parameters.
    const rows = ['easy', Object.keys(got).find((k) => k.startsWith('slurm['))];
    assert.ok(rows[1], JSON.stringify(Object.keys(got)));
    for (const [i, row] of rows.entries()) {
      for (const m of ['wait.mean', 'utilization']) assert.ok(close(got[row][m], metric(want[i], m)), `${row} ${m}: page ${got[row][m]}, CLI ${metric(want[i], m)}`);
    }
  }
  // The link names the demo and the cluster; the site comes with the demo.
  const href = await p.locator('[data-testid="share-link"]').getAttribute('href');
  assert.match(href, /trace=demo:slurm-gpu/);
  const { page: q, problems: qprobs, context: c2 } = await open(browser, new URL(href).hash);
  await waitRuns(q, 1, 60_000);
  assert.deepEqual(await table(q), got);
  assert.match(await q.locator('[data-testid="cluster-site"]').innerText(), /account tree and shares of sshare/);
  assert.deepEqual(qprobs, []);
  await c2.close();
  assert.deepEqual(probs, []);
  await context.close();
});

test('a slurm what-if that sets a key to Slurm\'s default beside the site is its own policy, run as written', { skip }, async () => {
  // PriorityWeightFairshare=0 is Slurm's default; the demo's slurm.conf sets 10000. The page
  // took both specs for one ("slurm") and showed one row.
  const what = 'slurm[PriorityWeightFairshare=0]';
  const hash = `#v=1&trace=demo:slurm-gpu&policy=slurm&policy=${encodeURIComponent(what)}&seed=1&cluster=1/n[1-4]:c8:m16000:g2/p=batch:ALL:default`;
  const { page: p, problems: probs, context } = await open(browser, hash);
  await waitRuns(p, 1, 60_000);
  const rows = await p.locator('[data-testid="results"] tbody th').evaluateAll((xs) => xs.map((x) => x.title));
  assert.equal(rows.length, 2, JSON.stringify(rows));
  assert.ok(rows[0].startsWith('slurm[') && rows[0].includes('PriorityWeightFairshare=10000'), rows[0]);
  assert.ok(rows[1].includes('PriorityWeightFairshare=0,'), rows[1]);
  const got = await table(p);
  assert.notEqual(got[rows[0]]['wait.mean'], got[rows[1]]['wait.mean']);
  if (cliBinary()) {
    const dir = join('tests', 'data', 'slurm', 'gpu-3', 'run1');
    const site = ['--slurm-conf', join(dir, 'slurm.conf'), '--sshare', join(dir, 'sshare-start.txt')];
    const want = cli(join(dir, 'sacct.txt'), ['slurm', what], 1, site);
    for (const [i, row] of rows.entries()) assert.ok(close(got[row]['wait.mean'], metric(want[i], 'wait.mean')), `${row}: page ${got[row]['wait.mean']}, CLI ${metric(want[i], 'wait.mean')}`);
  }
  assert.deepEqual(probs, []);
  await context.close();
});

test('a link to the real Slurm run demo without a cluster brings the demo\'s cluster; cluster=none keeps one pool and travels', { skip }, async () => {
  // The demo's label promises its nodes; a link written by hand (docs name `demo:slurm-gpu`)
  // ran its GPU jobs on a pool of processors.
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:slurm-gpu&policy=slurm');
  await waitRuns(p, 1, 60_000);
  assert.match(await p.locator('[data-testid="opt-cluster"]').inputValue(), /^1\/n\[1-4\]:c8:m16000:g2/);
  assert.ok(!(await p.locator('[data-testid="facts"]').innerText()).includes('ask for GPUs'));
  assert.match(await p.locator('[data-testid="share-link"]').getAttribute('href'), /&cluster=1\/n\[1-4\]/);
  const onNodes = await table(p);
  // Cleared by the user: the link says cluster=none, and that link opens one pool again.
  const { page: q, problems: qprobs, context: c2 } = await open(browser, '#v=1&trace=demo:slurm-gpu&policy=slurm&cluster=none');
  await waitRuns(q, 1, 60_000);
  assert.equal(await q.locator('[data-testid="opt-cluster"]').inputValue(), '');
  assert.match(await q.locator('[data-testid="facts"]').innerText(), /ask for GPUs/);
  assert.match(await q.locator('[data-testid="share-link"]').getAttribute('href'), /&cluster=none(&|$)/);
  const pooled = await table(q);
  const key = (t) => Object.keys(t).find((k) => k.startsWith('slurm'));
  assert.notEqual(onNodes[key(onNodes)]['wait.mean'], pooled[key(pooled)]['wait.mean']);
  assert.deepEqual(qprobs, []);
  await c2.close();
  assert.deepEqual(probs, []);
  await context.close();
});

test('a link of a run with slurm.conf lines of one\'s own carries their scheduler parameters in the slurm spec; an sshare file of one\'s own is said not to travel', { skip }, async () => {
  // The link said `policy=slurm`: whoever opened it ran slurm on Slurm's defaults (another mean
  // wait), and nothing said the slurm.conf had not come along.
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:5K_sample&policy=slurm&policy=easy');
  await waitRuns(p, 1, 60_000);
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await p.locator('[data-testid="cluster-conf"]').fill('NodeName=n[1-128] CPUs=1\nPartitionName=all Nodes=ALL Default=YES\n'
    + 'PriorityWeightJobSize=100000\nPriorityFavorSmall=YES\nSchedulerParameters=bf_window=10\n');
  await p.locator('[data-testid="cluster-apply"]').click();
  let n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  const got = await table(p);
  const href = await p.locator('[data-testid="share-link"]').getAttribute('href');
  assert.match(decodeURIComponent(href), /&policy=slurm\[PriorityWeightJobSize=100000,PriorityFavorSmall=YES,bf_window=10\]&policy=easy&/);
  assert.equal(await p.locator('[data-testid="share-note-site"]').isHidden(), true);
  const { page: q, problems: qprobs, context: c2 } = await open(browser, new URL(href).hash);
  await waitRuns(q, 1, 60_000);
  // The same schedule: every figure but the reservation violations, which count the
  // reservations the slurm policy reports, not its starts; those differ between a run with a
  // site and one with the same keys in its spec alone (as `schedlab run` with --slurm-conf and
  // --cluster do: the slurm model's, left to its own work).
  const strip = (t) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).filter(([m]) => !m.startsWith('fairness.violations')))]));
  assert.deepEqual(strip(await table(q)), strip(got));
  assert.deepEqual(qprobs, []);
  await c2.close();
  // An sshare file cannot travel: said beside the link.
  await p.locator('[data-testid="cluster-sshare"]').setInputFiles(join('tests', 'data', 'slurm', 'gpu-3', 'run1', 'sshare-start.txt'));
  await p.waitForFunction(() => document.querySelector('[data-testid="cluster-site"]').textContent.includes('sshare'));
  n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  assert.match(await p.locator('[data-testid="share-note-site"]').innerText(), /^The slurm policy ran with the shares of sshare-start\.txt, read in the cluster panel: a file cannot travel in a link/);
  // The Slurm demo's site comes with its link: plain `slurm`, no note.
  n = await runs(p);
  await p.locator('[data-testid="trace-demo"]').selectOption('slurm-gpu');
  await waitRuns(p, n + 1, 60_000);
  assert.match(await p.locator('[data-testid="share-link"]').getAttribute('href'), /&policy=slurm&/);
  assert.equal(await p.locator('[data-testid="share-note-site"]').isHidden(), true);
  assert.deepEqual(probs, []);
  await context.close();
});

test('another demo chosen after the Slurm demo runs on its own machine: the demo\'s cluster and site go with it, a cluster the user set stays', { skip }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:slurm-gpu');
  await waitRuns(p, 1, 60_000);
  const facts = () => p.locator('[data-testid="facts"]').innerText();
  let n = await runs(p);
  await p.locator('[data-testid="trace-demo"]').selectOption('hpc2n');
  await waitRuns(p, n + 1, 120_000);
  // Before: HPC2N on the demo's 4 nodes of 8 cores with its slurm.conf (443 jobs skipped, a
  // two-minute run).
  assert.match(await facts(), /processors\s+240 \(MaxProcs header\)/);
  assert.match(await facts(), /skipped\s+25\b/);
  assert.equal(await p.locator('[data-testid="opt-cluster"]').inputValue(), '');
  assert.equal(await p.locator('[data-testid="cluster-site"]').isHidden(), true);
  assert.doesNotMatch(await p.locator('[data-testid="share-link"]').getAttribute('href'), /cluster=/);
  // The Slurm demo again, then a preset of the user's: it stays for the next trace.
  n = await runs(p);
  await p.locator('[data-testid="trace-demo"]').selectOption('slurm-gpu');
  await waitRuns(p, n + 1, 60_000);
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  const preset = await p.$$eval('[data-testid="cluster-preset"] option', (os) => os.map((o) => o.value).find((v) => v && v !== 'custom'));
  await p.locator('[data-testid="cluster-preset"]').selectOption(preset);
  const mine = await p.locator('[data-testid="opt-cluster"]').inputValue();
  n = await runs(p);
  await p.locator('[data-testid="trace-demo"]').selectOption('5K_sample');
  await waitRuns(p, n + 1, 120_000);
  assert.equal(await p.locator('[data-testid="opt-cluster"]').inputValue(), mine);
  assert.match(await facts(), /the cluster's cores/);
  assert.deepEqual(probs, []);
  await context.close();
});

test('Back from the Slurm demo to another trace leaves the demo\'s site, as the menu does: slurm added there runs as its link does', { skip }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy');
  await waitRuns(p, 1, 60_000);
  let n = await runs(p);
  await p.locator('[data-testid="trace-demo"]').selectOption('slurm-gpu');
  await waitRuns(p, n + 1, 60_000);
  n = await runs(p);
  await p.goBack();
  await waitRuns(p, n + 1, 60_000);
  // Before: the demo's slurm.conf and sshare stayed (the site note said so), and slurm added on
  // HPC2N ran as slurm[PriorityWeightAge=5000,PriorityWeightFairshare=10000,...] while its link
  // said policy=slurm: a fresh page on the link ran Slurm's defaults, another mean wait.
  assert.equal(await p.locator('[data-testid="cluster-site"]').isHidden(), true);
  await p.locator('[data-testid="policy-add"]').click();
  await p.locator('[data-testid="policy-spec"]').nth(1).fill('slurm');
  await clickRun(p);
  await waitRuns(p, n + 2, 60_000);
  const here = await table(p);
  assert.deepEqual(Object.keys(here), ['easy', 'slurm']);
  const link = await p.evaluate(() => location.hash);
  assert.match(link, /trace=demo:hpc2n/);
  const fresh = await open(browser, link);
  await waitRuns(fresh.page, 1, 60_000);
  assert.equal((await table(fresh.page)).slurm['wait.mean'], here.slurm['wait.mean']);
  assert.deepEqual([...probs, ...fresh.problems], []);
  await fresh.context.close();
  await context.close();
});

test('the Slurm demo\'s link reopened says the notes on its slurm.conf as the demo picked from the menu does', { skip }, async () => {
  // The demo's slurm.conf sets keys the slurm policy does not model: picked from the menu, the
  // cluster panel names them; its link carries the cluster as cluster=, and reopened, the panel
  // said nothing of them (the cluster read from its compact form, which has no keys).
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy');
  await waitRuns(p, 1, 60_000);
  const n = await runs(p);
  await p.locator('[data-testid="trace-demo"]').selectOption('slurm-gpu');
  await waitRuns(p, n + 1, 60_000);
  const notes = (page) => page.locator('[data-testid="cluster-notes"]');
  const menu = await notes(p).innerText();
  assert.match(menu, /\d+ keys? the slurm policy does not model \(/);
  const href = await p.locator('[data-testid="share-link"]').getAttribute('href');
  assert.match(href, /cluster=/);
  const { page: q, problems: qprobs, context: c2 } = await open(browser, new URL(href).hash);
  await waitRuns(q, 1, 60_000);
  assert.equal(await notes(q).isHidden(), false);
  assert.equal(await notes(q).innerText(), menu);
  assert.deepEqual(qprobs, []);
  await c2.close();
  assert.deepEqual(probs, []);
  await context.close();
});
