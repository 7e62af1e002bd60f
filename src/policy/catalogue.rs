//! The catalogue: every policy, assembled from the parts (queue order, estimate, allocator,
//! start rule). Old names stay as aliases of compositions and keep their canonical spec strings
//! (`fairshare-easy[halflife=3600]`), so exports and share links do not change.

use super::alloc;
use super::compose::Composed;
use super::estimate::{self, PREDICTOR};
use super::order::{self, Fairshare, QueueOrder};
use super::rule::{
    conservative, easy, easy_select, fcfs, guarantee_free, pv_easy, replay, rua, StartRule,
};
use super::{KeyInfo, Params, Policy, PolicyInfo, SpecError};

pub(super) static CATALOGUE: &[PolicyInfo] = &[
    PolicyInfo {
        name: "fcfs",
        summary: "No backfilling: jobs start strictly in queue order (first come, first served by default).",
        description: "Jobs start strictly in queue order: while the first waiting job does not fit, nothing starts. The queue order is arrival by default; queue=sjf is Zotkin et al.'s sorted FCFS (shortest length first, still no backfilling).",
        source: "classic; sorted and randomized orders: Zotkin, Keleher & Perkovic, Attacking the bottlenecks of backfilling schedulers (Cluster Computing 2000), sections 5-8",
        keys: crate::keys![order::ORDER_KEYS, [PREDICTOR]],
        alias_of: None,
        build: build_fcfs,
    },
    PolicyInfo {
        name: "easy",
        summary: "EASY backfilling: a reservation for the first waiting job only.",
        description: "Jobs start in queue order (arrival by default; queue= sorts or randomizes it as in Zotkin et al.) while they fit. When the first waiting job does not fit, its shadow time is the earliest time enough processors are free if running jobs end at their planned end; a later job may start now if it fits and ends by the shadow time (by its estimate) or uses no more than the processors left over at the shadow time. With a predictor, predictions replace the estimates for planning (running jobs planned to end at their prediction, then at their kill time once they outlive it; shadow time and backfilling by predictions), as in Tsafrir et al.'s EASY with predictions; the kill time stays the requested time.",
        source: "Lifka 1995; as defined in Mu'alem & Feitelson 2001 and the PV-EASY paper (Yuan et al., HPDC'10); queue orders: Zotkin, Keleher & Perkovic (Cluster Computing 2000)",
        keys: crate::keys![order::ORDER_KEYS, [easy::ORDER, PREDICTOR]],
        alias_of: None,
        build: build_easy,
    },
    PolicyInfo {
        name: "pv-easy",
        summary: "Preemptive venture EASY: strict fairness by shadow-load preemption, backfilling by predictions.",
        description: "Priority is arrival order. (1) Jobs start by priority while the highest fits. (2) Shadow-load preemption: running jobs of lower priority than the blocked head are its shadow load; if the free processors plus theirs let the head start now, they are killed from the lowest priority up until it fits (kill/restart: their work is lost, they wait again with their original priority) and the head starts; repeat. (3) Venture backfilling: the head's reservation is computed from the sunny load only (running jobs of higher priority, at their predicted ends; the shadow load counts as free); waiting jobs that fit and are predicted to end by it start, nearest predicted completion first (ties by priority); no extra-processor rule. (4) While processors are idle, the remaining waiting jobs start by priority if they fit. Running jobs are planned to end at their prediction, then at their kill time (requested time) once they outlive it. Choices where the paper is silent: the default predictor is the paper's Last Model; vb=off replaces (3)-(4) by EASY's backfilling with predictions (whole running load, arrival order, extra processors); slp=off skips (2) (no fairness guarantee); a job preempted in a pass may be backfilled again in the same pass.",
        source: "Yuan, Yang, Wu & Zheng, PV-EASY: a strict fairness guaranteed and prediction enabled scheduler in parallel job scheduling (HPDC'10), section 4",
        keys: &[
            KeyInfo {
                default: "last",
                ..PREDICTOR
            },
            pv_easy::SLP,
            pv_easy::VB,
        ],
        alias_of: None,
        build: build_pv_easy,
    },
    PolicyInfo {
        name: "conservative",
        summary: "Conservative backfilling: every waiting job holds a reservation (or, without guarantees, the schedule is rebuilt at every event).",
        description: "guarantees=on (the default): each arriving job gets the earliest reservation in the availability profile that delays no earlier reservation (jobs arriving together in queue order). When a job ends before its planned end, waiting jobs are re-planned in queue order and may only move earlier. A job starts when its reservation comes. guarantees=off (Zotkin et al., section 8): nothing is promised; at every event the schedule is rebuilt from scratch, the waiting jobs placed in queue order at their earliest fit, and the jobs planned for now start. shadow=k (with guarantees=off; section 5, Table 8): at the pass of its arrival a job's promise is its earliest start g in a fresh plan of the running jobs (at their planned ends), then every job already waiting (urgent ones first, earliest bound first, then queue order), then that instant's arrivals in arrival order; its bound is submit + k x (g - submit). At every pass the plan is rebuilt in order; the first non-urgent job planned to start strictly after its bound becomes urgent and the rebuild restarts, until none is past its bound. Urgent jobs are planned ahead of the queue order, earliest bound first (ties by arrival), and stay urgent until they start; the bound is recorded as the job's reservation. Jobs occupy the profile for their planned runtime (the predictor's value; at least 1 s).",
        source: "Mu'alem & Feitelson 2001; Zotkin, Keleher & Perkovic, Attacking the bottlenecks of backfilling schedulers (Cluster Computing 2000), sections 5-8",
        keys: crate::keys![
            order::ORDER_KEYS,
            [conservative::GUARANTEES, conservative::SHADOW, PREDICTOR]
        ],
        alias_of: None,
        build: build_conservative,
    },
    PolicyInfo {
        name: "fairshare-fcfs",
        summary: "FCFS over a fairshare order: the least recent user usage first.",
        description: "At every scheduling pass the waiting jobs are ordered by their user's usage (processors x run time, accrued continuously while jobs run, decayed with the given half-life), least first, ties by arrival; jobs start in that order while the first one fits, nothing skips it.",
        source: "Tóth & Klusáček, User-aware metrics for measuring quality of parallel job schedules (JSSPP 2014), 'fairshare fifo'; usage decay as in the Maui scheduler's fairshare (the paper's reference 1)",
        keys: &[FAIRSHARE_HALFLIFE],
        alias_of: Some("fcfs[queue=fairshare] planning with the input's estimate"),
        build: build_fairshare_fcfs,
    },
    PolicyInfo {
        name: "fairshare-easy",
        summary: "EASY backfilling over a fairshare order: the reservation goes to the least recent user.",
        description: "At every scheduling pass the waiting jobs are ordered by their user's usage (processors x run time, accrued continuously while jobs run, decayed with the given half-life), least first, ties by arrival. Jobs start in that order while they fit; the first that does not fit gets EASY's reservation at its shadow time, and the rest are backfilled in the same order if they end by the shadow time or fit in the extra processors.",
        source: "Tóth & Klusáček, User-aware metrics for measuring quality of parallel job schedules (JSSPP 2014), 'fair. + backfill'; EASY as in Mu'alem & Feitelson 2001; usage decay as in the Maui scheduler's fairshare (the paper's reference 1)",
        keys: &[FAIRSHARE_HALFLIFE],
        alias_of: Some("easy[queue=fairshare] planning with the input's estimate"),
        build: build_fairshare_easy,
    },
    PolicyInfo {
        name: "sjbf",
        summary: "EASY with shortest-job-backfilled-first and a resource selection policy (first fit, LessConsume, LessConsume-Threshold).",
        description: "Meant for the node model (input options: nodes of several cores sharing memory bandwidth; demands per process low 500, medium 1000, high 2000 MB/s — the paper gives no high value, 2000 is ours). The first waiting job (arrival order) starts when its selection gives it a start now, else it holds a reservation (the shadow time; for lct the later start the threshold search found). Other waiting jobs are tried shortest estimate first and start now if they end by the reservation or fit in the processors left over then. rsp=ff: lowest free processor ids. rsp=lc (LessConsume): from the first-fit allocation, processes move from the node with the highest penalty to not yet evaluated free processors (id order) whose node penalizes less, until all were evaluated or the factor is 1. rsp=lct (LessConsume-Threshold): stops once the factor is <= t; when that is impossible now, looks at the running jobs' planned ends for a start where it is (else the lowest factor found). Without the node model every selection is first fit and sjbf equals easy[order=sjf]. Scheduling passes: at submissions, terminations (completions, kills at the requested time, kills by penalty) and, for lct, at the start the threshold search found for the blocked head (asked again at every pass; a start a later pass moved wakes nobody); never at a finish time that a co-located start or end has since moved. The reservation and the processors left over are computed once per pass, before backfilling: a job backfilled in a pass changes the head's lct allocation only from the next pass on.",
        source: "Guim, Rodero & Corbalan, The resource usage aware backfilling (JSSPP 2009), sections 4 and 7",
        keys: &[alloc::RSP, alloc::T],
        alias_of: None,
        build: build_sjbf,
    },
    PolicyInfo {
        name: "rua",
        summary: "Resource-usage-aware backfilling: thresholds for the reservation, backfilling by least penalty.",
        description: "Meant for the node model (see sjbf). One reservation, for the first waiting job in arrival order: for each threshold LessConsume-Threshold gives an allocation (start, penalty factor); the one with the least predicted slowdown (start - submit + estimate x factor) / estimate (estimate bounded below by 10 s) is kept, ties to the earlier start; the job starts if that is now, else that start is its reservation. Backfilling: each other waiting job gets its allocation the same way; those starting now that end by the reservation (by estimate) or fit in the processors left over then are ordered by penalty factor, then estimate; the first starts, and this repeats until none can. Planned ends stay start + estimate (jobs are killed at their requested time anyway). Scheduling passes: at submissions, terminations (completions, kills at the requested time, kills by penalty) and at the reservation's start (asked again at every pass; a start a later pass moved wakes nobody); never at a finish time that a co-located start or end has since moved. The reservation and the processors left over are computed once per pass, before backfilling: a job backfilled in a pass changes the head's allocation only from the next pass on.",
        source: "Guim, Rodero & Corbalan, The resource usage aware backfilling (JSSPP 2009), section 5",
        keys: &[alloc::THRESHOLDS],
        alias_of: None,
        build: build_rua,
    },
    PolicyInfo {
        name: "historic",
        summary: "Replays the trace's own schedule (start = submit + recorded wait).",
        description: "Each job starts at its recorded start time (submit + field 3), or as soon as it fits after it. Jobs without a recorded wait (field 3 = -1) are reported and left out.",
        source: "the trace (field 3)",
        keys: &[],
        alias_of: None,
        build: build_historic,
    },
];

/// The half-life key of the fairshare aliases (the fairshare order's own).
const FAIRSHARE_HALFLIFE: KeyInfo = KeyInfo {
    help: "half-life of the exponential decay of a user's usage, seconds",
    ..order::HALFLIFE
};

/// A composed policy whose canonical spec is what `p` read.
fn composed(
    p: &Params,
    predictor: Option<String>,
    order: Option<Box<dyn QueueOrder>>,
    rule: impl StartRule + 'static,
) -> Result<Box<dyn Policy>, SpecError> {
    Ok(Box::new(Composed::new(
        p.canonical()?,
        predictor,
        order,
        Box::new(rule),
    )))
}

fn build_fcfs(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let queue = order::parse(p)?;
    let pred = estimate::parse(p)?;
    composed(p, Some(pred), queue, fcfs::Fcfs)
}

fn build_easy(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let rule = easy::Easy::parse(p)?;
    let pred = estimate::parse(p)?;
    let queue = order::parse(p)?;
    composed(p, Some(pred), queue, rule)
}

fn build_pv_easy(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let pred = estimate::parse(p)?;
    let rule = pv_easy::parse(p)?;
    composed(p, Some(pred), None, rule)
}

fn build_conservative(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let queue = order::parse(p)?;
    let pred = estimate::parse(p)?;
    match conservative::parse(p)? {
        (true, _) => composed(p, Some(pred), queue, conservative::Conservative::new()),
        (false, shadow) => composed(
            p,
            Some(pred),
            queue,
            guarantee_free::GuaranteeFree::new(shadow),
        ),
    }
}

/// `fairshare-fcfs[halflife=S]`: the fcfs rule over the fairshare order, planning with the
/// input's estimate (no predictor).
fn build_fairshare_fcfs(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let order = Box::new(Fairshare::new(order::halflife(p)?));
    composed(p, None, Some(order), fcfs::Fcfs)
}

/// `fairshare-easy[halflife=S]`: the EASY rule over the fairshare order, backfilling in that
/// order, planning with the input's estimate (no predictor).
fn build_fairshare_easy(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let order = Box::new(Fairshare::new(order::halflife(p)?));
    let rule = easy::Easy::new(easy::BackfillOrder::Fcfs);
    composed(p, None, Some(order), rule)
}

fn build_sjbf(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let rule = easy_select::EasySelect::new(alloc::parse(p)?);
    composed(p, None, None, rule)
}

fn build_rua(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let rule = rua::Rua::new(alloc::parse_thresholds(p)?);
    composed(p, None, None, rule)
}

fn build_historic(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    composed(p, None, None, replay::Replay::default())
}
