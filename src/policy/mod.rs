//! Scheduling policies: each one a trait object that decides; the engine applies its decisions.
//!
//! Policies are named by spec strings (`easy[order=sjf]`), parsed strictly by [`build`]; the
//! catalogue ([`catalogue`]) lists every policy with its keys, defaults and source, and is what
//! the CLI's `policies` command and the page's policy picker show.

mod conservative;
mod conservative_free;
mod easy;
pub mod external;
mod fairshare;
mod fairshare_easy;
mod fairshare_fcfs;
mod fcfs;
mod historic;
mod order;
mod pv_easy;
mod rua;
pub mod select;
mod sjbf;
pub mod spec;

pub use external::{Decider, External, PassView};

/// Building blocks for policies written outside the catalogue (see
/// `examples/custom_policy.rs`): EASY's shadow time of a job and its backfilling step over any
/// order of candidates.
pub mod blocks {
    pub use super::easy::{backfill_by, reserve_head, shadow};
}
pub use spec::{Spec, SpecError};

use crate::input::Job;
use crate::sim::{Ctx, SimError};
use serde::Serialize;

/// A scheduling policy.
pub trait Policy {
    /// The canonical spec string of this configured policy.
    fn spec(&self) -> String;

    /// Called once before the simulation: the jobs this policy cannot schedule, with the reason.
    fn prepare(&mut self, _jobs: &[Job], _procs: u32) -> Vec<(usize, String)> {
        Vec::new()
    }

    /// One scheduling pass at `ctx.now()`.
    fn schedule(&mut self, ctx: &mut Ctx<'_>) -> Result<(), SimError>;
}

/// One key of a policy.
#[derive(Debug, Clone, Serialize)]
pub struct KeyInfo {
    pub name: &'static str,
    pub default: &'static str,
    /// Allowed values (`fcfs|sjf`) or a description of the range.
    pub values: &'static str,
    pub help: &'static str,
    /// Stored values with what they stand for (the `queue` key's priority expressions).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub presets: &'static [crate::expr::Preset],
}

/// A policy as listed in the catalogue.
#[derive(Debug, Clone, Serialize)]
pub struct PolicyInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    pub source: &'static str,
    pub keys: &'static [KeyInfo],
    #[serde(skip)]
    build: fn(&Params) -> Result<Box<dyn Policy>, SpecError>,
}

/// Every policy schedlab knows.
pub fn catalogue() -> &'static [PolicyInfo] {
    CATALOGUE
}

static CATALOGUE: &[PolicyInfo] = &[
    PolicyInfo {
        name: "fcfs",
        summary: "No backfilling: jobs start strictly in queue order (first come, first served by default).",
        description: "Jobs start strictly in queue order: while the first waiting job does not fit, nothing starts. The queue order is arrival by default; queue=sjf is Zotkin et al.'s sorted FCFS (shortest length first, still no backfilling).",
        source: "classic; sorted and randomized orders: Zotkin, Keleher & Perkovic, Attacking the bottlenecks of backfilling schedulers (Cluster Computing 2000), sections 5-8",
        keys: &[order::QUEUE, order::WEIGHT, PREDICTOR],
        build: fcfs::build,
    },
    PolicyInfo {
        name: "easy",
        summary: "EASY backfilling: a reservation for the first waiting job only.",
        description: "Jobs start in queue order (arrival by default; queue= sorts or randomizes it as in Zotkin et al.) while they fit. When the first waiting job does not fit, its shadow time is the earliest time enough processors are free if running jobs end at their planned end; a later job may start now if it fits and ends by the shadow time (by its estimate) or uses no more than the processors left over at the shadow time. With a predictor, predictions replace the estimates for planning (running jobs planned to end at their prediction, then at their kill time once they outlive it; shadow time and backfilling by predictions), as in Tsafrir et al.'s EASY with predictions; the kill time stays the requested time.",
        source: "Lifka 1995; as defined in Mu'alem & Feitelson 2001 and the PV-EASY paper (Yuan et al., HPDC'10); queue orders: Zotkin, Keleher & Perkovic (Cluster Computing 2000)",
        keys: &[
            order::QUEUE,
            order::WEIGHT,
            KeyInfo {
                name: "order",
                default: "fcfs",
                values: "fcfs|sjf|spf",
                help: "order in which waiting jobs behind the first one are tried for backfilling: the queue order (fcfs, i.e. arrival order unless queue= says otherwise), shortest requested time first, or shortest prediction first",
                presets: &[],
            },
            PREDICTOR,
        ],
        build: easy::build,
    },
    PolicyInfo {
        name: "pv-easy",
        summary: "Preemptive venture EASY: strict fairness by shadow-load preemption, backfilling by predictions.",
        description: "Priority is arrival order. (1) Jobs start by priority while the highest fits. (2) Shadow-load preemption: running jobs of lower priority than the blocked head are its shadow load; if the free processors plus theirs let the head start now, they are killed from the lowest priority up until it fits (kill/restart: their work is lost, they wait again with their original priority) and the head starts; repeat. (3) Venture backfilling: the head's reservation is computed from the sunny load only (running jobs of higher priority, at their predicted ends; the shadow load counts as free); waiting jobs that fit and are predicted to end by it start, nearest predicted completion first (ties by priority); no extra-processor rule. (4) While processors are idle, the remaining waiting jobs start by priority if they fit. Running jobs are planned to end at their prediction, then at their kill time (requested time) once they outlive it. Choices where the paper is silent: the default predictor is the paper's Last Model; vb=off replaces (3)-(4) by EASY's backfilling with predictions (whole running load, arrival order, extra processors); slp=off skips (2) (no fairness guarantee); a job preempted in a pass may be backfilled again in the same pass.",
        source: "Yuan, Yang, Wu & Zheng, PV-EASY: a strict fairness guaranteed and prediction enabled scheduler in parallel job scheduling (HPDC'10), section 4",
        keys: &[
            KeyInfo {
                name: "predictor",
                default: "last",
                values: crate::predict::VALUES,
                help: PREDICTOR.help,
                presets: &[],
            },
            KeyInfo {
                name: "slp",
                default: "on",
                values: "on|off",
                help: "shadow-load preemption: kill lower-priority running jobs when that lets the blocked head start now",
                presets: &[],
            },
            KeyInfo {
                name: "vb",
                default: "on",
                values: "on|off",
                help: "venture backfilling (reservation from the sunny load, nearest predicted completion first, then by priority); off: EASY's backfilling with predictions",
                presets: &[],
            },
        ],
        build: pv_easy::build,
    },
    PolicyInfo {
        name: "conservative",
        summary: "Conservative backfilling: every waiting job holds a reservation (or, without guarantees, the schedule is rebuilt at every event).",
        description: "guarantees=on (the default): each arriving job gets the earliest reservation in the availability profile that delays no earlier reservation (jobs arriving together in queue order). When a job ends before its planned end, waiting jobs are re-planned in queue order and may only move earlier. A job starts when its reservation comes. guarantees=off (Zotkin et al., section 8): nothing is promised; at every event the schedule is rebuilt from scratch, the waiting jobs placed in queue order at their earliest fit, and the jobs planned for now start. shadow=k (with guarantees=off; section 5, Table 8): a job's shadow interval is the wait it would be promised on arrival behind every job already running or waiting; a job whose planned start passes k shadow intervals after its arrival becomes urgent and is planned ahead of the queue order (earliest bound first). Jobs occupy the profile for their planned runtime (the predictor's value; at least 1 s).",
        source: "Mu'alem & Feitelson 2001; Zotkin, Keleher & Perkovic, Attacking the bottlenecks of backfilling schedulers (Cluster Computing 2000), sections 5-8",
        keys: &[
            order::QUEUE,
            order::WEIGHT,
            KeyInfo {
                name: "guarantees",
                default: "on",
                values: "on|off",
                help: "on: reservations kept, only moved earlier; off: the schedule rebuilt from scratch in queue order at every event",
                presets: &[],
            },
            KeyInfo {
                name: "shadow",
                default: "0",
                values: "whole number 0-1000",
                help: "with guarantees=off: no job starts later than k shadow intervals after its arrival (its promised wait on arrival behind every job already there); 0 = no bound",
                presets: &[],
            },
            PREDICTOR,
        ],
        build: conservative::build,
    },
    PolicyInfo {
        name: "fairshare-fcfs",
        summary: "FCFS over a fairshare order: the least recent user usage first.",
        description: "At every scheduling pass the waiting jobs are ordered by their user's usage (processors x run time, accrued continuously while jobs run, decayed with the given half-life), least first, ties by arrival; jobs start in that order while the first one fits, nothing skips it.",
        source: "Tóth & Klusáček, User-aware metrics for measuring quality of parallel job schedules (JSSPP 2014), 'fairshare fifo'; usage decay as in the Maui scheduler's fairshare (the paper's reference 1)",
        keys: &[HALFLIFE],
        build: fairshare_fcfs::build,
    },
    PolicyInfo {
        name: "fairshare-easy",
        summary: "EASY backfilling over a fairshare order: the reservation goes to the least recent user.",
        description: "At every scheduling pass the waiting jobs are ordered by their user's usage (processors x run time, accrued continuously while jobs run, decayed with the given half-life), least first, ties by arrival. Jobs start in that order while they fit; the first that does not fit gets EASY's reservation at its shadow time, and the rest are backfilled in the same order if they end by the shadow time or fit in the extra processors.",
        source: "Tóth & Klusáček, User-aware metrics for measuring quality of parallel job schedules (JSSPP 2014), 'fair. + backfill'; EASY as in Mu'alem & Feitelson 2001; usage decay as in the Maui scheduler's fairshare (the paper's reference 1)",
        keys: &[HALFLIFE],
        build: fairshare_easy::build,
    },
    PolicyInfo {
        name: "sjbf",
        summary: "EASY with shortest-job-backfilled-first and a resource selection policy (first fit, LessConsume, LessConsume-Threshold).",
        description: "Meant for the node model (input options: nodes of several cores sharing memory bandwidth; demands per process low 500, medium 1000, high 2000 MB/s — the paper gives no high value, 2000 is ours). The first waiting job (arrival order) starts when its selection gives it a start now, else it holds a reservation (the shadow time; for lct the later start the threshold search found). Other waiting jobs are tried shortest estimate first and start now if they end by the reservation or fit in the processors left over then. rsp=ff: lowest free processor ids. rsp=lc (LessConsume): from the first-fit allocation, processes move from the node with the highest penalty to not yet evaluated free processors (id order) whose node penalizes less, until all were evaluated or the factor is 1. rsp=lct (LessConsume-Threshold): stops once the factor is <= t; when that is impossible now, looks at the running jobs' planned ends for a start where it is (else the lowest factor found). Without the node model every selection is first fit and sjbf equals easy[order=sjf].",
        source: "Guim, Rodero & Corbalan, The resource usage aware backfilling (JSSPP 2009), sections 4 and 7",
        keys: &[
            KeyInfo {
                name: "rsp",
                default: "ff",
                values: "ff|lc|lct",
                help: "resource selection policy: first fit, LessConsume, LessConsume-Threshold",
                presets: &[],
            },
            KeyInfo {
                name: "t",
                default: "1.15",
                values: "penalty factor >= 1",
                help: "threshold of rsp=lct: the largest penalty factor accepted",
                presets: &[],
            },
        ],
        build: sjbf::build,
    },
    PolicyInfo {
        name: "rua",
        summary: "Resource-usage-aware backfilling: thresholds for the reservation, backfilling by least penalty.",
        description: "Meant for the node model (see sjbf). One reservation, for the first waiting job in arrival order: for each threshold LessConsume-Threshold gives an allocation (start, penalty factor); the one with the least predicted slowdown (start - submit + estimate x factor) / estimate (estimate bounded below by 10 s) is kept, ties to the earlier start; the job starts if that is now, else that start is its reservation. Backfilling: each other waiting job gets its allocation the same way; those starting now that end by the reservation (by estimate) or fit in the processors left over then are ordered by penalty factor, then estimate; the first starts, and this repeats until none can. Planned ends stay start + estimate (jobs are killed at their requested time anyway).",
        source: "Guim, Rodero & Corbalan, The resource usage aware backfilling (JSSPP 2009), section 5",
        keys: &[KeyInfo {
            name: "thresholds",
            default: "1.15;1.2;1.25;1.5",
            values: "penalty factors >= 1, separated by ;",
            help: "the LessConsume-Threshold factors tried for each job",
            presets: &[],
        }],
        build: rua::build,
    },
    PolicyInfo {
        name: "historic",
        summary: "Replays the trace's own schedule (start = submit + recorded wait).",
        description: "Each job starts at its recorded start time (submit + field 3), or as soon as it fits after it. Jobs without a recorded wait (field 3 = -1) are reported and left out.",
        source: "the trace (field 3)",
        keys: &[],
        build: historic::build,
    },
];

/// The `predictor` key of the policies that plan with runtimes.
const PREDICTOR: KeyInfo = KeyInfo {
    name: "predictor",
    default: "user",
    values: crate::predict::VALUES,
    help: "runtime prediction used for planning (shadow times, planned ends, backfilling); the kill time stays the requested time and predictions are capped at it. user: requested time; exact: actual runtime; virtual[err=x]: runtime x (1 + U(-x, x)), default x = 0.1; last: Last Model (lifetime accuracy of the user's last finished job x requested time); rfactor[r=R,mode=M]: R x runtime (M = det, the default) or U(runtime, 2R x runtime) (M = rnd), R >= 1, default 2",
    presets: &[],
};

/// The half-life key of the fairshare policies.
const HALFLIFE: KeyInfo = KeyInfo {
    name: "halflife",
    default: fairshare::DEFAULT_HALFLIFE,
    values: "seconds > 0",
    help: "half-life of the exponential decay of a user's usage, seconds",
    presets: &[],
};

/// Parses a spec string and builds the configured policy.
pub fn build(text: &str) -> Result<Box<dyn Policy>, SpecError> {
    let spec = Spec::parse(text)?;
    let info = CATALOGUE
        .iter()
        .find(|p| p.name == spec.name)
        .ok_or_else(|| SpecError {
            spec: text.to_string(),
            reason: format!(
                "unknown policy \"{}\"; valid: {}",
                spec.name,
                CATALOGUE
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })?;
    for (k, _) in &spec.params {
        if !info.keys.iter().any(|key| key.name == k) {
            let valid = if info.keys.is_empty() {
                "it takes no keys".to_string()
            } else {
                format!(
                    "valid keys: {}",
                    info.keys
                        .iter()
                        .map(|k| k.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            return Err(SpecError {
                spec: text.to_string(),
                reason: format!("unknown key \"{k}\" for {}; {valid}", info.name),
            });
        }
    }
    (info.build)(&Params {
        info,
        spec: &spec,
        text,
    })
}

/// Checks a spec string and returns its canonical form (non-default keys in catalogue order).
pub fn canonical(text: &str) -> Result<String, SpecError> {
    build(text).map(|p| p.spec())
}

/// Validated access to a spec's parameters, with the catalogue's defaults.
pub struct Params<'a> {
    info: &'static PolicyInfo,
    spec: &'a Spec,
    text: &'a str,
}

impl Params<'_> {
    fn key(&self, name: &str) -> &'static KeyInfo {
        self.info
            .keys
            .iter()
            .find(|k| k.name == name)
            .expect("policy code asks only for its own keys")
    }

    /// The value of `name`, or its default.
    pub fn raw(&self, name: &str) -> &str {
        self.spec.get(name).unwrap_or(self.key(name).default)
    }

    pub fn error(&self, reason: String) -> SpecError {
        SpecError {
            spec: self.text.to_string(),
            reason,
        }
    }

    /// The value of a key whose allowed values are listed as `a|b|c`.
    pub fn choice(&self, name: &str) -> Result<&'static str, SpecError> {
        let key = self.key(name);
        let v = self.raw(name);
        key.values.split('|').find(|c| *c == v).ok_or_else(|| {
            self.error(format!(
                "{name}={v} is not valid; valid values: {}",
                key.values.replace('|', ", ")
            ))
        })
    }

    /// The canonical spec: the name plus the keys whose value differs from the default.
    pub fn canonical(&self, values: &[(&str, String)]) -> String {
        let set: Vec<(String, String)> = self
            .info
            .keys
            .iter()
            .filter_map(|k| {
                let v = values.iter().find(|(n, _)| *n == k.name)?;
                (v.1 != k.default).then(|| (k.name.to_string(), v.1.clone()))
            })
            .collect();
        Spec {
            name: self.info.name.to_string(),
            params: set,
        }
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_list_what_is_valid() {
        let e = build("nope").err().unwrap().to_string();
        assert!(
            e.contains("unknown policy \"nope\"")
                && e.contains("easy")
                && e.contains("conservative"),
            "{e}"
        );
        let e = build("easy[speed=3]").err().unwrap().to_string();
        assert!(
            e.contains("unknown key \"speed\"") && e.contains("valid keys: queue, weight, order"),
            "{e}"
        );
        let e = build("easy[order=ljf]").err().unwrap().to_string();
        assert!(
            e.contains("order=ljf is not valid") && e.contains("fcfs, sjf"),
            "{e}"
        );
        let e = build("historic[order=sjf]").err().unwrap().to_string();
        assert!(e.contains("takes no keys"), "{e}");
    }

    #[test]
    fn canonical_drops_defaults() {
        assert_eq!(canonical("easy[order=fcfs]").unwrap(), "easy");
        assert_eq!(canonical("easy[ order = sjf ]").unwrap(), "easy[order=sjf]");
        for p in catalogue() {
            assert_eq!(canonical(p.name).unwrap(), p.name);
        }
    }
}
