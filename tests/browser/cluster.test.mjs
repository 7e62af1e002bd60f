// The cluster panel (issue 33, docs/cluster-model.md): a preset runs a demo trace on a cluster
// (the same figures as `schedlab run --cluster`), the jobs CSV gains the cluster's columns and
// the jobs-per-node CSV downloads; a policy that refuses clusters says so in its row; pasted
// slurm.conf lines name a bad line; the `cluster=` link key round-trips; the Gantt chart draws
// a line between nodes; the tables of node groups and partitions edit the cluster; the
// generator's GPU jobs travel in the link and are drawn darker in the Gantt chart by node; a
// trace whose partitions the cluster lacks says so in its facts (the Slurm site, slurm.conf and
// sshare: slurmsite.test.mjs). Run through scripts/browser-test.sh.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { MOCK, SHOTS, launch, open, runs, waitRuns, clickRun, table, errorsText, cli, cliBinary, metric, close } from './helpers.mjs';

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
  assert.match(await page.locator('[data-testid="cluster-summary"]').innerText(), /cluster: 16 nodes in 1 group, 1024 cores, 8192000 MB memory, 64 GPUs/);
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

test('a trace whose partitions the cluster lacks runs in its default one, and the facts say what is left out', { skip }, async () => {
  // HPC2N's SWF numbers every job's partition 1; the GPU preset has none of that name. As
  // `schedlab run --cluster gpu` (tests/cli/run_cli.rs): its jobs run in the default
  // partition, 54 of them ask for more than its MaxTime and are left out, and both are said.
  const { page: p, context, problems: probs } = await open(browser, `#v=1&trace=demo:hpc2n&policy=easy&cluster=${encodeURIComponent(GPU)}`);
  await waitRuns(p, 1, 60_000);
  const facts = await p.locator('[data-testid="facts"]').innerText();
  assert.match(facts, /partitions not in the cluster: 1 \(3145 jobs\); those jobs run in its default partition gpu/);
  assert.match(facts, /54 jobs can never run on the cluster and are left out; first: job 17: requested time 432000 s is over partition gpu's MaxTime/);
  // As the CLI's line "3091 jobs simulated, 79 skipped (54 can never run on the cluster)" and
  // the table's rows (the facts said "jobs 3,145" and "skipped 25").
  assert.match(facts, /jobs simulated\s+3,091\n/);
  assert.match(facts, /skipped\s+79 \(54 can never run on the cluster\)/);
  const t = await table(p);
  assert.equal(t.easy['counts.jobs'], 3091, JSON.stringify(t.easy));
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
  // A partition key accepted and not modelled is said, with its partition (before: silence).
  await conf.fill('NodeName=n[1-4] CPUs=32 RealMemory=64000 Gres=gpu:2\nPartitionName=batch Nodes=ALL Default=YES AllowAccounts=chem\n');
  await page.locator('[data-testid="cluster-apply"]').click();
  assert.match(await page.locator('[data-testid="cluster-notes"]').innerText(), /partition keys accepted and not modelled \(docs\/cluster-model\.md\): AllowAccounts \(batch\)/);
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

const cell = (p, key) => p.locator(`[data-cell="${key}"]`);
/** Types into a cell of the tables and leaves it with Tab (the edit applies on change; the
 * tables are drawn again once the focus has moved on). */
async function edit(p, key, text) {
  await cell(p, key).fill(text);
  await cell(p, key).press('Tab');
  await p.waitForTimeout(50);
}

test('the tables: a preset and pasted lines fill them, an edit makes the cluster and the link, an error sits beside its cell', { skip }, async () => {
  await page.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
  // No cluster: empty tables.
  assert.equal(await page.locator('[data-testid="cluster-groups-row"]').count(), 0);
  await page.locator('[data-testid="cluster-preset"]').selectOption('gpu');
  assert.equal(await page.locator('[data-testid="cluster-groups-row"]').count(), 1);
  assert.equal(await page.locator('[data-testid="cluster-partitions-row"]').count(), 2);
  assert.equal(await cell(page, 'groups-0-nodes').inputValue(), 'gpu[01-16]');
  assert.equal(await cell(page, 'groups-0-gpus').inputValue(), 'a100=4');
  assert.equal(await cell(page, 'partitions-1-max_time').inputValue(), '01:00:00');
  assert.equal(await cell(page, 'partitions-0-default').isChecked(), true);
  // Every control is labelled for assistive technology.
  const unlabelled = await page.$$eval('[data-testid="cluster-tables"] input, [data-testid="cluster-tables"] select, [data-testid="cluster-tables"] button',
    (cs) => cs.filter((c) => !c.getAttribute('aria-label') && !c.textContent.trim()).length);
  assert.equal(unlabelled, 0);
  const compact = () => page.locator('[data-testid="opt-cluster"]').inputValue();
  await edit(page, 'groups-0-cores', '32');
  assert.equal(await compact(), GPU.replace(':c64:', ':c32:'));
  assert.equal(await page.locator('[data-testid="cluster-preset"]').inputValue(), 'custom');
  assert.match(await page.locator('[data-testid="cluster-summary"]').innerText(), /512 cores/);
  // Tab went on to the next cell, which keeps the focus after the tables are drawn again.
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.cell), 'groups-0-memory');
  // A partition naming an unknown node: the error beside the cell, the form's cluster kept, the run refused.
  await edit(page, 'partitions-1-nodes', 'gpu[01-02],zz9');
  const err = page.locator('[data-testid="cluster-partitions-row"]').nth(1).locator('[data-testid="cluster-cell-error"]');
  assert.match(await err.innerText(), /zz9/);
  assert.equal(await cell(page, 'partitions-1-nodes').getAttribute('aria-invalid'), 'true');
  assert.equal(await compact(), GPU.replace(':c64:', ':c32:'));
  await page.locator('[data-testid="run"]').click();
  assert.match(await errorsText(page), /Cluster: partition 2, Nodes: .*zz9/);
  await edit(page, 'partitions-1-nodes', 'gpu[01-04]');
  assert.equal(await err.count(), 0);
  assert.match(await compact(), /\/p=debug:gpu\[01-04\]:t60:r2$/);
  // A new node group, its count, and a partition removed.
  await page.locator('[data-testid="cluster-add-groups"]').click();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.cell), 'groups-1-nodes');
  await edit(page, 'groups-1-nodes', 'cpu[1-8]');
  await edit(page, 'groups-1-cores', '16');
  await edit(page, 'groups-1-count', '4');
  assert.equal(await cell(page, 'groups-1-nodes').inputValue(), 'cpu[1-4]');
  await page.locator('[aria-label="Remove partition 2"]').click();
  await page.waitForTimeout(50);
  assert.equal(await compact(), '1/gpu[01-16]:c32:m512000:ga100=4:fa100,ib/cpu[1-4]:c16:m1/p=gpu:ALL:default:t2880');
  await page.locator('[data-testid="cluster-partitions"] select[data-field="oversubscribe"]').selectOption('EXCLUSIVE');
  await page.waitForTimeout(50);
  const edited = await compact();
  assert.ok(edited.endsWith(':t2880:oexclusive'), edited);
  const n = await clickRun(page);
  await waitRuns(page, n + 1, 60_000);
  const href = await page.locator('[data-testid="share-link"]').getAttribute('href');
  assert.ok(href.includes(`cluster=${edited}`), href);
  await page.$eval('[data-testid="cluster-tables"]', (d) => d.scrollIntoView());
  await page.screenshot({ path: join(SHOTS, 'cluster-tables-1400.png') });
  // Pasted lines fill the tables.
  await page.locator('[data-testid="cluster-conf"]').fill('NodeName=n[1-4] CPUs=32 RealMemory=64000 Gres=gpu:2\nPartitionName=batch Nodes=ALL Default=YES MaxTime=1-00:00:00\n');
  await page.locator('[data-testid="cluster-apply"]').click();
  assert.equal(await cell(page, 'groups-0-nodes').inputValue(), 'n[1-4]');
  assert.equal(await cell(page, 'groups-0-gpus').inputValue(), '2');
  assert.equal(await cell(page, 'partitions-0-max_time').inputValue(), '1-00:00:00');
  assert.equal(await page.locator('[data-testid="cluster-groups-row"]').count(), 1);
  await page.locator('[data-testid="cluster-preset"]').selectOption('');
  assert.equal(await page.locator('[data-testid="cluster-groups-row"]').count(), 0);
  assert.deepEqual(problems, []);
});

test('the generator\'s GPU jobs travel in the link and equal the CLI\'s', { skip }, async () => {
  const small = '1/g[1-4]:c16:m0:g4/p=all:ALL:default';
  const { page: p, context, problems: probs } = await open(browser, `#v=1&trace=gen:lublin:64:400:3&gpushare=0.3&gpucounts=1:1,2:1&cluster=${small}&policy=easy`);
  await waitRuns(p, 1, 60_000);
  assert.equal(await p.locator('[data-testid="generate-gpu-share"]').inputValue(), '0.3');
  assert.equal(await p.locator('[data-testid="generate-gpu-counts"]').inputValue(), '1:1,2:1');
  const got = await table(p);
  if (cliBinary()) {
    const swf = join(tmpdir(), `schedlab-gpu-${process.pid}.swf`);
    execFileSync(cliBinary(), ['generate', '--model', 'lublin', '--procs', '64', '--jobs', '400', '--seed', '3', '--gpu-share', '0.3', '--gpu-counts', '1:1,2:1', '--out', swf], { stdio: 'ignore' });
    const [want] = cli(swf, ['easy'], 1, ['--cluster', small]);
    for (const m of ['wait.mean', 'utilization']) assert.ok(close(got.easy[m], metric(want, m)), `${m}: page ${got.easy[m]}, CLI ${metric(want, m)}`);
  }
  // GPU jobs: the jobs CSV says how many GPUs each holds.
  await p.locator('[data-testid="export-policy"]').selectOption({ label: 'easy' });
  const rows = (await download(p, 'export-jobs-csv')).trim().split('\n');
  // (gpus is the last column; quoted fields before it may hold commas.)
  assert.equal(rows[0].split(',').at(-1), 'gpus');
  const gpuJobs = rows.slice(1).filter((r) => Number(r.split(',').at(-1)) > 0).length;
  assert.ok(gpuJobs > 60 && gpuJobs < 180, `${gpuJobs} GPU jobs of ${rows.length - 1}`);
  // The Gantt chart by node: each node's GPUs, and the GPU jobs drawn in a darker shade of
  // their user's colour (charts/gantt.rs gpu_fill: each channel x 11/20).
  const nodes = await p.evaluate(() => window.schedlab.gantts.nodes);
  assert.deepEqual(nodes.gpus, [4, 4, 4, 4]);
  assert.equal(nodes.gpu_jobs.length, gpuJobs);
  await ganttDrawn(p, 'easy');
  const dark = await p.locator('[data-testid="chart-gantt"][data-policy="easy"]').evaluate(async (c) => {
    const engine = await import(new URL('pkg/schedlab.js', location.href).href);
    const shade = (hex) => [1, 3, 5].map((i) => Math.floor(parseInt(hex.slice(i, i + 2), 16) * 11 / 20)).join(',');
    const shades = new Set(engine.chart_colours().map(shade));
    const a = window.schedlab.gantts.items.find((i) => i.result.spec === 'easy').area;
    const d = c.getContext('2d').getImageData(a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (shades.has(`${d[i]},${d[i + 1]},${d[i + 2]}`)) n += 1;
    return n / (d.length / 4);
  });
  assert.ok(dark > 0.02, `${dark} of the plot in GPU jobs' shades`);
  // A lane per GPU (charts/gpu_lanes.rs): each node's 16 cores, then 4 lanes of 16 / (2 x 4) = 2
  // rows; the rectangles count rows. Every GPU job is drawn in lanes of its nodes, never two in
  // one lane at once, in 2 rows per GPU it holds (the jobs CSV's gpus).
  assert.deepEqual([nodes.first, nodes.lane_first, nodes.lane_rows, nodes.rows], [[0, 24, 48, 72], [16, 40, 64, 88], [2, 2, 2, 2], 96]);
  const lanes = await p.evaluate(() => {
    const r = window.schedlab.gantts.items.find((i) => i.result.spec === 'easy').result.rects;
    const out = [];
    for (let i = 0; i < r.length; i += 7) if (r[i + 6] >= 2) out.push({ start: r[i], end: r[i + 1], lo: r[i + 2], hi: r[i + 3], job: r[i + 5] });
    return out;
  });
  const gpuSum = rows.slice(1).reduce((a, r) => a + Number(r.split(',').at(-1)), 0);
  assert.equal(lanes.reduce((a, l) => a + l.hi - l.lo, 0), 2 * gpuSum);
  const gpuSet = new Set(nodes.gpu_jobs);
  for (const [i, a] of lanes.entries()) {
    const k = Math.floor(a.lo / 24);
    assert.ok(a.lo >= nodes.lane_first[k] && a.hi <= nodes.lane_first[k] + 8 && gpuSet.has(a.job), JSON.stringify(a));
    for (const b of lanes.slice(i + 1)) {
      assert.ok(!(a.start < b.end && b.start < a.end && a.lo < b.hi && b.lo < a.hi), `${JSON.stringify(a)} and ${JSON.stringify(b)} share a lane`);
    }
  }
  // The lanes' pale background shows (a free GPU), and the tooltip over a lane names it.
  const gantt = p.locator('[data-testid="chart-gantt"][data-policy="easy"]');
  await gantt.scrollIntoViewIfNeeded();
  const at = await gantt.evaluate((c, rows) => {
    const g = window.schedlab.gantts, item = g.items.find((i) => i.result.spec === 'easy'), a = item.area, [w0, w1] = item.drawn;
    const d = c.getContext('2d').getImageData(a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0).data;
    let pale = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 226 && d[i + 1] === 233 && d[i + 2] === 245) pale += 1;
    const r = item.result.rects;
    let best = -1;
    for (let i = 0; i < r.length; i += 7) if (r[i + 6] >= 2 && (best < 0 || r[i + 1] - r[i] > r[best + 1] - r[best])) best = i;
    const t = (r[best] + r[best + 1]) / 2, row = (r[best + 2] + r[best + 3]) / 2;
    const x = a.x0 + ((t - w0) / (w1 - w0)) * (a.x1 - a.x0), y = a.y1 - (row / rows) * (a.y1 - a.y0);
    const box = c.getBoundingClientRect(), css = box.width / (c.width / (Number(c.dataset.dpr) || 1));
    return { pale: pale / (d.length / 4), x: box.left + x * css, y: box.top + y * css };
  }, nodes.rows);
  assert.ok(at.pale > 0.01, `${at.pale} of the plot in the lanes' background`);
  await p.mouse.move(at.x, at.y);
  const tip = p.locator('[data-testid="gantt-tooltip"]');
  await tip.waitFor({ state: 'visible', timeout: 10_000 });
  assert.match(await tip.textContent(), /GPU lanes: the GPUs it holds on this node/);
  await p.mouse.move(0, 0);
  await gantt.screenshot({ path: join(SHOTS, 'cluster-gantt-gpu-1400.png') });
  // Changing the share generates the trace again; the link says so.
  await p.locator('[data-testid="generate-panel"] summary').click();
  const n = await runs(p);
  await p.locator('[data-testid="generate-gpu-share"]').fill('0.5');
  await p.locator('[data-testid="generate-gpu-share"]').press('Tab');
  await waitRuns(p, n + 1, 60_000);
  const href = await p.locator('[data-testid="share-link"]').getAttribute('href');
  assert.ok(href.includes('gpushare=0.5') && href.includes('gpucounts=1:1,2:1'), href);
  assert.notDeepEqual(await table(p), got);
  // A bad share is refused with the option's label.
  await p.locator('[data-testid="generate-gpu-counts"]').fill('one');
  await p.locator('[data-testid="trace-generate"]').click();
  assert.match(await errorsText(p), /GPU counts/);
  assert.deepEqual(probs, []);
  await context.close();
});

test('slurm.conf lines that make no cluster refuse the run, with their error, whether a cluster was set before or none', { skip }, async () => {
  const { page: p, problems: probs, context } = await open(browser, '#v=1&trace=demo:hpc2n&policy=easy&seed=1');
  await waitRuns(p, 1, 60_000);
  const paste = async (text) => {
    await p.$eval('[data-testid="cluster-panel"]', (d) => { d.open = true; });
    await p.locator('[data-testid="cluster-conf"]').fill(text);
    await p.locator('[data-testid="cluster-apply"]').click();
  };
  const bad = 'NodeName=n[1-4] CPUs=abc\nPartitionName=x Nodes=ALL Default=YES\n';
  const refused = async (was) => {
    assert.equal(await p.locator('[data-testid="cluster-error"]').innerText(), 'slurm.conf:1: CPUs: expected a whole number, got "abc"');
    const n = await runs(p);
    await p.locator('[data-testid="run"]').click();
    await p.waitForTimeout(1500); // a run would start at once (0.1 s on HPC2N)
    assert.equal(await runs(p), n, 'nothing ran');
    assert.equal(await p.locator('[data-testid="opt-cluster"]').inputValue(), was);
    assert.match(await errorsText(p), /Cluster: the slurm\.conf lines make no cluster \(slurm\.conf:1: CPUs: expected a whole number, got "abc"\): fix them and press “Use these lines”, or choose a cluster/);
  };
  // No cluster yet: before, the run went on the trace's processors as one pool.
  await paste(bad);
  await refused('');
  // A good cluster, run; then bad lines: before, the run went on the good one, silently.
  await paste('NodeName=n[1-60] CPUs=4\nPartitionName=x Nodes=ALL Default=YES\n');
  let n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  const good = await p.locator('[data-testid="opt-cluster"]').inputValue();
  assert.match(good, /^1\/n\[1-60\]:c4/);
  await paste(bad);
  await refused(good);
  // Fixed lines run, as does a preset chosen instead.
  await paste('NodeName=n[1-30] CPUs=8\nPartitionName=x Nodes=ALL Default=YES\n');
  n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  await paste(bad);
  await p.locator('[data-testid="cluster-preset"]').selectOption('');
  n = await clickRun(p);
  await waitRuns(p, n + 1, 60_000);
  assert.deepEqual(probs, []);
  await context.close();
});
