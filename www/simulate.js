// What a simulation worker does with the page's requests (the protocol is in worker.js), shared
// by the pool's workers (worker.js: built-in policies only) and the sealed worker of a
// JavaScript policy (sealed.js: one run, then terminated). `post` is how each talks to the page.
import * as engine from '../pkg/schedlab.js';
import { compile, decider } from './custom.js';
import { prepareDistributions, buffersOf } from './jobcols.js';

const { Session, has_panicked } = engine;

const PROGRESS_MS = 100;
/** The simulations of one worker: `post(message, transfer)` sends to the page; `alive()` is
 * called at every scheduling pass of a JavaScript policy (the sealed worker's heartbeat).
 * Returns {run, sweep, exportCsv}, each taking the page's message. */
export function simulator(post, alive = () => {}) {
  let current = null; // { id, session, local: Map(comparison index -> index of the run in session) }

  /** The session of run `id` (read now unless this worker already holds it), or null after
   * posting the error of run `id`. `noteSpec`: the request's first `slurm` spec, whose phases
   * note goes with the facts (`calc_phase=read` says what it read), or undefined. */
  function sessionFor(id, name, bytes, options, noteSpec) {
    if (current && current.id === id) return current.session;
    if (current) {
      try { current.session.free(); } catch { /* already gone after a panic */ }
      current = null;
    }
    let session;
    try {
      session = new Session(name, bytes, options);
    } catch (err) {
      fail(id, 'trace', err);
      return null;
    }
    current = { id, session, local: new Map() };
    post({ type: 'facts', id, facts: factsFor(session, noteSpec), traceStats: session.trace_stats() });
    return session;
  }

  /** The trace's facts, with the phases note of `noteSpec` (the CLI's note for that spec) when
   * it is given, else of plain `slurm`. */
  function factsFor(session, noteSpec) {
    const facts = session.facts();
    if (noteSpec && session.phases_note) facts.phases_note = session.phases_note(noteSpec) ?? null;
    return facts;
  }

  /** Drops the session after an error (it may be broken). */
  function drop() {
    if (!current) return;
    try { current.session.free(); } catch { /* already gone after a panic */ }
    current = null;
  }

  /** The decide(pass) function of the page's JavaScript policy for `spec` (`js:NAME`), for one
   * run of `session`; the code is compiled once per trace. */
  function customDecider(session, spec, custom) {
    if (!custom || `js:${custom.name}` !== spec) throw new Error(`no custom policy named ${spec.slice(3)} in the editor`);
    current.schedule ??= compile(custom.code);
    current.jobView ??= session.job_view();
    const decide = decider(current.schedule, current.jobView, session.facts().procs);
    return (pass) => { alive(); return decide(pass); };
  }

  // The session of a request's trace, or null once a failure has been reported (stage 'trace').
  function openSession(id, name, bytes, options, noteSpec) {
    try {
      return sessionFor(id, name, bytes, options, noteSpec);
    } catch (err) {
      fail(id, 'trace', err);
      return null;
    }
  }

  // The trace's bytes of a request, taken out of it: once the session has read them, nothing in
  // this worker holds them (a large trace's file is not kept alongside its jobs).
  function takeBytes(msg) {
    const { bytes } = msg;
    msg.bytes = null;
    return bytes;
  }

  function sweep(msg) {
    const { id, name, options, specs, seeds, metric, custom, noteSpec } = msg;
    let stage = 'trace';
    const session = openSession(id, name, takeBytes(msg), options, noteSpec);
    if (!session) return;
    try {
      const total = specs.reduce((n, values) => n + values.length * seeds, 0);
      const stats = new Float64Array(total / seeds * 3);
      let done = 0, at = 0, last = performance.now();
      post({ type: 'progress', id, index: 0, done, total });
      for (const values of specs) {
        for (const spec of values) {
          stage = spec;
          let sum = 0, min = Infinity, max = -Infinity;
          for (let seed = 1; seed <= seeds; seed++) {
            const x = spec.startsWith('js:')
              ? session.measure_js(custom.name, customDecider(session, spec, custom), seed, metric)
              : session.measure(spec, seed, metric);
            sum += x; min = Math.min(min, x); max = Math.max(max, x);
            done += 1;
            const now = performance.now();
            if (now - last >= PROGRESS_MS) {
              last = now;
              post({ type: 'progress', id, index: 0, done, total });
            }
          }
          stats.set([sum / seeds, min, max], at);
          at += 3;
        }
      }
      post({ type: 'result', id, index: 0, stats }, [stats.buffer]);
      post({ type: 'done', id });
    } catch (err) {
      fail(id, stage, err);
      drop();
    }
  }

  function fail(id, stage, err) {
    let panicked = false;
    try { panicked = has_panicked(); } catch { panicked = true; }
    const message = err instanceof Error ? err.message : String(err);
    post({ type: 'error', id, stage, message, panicked });
    return panicked;
  }

  function exportCsv({ req, index, kind }) {
    try {
      if (!current) throw new Error('no finished run to export: run the comparison again');
      const local = current.local.get(index) ?? index;
      const s = current.session;
      const csv = kind === 'runs' ? s.runs_csv(local) : kind === 'alloc' ? s.alloc_csv(local) : s.jobs_csv(local);
      post({ type: 'export', req, csv });
    } catch (err) {
      post({ type: 'export', req, error: err instanceof Error ? err.message : String(err) });
    }
  }

  function run(msg) {
    const { id, name, options, specs, indices, seed, custom, noteSpec } = msg;
    let stage = 'trace';
    const session = openSession(id, name, takeBytes(msg), options, noteSpec);
    if (!session) return;
    try {
      for (let k = 0; k < specs.length; k++) {
        const index = indices ? indices[k] : k;
        stage = specs[k];
        let last = performance.now();
        post({ type: 'progress', id, index, done: 0, total: 1 });
        const progress = (done, total) => {
          const now = performance.now();
          if (now - last >= PROGRESS_MS) {
            last = now;
            post({ type: 'progress', id, index, done, total });
          }
          return true;
        };
        let report;
        if (specs[k].startsWith('js:')) {
          report = session.run_js(custom.name, customDecider(session, specs[k], custom), seed, progress);
        } else {
          report = session.run(specs[k], seed, progress);
        }
        current.local.set(index, current.local.size);
        const rects = session.rects();
        const jobs = session.jobs();
        const series = session.series();
        const eetUsers = session.eet_users();
        const violations = session.violations();
        const memory = session.memory();
        // Penalty factors per job (node model; empty otherwise or with an older pkg/).
        const factors = session.factors ? session.factors() : new Float64Array(0);
        // The distribution charts' data, prepared here while the page waits for the next policy.
        const dist = prepareDistributions(engine, jobs, report.machine_procs);
        // On a cluster, its nodes' rows for the Gantt chart ({first, names}; null without one).
        const nodeRows = session.node_rows ? session.node_rows() : null;
        post({ type: 'result', id, index, spec: specs[k], report, rects, jobs, series, eetUsers, violations, memory, factors, dist, nodeRows },
          [rects.buffer, jobs.buffer, series.buffer, eetUsers.buffer, violations.buffer, memory.buffer, factors.buffer, ...buffersOf(dist)]);
      }
      post({ type: 'done', id });
    } catch (err) {
      // A policy that failed alone (one refusing a cluster, say) leaves the session whole: the
      // runs made on it stay exportable and the pool's next policy reuses it.
      if (fail(id, stage, err)) drop();
    }
  }

  return { run, sweep, exportCsv };
}
