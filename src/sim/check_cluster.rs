//! The invariant checker of schedules on a cluster, run by the tests beside [`super::check`]:
//! every job that ran has an allocation on usable nodes of its partition with what it asked
//! (its cores, its node count, its GPUs, its memory per node; whole nodes exactly when it is
//! exclusive), its processors are its allocation's cores, and at no instant is a node over its
//! cores, memory or GPUs, or shared by an exclusive job (preempted attempts counted while they
//! ran).

use super::schedule::Schedule;
use crate::cluster::Placement;
use crate::Time;

/// Checks `s`, a schedule on `place`'s cluster; returns every violation found.
pub fn check_cluster(place: &Placement, s: &Schedule) -> Result<(), Vec<String>> {
    let l = &place.layout;
    let mut errors = Vec::new();
    if s.allocs.len() != place.needs.len() {
        return Err(vec![format!(
            "{} allocations for {} jobs",
            s.allocs.len(),
            place.needs.len()
        )]);
    }
    if s.preempted_allocs.len() != s.preempted_runs.len() {
        return Err(vec![format!(
            "{} allocations for {} preempted attempts",
            s.preempted_allocs.len(),
            s.preempted_runs.len()
        )]);
    }
    // (time, 0 = end | 1 = start, attempt): ends before starts at one instant; an attempt is
    // a job index (its final attempt) or the job count + k (preempted attempt k).
    let mut events: Vec<(Time, u8, usize)> = Vec::new();
    for (j, rec) in s.jobs.iter().enumerate() {
        if !rec.ran() {
            continue;
        }
        let a = &s.allocs[j];
        // A job submitted to several partitions ran in the first of its list that holds its
        // nodes (its own partition for any other job).
        let holds =
            |p: u32| (a.iter()).all(|x| l.parts[p as usize].members.binary_search(&x.node).is_ok());
        let parts = place.parts_of(j);
        let ran_in = match parts.len() {
            1 => parts[0],
            _ => parts
                .iter()
                .copied()
                .find(|&p| holds(p))
                .unwrap_or(parts[0]),
        };
        let need = &place.need_in(j, ran_in);
        let part = &l.parts[need.part as usize];
        let mut fail = |m: String| errors.push(format!("job index {j}: {m}"));
        if a.is_empty() {
            fail("ran without an allocation".into());
            continue;
        }
        let (cpus, gpus) = a.totals();
        if cpus != u64::from(need.cpus) {
            fail(format!("{cpus} cores allocated, {} asked", need.cpus));
        }
        if gpus < u64::from(need.gpus) || (!need.exclusive && gpus != u64::from(need.gpus)) {
            fail(format!("{gpus} GPUs allocated, {} asked", need.gpus));
        }
        if need.nodes > 0 && a.len() != need.nodes as usize {
            fail(format!("{} nodes allocated, {} asked", a.len(), need.nodes));
        }
        for x in a.iter() {
            let Some(node) = l.nodes.get(x.node as usize) else {
                fail(format!("node index {} does not exist", x.node));
                continue;
            };
            if !node.usable || part.members.binary_search(&x.node).is_err() {
                fail(format!(
                    "node {} is not usable in partition {}",
                    node.name, part.name
                ));
            }
            if x.whole != need.exclusive {
                fail(format!(
                    "whole node {} is {}, exclusive {}",
                    node.name, x.whole, need.exclusive
                ));
            }
            if x.mem_mb < need.mem_on(x.cpus) {
                fail(format!(
                    "{} MB on {}, {} asked",
                    x.mem_mb,
                    node.name,
                    need.mem_on(x.cpus)
                ));
            }
            let (lo, hi) = (node.first_proc, node.first_proc + node.cpus);
            let on: u32 = rec
                .procs
                .intervals()
                .iter()
                .map(|&(p, q)| q.min(hi).saturating_sub(p.max(lo)))
                .sum();
            if on != x.cpus {
                fail(format!(
                    "{on} of its processors on {}, its share has {}",
                    node.name, x.cpus
                ));
            }
        }
        if u64::from(rec.procs.len()) != cpus {
            fail(format!(
                "{} processors for {cpus} allocated cores",
                rec.procs.len()
            ));
        }
        if rec.end > rec.start {
            events.push((rec.end, 0, j));
            events.push((rec.start, 1, j));
        }
    }
    let jobs_n = s.jobs.len();
    for (k, r) in s.preempted_runs.iter().enumerate() {
        if r.end > r.start {
            events.push((r.end, 0, jobs_n + k));
            events.push((r.start, 1, jobs_n + k));
        }
    }
    events.sort_unstable();
    let alloc = |a: usize| match a.checked_sub(jobs_n) {
        Some(k) => &s.preempted_allocs[k],
        None => &s.allocs[a],
    };
    let n = l.nodes.len();
    let (mut cpus, mut mem, mut gpus) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
    let (mut jobs, mut whole) = (vec![0u32; n], vec![0u32; n]);
    for (t, kind, j) in events {
        for x in alloc(j).iter() {
            let i = x.node as usize;
            if i >= n {
                continue;
            }
            let node = &l.nodes[i];
            let (c, m, g) = if x.whole {
                (u64::from(node.cpus), node.mem_mb, u64::from(node.gpus))
            } else {
                (u64::from(x.cpus), x.mem_mb, u64::from(x.gpus))
            };
            if kind == 0 {
                cpus[i] -= c;
                mem[i] -= m;
                gpus[i] -= g;
                jobs[i] -= 1;
                whole[i] -= u32::from(x.whole);
                continue;
            }
            cpus[i] += c;
            mem[i] += m;
            gpus[i] += g;
            jobs[i] += 1;
            whole[i] += u32::from(x.whole);
            if cpus[i] > u64::from(node.cpus)
                || mem[i] > node.mem_mb
                || gpus[i] > u64::from(node.gpus)
            {
                errors.push(format!(
                    "t={t}: node {} over its capacity ({} cores, {} MB, {} GPUs in use)",
                    node.name, cpus[i], mem[i], gpus[i]
                ));
            }
            if whole[i] > 0 && jobs[i] > 1 {
                errors.push(format!("t={t}: node {} shared while held whole", node.name));
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}
