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
// and it returns the jobs to start now, in order: ids, or {id, reason} with the policy's own
// start reason (a word: lowercase letters, digits, '-'; shown in the Gantt tooltip and the jobs
// CSV; built-in words such as 'backfilled' are checked). The engine checks every id.
// The code runs only in a sealed worker of its own (sealed.js, lockdown.js: no network, no way
// to speak to the page), made for each run by the page it was typed into (or loaded from a
// file there); it never travels in a link.
import { parse, tokenizer, tokTypes } from './vendor/acorn.mjs';

// The Function constructor, taken before the sealed worker's wall (lockdown.js) removes it from
// the scope of the user's code.
const FunctionCtor = Function;

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
// reserved job leaves over. Each start may say why (jobs started without a reason are 'head',
// or 'ahead' when an earlier job is still waiting).
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
      start.push({ id: job.id, reason: 'backfilled' });
    } else if (job.procs <= extra) {
      extra -= job.procs;
      free -= job.procs;
      start.push({ id: job.id, reason: 'extra' });
    }
  }
  return start;
}
`,
};

export const MAX_CODE = 100_000;

/** Where a syntax error is: `new Function` reports none in Chromium, so the code is parsed
 * again with acorn (www/vendor/acorn.mjs, used for this alone: never to run anything) as the
 * body of a function. Returns "line L, column C: message" or null when acorn finds nothing. */
export function syntaxErrorAt(code) {
  // Strict, as the worker compiles it: the directive sits on line 1, before the user's code.
  const strict = '"use strict";';
  try {
    parse(strict + code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, locations: true });
  } catch (err) {
    if (err instanceof SyntaxError && err.loc) {
      const message = err.message.replace(/\s*\(\d+:\d+\)$/, '');
      const column = err.loc.column + 1 - (err.loc.line === 1 ? strict.length : 0);
      const hint = bracketHint(code);
      return `line ${err.loc.line}, column ${Math.max(1, column)}: ${message}${hint ? ` (${hint})` : ''}`;
    }
  }
  return null;
}

/** Where a bracket is likely missing or one too many, when the parser's position is past the
 * mistake (a stray `}` parses until the next one): the first pair of brackets whose lines are
 * indented differently, or an opening bracket never closed. `null` when the brackets agree with
 * the indentation or the code does not tokenize. */
export function bracketHint(code) {
  const lines = code.split('\n');
  const indent = (line) => (lines[line - 1] ?? '').match(/^\s*/)[0].replace(/\t/g, '  ').length;
  const open = [];
  const pairs = { '}': '{', ')': '(', ']': '[' };
  try {
    for (const token of tokenizer(code, { ecmaVersion: 'latest', locations: true, allowHashBang: true })) {
      const t = token.type.label;
      if (t === '{' || t === '${' || t === '(' || t === '[') open.push({ ch: t === '${' ? '{' : t, at: token.loc.start });
      else if (t === '}' || t === ')' || t === ']') {
        const at = token.loc.start;
        const o = open.pop();
        if (!o) return `the '${t}' of line ${at.line} closes nothing: one too many?`;
        if (o.ch !== pairs[t]) {
          const want = { '{': '}', '(': ')', '[': ']' }[o.ch];
          return `the '${t}' of line ${at.line} meets the '${o.ch}' of line ${o.at.line}: one too many, or a '${want}' missing?`;
        }
        // A closing bracket alone at the start of its line sits under its opening line.
        const first = (lines[at.line - 1] ?? '').trimStart().startsWith(t);
        if (t === '}' && at.line > o.at.line && first && indent(at.line) !== indent(o.at.line)) {
          return `the '{' of line ${o.at.line} is closed by the '}' of line ${at.line}, indented otherwise: a '}' missing or one too many?`;
        }
        if (t === '}' && at.line > o.at.line && !first && (lines[at.line - 1] ?? '').trimStart().startsWith('}')) {
          return `the '{' of line ${o.at.line} is closed by the second '}' of line ${at.line}: one too many?`;
        }
      }
    }
  } catch { return null; }
  const o = open.pop();
  return o ? `the '${o.ch}' of line ${o.at.line} is never closed` : null;
}

/** What the code may not do although it parses: `import(...)` (a module load is a request to
 * the network, the one the sealed worker's scope cannot take away). Returns a message or null;
 * code that does not tokenize is left to the syntax check. */
export function forbidden(code) {
  try {
    // `import (`, not a property named import (`x.import(...)`).
    let prev = null, held = null;
    for (const token of tokenizer(code, { ecmaVersion: 'latest', locations: true, allowHashBang: true })) {
      if (held && token.type === tokTypes.parenL) {
        return `line ${held.loc.start.line}: a policy may not load modules (import() is refused: the policy runs without network)`;
      }
      held = token.type === tokTypes._import && prev !== tokTypes.dot && prev !== tokTypes.questionDot ? token : null;
      prev = token.type;
    }
  } catch { /* a syntax error: reported by the syntax check */ }
  return null;
}

/** The message of a syntax error thrown by `new Function(code)`, with its line and column. */
export function syntaxMessage(code, err) {
  const at = syntaxErrorAt(code);
  return at ? `syntax error at ${at}` : `syntax error: ${err.message}`;
}
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
    new FunctionCtor(`${PREFIX}throw new Error('probe');`)();
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
  const refused = forbidden(code);
  if (refused) throw new Error(`the code is refused: ${refused}`);
  let schedule;
  let make;
  try {
    make = new FunctionCtor(PREFIX + code + SUFFIX);
  } catch (err) {
    throw new Error(`the code does not compile: ${err instanceof SyntaxError ? syntaxMessage(code, err) : describe(err)}`);
  }
  try {
    schedule = make();
  } catch (err) {
    throw new Error(`the code does not run: ${describe(err)}`);
  }
  if (typeof schedule !== 'function') throw new Error('the code defines no function schedule(view)');
  return schedule;
}

/** The `decide(pass)` function Session.run_js calls at every pass: `pass` is a Float64Array
 * [now, free, W, R, L, A, L indices of the jobs the previous pass started, A indices of the
 * jobs submitted since, R running (index, start, planned end) triples], reused between passes.
 * Keeps the waiting list from these changes, builds the view and calls the user's
 * schedule(view). `view.waiting` is copied (and each job's `wait` set) only when the policy
 * reads it, so a pass that does not look at the queue costs what changed, not its length. */
export function decider(schedule, jobView, procs) {
  const jobs = [];
  for (let i = 0; i < jobView.length; i += 6) {
    jobs.push({ id: jobView[i], user: jobView[i + 1], procs: jobView[i + 2], submit: jobView[i + 3],
      requested: jobView[i + 4], estimate: jobView[i + 5], wait: 0 });
  }
  const runs = new Map();
  const queue = []; // the waiting jobs in arrival order
  let copy = null; // this pass's view.waiting, once read
  const view = { now: 0, procs, free: 0, running: [], earliest, freeAt };
  Object.defineProperty(view, 'waiting', {
    enumerable: true,
    get() {
      if (!copy) {
        copy = queue.slice();
        for (const j of copy) j.wait = view.now - j.submit;
      }
      return copy;
    },
    set(value) { copy = value; },
  });
  // The planned ends (sorted) and widths of the running jobs plus `starting` (ending after
  // their estimate from now).
  const endT = [], endP = [];
  function ends(starting) {
    const run = view.running;
    endT.length = 0;
    endP.length = 0;
    if (!starting.length) {
      for (const r of run) { endT.push(r.plannedEnd); endP.push(r.procs); }
      return;
    }
    const extra = starting.map((j) => [view.now + j.estimate, j.procs]).sort((a, b) => a[0] - b[0]);
    let i = 0, k = 0;
    while (i < run.length || k < extra.length) {
      if (k >= extra.length || (i < run.length && run[i].plannedEnd <= extra[k][0])) {
        endT.push(run[i].plannedEnd); endP.push(run[i].procs); i++;
      } else {
        endT.push(extra[k][0]); endP.push(extra[k][1]); k++;
      }
    }
  }
  function used(starting) {
    let n = 0;
    for (const j of starting) n += j.procs;
    return n;
  }
  function earliest(need, starting = []) {
    let avail = view.free - used(starting);
    if (avail >= need) return view.now;
    ends(starting);
    for (let i = 0; i < endT.length; i++) {
      avail += endP[i];
      if (avail >= need) return endT[i];
    }
    return Infinity;
  }
  function freeAt(t, starting = []) {
    let avail = view.free - used(starting);
    ends(starting);
    for (let i = 0; i < endT.length && endT[i] <= t; i++) avail += endP[i];
    return avail;
  }
  return (pass) => {
    const now = pass[0], nw = pass[2], nr = pass[3], nl = pass[4], na = pass[5];
    view.now = now;
    view.free = pass[1];
    copy = null;
    let at = 6;
    if (nl > 0) {
      const gone = new Set();
      for (let k = 0; k < nl; k++) gone.add(jobs[pass[at + k]]);
      let w = 0;
      for (let r = 0; r < queue.length; r++) if (!gone.has(queue[r])) queue[w++] = queue[r];
      queue.length = w;
      at += nl;
    }
    for (let k = 0; k < na; k++) queue.push(jobs[pass[at + k]]);
    at += na;
    if (queue.length !== nw) throw new Error(`schedlab: the page's waiting list is out of step (${queue.length} jobs, the engine has ${nw})`);
    const running = new Array(nr);
    const runAt = at;
    for (let k = 0; k < nr; k++, at += 3) {
      const i = pass[at];
      let r = runs.get(i);
      if (!r) {
        const j = jobs[i];
        r = { id: j.id, user: j.user, procs: j.procs, start: 0, plannedEnd: 0 };
        runs.set(i, r);
      }
      r.start = pass[at + 1];
      r.plannedEnd = pass[at + 2];
      running[k] = r;
    }
    if (runs.size > 4 * nr + 1024) {
      runs.clear();
      for (let k = 0, r = runAt; k < nr; k++, r += 3) runs.set(pass[r], running[k]);
    }
    view.running = running;
    try {
      return schedule(view);
    } catch (err) {
      throw new Error(describe(err));
    }
  };
}
