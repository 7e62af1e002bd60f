// Generated from src/output/layouts.rs (the typed-array layouts) by
// `UPDATE_LAYOUTS=1 cargo test --test integration layouts::`; a test checks that it is up to date.
// Do not edit: change the registry and regenerate.

// Session.rects: one execution attempt's rectangle: processors [lo, hi) (rows with GPU lanes: Session.node_rows), job index, kind 1 = a preempted attempt, + 2 = GPU lanes.
export const RECT = Object.freeze({ start: 0, end: 1, lo: 2, hi: 3, user: 4, job: 5, kind: 6, stride: 7 });

// Session.jobs: per job in arrival order: start/end -1 when it did not run; reason a START_REASONS code (16 + i: the run's start_reason_words[i]); reservation the first reservation (-1: none); waitedFor the index of the running job whose planned end it was (-1: none).
export const JOB = Object.freeze({ id: 0, user: 1, submit: 2, start: 3, end: 4, procs: 5, wait: 6, bsld: 7, reason: 8, reservation: 9, waitedFor: 10, stride: 11 });

// Session.series: one point per instant with a change.
export const SERIES = Object.freeze({ time: 0, busy: 1, queued: 2, stride: 3 });

// Start reasons by code (JOB.reason): 0 none, then the built-in words; 16 + i is a policy's own word i.
export const START_REASONS = Object.freeze(['', 'head', 'backfilled', 'extra', 'reserved', 'restarted', 'replay', 'venture', 'ahead']);
