// JavaScript policies (`js:NAME`): the examples the editor offers, and the worker's side of a run.
//
// The user writes `function schedule(view)`; at every scheduling pass the engine (in the worker)
// calls it with
//   view.now, view.procs (machine size), view.free (free processors now),
//   view.waiting: waiting jobs in arrival order, {id, user, procs, submit, requested, estimate, wait},
//   view.running: {id, user, procs, start, plannedEnd}, earliest planned end first,
//   view.earliest(procs, starting = []): the earliest time `procs` processors are free if
//     running jobs end at their planned ends (and the jobs in `starting`, being started now,
//     after their estimate),
//   view.freeAt(t, starting = []): the processors free at time t on the same assumption,
// and it returns the ids of the jobs to start now, in order. The engine checks every id.
// The code runs only in the worker of the page it was typed into (or loaded from a file
// there); it never travels in a link.

export const EXAMPLES = {
  fcfs: `// FCFS: jobs start in arrival order while the first one fits; nothing overtakes it.
function schedule(view) {
  const start = [];
  let free = view.free;
  for (const job of view.waiting) {
    if (job.procs > free) break;
    free -= job.procs;
    start.push(job.id);
  }
  return start;
}
`,
  easy: `// EASY backfilling: jobs start in arrival order while they fit. The first one that does not
// fit gets a reservation at its shadow time (when enough processors will be free); a later job
// may start now if it fits and ends by then (by its estimate), or uses only processors that the
// reserved job leaves over.
function schedule(view) {
  const q = view.waiting, start = [], starting = [];
  let free = view.free, k = 0;
  for (; k < q.length && q[k].procs <= free; k++) {
    free -= q[k].procs;
    start.push(q[k].id);
    starting.push(q[k]);
  }
  if (k === q.length || free === 0) return start;
  const shadow = view.earliest(q[k].procs, starting);
  let extra = view.freeAt(shadow, starting) - q[k].procs;
  for (const job of q.slice(k + 1)) {
    if (free === 0) break;
    if (job.procs > free) continue;
    if (view.now + job.estimate <= shadow) {
      free -= job.procs;
      start.push(job.id);
    } else if (job.procs <= extra) {
      extra -= job.procs;
      free -= job.procs;
      start.push(job.id);
    }
  }
  return start;
}
`,
};

export const MAX_CODE = 100_000;
const PREFIX = '"use strict";\n';
const SUFFIX = '\n;return typeof schedule === "function" ? schedule : undefined;';

/** The line of the user's code a stack trace points at, or null. */
function codeLine(err) {
  const stack = String(err?.stack ?? '');
  const m = stack.match(/(?:<anonymous>|> Function):(\d+):\d+/);
  if (!m) return null;
  const line = Number(m[1]) - LINE_OFFSET;
  return line >= 1 ? line : null;
}

// Where the first line of the user's code lands in a stack trace (the engine wraps a Function
// body in a header of its own).
const LINE_OFFSET = (() => {
  try {
    new Function(`${PREFIX}throw new Error('probe');`)();
  } catch (err) {
    const m = String(err.stack).match(/(?:<anonymous>|> Function):(\d+):\d+/);
    if (m) return Number(m[1]) - 1;
  }
  return 2;
})();

/** A thrown value as a message with the line of the user's code where it happened. */
export function describe(err) {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : `threw ${String(err)}`;
  const line = codeLine(err);
  return line ? `${text} (line ${line})` : text;
}

/** Compiles the user's code; returns its schedule function or throws a clear Error. */
export function compile(code) {
  if (typeof code !== 'string' || !code.trim()) throw new Error('the custom policy has no code');
  if (code.length > MAX_CODE) throw new Error(`the custom policy is longer than ${MAX_CODE.toLocaleString('en-US')} characters`);
  let schedule;
  try {
    schedule = new Function(PREFIX + code + SUFFIX)();
  } catch (err) {
    throw new Error(`the code does not run: ${describe(err)}`);
  }
  if (typeof schedule !== 'function') throw new Error('the code defines no function schedule(view)');
  return schedule;
}

/** The `decide(now, free, waiting, running)` function Session.run_js calls at every pass:
 * builds the view from the typed arrays (job indices) and calls the user's schedule(view). */
export function decider(schedule, jobView, procs) {
  const jobs = [];
  for (let i = 0; i < jobView.length; i += 6) {
    jobs.push({ id: jobView[i], user: jobView[i + 1], procs: jobView[i + 2], submit: jobView[i + 3],
      requested: jobView[i + 4], estimate: jobView[i + 5], wait: 0 });
  }
  const runs = new Map();
  const view = { now: 0, procs, free: 0, waiting: [], running: [], earliest, freeAt };
  function ends(starting) {
    const list = view.running.map((r) => [r.plannedEnd, r.procs]);
    for (const j of starting) list.push([view.now + j.estimate, j.procs]);
    if (starting.length) list.sort((a, b) => a[0] - b[0]);
    return list;
  }
  function used(starting) { return starting.reduce((n, j) => n + j.procs, 0); }
  function earliest(need, starting = []) {
    let avail = view.free - used(starting);
    if (avail >= need) return view.now;
    for (const [t, p] of ends(starting)) {
      avail += p;
      if (avail >= need) return t;
    }
    return Infinity;
  }
  function freeAt(t, starting = []) {
    let avail = view.free - used(starting);
    for (const [end, p] of ends(starting)) if (end <= t) avail += p;
    return avail;
  }
  return (now, free, waiting, running) => {
    view.now = now;
    view.free = free;
    view.waiting = Array.from(waiting, (i) => {
      const j = jobs[i];
      j.wait = now - j.submit;
      return j;
    });
    const list = [];
    for (let k = 0; k < running.length; k += 3) {
      const i = running[k];
      let r = runs.get(i);
      if (!r) {
        const j = jobs[i];
        r = { id: j.id, user: j.user, procs: j.procs, start: 0, plannedEnd: 0 };
        runs.set(i, r);
      }
      r.start = running[k + 1];
      r.plannedEnd = running[k + 2];
      list.push(r);
    }
    if (runs.size > 4 * list.length + 1024) {
      runs.clear();
      for (let k = 0; k < running.length; k += 3) runs.set(running[k], list[k / 3]);
    }
    view.running = list;
    try {
      return schedule(view);
    } catch (err) {
      throw new Error(describe(err));
    }
  };
}
