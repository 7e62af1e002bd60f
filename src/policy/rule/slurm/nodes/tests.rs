//! [`super::NodePlan`] worked by hand on small clusters.

use super::*;
use crate::cluster::{Cluster, NodeGroup, Partition};

/// Two nodes of 4 cores.
fn two_nodes() -> Layout {
    let mut c = Cluster::single_pool(8);
    c.groups = vec![NodeGroup::new(vec!["a".into(), "b".into()], 4, 1000)];
    c.partitions = vec![Partition::new("p", vec!["a".into(), "b".into()])];
    Layout::new(&c).unwrap()
}

/// `cpus` cores of node `node`.
fn share(node: u32, cpus: u32) -> Share {
    Share {
        node,
        cpus,
        mem_mb: 0,
        gpus: 0,
        whole: false,
    }
}

/// [`two_nodes`] at time 0, node a running a job of `cpus` cores planned to end at `end`.
fn a_running(cpus: u32, end: Time) -> (Layout, NodePlan) {
    let l = two_nodes();
    let mut free = Free::all(&l);
    let running = vec![share(0, cpus)];
    free.take(&l, &running);
    let plan = NodePlan::new(0, 0, free, vec![(end, running, None)]);
    (l, plan)
}

fn need(cpus: u32, nodes: u32) -> Need {
    Need {
        cpus,
        nodes,
        ..Need::default()
    }
}

/// Worked by hand: node a has 1 core free now (a job of 3 cores ends at 100), node b 4.
/// A 2-node job of 4 cores (2 per node) waits for a's job: start 100, on a and b.
/// Reserved over [100, 200), both nodes are out of the plan then, whatever their idle
/// cores: a 1-core job fits now only if it ends before 100, else it starts at 200.
#[test]
fn a_reservation_holds_whole_nodes() {
    let (l, mut plan) = a_running(3, 100);
    let (t, a) = plan.earliest(&l, &need(4, 2), 200, None).unwrap();
    assert_eq!(t, 100);
    assert_eq!(a.iter().map(|s| s.node).collect::<Vec<_>>(), [0, 1]);
    plan.hold(100, 200, &a);
    assert_eq!(plan.earliest(&l, &need(1, 1), 150, None).unwrap().0, 200);
    // A reservation beginning exactly at its end still counts (Slurm's `<=`).
    assert_eq!(plan.earliest(&l, &need(1, 1), 100, None).unwrap().0, 200);
    // A 1-core job of 50 s starts now on a (its one free core), until 50; a whole node
    // for 99 s is b now, for 100 s (both nodes reserved from 100) only at 200.
    let (t, a) = plan.earliest(&l, &need(1, 1), 50, None).unwrap();
    assert_eq!((t, a[0].node), (0, 0));
    plan.start(&l, a, 50);
    let (t, a) = plan.earliest(&l, &need(4, 1), 99, None).unwrap();
    assert_eq!((t, a[0].node), (0, 1));
    assert_eq!(plan.earliest(&l, &need(4, 1), 100, None).unwrap().0, 200);
}

/// Worked by hand (Slurm's `later_start`): node a runs a 4-core job to 100; node b is
/// idle but reserved over [10, 60). A 1-core job of 100 s, tested from now on the nodes
/// free of reservations over [0, 100] (a only), would start at 100; but b is free again
/// at 60, before that: tested again from 60, it starts there on b.
#[test]
fn a_start_after_a_reservations_end_is_tried_again_from_that_end() {
    let (l, mut plan) = a_running(4, 100);
    plan.hold(10, 60, &[share(1, 4)]);
    assert_eq!(plan.later_start(0), Some(60));
    assert_eq!(plan.later_start(60), None);
    let (t, a) = plan.earliest(&l, &need(1, 1), 100, None).unwrap();
    assert_eq!((t, a[0].node), (60, 1));
    // The map's end is no later start: ending at 60, the job starts at 100 on a.
    plan.set(60, 1, Some(0));
    assert_eq!(plan.later_start(0), None);
    assert_eq!(plan.earliest(&l, &need(1, 1), 100, None).unwrap().0, 100);
}

/// Worked by hand (`_test_resv_overlap`; gpu-3/run2 at 198 s): node a runs a 4-core job
/// to 38, node b one to 400; both nodes are reserved from 160 (to 300). A 4-core job of
/// 125 s, tested from now on the nodes free of reservations over [0, 125] (both),
/// starts at 38 on a. Its run [38, 163] reaches into the reservation, but rounded down
/// to the 10-s resolution as Slurm checks it, [30, 160], it ends where the reservation
/// begins: no overlap, the start holds (unrounded, the job would wait until 300); so
/// does 128 s ([38, 166]: [30, 160]). 135 s rounds to [30, 170] and overlaps: tried
/// again from 38 it finds no node free of reservations over [38, 173], and starts at
/// 300. On a log's clock 5 s past a multiple of 10 the grid moves (and with it the
/// reservation, made on it: [155, 295)): 125 s runs [35, 155] (no overlap), 128 s
/// [35, 165] (overlap: 295).
#[test]
fn a_later_start_is_checked_against_reservations_rounded_to_the_resolution() {
    let l = two_nodes();
    let ends = vec![
        (38, vec![share(0, 4)], None),
        (400, vec![share(1, 4)], None),
    ];
    let mut free = Free::all(&l);
    for (_, a, _) in &ends {
        free.take(&l, a);
    }
    for (clock, len, start) in [
        (0, 125, 38),
        (0, 128, 38),
        (0, 135, 300),
        (5, 125, 38),
        (5, 128, 295),
    ] {
        let mut plan = NodePlan::new(0, clock, free.clone(), ends.clone());
        plan.set(Time::MAX, 10, Some(0));
        plan.hold(160 - clock, 300 - clock, &[share(0, 4), share(1, 4)]);
        let (t, a) = plan.earliest(&l, &need(4, 1), len, None).unwrap();
        assert_eq!((t, a[0].node), (start, 0), "clock {clock}, {len} s");
    }
    // Without the rounding (a resolution of 1 s) the 125-s run overlaps.
    let mut plan = NodePlan::new(0, 0, free, ends);
    plan.hold(160, 300, &[share(0, 4), share(1, 4)]);
    assert_eq!(plan.earliest(&l, &need(4, 1), 125, None).unwrap().0, 300);
}

/// `later_start` as Slurm's walk reads (the reference): each reservation boundary after
/// `t` and before the map's end in turn, the first at which some node held between `t`
/// and it is held no more.
fn later_start_by_bounds(plan: &NodePlan, t: Time) -> Option<Time> {
    let spans: Vec<(u32, Time, Time)> = plan.holds.spans().collect();
    let mut bounds: Vec<Time> = spans
        .iter()
        .flat_map(|h| [h.1, h.2])
        .filter(|&b| b > t && b < plan.end)
        .collect();
    bounds.sort_unstable();
    let n = plan.free.cpus.len();
    bounds.into_iter().find(|&b| {
        let mut before = vec![false; n];
        let mut at = vec![false; n];
        for &(x, from, to) in &spans {
            before[x as usize] |= from < b && to > t;
            at[x as usize] |= from <= b && to > b;
        }
        (0..n).any(|x| before[x] && !at[x])
    })
}

proptest::proptest! {
    /// The sweep over each node's spans finds what the walk over the boundaries finds, on
    /// random reservations (overlapping, touching, ended before `t`) of 6 nodes.
    #[test]
    fn later_start_agrees_with_the_walk_over_boundaries(
        holds in proptest::collection::vec(
            (0i64..60, 1i64..40, proptest::collection::vec(0u32..6, 1..4)), 0..12),
        t in 0i64..80,
        end in 20i64..120,
    ) {
        let mut c = Cluster::single_pool(24);
        let names: Vec<String> = (0..6).map(|i| format!("n{i}")).collect();
        c.groups = vec![NodeGroup::new(names.clone(), 4, 1000)];
        c.partitions = vec![Partition::new("p", names)];
        let l = Layout::new(&c).unwrap();
        let mut plan = NodePlan::new(0, 0, Free::all(&l), Vec::new());
        plan.set(end, 1, Some(0));
        for (from, len, nodes) in &holds {
            let shares: Vec<Share> = nodes.iter().map(|&x| share(x, 1)).collect();
            plan.hold(*from, from + len, &shares);
        }
        proptest::prop_assert_eq!(
            plan.later_start(t),
            later_start_by_bounds(&plan, t)
        );
    }
}

/// Worked by hand: node a runs two 2-core jobs planned to end at 100 and 140, node b a
/// 4-core job to 400. A 2-core job fits on a once the first ends, but the will-run test
/// takes the ends up to 150 together (100 rounded up to 120, plus 30): it starts at 140,
/// the last end of that group. A 4-core 2-node job (2 per node) needs b as well: the next
/// group (the window doubled until it reaches the end at 400) gives it: start 400.
#[test]
fn the_will_run_test_takes_planned_ends_in_groups() {
    let l = two_nodes();
    let mut free = Free::all(&l);
    let ends = vec![
        (400, vec![share(1, 4)], None),
        (100, vec![share(0, 2)], None),
        (140, vec![share(0, 2)], None),
    ];
    for (_, a, _) in &ends {
        free.take(&l, a);
    }
    let mut plan = NodePlan::new(0, 0, free.clone(), ends.clone());
    let (t, a) = plan.earliest(&l, &need(2, 1), 10, None).unwrap();
    assert_eq!((t, a[0].node), (140, 0));
    // The groups are aligned on the log's clock: 15 s past a multiple of 30 at time 0,
    // the end at 100 is 115 on the clock, rounded up to 120 there (105 here), plus 30:
    // the first group ends at 135 and holds 100 alone, after which the job fits.
    let mut shifted = NodePlan::new(0, 15, free, ends);
    assert_eq!(shifted.earliest(&l, &need(2, 1), 10, None).unwrap().0, 100);
    assert_eq!(plan.earliest(&l, &need(4, 2), 10, None).unwrap().0, 400);
    // A job past its planned end gives its cores back one second from now.
    let mut late = Free::all(&l);
    late.take(&l, &[share(0, 4)]);
    late.take(&l, &[share(1, 4)]);
    let mut plan = NodePlan::new(
        50,
        0,
        late,
        vec![
            (20, vec![share(0, 4)], None),
            (900, vec![share(1, 4)], None),
        ],
    );
    assert_eq!(plan.earliest(&l, &need(1, 1), 10, None).unwrap().0, 51);
}

/// Nodes a and b of 4 cores, partitions p (a, b) and q (a), at time 0 running the jobs of
/// `ends` ((planned end, allocation, limit), by planned end).
fn partitions_p_and_q(ends: Vec<(Time, Alloc, Option<Time>)>) -> (Layout, NodePlan) {
    let mut c = Cluster::single_pool(8);
    c.groups = vec![NodeGroup::new(vec!["a".into(), "b".into()], 4, 1000)];
    c.partitions = vec![
        Partition::new("p", vec!["a".into(), "b".into()]),
        Partition::new("q", vec!["a".into()]),
    ];
    let l = Layout::new(&c).unwrap();
    let mut free = Free::all(&l);
    for (_, a, _) in &ends {
        free.take(&l, a);
    }
    let plan = NodePlan::new(0, 0, free, ends);
    (l, plan)
}

/// Worked by hand (`_will_run_test`: a running job on none of the job's nodes is passed
/// over). Partitions p (a, b) and q (a). Node b runs a 4-core job planned to end at 50;
/// node a two 2-core jobs, to 110 and 140. A 2-core job of q: the groups start at 110
/// (rounded up to 120, plus 30: 140 joins), so it starts at 140 on a. Had b's job counted,
/// the first group would be 50 alone (60 + 30), the next 110 alone (window 60: up to 120),
/// and the start 110. The same job in p fits on b after its job: 50.
#[test]
fn the_will_run_test_passes_over_jobs_outside_the_partition() {
    let (l, mut plan) = partitions_p_and_q(vec![
        (50, vec![share(1, 4)], None),
        (110, vec![share(0, 2)], None),
        (140, vec![share(0, 2)], None),
    ]);
    let in_q = Need {
        part: 1,
        ..need(2, 1)
    };
    let (t, a) = plan.earliest(&l, &in_q, 10, None).unwrap();
    assert_eq!((t, a[0].node), (140, 0));
    let (t, a) = plan.earliest(&l, &need(2, 1), 10, None).unwrap();
    assert_eq!((t, a[0].node), (50, 1));
}

/// Worked by hand (`_will_run_test`: a job passed over never ends a group). Partitions p
/// (a, b) and q (a). Node a (4 cores) runs two 2-core jobs, planned to end at 110 and 400;
/// node b one to 130. A 2-core job of q: the window is 110 rounded up to 120, plus 30;
/// after 110 is given back the next job, b's at 130, ends within it, so the group goes on;
/// b's job is passed over, and 400, the next on a, joins the group: the job starts at 400
/// (Slurm's start, though it fits after 110). The same job in p: b's job is on its nodes
/// and 400 lies past 150, so the group is 110 and 130, and it starts at 130.
#[test]
fn a_job_passed_over_never_ends_a_will_run_group() {
    let (l, mut plan) = partitions_p_and_q(vec![
        (110, vec![share(0, 2)], None),
        (130, vec![share(1, 4)], None),
        (400, vec![share(0, 2)], None),
    ]);
    let in_q = Need {
        part: 1,
        ..need(2, 1)
    };
    let (t, a) = plan.earliest(&l, &in_q, 10, None).unwrap();
    assert_eq!((t, a[0].node), (400, 0));
    let (t, _) = plan.earliest(&l, &need(2, 1), 10, None).unwrap();
    assert_eq!(t, 130);
}

/// Worked by hand (`_guess_job_end`, cons_common/job_test.c): at 50, node a runs a 4-core
/// job started at -20 with a 60-s limit, planned to end at 40 (past it: Slurm kills it at
/// its next limit check), node b one to 900. A 1-core job waits for a's job, the first
/// group alone (40 rounded up to 60, plus 30: 900 lies beyond). Its start is Slurm's guess
/// at that job's end: 40 plus `KillWait` (30 s, Slurm's default: 70), plus `OverTimeLimit`
/// (1 minute: 130); a guess not after now is now + 1 (`KillWait=5`: 45, so 51);
/// `OverTimeLimit=UNLIMITED`: "no idea when the job might end", its time limit from now,
/// 50 + 60 = 110 (a year from now for a job without a limit). Before the rule every such
/// job gave its cores back at now + 1.
#[test]
fn a_job_past_its_planned_end_is_guessed_to_end_kill_wait_after_it() {
    let l = two_nodes();
    let mut busy = Free::all(&l);
    busy.take(&l, &[share(0, 4)]);
    busy.take(&l, &[share(1, 4)]);
    for (grace, limit, start) in [
        (Some(30), Some(60), 70),
        (Some(30 + 60), Some(60), 130),
        (Some(5), Some(60), 51),
        (None, Some(60), 110),
        (None, None, 50 + super::super::NO_LIMIT),
    ] {
        let ends = vec![
            (40, vec![share(0, 4)], limit),
            (900, vec![share(1, 4)], None),
        ];
        let mut plan = NodePlan::new(50, 0, busy.clone(), ends);
        plan.set(Time::MAX, 1, grace);
        let (t, a) = plan.earliest(&l, &need(1, 1), 10, None).unwrap();
        assert_eq!((t, a[0].node), (start, 0), "{grace:?} {limit:?}");
    }
}

/// Worked by hand: `OverTimeLimit=UNLIMITED` guesses from the time limit of the group's
/// last job. At 50, node a runs two 2-core jobs past their planned ends: one to 30 with a
/// 120-s limit, one to 40 with a 60-s limit (both in the first group: 30 rounded up to 60,
/// plus 30). A 4-core job needs both gone: the group's last end is 40, whose job's limit
/// from now gives 50 + 60 = 110 (not the first job's 50 + 120 = 170).
#[test]
fn an_unlimited_over_time_reads_the_limit_of_the_groups_last_job() {
    let l = two_nodes();
    let mut busy = Free::all(&l);
    for a in [share(0, 2), share(0, 2), share(1, 4)] {
        busy.take(&l, &[a]);
    }
    let ends = vec![
        (40, vec![share(0, 2)], Some(60)),
        (30, vec![share(0, 2)], Some(120)),
        (900, vec![share(1, 4)], None),
    ];
    let mut plan = NodePlan::new(50, 0, busy, ends);
    plan.set(Time::MAX, 1, None);
    let (t, a) = plan.earliest(&l, &need(4, 1), 10, None).unwrap();
    assert_eq!((t, a[0].node), (110, 0));
}

/// Worked by hand (`bf_last_depth_try`: a job counts toward `bf_max_job_test` only when it
/// reaches the will-run test): node a runs a 3-core job to 100, node b is idle. With both
/// nodes reserved over [0, 1000) (the map's end 1000: no later start), a 1-node job has no
/// node free of reservations over its run: no start, and not tried; a 2-node job neither.
/// With b's reservation gone, the 1-node job finds b (tried, starts now) and the 2-node job
/// one node of two (not tried: `bit_set_count(avail_bitmap) < min_nodes`).
#[test]
fn a_job_short_of_unreserved_nodes_is_not_tried() {
    let (l, mut plan) = a_running(3, 100);
    plan.set(1000, 1, Some(0));
    let (_, mut held) = a_running(3, 100);
    held.set(1000, 1, Some(0));
    held.hold(0, 1000, &[share(0, 4), share(1, 4)]);
    assert!(held.earliest(&l, &need(1, 1), 50, None).is_none());
    assert!(!held.tried());
    assert!(held.earliest(&l, &need(2, 2), 50, None).is_none());
    assert!(!held.tried());
    plan.hold(0, 1000, &[share(0, 4)]);
    assert_eq!(plan.earliest(&l, &need(1, 1), 50, None).unwrap().0, 0);
    assert!(plan.tried());
    assert!(plan.earliest(&l, &need(2, 2), 50, None).is_none());
    assert!(!plan.tried());
}

/// smallbf-2/run4's job 9 (4 nodes, 2 cores and 4000 MB on each, limit 60 s) as its debug log
/// plans it, worked by hand (times from the log's time 0, 09:48:55, 25 s past a multiple of
/// 30 on the epoch: the clock 25). Nodes n1-n4 of 8 cores and 16000 MB. Running, with
/// planned ends (start + limit): on n1 job 1 (2 cores, 4000 MB, to 121) and job 3 (2, 1000,
/// to 63); on n2 job 5 (2, 1000, to 187), job 6 (4, 4000, to 127) and job 7 (1, 500, to 68);
/// n3 and n4 idle. n2 has 1 core free: job 9 waits for a job of n2.
/// - Cycle at 38 (log 09:49:33.314): the first group is 63 (88 on the clock) rounded up to
///   65 (09:50:00), plus 30: up to 95; 68 joins it, 121 does not. Without jobs 3 and 7 it
///   fits: start 68 (the log's `to start at 09:50:03`).
/// - Cycle at 43 (09:49:38.315), after job 3's end at 39: the first group is 68 rounded up
///   to 95 (09:50:30), plus 30: up to 125; 121 joins it, 127 does not. Without jobs 7 and 1
///   it fits: start 121 (the log's `09:50:56`), though it fits once job 7 alone is gone.
///
/// So job 3's end moves job 9's plan 53 s later: the group it opened ended at 95, and the
/// group job 7 opens reaches job 1's end (`_will_run_test`, cons_common/job_test.c).
#[test]
fn smallbf_2_run4s_job_9_is_planned_later_once_job_3_has_ended() {
    let mut c = Cluster::single_pool(32);
    let names = ["n1", "n2", "n3", "n4"].map(String::from).to_vec();
    c.groups = vec![NodeGroup::new(names.clone(), 8, 16000)];
    c.partitions = vec![Partition::new("batch", names)];
    let l = Layout::new(&c).unwrap();
    let on = |node, cpus, mem_mb| {
        vec![Share {
            mem_mb,
            ..share(node, cpus)
        }]
    };
    let job9 = Need {
        mem_per_node_mb: 4000,
        ..need(8, 4)
    };
    let running = |with_job_3: bool| {
        let mut ends = vec![
            (121, on(0, 2, 4000), Some(120)),
            (187, on(1, 2, 1000), Some(180)),
            (127, on(1, 4, 4000), Some(120)),
            (68, on(1, 1, 500), Some(60)),
        ];
        if with_job_3 {
            ends.push((63, on(0, 2, 1000), Some(60)));
        }
        let mut free = Free::all(&l);
        for (_, a, _) in &ends {
            free.take(&l, a);
        }
        (free, ends)
    };
    for (now, with_job_3, start) in [(38, true, 68), (43, false, 121)] {
        let (free, ends) = running(with_job_3);
        let mut plan = NodePlan::new(now, 25, free, ends);
        plan.set(now + 120, 10, Some(5));
        let (t, a) = plan.earliest(&l, &job9, 60, None).unwrap();
        assert_eq!(t, start, "at {now}");
        assert_eq!(a.iter().map(|s| s.node).collect::<Vec<_>>(), [0, 1, 2, 3]);
    }
    // At 43 with job 1 planned to end past the group (at 130 > 125), the group is job 7
    // alone, and job 9 starts at its end, 68: job 1's cores on n1 never stood in its way.
    let (free, mut ends) = running(false);
    ends[0].0 = 130;
    let mut plan = NodePlan::new(43, 25, free, ends);
    plan.set(163, 10, Some(5));
    assert_eq!(plan.earliest(&l, &job9, 60, None).unwrap().0, 68);
}
