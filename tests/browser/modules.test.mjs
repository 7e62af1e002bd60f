// The page's modules that read the engine's registries, in Node (no browser): session.js reads
// CLI flags as the CLI does, from the options schema (www/options.js); metrics.js reads a
// report's figures by the metrics catalogue, and is the only module of the page that does.
// Run through scripts/browser-test.sh (or `node --test tests/browser/modules.test.mjs`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, cliBinary } from './helpers.mjs';
import { fromFlags, sessionOptions } from '../../www/session.js';
import { metricReader } from '../../www/metrics.js';
import { FAMILIES, CLASSIC_TABS, tabOf } from '../../www/results.js';

const TINY = 'tests/browser/fixtures/tiny.swf';
const cli = (args) => JSON.parse(execFileSync(cliBinary(), args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString());
const NO_CLI = cliBinary() ? false : 'no CLI binary';

/** `null` for absent values, so that an unset option and the CLI's `null` compare equal. */
const plain = (v) => (v === undefined || v === null ? null
  : Array.isArray(v) ? v.map(plain)
    : typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]).filter(([, x]) => x !== null)) : v);

test('CLI flags mean for the page what they mean for the CLI (the input options of its report)', { skip: NO_CLI }, () => {
  const { entries } = JSON.parse(readFileSync(join(ROOT, 'www/gallery/entries.json'), 'utf8'));
  const samples = [...entries.map((e) => e.args), ['--no-kill', '--wide', 'clamp', '--origin', 'trace', '--procs', '100'],
    ['--skip-status', '0,5', '--skip-zero-runtime', '--offline', '--estimate', 'runtime'],
    ['--nodes', '--cores', '8', '--bandwidth', '3000', '--demands', '100,200,300', '--bandwidth-field', '19']];
  for (const args of new Set(samples.map((a) => JSON.stringify(a)))) {
    const flags = JSON.parse(args);
    const [report] = cli(['run', TINY, '-p', 'easy', '--json', ...flags]);
    const page = sessionOptions(fromFlags(flags));
    for (const [key, want] of Object.entries(report.input)) assert.deepEqual(plain(page[key]), plain(want), `${args}: ${key}`);
    assert.equal(page.metrics.bsld_bound, report.metrics.bsld_bound, args);
  }
  assert.throws(() => fromFlags(['--speed', '2']), /--speed is not an option/);
  assert.throws(() => fromFlags(['--mix', 'huge']), /--mix huge: expected high, med, low/);
  assert.throws(() => fromFlags(['--max-jobs']), /needs a value/);
});

test('every catalogue path reads a number from a report, by the catalogue\'s families', { skip: NO_CLI }, () => {
  const catalogue = cli(['metrics', '--json']);
  const read = metricReader(catalogue);
  const [easy, conservative] = cli(['run', TINY, '-p', 'easy', '-p', 'conservative', '--nodes', '--json']);
  // The cluster family is in the reports of runs on a cluster only.
  const [onCluster] = cli(['run', TINY, '-p', 'easy', '--cluster', 'gpu', '--json']);
  for (const m of catalogue) {
    const v = read(m.family === 'guarantee' ? conservative : m.family === 'cluster' ? onCluster : easy, m.path);
    assert.equal(typeof v, 'number', `${m.name} at ${m.path}`);
  }
  // A classic path is read inside report.metrics even where the report has an object of that
  // name too (its counts); other families from their own objects.
  const changed = { ...easy, counts: { ...easy.counts, jobs: -1 } };
  assert.equal(read(changed, 'counts.jobs'), easy.metrics.counts.jobs);
  assert.equal(read(easy, 'eet.veet.median'), easy.eet.veet.median);
  assert.equal(read(easy, 'fairness.blocked.big_mwbs'), easy.fairness.blocked.big_mwbs, 'a path outside the catalogue');
  assert.equal(read({ metrics: {} }, 'penalty.bsld.mean'), undefined);
});

test('the results table groups metrics by the catalogue\'s family', { skip: NO_CLI }, () => {
  const catalogue = cli(['metrics', '--json']);
  const tabs = FAMILIES.map(([id]) => id);
  for (const m of catalogue) assert.ok(tabs.includes(tabOf(m)), `${m.name}: tab ${tabOf(m)}`);
  for (const m of catalogue.filter((x) => x.family !== 'classic')) assert.equal(tabOf(m), m.family === 'guarantee' ? 'fairness' : m.family, m.name);
  // The classic family's tabs name catalogue metrics of that family (a renamed one fails here).
  for (const [tab, names] of Object.entries(CLASSIC_TABS)) {
    for (const n of names) assert.equal(catalogue.find((m) => m.name === n)?.family, 'classic', `${tab}: ${n}`);
  }
  assert.deepEqual(tabs.filter((t) => !catalogue.some((m) => tabOf(m) === t)), [], 'an empty tab');
});

test('no page module but metrics.js reads a report\'s figures by path', () => {
  const files = (dir) => readdirSync(join(ROOT, dir), { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? (d.name === 'vendor' || d.name === 'demo' ? [] : files(join(dir, d.name))) : d.name.endsWith('.js') ? [join(dir, d.name)] : []));
  const readers = [];
  for (const f of files('www')) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    if (f === join('www', 'metrics.js')) continue;
    // A report's figures: report.metrics..., or a path split into keys and walked.
    if (/report\??\.metrics\b|\.metrics\??\.(wait|mbs|counts)\b|ROOTS|keys\[0\] in report/.test(text)) readers.push(f);
  }
  assert.deepEqual(readers, []);
  for (const f of ['www/results.js', 'www/charts.js', 'www/gallery/gallery.js']) {
    assert.match(readFileSync(join(ROOT, f), 'utf8'), /import \{[^}]*metricReader[^}]*\} from '[./]+metrics\.js'/, f);
  }
});

test('every page module is under 500 lines (a longer one is split by idea)', () => {
  const files = (dir) => readdirSync(join(ROOT, dir), { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? (d.name === 'vendor' || d.name === 'demo' ? [] : files(join(dir, d.name))) : d.name.endsWith('.js') ? [join(dir, d.name)] : []));
  const long = files('www').map((f) => [f, readFileSync(join(ROOT, f), 'utf8').split('\n').length - 1]).filter(([, n]) => n >= 500);
  assert.deepEqual(long, []);
});
