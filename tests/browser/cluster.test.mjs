// The cluster panel (issue 33, docs/cluster-model.md): a preset runs a demo trace on a cluster
// (the same figures as `schedlab run --cluster`), the jobs CSV gains the cluster's columns and
// the jobs-per-node CSV downloads; a policy that refuses clusters says so in its row; pasted
// slurm.conf lines name a bad line; the `cluster=` link key round-trips; the Gantt chart draws
// a line between nodes. Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK, SHOTS, launch, open, waitRuns, clickRun, table, errorsText, cli, cliBinary, metric, close } from './helpers.mjs';

const skip = MOCK ? 'mock engine' : false;
let browser;
let page;
let problems;
let link = '';
let first = {};
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const GPU = '1/gpu[01-16]:c64:m512000:ga100=4:fa100,ib/p=gpu:ALL:default:t2880/p=debug:gpu[01-02]:t60:r2';

async function download(p, testid) {
  const [d] = await Promise.all([p.waitForEvent('download'), p.locator(`[data-testid="${testid}"]`).click()]);
  return readFileSync(await d.path(), 'utf8');
}

/** Lines of the Gantt canvas drawn in the node separators' grey (a neutral grey, blended by
 * the canvas over one or two pixel rows) across most of the plot: runs of such rows. */
function separatorLines(p, policy) {
  return p.locator(`[data-testid="chart-gantt"][data-policy="${policy}"]`).evaluate((c, spec) => {
    // Inside the plotting area only (the engine says where it is).
    const a = window.schedlab.gantts.items.find((i) => i.result.spec === spec).area;
    const { width } = c;
    const d = c.getContext('2d').getImageData(0, 0, width, c.height).data;
    const [x0, x1] = [Math.ceil(a.x0 + 2), Math.floor(a.x1 - 2)];
    let lines = 0;
    let before = false;
    for (let y = Math.ceil(a.y0 + 2); y < a.y1 - 2; y++) {
      let grey = 0;
      for (let x = x0; x < x1; x++) {
        const i = (y * width + x) * 4;
        if (d[i] === d[i + 1] && d[i] === d[i + 2] && d[i] > 100 && d[i] < 235) grey += 1;
      }
      const line = grey > (x1 - x0) * 0.25;
      if (line && !before) lines += 1;
      before = line;
    }
    return lines;
  }, policy);
}

async function ganttDrawn(p, policy) {
  await p.locator(`[data-testid="chart-gantt"][data-policy="${policy}"]`).scrollIntoViewIfNeeded();
  await p.waitForFunction((spec) => {
    const item = window.schedlab.gantts.items.find((i) => i.result.spec === spec);
    return item?.area && !item.dirty;
  }, policy);
}

test('the GPU preset runs the demo on a cluster, as the CLI does', { skip }, async () => {
  ({ page, problems } = await open(browser, '#v=1&trace=demo:5K_sample&policy=easy&policy=fcfs&policy=pv-easy'));
  await waitRuns(page, 1, 60_000);
  // Without a cluster no node lines and no jobs-per-node export.
  await ganttDrawn(page, 'easy');
  assert.equal(await separatorLines(page, 'easy'), 0);
  assert.equal(await page.locator('[data-testid="export-alloc-csv"]').isHidden(), true);
  await page.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  await page.locator('[data-testid="cluster-preset"]').selectOption('gpu');
  assert.equal(await page.locator('[data-testid="opt-cluster"]').inputValue(), GPU);
  assert.match(await page.locator('[data-testid="cluster-summary"]').innerText(), /cluster: 16 nodes in 1 groups, 1024 cores, 8192000 MB memory, 64 GPUs/);
  const n = await clickRun(page);
  await waitRuns(page, n + 1, 60_000);
  first = await table(page);
  // Every catalogue policy runs on a cluster, pv-easy (preemptions on the nodes) too.
  assert.ok(first.easy && first.fcfs && first['pv-easy'], JSON.stringify(Object.keys(first)));
  assert.match(await page.locator('[data-testid="results"]').innerText(), /pv-easy/);
  if (cliBinary()) {
    const [want] = cli('www/demo/5K_sample.swf.gz', ['easy'], 1, ['--cluster', 'gpu']);
    for (const m of ['wait.mean', 'mbs', 'utilization']) assert.ok(close(first.easy[m], metric(want, m)), `${m}: page ${first.easy[m]}, CLI ${metric(want, m)}`);
  }
  link = await page.locator('[data-testid="share-link"]').getAttribute('href');
  assert.ok(link.includes(`cluster=${GPU}`), link);
  // The jobs CSV gains the cluster's columns; the jobs-per-node CSV has a row per job and node.
  await page.locator('[data-testid="export-policy"]').selectOption({ label: 'easy' });
  const jobs = (await download(page, 'export-jobs-csv')).trim().split('\n');
  const head = jobs[0].split(',');
  for (const c of ['nodes', 'cpus', 'mem_mb', 'gpus']) assert.ok(head.includes(c), jobs[0]);
  assert.match(jobs[1], /gpu\d\d/);
  const alloc = (await download(page, 'export-alloc-csv')).trim().split('\n');
  assert.equal(alloc[0], 'job_id,node,cpus,mem_mb,gpus');
  assert.ok(alloc.length >= jobs.length, `${alloc.length} alloc rows, ${jobs.length} job rows`);
  assert.match(alloc[1], /^\d+,gpu\d\d,\d+,\d+,0$/);
  assert.deepEqual(problems, []);
});

test('the Gantt chart draws a line between the nodes', { skip }, async () => {
  await ganttDrawn(page, 'easy');
  await page.locator('[data-testid="chart-gantt"][data-policy="easy"]').screenshot({ path: join(SHOTS, 'cluster-gantt-1400.png') });
  // 16 nodes of 64 cores: 15 lines between them.
  assert.equal(await separatorLines(page, 'easy'), 15);
  await page.setViewportSize({ width: 390, height: 844 });
  await ganttDrawn(page, 'easy');
  await page.locator('[data-testid="chart-gantt"][data-policy="easy"]').screenshot({ path: join(SHOTS, 'cluster-gantt-390.png') });
  await page.$eval('[data-testid="cluster-panel"]', (d) => d.scrollIntoView());
  await page.screenshot({ path: join(SHOTS, 'cluster-panel-390.png') });
  await page.setViewportSize({ width: 1400, height: 1000 });
  assert.deepEqual(problems, []);
});

test('the cluster= link opens on the same cluster with the same results', { skip }, async () => {
  const hash = link.slice(link.indexOf('#'));
  const { page: p, context, problems: probs } = await open(browser, hash);
  await waitRuns(p, 1, 60_000);
  assert.equal(await p.locator('[data-testid="opt-cluster"]').inputValue(), GPU);
  assert.equal(await p.locator('[data-testid="cluster-preset"]').inputValue(), 'gpu');
  assert.deepEqual(await table(p), first);
  // Old links without cluster= run without one.
  const { page: q, context: c2 } = await open(browser, '#v=1&trace=demo:5K_sample&policy=easy');
  await waitRuns(q, 1, 60_000);
  assert.equal(await q.locator('[data-testid="opt-cluster"]').inputValue(), '');
  assert.notEqual((await table(q)).easy['wait.mean'], first.easy['wait.mean']);
  await c2.close();
  assert.deepEqual(probs, []);
  await context.close();
});

test('pasted slurm.conf lines: a bad line is named, good lines make the cluster', { skip }, async () => {
  await page.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  const conf = page.locator('[data-testid="cluster-conf"]');
  await conf.fill('ClusterName=test\nNodeName=n[1-4] CPUs=32 RealMemory=lots\nPartitionName=batch Nodes=ALL Default=YES\n');
  await page.locator('[data-testid="cluster-apply"]').click();
  assert.match(await page.locator('[data-testid="cluster-error"]').innerText(), /slurm\.conf:2: RealMemory: .*lots/);
  // The compact form is left as it was.
  assert.equal(await page.locator('[data-testid="opt-cluster"]').inputValue(), GPU);
  await conf.fill('ClusterName=test\nNodeName=n[1-4] CPUs=32 RealMemory=64000 Gres=gpu:2\nPartitionName=batch Nodes=ALL Default=YES\n');
  await page.locator('[data-testid="cluster-apply"]').click();
  assert.equal(await page.locator('[data-testid="cluster-error"]').isHidden(), true);
  assert.equal(await page.locator('[data-testid="opt-cluster"]').inputValue(), '1/n[1-4]:c32:m64000:g2/p=batch:ALL:default');
  assert.equal(await page.locator('[data-testid="cluster-preset"]').inputValue(), 'custom');
  assert.match(await page.locator('[data-testid="cluster-notes"]').innerText(), /ClusterName/);
  assert.match(await page.locator('[data-testid="cluster-summary"]').innerText(), /4 nodes .* 128 cores/);
  // A bad compact form typed in is refused before the run, naming the item.
  await page.locator('[data-testid="opt-cluster"]').fill('1/n1:c0');
  await page.locator('[data-testid="opt-cluster"]').dispatchEvent('change');
  assert.match(await page.locator('[data-testid="cluster-error"]').innerText(), /c0/);
  await page.locator('[data-testid="run"]').click();
  assert.match(await errorsText(page), /Cluster: .*c0/);
  await page.locator('[data-testid="cluster-preset"]').selectOption('');
  assert.equal(await page.locator('[data-testid="opt-cluster"]').inputValue(), '');
  assert.deepEqual(problems, []);
});
