// The results table's cells round as the CLI's table does (www/units.js), so that the page and
// `schedlab run` show the same figures. No browser: `node --test tests/browser/units.test.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shown, roundAsCli, columnUnit } from '../../www/units.js';

test('a cell rounds the double\'s exact value, an exact half to the even digit, as Rust\'s {:.N}', () => {
  // The Slurm demo's slurm mean response is 11007/60 = 183.45, stored as 183.44999999999998863:
  // the CLI prints 183.4 (`{:.1}`); the page showed 183.5 (Math.round(1834.5) / 10).
  const s1 = columnUnit('s', 1, [183.45, 200.6]);
  assert.equal(shown(11007 / 60, s1), 183.4);
  assert.equal(shown(-11007 / 60, s1), -183.4);
  // Exact halves (0.125, 2.5 and 0.375 are doubles exactly): Rust goes to the even digit,
  // 0.12, 2 and 0.38; toFixed would give 0.13 and 3.
  assert.equal(roundAsCli(0.125, 2), 0.12);
  assert.equal(roundAsCli(2.5, 0), 2);
  assert.equal(roundAsCli(3.5, 0), 4);
  assert.equal(roundAsCli(0.375, 2), 0.38);
  // Not halves: to the nearest (81.48333 -> 81.5; 1.005 is 1.00499999999999989: 1.00).
  assert.equal(roundAsCli(81.48333333333333, 1), 81.5);
  assert.equal(roundAsCli(1.005, 2), 1);
  assert.equal(roundAsCli(0, 1), 0);
  // Hours and days keep two decimals of the scaled value: 5,400 s is 1.5 h.
  assert.equal(shown(5400, { unit: 'h', scale: 3600, digits: 2 }), 1.5);
  assert.ok(Number.isNaN(shown(NaN, s1)));
});
