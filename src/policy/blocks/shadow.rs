//! EASY's steps (GUIDE section 3) over any queue order: the blocked head's shadow time and
//! extra processors, its reservation, and the backfilling step. On a cluster the extra
//! resources are per node and per resource: what is free at the shadow time once the head has
//! its allocation there (docs/cluster-model.md).
#![warn(missing_docs)]

mod extra;

use crate::cluster::{Free, Layout, Need};
use crate::policy::queue::Queue;
use crate::sim::{ClusterView, Ctx, SimError, StartReason};
use crate::Time;
use extra::Extra;
use std::sync::Arc;

/// The blocked head's shadow time and what is left over then for the jobs that would still run:
/// extra processors, or on a cluster the resources free on each node once the head has its
/// allocation.
#[derive(Debug, Clone)]
pub struct Shadow {
    /// The shadow time.
    pub time: Time,
    /// Extra processors (a single pool).
    pub extra: u32,
    /// Extra resources per node (a cluster), shared with [`ShadowCache`] until a backfilled
    /// job takes from them.
    nodes: Option<Arc<Extra>>,
    /// On a cluster, for a head asking for cores alone: `extra` counts the free cores of its
    /// partition then (it fits wherever they are).
    cores: bool,
}

impl Shadow {
    /// The shadow of a single pool: its time and the extra processors then.
    pub fn pool(time: Time, extra: u32) -> Shadow {
        Shadow {
            time,
            extra,
            nodes: None,
            cores: false,
        }
    }

    /// The most processors a job running past the shadow time may use: the extra processors,
    /// or on a cluster the most extra cores of a partition (its nodes decide whether it
    /// starts).
    pub fn extra_bound(&self) -> u32 {
        match &self.nodes {
            Some(extra) => u32::try_from(extra.most_cores()).unwrap_or(u32::MAX),
            None => self.extra,
        }
    }

    /// The shadow of a cluster at `time`, when `free` is free on each node, and what the head
    /// asks (it fits there; `None`: no head to take out).
    fn on_nodes(l: &Layout, time: Time, free: Free, head: Option<&Need>) -> Shadow {
        Shadow {
            nodes: Some(Arc::new(Extra::new(l, free, head))),
            ..Shadow::pool(time, 0)
        }
    }
}

/// The last shadow of a blocked head on a cluster, kept while nothing it derives from changes:
/// the same head, no start or end since ([`crate::sim::ClusterView::free_id`]), the same running
/// jobs with the same planned ends. A pass after an arrival that started nothing then copies it
/// instead of releasing the running jobs node by node again.
#[derive(Debug, Default)]
pub struct ShadowCache {
    head: usize,
    free_id: u64,
    running: Vec<(Time, usize)>,
    shadow: Option<Shadow>,
}

/// The shadow of `head` (which does not fit now): [`shadow`] on a single pool; on a cluster the
/// earliest planned end at which the head's allocation is free (every job planned to end then
/// counted), and the resources left over on each node.
/// A head submitted to several partitions takes the earliest shadow over them, ties to the
/// first tried (docs/cluster-model.md, "Jobs of several partitions").
pub fn shadow_of(c: &Ctx<'_>, head: usize) -> Shadow {
    let Some(cv) = c.cluster() else {
        let (time, extra) = shadow(c, c.job(head).procs);
        return Shadow::pool(time, extra);
    };
    let parts = cv.parts(head);
    if parts.len() == 1 {
        return shadow_in(c, &cv, cv.need(head));
    }
    let mut best: Option<Shadow> = None;
    for &p in parts {
        let s = shadow_in(c, &cv, &cv.need_in(head, p));
        if best.as_ref().is_none_or(|b| s.time < b.time) {
            best = Some(s);
        }
    }
    best.expect("a job has a partition")
}

/// [`shadow_of`] of a head asking `need` (in one of its partitions).
fn shadow_in(c: &Ctx<'_>, cv: &crate::sim::ClusterView<'_>, need: &Need) -> Shadow {
    let l = cv.layout();
    if need.cores_only() {
        return cores_shadow(c, l, cv.free(), need);
    }
    let now_free = cv.free();
    if now_free.fits(l, need) {
        return Shadow::on_nodes(l, c.now(), now_free.clone(), Some(need));
    }
    let running: Vec<(Time, usize)> = c.running().collect();
    let mut cpus: u64 = now_free.cpus.iter().map(|&x| u64::from(x)).sum();
    let mut gpus: u64 = now_free.gpus.iter().map(|&x| u64::from(x)).sum();
    // What is free once the running jobs before `released` have ended, when built.
    let mut state: Option<(Free, usize)> = None;
    for (k, &(end, j)) in running.iter().enumerate() {
        let (c, g) = cv.alloc(j).totals();
        cpus += c;
        gpus += g;
        if running.get(k + 1).is_some_and(|&(next, _)| next == end)
            || cpus < u64::from(need.cpus)
            || gpus < u64::from(need.gpus)
        {
            continue;
        }
        let (free, released) = match state.as_mut() {
            Some(st) => st,
            None => state.insert((released_by(cv, &running, k + 1), k + 1)),
        };
        for &(_, r) in &running[*released..=k] {
            free.give_packed(l, cv.alloc(r));
        }
        *released = k + 1;
        if free.fits(l, need) {
            let (free, _) = state.take().expect("built above");
            return Shadow::on_nodes(l, end, free, Some(need));
        }
    }
    // Every job fits the idle cluster (the others are rejected before the run).
    Shadow::on_nodes(l, Time::MAX, cv.idle().clone(), None)
}

/// What is free once the first `upto` of `running` (by planned end) have ended: what is free
/// now with their allocations given back, or the idle cluster with the others' taken, whichever
/// touches fewer nodes (both give the same: what is free is the idle cluster less what the
/// running jobs hold).
fn released_by(cv: &ClusterView<'_>, running: &[(Time, usize)], upto: usize) -> Free {
    let l = cv.layout();
    let shares = |jobs: &[(Time, usize)]| jobs.iter().map(|&(_, j)| cv.alloc(j).len()).sum();
    let (ended, left) = running.split_at(upto);
    let ended_shares: usize = shares(ended);
    let left_shares: usize = shares(left);
    let free = if left_shares < ended_shares {
        let mut free = cv.idle().clone();
        for &(_, j) in left {
            free.take_packed(l, cv.alloc(j));
        }
        free
    } else {
        let mut free = cv.free().clone();
        for &(_, j) in ended {
            free.give_packed(l, cv.alloc(j));
        }
        free
    };
    debug_assert!(
        free == {
            let mut f = cv.free().clone();
            for &(_, j) in ended {
                f.give_packed(l, cv.alloc(j));
            }
            f
        }
    );
    free
}

/// [`shadow_of`] through `cache` for a head that does not fit now, on a cluster: the cached
/// shadow when nothing it derives from changed, else a new one (then cached).
fn cached_shadow_of(c: &Ctx<'_>, head: usize, cache: &mut ShadowCache) -> Shadow {
    let Some(cv) = c.cluster().filter(|cv| !cv.need(head).cores_only()) else {
        return shadow_of(c, head);
    };
    let same = cache.head == head
        && cache.free_id == cv.free_id()
        && c.running().eq(cache.running.iter().copied());
    if let (true, Some(s)) = (same, &cache.shadow) {
        return s.clone();
    }
    let s = shadow_of(c, head);
    cache.head = head;
    cache.free_id = cv.free_id();
    cache.running.clear();
    cache.running.extend(c.running());
    // A head that fits now has its shadow now, which moves with the time: not kept.
    cache.shadow = (s.time != c.now()).then(|| s.clone());
    s
}

/// [`shadow_of`] for a head asking for cores alone: the earliest planned end at which its
/// partition has its cores free (every job planned to end then counted), and the cores left
/// over there then.
fn cores_shadow(c: &Ctx<'_>, l: &Layout, free: &Free, need: &Need) -> Shadow {
    let Some(cv) = c.cluster() else {
        return Shadow::pool(Time::MAX, 0);
    };
    let mut avail = free.part_cores(need.part);
    let mut found: Option<Time> = None;
    if avail < u64::from(need.cpus) {
        for (end, j) in c.running() {
            if found.is_some_and(|t| end != t) {
                break;
            }
            // A job of the head's partition (not whole nodes) holds its cores there.
            let n = cv.need(j);
            avail += if n.part == need.part && !n.exclusive {
                u64::from(n.cpus)
            } else {
                Free::held_cores(l, cv.alloc(j).iter(), need.part)
            };
            if found.is_none() && avail >= u64::from(need.cpus) {
                found = Some(end);
            }
        }
    }
    let time = found.unwrap_or(if avail >= u64::from(need.cpus) {
        c.now()
    } else {
        Time::MAX
    });
    let extra = u32::try_from(avail.saturating_sub(u64::from(need.cpus))).unwrap_or(u32::MAX);
    Shadow {
        cores: true,
        ..Shadow::pool(time, extra)
    }
}

/// The shadow time of a job needing `need` processors and the extra processors at that time:
/// the earliest planned end at which enough processors are free, counting every running job
/// planned to end at that same time.
pub fn shadow(c: &Ctx<'_>, need: u32) -> (Time, u32) {
    let mut avail = c.free();
    if avail >= need {
        return (c.now(), avail - need);
    }
    let mut found: Option<Time> = None;
    for (end, j) in c.running() {
        if let Some(t) = found {
            if end != t {
                break;
            }
        }
        avail += c.job(j).procs;
        if found.is_none() && avail >= need {
            found = Some(end);
        }
    }
    // The machine always fits a job (wider ones are skipped on input), so `found` is set.
    (found.unwrap_or(Time::MAX), avail.saturating_sub(need))
}

/// Reserves the shadow time for `head` (the first waiting job in the policy's order, which does
/// not fit now). Returns its [`Shadow`], or `None` when no processor is free so nothing can
/// backfill.
pub fn reserve_head(c: &mut Ctx<'_>, head: usize) -> Option<Shadow> {
    let s = shadow_of(c, head);
    c.reserve(head, s.time);
    (c.free() > 0).then_some(s)
}

/// [`reserve_head`] for a head that does not fit now, its shadow kept in `cache` from pass to
/// pass while nothing it derives from changes ([`ShadowCache`]).
pub fn reserve_head_cached(
    c: &mut Ctx<'_>,
    head: usize,
    cache: &mut ShadowCache,
) -> Option<Shadow> {
    let s = cached_shadow_of(c, head, cache);
    c.reserve(head, s.time);
    (c.free() > 0).then_some(s)
}

/// EASY's backfilling step: tries `candidates` in the given order while a processor is free;
/// each starts now if it fits and either ends (by its estimate, [`Ctx::estimate`]) by the
/// shadow time or uses no more than the extra processors left at the shadow time (reasons
/// `backfilled` and `extra`). Started
/// jobs are planned to end after their estimate.
pub fn backfill(
    c: &mut Ctx<'_>,
    mut shadow: Shadow,
    candidates: impl IntoIterator<Item = usize>,
) -> Result<(), SimError> {
    for j in candidates {
        if c.free() == 0 {
            break;
        }
        backfill_one(c, &mut shadow, j)?;
    }
    Ok(())
}

/// [`backfill`] over the jobs of `queue` from position `from` on, read only while a processor
/// is free.
pub fn backfill_queue(
    c: &mut Ctx<'_>,
    mut shadow: Shadow,
    queue: &mut Queue<'_>,
    mut from: usize,
) -> Result<(), SimError> {
    while c.free() > 0 {
        let chunk = queue.from(c, from);
        if chunk.is_empty() {
            break;
        }
        for &j in chunk {
            if c.free() == 0 {
                return Ok(());
            }
            backfill_one(c, &mut shadow, j)?;
            from += 1;
        }
    }
    Ok(())
}

/// One candidate of EASY's backfilling step (a processor is free): starts `j` if it fits and
/// ends by the shadow time or fits in the extra resources (then taken from them).
#[inline]
pub(crate) fn backfill_one(c: &mut Ctx<'_>, shadow: &mut Shadow, j: usize) -> Result<(), SimError> {
    // More processors than are free: no start, on one pool or on a cluster (whose free
    // processors are its free cores).
    let procs = c.job(j).procs;
    if procs > c.free() {
        return Ok(());
    }
    if shadow.nodes.is_some() {
        return backfill_on_nodes(c, shadow, j);
    }
    if shadow.cores {
        return backfill_by_cores(c, shadow, j);
    }
    let end = c.now() + c.estimate(j);
    if end <= shadow.time {
        c.start_as(j, Some(StartReason::Backfilled), None, Some(end))?;
    } else if procs <= shadow.extra {
        shadow.extra -= procs;
        c.start_as(j, Some(StartReason::Extra), None, Some(end))?;
    }
    Ok(())
}

/// [`backfill_one`] on a cluster: a job running past the shadow time gets nodes from what is
/// free both now and in the extra resources. The cheap checks come first (its end against the
/// shadow time, its totals against the extra resources'), so that a job running past the
/// shadow time with more than the extra resources hold is not walked over the nodes.
fn backfill_on_nodes(c: &mut Ctx<'_>, shadow: &mut Shadow, j: usize) -> Result<(), SimError> {
    let end = c.now() + c.estimate(j);
    if end <= shadow.time {
        if !c.fits(j) {
            return Ok(());
        }
        return c.start_as(j, Some(StartReason::Backfilled), None, Some(end));
    }
    let (Some(cv), Some(extra)) = (c.cluster(), shadow.nodes.as_ref()) else {
        return Ok(());
    };
    if !extra.may_hold(cv.need(j)) {
        return Ok(());
    }
    if !c.fits(j) {
        return Ok(());
    }
    let (Some(cv), Some(extra)) = (c.cluster(), shadow.nodes.as_mut()) else {
        return Ok(());
    };
    // Before the copy to take from is made, so that the cached shadow has it too.
    extra.take_head_out(cv.layout());
    let Some(a) = Arc::make_mut(extra).take_for(cv.layout(), cv.free(), cv.need(j)) else {
        return Ok(());
    };
    c.start_on(j, Some(StartReason::Extra), a, Some(end))
}

/// [`backfill_one`] on a cluster for a head asking for cores alone: a job running past the
/// shadow time takes its cores from the head partition's extra cores (an exclusive one, whose
/// whole nodes are not known before it starts, only backfills when it ends by the shadow time).
fn backfill_by_cores(c: &mut Ctx<'_>, shadow: &mut Shadow, j: usize) -> Result<(), SimError> {
    let end = c.now() + c.estimate(j);
    if end <= shadow.time {
        if !c.fits(j) {
            return Ok(());
        }
        return c.start_as(j, Some(StartReason::Backfilled), None, Some(end));
    }
    let procs = c.job(j).procs;
    let exclusive = c.cluster().is_some_and(|cv| cv.need(j).exclusive);
    if !exclusive && procs <= shadow.extra {
        if !c.fits(j) {
            return Ok(());
        }
        shadow.extra -= procs;
        c.start_as(j, Some(StartReason::Extra), None, Some(end))?;
    }
    Ok(())
}
