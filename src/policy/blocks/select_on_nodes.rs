//! `sjbf`'s pass on a cluster's nodes (also RUA's there): EASY with shortest-estimate-first backfilling, whose resource
//! selection chooses nodes. `rsp=ff` takes them in Slurm's order (the default selection);
//! `rsp=lc` and `rsp=lct` best fit ([`crate::cluster::Free::select_packed`]: the nodes with the
//! fewest free GPUs, then cores, first), the least consuming choice when no node model prices
//! sharing (the threshold `t` has no penalty to weigh there). The blocked head's reservation is
//! its multi-resource shadow time ([`shadow_of`]); the extra resources are what is free on each
//! node then once the head has its allocation by the same selection.

use crate::cluster::{Alloc, Free};
use crate::policy::blocks::shadow::shadow_of;
use crate::policy::queue::Queue;
use crate::sim::{Ctx, SimError, StartReason};

/// Job `j`'s allocation on `free` (and on what is free in `within` too), best fit when
/// `packed`, else in Slurm's order; a job submitted to several partitions in the first of
/// them (in the order they are tried) where it finds one.
fn pick(c: &Ctx<'_>, free: &Free, j: usize, packed: bool, within: Option<&Free>) -> Option<Alloc> {
    let cv = c.cluster()?;
    let l = cv.layout();
    let select = |need: &crate::cluster::Need| match packed {
        true => free.select_packed(l, need, within),
        false => free.select(l, need, within),
    };
    match cv.parts(j) {
        [_] => select(cv.need(j)),
        parts => parts.iter().find_map(|&p| select(&cv.need_in(j, p))),
    }
}

/// Job `j`'s allocation now (and within `extra`, then taken from it).
fn pick_now(c: &Ctx<'_>, j: usize, packed: bool, extra: Option<&mut Free>) -> Option<Alloc> {
    let cv = c.cluster()?;
    let a = pick(c, cv.free(), j, packed, extra.as_deref())?;
    if let Some(e) = extra {
        e.take(cv.layout(), &a);
    }
    Some(a)
}

/// One pass on a cluster (`queue`: arrival order), nodes taken best fit when `packed`;
/// `candidates` is scratch. Also RUA's pass on a cluster (`rua.rs`).
pub(crate) fn pass(
    c: &mut Ctx<'_>,
    queue: &mut Queue<'_>,
    packed: bool,
    candidates: &mut Vec<usize>,
) -> Result<(), SimError> {
    let now = c.now();
    let mut first = 0;
    let head = loop {
        let Some(j) = queue.get(c, first) else {
            return Ok(());
        };
        let Some(a) = pick_now(c, j, packed, None) else {
            break j;
        };
        let end = now + c.job(j).estimate;
        c.start_on(j, Some(StartReason::Head), a, Some(end))?;
        first += 1;
    };
    let res = shadow_of(c, head).time;
    c.reserve(head, res);
    if c.free() == 0 {
        return Ok(());
    }
    // What is free at the shadow time, once the head has its allocation there.
    let Some(cv) = c.cluster() else {
        return Ok(());
    };
    let l = cv.layout();
    let mut extra = cv.free().clone();
    for (end, j) in c.running() {
        if end > res {
            break;
        }
        extra.give_packed(l, cv.alloc(j));
    }
    if let Some(a) = pick(c, &extra, head, packed, None) {
        extra.take(l, &a);
    }
    shortest_first(candidates, c, queue, first);
    for &j in candidates.iter() {
        if c.free() == 0 {
            break;
        }
        let end = now + c.job(j).estimate;
        let (a, why) = if end <= res {
            (pick_now(c, j, packed, None), StartReason::Backfilled)
        } else {
            (pick_now(c, j, packed, Some(&mut extra)), StartReason::Extra)
        };
        if let Some(a) = a {
            c.start_on(j, Some(why), a, Some(end))?;
        }
    }
    Ok(())
}

/// Fills `candidates` with the waiting jobs after position `first` of `queue`, shortest
/// estimate first (ties by arrival).
pub(crate) fn shortest_first(
    candidates: &mut Vec<usize>,
    c: &Ctx<'_>,
    queue: &mut Queue<'_>,
    first: usize,
) {
    candidates.clear();
    candidates.extend_from_slice(&queue.all(c)[first + 1..]);
    candidates.sort_by_key(|&j| (c.job(j).estimate, j));
}
