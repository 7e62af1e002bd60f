// An admin's own site: an sacct log of one's own dropped on the page and its slurm.conf read in
// the Cluster panel add `slurm` (which reads that slurm.conf) and `historic` (the log's recorded
// schedule) to the compared policies, once, said in the status line; removed by the user, they
// are not added again; the link of the run names them (before, the page kept comparing easy and
// fcfs, and the admin had to know to add them by hand). Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK, SHOTS, launch, open, runs, waitRuns, clickRun, table, errorsText, cliBinary, cli, metric, close } from './helpers.mjs';
import { kindOf } from '../../www/dropsort.js';

const skip = MOCK ? 'mock engine' : false;
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const DIR = join('tests', 'data', 'slurm', 'gpu-3', 'run1');
const specs = (p) => p.locator('[data-testid="policy-spec"]').evaluateAll((xs) => xs.map((x) => x.value));
const readConf = async (p, text) => {
  await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await p.locator('[data-testid="cluster-conf"]').fill(text);
  await p.locator('[data-testid="cluster-apply"]').click();
};

test('an sacct log of one\'s own and its slurm.conf read in the Cluster panel add slurm and historic once; removed, they stay out', { skip }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs');
  await waitRuns(p, 1, 60_000);
  let n = await runs(p);
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(DIR, 'sacct.txt'));
  await waitRuns(p, n + 1, 60_000);
  assert.deepEqual(await specs(p), ['easy', 'fcfs']);
  const conf = readFileSync(join(DIR, 'slurm.conf'), 'utf8');
  await readConf(p, conf);
  assert.deepEqual(await specs(p), ['easy', 'fcfs', 'slurm', 'historic']);
  assert.match(await p.locator('[data-testid="status"]').innerText(), /^slurm and historic added: the slurm policy reads this slurm\.conf/);
  await p.screenshot({ path: join(SHOTS, 'adminsite-added.png') });
  n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  const got = await table(p);
  const rows = Object.keys(got);
  assert.equal(rows.length, 4, JSON.stringify(rows));
  assert.ok(rows[2].startsWith('slurm[') && rows[2].includes('PriorityWeightFairshare=10000'), rows[2]);
  assert.equal(rows[3], 'historic');
  // The link names what ran: the slurm policy with the slurm.conf's parameters, and historic.
  const href = decodeURIComponent(await p.locator('[data-testid="share-link"]').getAttribute('href'));
  assert.match(href, /&policy=easy&policy=fcfs&policy=slurm\[[^&]*PriorityWeightFairshare=10000[^&]*\]&policy=historic&/);
  // Removed by the user, they are not added again when the slurm.conf is read again.
  await p.locator('[data-testid="policy-remove"]').nth(3).click();
  await p.locator('[data-testid="policy-remove"]').nth(2).click();
  await readConf(p, conf.replace('PriorityWeightFairshare=10000', 'PriorityWeightFairshare=5000'));
  assert.deepEqual(await specs(p), ['easy', 'fcfs']);
  assert.doesNotMatch(await p.locator('[data-testid="status"]').innerText(), /added/);
  assert.deepEqual(probs, []);
  await context.close();
});

test('the status saying slurm and historic were added stays when the site\'s sshare file is read next', { skip }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&policy=fcfs');
  await waitRuns(p, 1, 60_000);
  const n = await runs(p);
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(DIR, 'sacct.txt'));
  await waitRuns(p, n + 1, 60_000);
  await readConf(p, readFileSync(join(DIR, 'slurm.conf'), 'utf8'));
  const added = /^slurm and historic added: the slurm policy reads this slurm\.conf\. Press “Run comparison”\.$/;
  assert.match(await p.locator('[data-testid="status"]').innerText(), added);
  // Before, the sshare file's change replaced it with "Settings changed: press “Run comparison”."
  await p.locator('[data-testid="cluster-sshare"]').setInputFiles(join(DIR, 'sshare-start.txt'));
  await p.waitForTimeout(1000); // the small file is read (FileReader) and the change said
  assert.match(await p.locator('[data-testid="status"]').innerText(), added);
  // A change after the run that read them is said as any change.
  const m = await clickRun(p);
  await waitRuns(p, m + 1, 60_000);
  await p.locator('[data-testid="opt-seed"]').fill('2');
  await p.locator('[data-testid="opt-seed"]').dispatchEvent('change');
  assert.equal(await p.locator('[data-testid="status"]').innerText(), 'Settings changed: press “Run comparison”.');
  assert.deepEqual(probs, []);
  await context.close();
});

test('a slurm.conf read before the sacct log: slurm and historic are added once the log is shown; an SWF trace adds nothing', { skip }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy');
  await waitRuns(p, 1, 60_000);
  // On HPC2N (SWF, no recorded Slurm schedule) a slurm.conf is a cluster only.
  await readConf(p, 'NodeName=n[1-240] CPUs=1\nPartitionName=all Nodes=ALL Default=YES\n');
  assert.deepEqual(await specs(p), ['easy']);
  const n = await runs(p);
  await readConf(p, readFileSync(join(DIR, 'slurm.conf'), 'utf8'));
  await p.locator('[data-testid="trace-file"]').setInputFiles(join(DIR, 'sacct.txt'));
  await waitRuns(p, n + 1, 60_000);
  assert.deepEqual(await specs(p), ['easy', 'slurm', 'historic']);
  assert.match(await p.locator('[data-testid="status"]').innerText(), /^slurm and historic added/);
  assert.deepEqual(probs, []);
  await context.close();
});

/** Drops `files` ({name, text} each) on the page together, in this order. */
const drop = (p, files) => p.evaluate((fs) => {
  const dt = new DataTransfer();
  for (const f of fs) dt.items.add(new File([f.text], f.name, { type: 'text/plain' }));
  for (const type of ['dragenter', 'dragover', 'drop']) {
    document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }
}, files);
const file = (dir, name) => ({ name, text: readFileSync(join(dir, name), 'utf8') });

test('a Slurm run\'s files dropped together land each where it is read: the log as the trace, the slurm.conf in the Cluster panel, the sshare file as its shares; slurm runs on that cluster as the CLI', { skip }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy');
  await waitRuns(p, 1, 60_000);
  const n = await runs(p);
  // The slurm.conf first (before, the first file alone was read, as the trace) and the run's
  // gres.conf, which the page does not read, beside them.
  await drop(p, [file(DIR, 'slurm.conf'), file(DIR, 'sshare-start.txt'), file(DIR, 'gres.conf'), file(DIR, 'sacct.txt')]);
  await waitRuns(p, n + 1, 60_000);
  assert.match(await p.locator('[data-testid="facts"]').innerText(), /uploaded file: sacct\.txt/);
  assert.equal(await p.locator('[data-testid="cluster-panel"]').evaluate((d) => d.open), true);
  assert.match(await p.locator('[data-testid="opt-cluster"]').inputValue(), /^1\/n\[1-4\]:c8:m16000:g2\//);
  assert.match(await p.locator('[data-testid="cluster-site"]').innerText(), /sshare-start\.txt/);
  assert.match(await errorsText(p), /Not read: gres\.conf \(not a trace \(sacct, SWF, Batsim JSON\), a slurm\.conf/);
  // The log's one run compares slurm and historic too (before the run: no second run needed).
  assert.deepEqual(await specs(p), ['easy', 'slurm', 'historic']);
  assert.match(await p.locator('[data-testid="status"]').innerText(), /^3 policies on 60 jobs in /);
  assert.equal(await p.locator('[data-testid="stale-results"]').isHidden(), true);
  // The sweep panel offers what the Slurm demo's does: the fairshare weight for slurm (before:
  // pv-easy's estimate error).
  assert.equal(await p.locator('[data-testid="sweep-vary"]').inputValue(), 'PriorityWeightFairshare=0,2500,5000,10000,20000,40000');
  assert.deepEqual(await p.locator('[data-testid="sweep-policies"] input:checked').evaluateAll((xs) => xs.map((x) => x.value)), ['slurm']);
  // The link's note names the file that cannot travel (before: "the sshare file (or ... the assoc
  // file, or ... the qos file)", whichever was read).
  assert.equal(await p.locator('[data-testid="share-note-site"]').innerText(), 'The slurm policy ran with the shares of sshare-start.txt, read in the cluster panel: a file cannot travel in a link, and whoever opens it must read this file there again (a slurm.conf\'s scheduler parameters travel, in the policy\'s spec; QOS priorities travel too when given by the policy\'s qos key).');
  assert.match(await p.locator('[data-testid="facts"]').innerText(), /the cluster's cores \(4 nodes\)/);
  const got = await table(p);
  const slurm = Object.keys(got).find((k) => k.startsWith('slurm['));
  assert.ok(slurm && Object.hasOwn(got, 'historic'), JSON.stringify(Object.keys(got)));
  if (cliBinary()) {
    const [want] = cli(join(DIR, 'sacct.txt'), ['slurm'], 1, ['--slurm-conf', join(DIR, 'slurm.conf'), '--sshare', join(DIR, 'sshare-start.txt')]);
    const keys = Object.keys(got[slurm]).filter((k) => Number.isFinite(metric(want, k)));
    assert.ok(keys.includes('wait.mean') && keys.length >= 5, JSON.stringify(keys));
    for (const k of keys) assert.ok(close(got[slurm][k], metric(want, k)), `${k}: ${got[slurm][k]} vs ${metric(want, k)}`);
  }
  assert.deepEqual(probs, []);
  await context.close();
});

test('a log whose jobs name several partitions, dropped with its slurm.conf: the page says so and starts them in any of their partitions, as the CLI', { skip }, async () => {
  const dir = join('tests', 'data', 'slurm', 'multipart-17', 'run1');
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy');
  await waitRuns(p, 1, 60_000);
  const n = await runs(p);
  await drop(p, [file(dir, 'slurm.conf'), file(dir, 'sshare-start.txt'), file(dir, 'sacct-lists.txt')]);
  await waitRuns(p, n + 1, 60_000);
  assert.deepEqual(await specs(p), ['easy', 'slurm', 'historic']);
  assert.match(await p.locator('[data-testid="facts"]').innerText(), /53 jobs submitted to several partitions \(first: job 6 in short,gpu\): on a cluster each may start in any of its partitions/);
  const got = await table(p);
  const slurm = Object.keys(got).find((k) => k.startsWith('slurm['));
  if (cliBinary()) {
    const opts = ['--slurm-conf', join(dir, 'slurm.conf'), '--sshare', join(dir, 'sshare-start.txt')];
    const lists = cli(join(dir, 'sacct-lists.txt'), ['slurm', 'easy'], 1, opts);
    // The same log with every job pinned to the partition it ran in gives other waits: the page
    // read the lists.
    const pinned = cli(join(dir, 'sacct.txt'), ['slurm', 'easy'], 1, opts);
    for (const [spec, i] of [[slurm, 0], ['easy', 1]]) {
      const want = lists[i];
      assert.ok(close(got[spec]['wait.mean'], metric(want, 'wait.mean')), `${spec}: ${got[spec]['wait.mean']} vs ${metric(want, 'wait.mean')}`);
      assert.ok(!close(got[spec]['wait.mean'], metric(pinned[i], 'wait.mean')), `${spec} as if pinned`);
    }
  }
  assert.deepEqual(probs, []);
  await context.close();
});

test('dropped files are told apart by their content: traces, cluster files, sshare, qos and assoc dumps', () => {
  const kind = (name, text) => kindOf(name, new TextEncoder().encode(text));
  const slurm = join('tests', 'data', 'slurm');
  const real = (path) => kindOf(path, new Uint8Array(readFileSync(join(slurm, path)).subarray(0, 8192)));
  assert.equal(real('gpu-3/run1/sacct.txt'), 'sacct');
  assert.equal(real('gpu-3/run1/slurm.conf'), 'cluster');
  assert.equal(real('gpu-3/run1/sshare-start.txt'), 'sshare');
  assert.equal(real('gpu-3/run1/gres.conf'), 'unknown');
  // A run's other files are none of the page's (before: its workload.csv, with account and user
  // columns, was taken for an assoc dump; its submit.log, with a jobid column, for an sacct log).
  for (const other of ['workload.csv', 'submit.log', 'accounts.txt', 'squeue.log', 'slurmdbd.conf', 'run.txt']) {
    assert.equal(real(`gpu-3/run1/${other}`), 'unknown', other);
  }
  assert.equal(real('assoclimits-11/run1/assoc-mgr.txt'), 'unknown');
  assert.equal(real('qoslimits-10/run1/qos.txt'), 'qos');
  assert.equal(real('assoclimits-11/run1/assoc.txt'), 'assoc');
  assert.equal(kindOf('x.swf.gz', new Uint8Array([0x1f, 0x8b, 8])), 'trace');
  assert.equal(kind('w.json', ' {"nb_res": 4, "jobs": []}'), 'trace');
  // sacct --json is an sacct log (an own site's slurm offer follows it), as the engine reads it.
  assert.equal(real('json-16/sacct.json'), 'sacct');
  assert.equal(kind('j.json', '{"jobs": [{"job_id": 7, "time": {"submission": 5}}]}'), 'sacct');
  assert.equal(kind('t.swf', '; MaxProcs: 4\n1 0 5 60 2 -1 -1 2 120 -1 1 1 1 -1 -1 -1 -1 -1\n'), 'trace');
  assert.equal(kind('t', '1 0 5 60 2 -1 -1 2 120 -1 1 1 1 -1 -1 -1 -1 -1\n'), 'trace');
  assert.equal(kind('s.csv', 'JobID,JobName,User,Submit\n1,a,b,2024-01-01T00:00:00\n'), 'sacct');
  assert.equal(kind('s.txt', '       JobID    JobName      State \n------------ ---------- ---------- \n'), 'sacct');
  assert.equal(kind('site.conf', '# mine\nNodeName=n[1-2] CPUs=4\n'), 'cluster');
  assert.equal(kind('cluster.txt', 'PartitionName=all Nodes=ALL\n'), 'cluster');
  assert.equal(kind('m.machines', '0\tn\t2\t4\t1\t1048576\n'), 'cluster');
  assert.equal(kind('limits.txt', 'Account|User|MaxJobs\nphys||\n'), 'assoc');
  assert.equal(kind('q.txt', 'Name|Priority\nnormal|10\n'), 'qos');
  assert.equal(kind('notes.txt', 'hello\n'), 'unknown');
});

test('a Slurm run\'s whole folder dropped: the log, slurm.conf, sshare and assoc files are read, the others named in one message per reason', { skip }, async () => {
  const dir = join('tests', 'data', 'slurm', 'assoclimits-11', 'run1');
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy');
  await waitRuns(p, 1, 60_000);
  const n = await runs(p);
  // As a file manager lists them: sshare-end.txt before sshare-start.txt, the last one read.
  const names = ['accounts.txt', 'assoc-mgr.txt', 'assoc.txt', 'gres.conf', 'run.txt', 'sacct.txt', 'slurm.conf',
    'slurmdbd.conf', 'squeue.log', 'sshare-end.txt', 'sshare-start.txt', 'submit.log', 'workload.csv'];
  await drop(p, names.map((name) => file(dir, name)));
  await waitRuns(p, n + 1, 60_000);
  assert.match(await p.locator('[data-testid="facts"]').innerText(), /uploaded file: sacct\.txt/);
  assert.match(await p.locator('[data-testid="cluster-site"]').innerText(), /sshare-start\.txt/);
  assert.match(await p.locator('[data-testid="cluster-site"]').innerText(), /association/);
  const items = await p.locator('[data-testid="errors"] li .msg').allInnerTexts();
  assert.deepEqual(items.sort(), [
    'Not read: accounts.txt, assoc-mgr.txt, gres.conf, run.txt, slurmdbd.conf, squeue.log, submit.log, workload.csv (not a trace (sacct, SWF, Batsim JSON), a slurm.conf, an Alea .machines file, nor an sshare, qos or assoc dump).',
    'Not read: sshare-end.txt (sshare-start.txt is the sshare file read).',
  ]);
  const got = await table(p);
  assert.ok(Object.keys(got).some((k) => k.startsWith('slurm[')) && Object.hasOwn(got, 'historic'), JSON.stringify(Object.keys(got)));
  if (cliBinary()) {
    const slurm = Object.keys(got).find((k) => k.startsWith('slurm['));
    const [want] = cli(join(dir, 'sacct.txt'), ['slurm'], 1, ['--slurm-conf', join(dir, 'slurm.conf'), '--sshare', join(dir, 'sshare-start.txt'), '--assoc', join(dir, 'assoc.txt')]);
    assert.ok(close(got[slurm]['wait.mean'], metric(want, 'wait.mean')), `${got[slurm]['wait.mean']} vs ${metric(want, 'wait.mean')}`);
  }
  assert.deepEqual(probs, []);
  await context.close();
});
