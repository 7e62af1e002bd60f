// The page's side of the sealed worker's protocol (www/seal.js), in Node (no browser), fuzzed by
// fast-check: whatever reaches its port, only the protocol's messages for its own task are
// passed on, in order (facts, then at most one result, then done), and nothing throws. The
// worker is a stub: only what the port delivers is under test. Run through
// scripts/browser-test.sh (or `node --test tests/browser/sealproto.test.mjs`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

globalThis.Worker ??= class { postMessage() {} terminate() {} };
const { SealedTask } = await import('../../www/seal.js');

const ID = 7;
const TASK = { index: 2, spec: 'js:t' };

/** A task whose handlers record what they were given. */
function make(kind) {
  const seen = [];
  const on = {};
  for (const name of ['facts', 'progress', 'result', 'done', 'failed', 'error']) on[name] = (m) => seen.push([name, m]);
  const t = new SealedTask(kind, TASK, { id: ID }, 60_000, on);
  return { t, seen };
}

const anyValue = fc.oneof(fc.anything(), fc.constantFrom(null, undefined, NaN, Infinity, -1, 0, 2, 7, 'js:t', 'fcfs', ''));
const message = fc.record({
  type: fc.constantFrom('facts', 'alive', 'progress', 'result', 'done', 'error', 'export', 'run', 'x'),
  id: fc.oneof(fc.constant(ID), anyValue),
  index: fc.oneof(fc.constant(TASK.index), fc.constant(0), anyValue),
  spec: fc.oneof(fc.constant(TASK.spec), anyValue),
  facts: fc.oneof(fc.constant({ jobs: 1 }), anyValue),
  report: fc.oneof(fc.constant({ policy: 'js:t' }), anyValue),
  stats: fc.oneof(fc.constant(new Float64Array(3)), anyValue),
  done: anyValue, total: anyValue, message: anyValue, stage: anyValue, req: anyValue,
}, { requiredKeys: [] });
const messages = fc.array(fc.oneof(message, anyValue), { maxLength: 30 });

/** Whether a handler call is one the protocol allows, given what came before. */
function lawful(kind, seen) {
  let facts = false, result = false, ended = false;
  for (const [name, m] of seen) {
    assert.ok(!ended, `${name} after the task ended`);
    switch (name) {
      case 'facts': assert.ok(!facts && typeof m.facts === 'object' && m.facts !== null); facts = true; break;
      case 'progress': assert.ok(facts && m.id === ID && Number.isFinite(m.done) && Number.isFinite(m.total)); break;
      case 'result':
        assert.ok(facts && !result && m.id === ID);
        if (kind === 'run') assert.ok(m.index === TASK.index && m.spec === TASK.spec && typeof m.report === 'object' && m.report !== null);
        else assert.ok(m.stats instanceof Float64Array && m.stats.length === 3);
        result = true;
        break;
      case 'done': assert.ok(result); ended = true; break;
      case 'failed': assert.equal(typeof m, 'string'); ended = true; break;
      case 'error': assert.equal(m.stage, 'trace'); ended = true; break;
      default: assert.fail(name);
    }
  }
}

for (const kind of ['run', 'sweep']) {
  test(`a ${kind}'s sealed task passes on only the protocol's messages, in order`, () => {
    fc.assert(fc.property(messages, (msgs) => {
      const { t, seen } = make(kind);
      try {
        for (const m of msgs) t.receive(m);
        lawful(kind, seen);
      } finally {
        t.stop();
      }
    }), { numRuns: 3000 });
  });
}

test('a well-formed run goes through: facts, progress, result, done', () => {
  const { t, seen } = make('run');
  t.receive({ type: 'facts', id: ID, facts: { jobs: 1 } });
  t.receive({ type: 'progress', id: ID, index: TASK.index, done: 1, total: 2 });
  t.receive({ type: 'result', id: ID, index: TASK.index, spec: TASK.spec, report: {} });
  t.receive({ type: 'done', id: ID });
  assert.deepEqual(seen.map(([name]) => name), ['facts', 'progress', 'result', 'done']);
  t.stop();
});
