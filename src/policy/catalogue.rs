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
        description: "Jobs start strictly in queue order: while the first waiting job does not fit, nothing starts. Arrival order by default; queue= sorts it (queue=sjf is Zotkin et al.'s sorted FCFS). Full rules: docs/policies.md#fcfs.",
        source: "classic; sorted and randomized orders: Zotkin, Keleher & Perkovic, Attacking the bottlenecks of backfilling schedulers (Cluster Computing 2000), sections 5-8",
        keys: crate::keys![order::ORDER_KEYS, [PREDICTOR]],
        alias_of: None,
        build: build_fcfs,
    },
    PolicyInfo {
        name: "easy",
        summary: "EASY backfilling: a reservation for the first waiting job only.",
        description: "Jobs start in queue order while they fit; the first that does not fit gets a reservation at its shadow time, and later jobs start now if they end by it (by their estimate) or use only the processors left over then. With a predictor, predictions replace the estimates for planning. Full rules: docs/policies.md#easy.",
        source: "Lifka 1995; as defined in Mu'alem & Feitelson 2001 and the PV-EASY paper (Yuan et al., HPDC'10); queue orders: Zotkin, Keleher & Perkovic (Cluster Computing 2000)",
        keys: crate::keys![order::ORDER_KEYS, [easy::ORDER, PREDICTOR]],
        alias_of: None,
        build: build_easy,
    },
    PolicyInfo {
        name: "pv-easy",
        summary: "Preemptive venture EASY: strict fairness by shadow-load preemption, backfilling by predictions.",
        description: "Arrival priority. The blocked head starts at once when killing running jobs of lower priority (the shadow load) makes room; its reservation counts only the jobs ahead of it; jobs predicted to end by it are backfilled, nearest predicted completion first; idle processors go to the rest. Full rules: docs/policies.md#pv-easy.",
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
        description: "guarantees=on: every arriving job gets the earliest reservation that delays no earlier one; early ends move reservations earlier only. guarantees=off: the plan is rebuilt in queue order at every event; shadow=k bounds each job's start by k times its promised wait. Full rules: docs/policies.md#conservative.",
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
        description: "The waiting jobs ordered by their user's decayed usage (processors x run time, half-life halflife=), least first, ties by arrival; no backfilling. Full rules: docs/policies.md#fairshare-fcfs.",
        source: "Tóth & Klusáček, User-aware metrics for measuring quality of parallel job schedules (JSSPP 2014), 'fairshare fifo'; usage decay as in the Maui scheduler's fairshare (the paper's reference 1)",
        keys: &[FAIRSHARE_HALFLIFE],
        alias_of: Some("fcfs[queue=fairshare] planning with the input's estimate"),
        build: build_fairshare_fcfs,
    },
    PolicyInfo {
        name: "fairshare-easy",
        summary: "EASY backfilling over a fairshare order: the reservation goes to the least recent user.",
        description: "EASY backfilling over the fairshare order: the reservation goes to the job of the user with the least decayed usage; the rest are backfilled in that order. Full rules: docs/policies.md#fairshare-easy.",
        source: "Tóth & Klusáček, User-aware metrics for measuring quality of parallel job schedules (JSSPP 2014), 'fair. + backfill'; EASY as in Mu'alem & Feitelson 2001; usage decay as in the Maui scheduler's fairshare (the paper's reference 1)",
        keys: &[FAIRSHARE_HALFLIFE],
        alias_of: Some("easy[queue=fairshare] planning with the input's estimate"),
        build: build_fairshare_easy,
    },
    PolicyInfo {
        name: "sjbf",
        summary: "EASY with shortest-job-backfilled-first and a resource selection policy (first fit, LessConsume, LessConsume-Threshold).",
        description: "For the node model: the first waiting job starts when its resource selection (rsp: first fit, LessConsume, LessConsume-Threshold) gives it a start now, else holds a reservation; the others are backfilled shortest estimate first. Without the node model it equals easy[order=sjf]. Full rules: docs/policies.md#sjbf.",
        source: "Guim, Rodero & Corbalan, The resource usage aware backfilling (JSSPP 2009), sections 4 and 7",
        keys: &[alloc::RSP, alloc::T],
        alias_of: None,
        build: build_sjbf,
    },
    PolicyInfo {
        name: "rua",
        summary: "Resource-usage-aware backfilling: thresholds for the reservation, backfilling by least penalty.",
        description: "For the node model: one reservation, for the first waiting job, at the LessConsume-Threshold allocation with the least predicted slowdown over the thresholds; the other jobs are backfilled least penalty first. Full rules: docs/policies.md#rua.",
        source: "Guim, Rodero & Corbalan, The resource usage aware backfilling (JSSPP 2009), section 5",
        keys: &[alloc::THRESHOLDS],
        alias_of: None,
        build: build_rua,
    },
    super::slurm::ENTRY,
    PolicyInfo {
        name: "historic",
        summary: "Replays the trace's own schedule (start = submit + recorded wait).",
        description: "Each job starts at its recorded start (submit + the trace's wait), or as soon as it fits after it; jobs without a recorded wait are reported and left out.",
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
    let rule = rule.planning_with(&pred);
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
