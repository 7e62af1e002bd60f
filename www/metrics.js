// A figure of a run's JSON report (`schedlab run --json`, the report the worker sends back), read
// by the engine's metrics catalogue (the facade's `metrics()`: each metric's name, JSON path and
// family): the one rule the results table, the overview, the papers gallery and the tests use.
// No DOM: the tests import it in Node too.

/** A reader of report paths for `catalogue`: `read(report, path)` is the value at the dotted
 * `path`, or undefined where the report has none (a node-model figure of a run without the node
 * model). The classic family's paths are read inside `report.metrics`; every other family has
 * its own object in the report, named by the first key of its paths (`eet.veet.median` is
 * `report.eet.veet.median`, `wait.mean` is `report.metrics.wait.mean`); paths outside the
 * catalogue (`fairness.blocked.big_mwbs`) follow the same rule. */
/** Figures that count discarded work as useful (so that they never get the best-of-column
 * star), by catalogue path: the report path of that work. Utilization counts the
 * processor-seconds of preempted runs, whose work is lost. */
export const COUNTS_DISCARDED = { utilization: 'wasted_cpu_seconds' };

export function metricReader(catalogue) {
  const roots = new Set(catalogue.filter((m) => m.family !== 'classic').map((m) => m.path.split('.')[0]));
  return (report, path) => {
    const keys = path.split('.');
    return keys.reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), roots.has(keys[0]) ? report : report.metrics);
  };
}
