//! The multifactor priorities worked by hand: factors at periods, usage with and without limits
//! enforced, a period beside an end of its second, TRES weights.

use super::*;

/// Fairshare factors move only at periods: a job's end adds usage at once (limits
/// enforced), but jobs submitted before the next period still see the factors of the last
/// one.
#[test]
fn fairshare_changes_at_periods_only() {
    let mut p = SlurmParams::default();
    p.set("PriorityWeightFairshare", "1000").unwrap();
    p.set("PriorityCalcPeriod", "1").unwrap();
    p.set("AccountingStorageEnforce", "associations,limits")
        .unwrap();
    let tree = Tree::flat(["a", "b"].into_iter());
    let job = |submit, assoc| JobInfo {
        submit,
        cpus: 1,
        nodes: 1,
        gpus: 0,
        mem_mb: 0,
        limit: Some(100),
        assoc,
        part_factor: None,
        qos: 0.0,
        usage_factor: 1.0,
    };
    let jobs = vec![job(0, 1), job(31, 2), job(31, 1)];
    let size = Size {
        cpus: 2,
        nodes: 2,
        ..Size::default()
    };
    let mut m = Multifactor::new(p, tree, jobs, size);
    m.advance(0, true);
    m.submitted(0, 0);
    m.started(0, 0);
    m.advance(30, true);
    m.ended(0, 30);
    assert!(m.tree.nodes[1].usage > 0.0);
    m.advance(31, true);
    m.submitted(1, 31);
    m.submitted(2, 31);
    // Both users ranked alike at the period at 0 (no usage): 1000 each.
    assert_eq!((m.priority(1), m.priority(2)), (1000.0, 1000.0));
    m.advance(60, true);
    // At 60 user a has usage: Fair Tree ranks b 2 of 2, a 1 of 2.
    assert_eq!((m.priority(1), m.priority(2)), (1000.0, 500.0));
}

/// One user on 2 processors, no decay, periods every 60 s from 0, fairshare weighed,
/// `AccountingStorageEnforce=enforce`; 2-processor jobs submitted at `submits`, the first
/// at 10, where it starts.
fn one_user(enforce: &str, submits: &[Time]) -> Multifactor {
    let mut p = SlurmParams::default();
    p.set("PriorityWeightFairshare", "1000").unwrap();
    p.set("PriorityCalcPeriod", "1").unwrap();
    p.set("PriorityDecayHalfLife", "0").unwrap();
    assert_eq!(p.set("AccountingStorageEnforce", enforce).unwrap(), enforce);
    let tree = Tree::flat(["a"].into_iter());
    let job = |&submit| JobInfo {
        submit,
        cpus: 2,
        nodes: 1,
        gpus: 0,
        mem_mb: 0,
        limit: Some(600),
        assoc: 1,
        part_factor: None,
        qos: 0.0,
        usage_factor: 1.0,
    };
    let size = Size {
        cpus: 2,
        nodes: 1,
        ..Size::default()
    };
    let mut m = Multifactor::new(p, tree, submits.iter().map(job).collect(), size);
    m.advance(10, true);
    m.submitted(0, 10);
    m.started(0, 10);
    m
}

/// Without limits enforced (Slurm's default) a job's usage is counted at periods only:
/// worked by hand with no decay, 2 processors, periods every 60 s. A job running 10-50
/// ends before the period at 60: no usage. A job running 70-150 adds 2 · 50 at 120 and
/// nothing for 120-150; with limits enforced its end adds 2 · 30 more.
#[test]
fn without_limits_enforced_a_job_end_adds_no_usage() {
    for (enforce, want) in [("associations", 100.0), ("limits", 160.0)] {
        let mut m = one_user(enforce, &[10, 70]);
        m.advance(50, true);
        m.ended(0, 50);
        m.advance(70, true);
        let first = if enforce == "limits" { 80.0 } else { 0.0 };
        assert_eq!(m.tree.nodes[1].usage, first, "{enforce}");
        m.submitted(1, 70);
        m.started(1, 70);
        m.advance(150, true);
        m.ended(1, 150);
        assert_eq!(m.tree.nodes[1].usage - first, want, "{enforce}");
    }
}

/// A period and a job's end in the same second (worked by hand, [`one_user`]): a job
/// running 10-60 ends at 60. Run at the start of the second (the policy's order with a
/// whole `calc_phase`), the period at 60 still finds it running and counts 2 · 50; run
/// after the end (a fractional `calc_phase`: the order runs it at the next pass), it counts
/// nothing, the job's usage after the period at 0 being never counted.
#[test]
fn a_period_before_or_after_an_end_of_its_second() {
    for (early, want) in [(true, 100.0), (false, 0.0)] {
        let mut m = one_user("associations", &[10]);
        m.advance(60, early);
        m.ended(0, 60);
        m.advance(61, false);
        assert_eq!(m.tree.nodes[1].usage, want, "early {early}");
    }
}

/// `PriorityWeightTRES` over a job's request, normalized by the cluster's (worked by hand on
/// gpu-3 of tests/data/slurm: 4 nodes of 8 cores, 16000 MB and 2 GPUs; weights
/// Fairshare 10000, `CPU=1000,GRES/gpu=4000`, no usage yet so a fairshare factor of 1). Job 11
/// (8 cores, 2 GPUs): 10000 + 8/32 * 1000 + 2/8 * 4000 = 11250; job 10 (16 cores, no GPU):
/// 10000 + 500 = 10500. Slurm's own priorities at submission (squeue.log) are the same.
/// `Mem=64` on 16000 MB of 64000: 16.
#[test]
fn tres_weights_count_gpus_and_memory() {
    let mut p = SlurmParams::default();
    p.set("PriorityWeightFairshare", "10000").unwrap();
    p.set("PriorityWeightTRES", "CPU=1000,GRES/gpu=4000,Mem=64")
        .unwrap();
    let job = |cpus| JobInfo {
        submit: 0,
        cpus,
        nodes: 1,
        gpus: 0,
        mem_mb: 0,
        limit: Some(60),
        assoc: 1,
        part_factor: None,
        qos: 0.0,
        usage_factor: 1.0,
    };
    let size = Size {
        cpus: 32,
        nodes: 4,
        mem_mb: 64000,
        gpus: 8,
    };
    let tree = Tree::flat(["erin"].into_iter());
    let mut m = Multifactor::new(p, tree, vec![job(8), job(16), job(1)], size);
    m.shape(0, 2, 2, 8000);
    m.shape(1, 4, 0, 0);
    m.shape(2, 1, 0, 16000);
    m.advance(0, true);
    for j in 0..3 {
        m.submitted(j, 0);
    }
    // 8000 MB of 64000 weighs 8 more for job 11; job 3: 1/32 * 1000 + 16.
    assert_eq!(m.priority(0), 11258.0);
    assert_eq!(m.priority(1), 10500.0);
    assert_eq!(m.priority(2), 10000.0 + 31.0 + 16.0);
}

/// The classic formula's parameters: fairshare weighed 1000, periods every 60 s from 0, no
/// decay, nothing else.
fn classic_params() -> SlurmParams {
    let mut p = SlurmParams::default();
    p.set("PriorityFlags", "NO_FAIR_TREE").unwrap();
    p.set("PriorityWeightFairshare", "1000").unwrap();
    p.set("PriorityWeightAge", "0").unwrap();
    p.set("PriorityCalcPeriod", "1").unwrap();
    p.set("PriorityDecayHalfLife", "0").unwrap();
    p
}

/// A one-processor job of association `assoc` submitted at 0.
fn at_zero(assoc: usize) -> JobInfo {
    JobInfo {
        submit: 0,
        cpus: 1,
        nodes: 1,
        gpus: 0,
        mem_mb: 0,
        limit: Some(1000),
        assoc,
        part_factor: None,
        qos: 0.0,
        usage_factor: 1.0,
    }
}

/// The classic formula takes an account's effective usage at the start of a period, before
/// the period's new usage (`_set_children_usage_efctv` runs before `_apply_decay` and the job
/// list). Root has accounts a and b (1 share each); b has users w and y (1 share each).
/// w's job 0 runs from 0, y's job 1 waits. At the period at 60, b's effective usage is that
/// of the usage before the period, none: UE_b = 0; then job 0 adds 60 to w, b and root, and
/// job 1's user y gets UA_y = 0 / 60 = 0, UE_y = 0 + (UE_b - 0) x 1/2 = 0: factor 2^0, 1000.
/// (From the usage after the period, UE_b = UA_b = 1 and UE_y = 1/2 over NormShares 1/2 x 1/2
/// = 1/4: 2^-2, 250.) At 120, b's UE is its usage's at 120 before the new usage, 60 / 60 = 1:
/// y's UE 1/2, 250.
#[test]
fn classic_accounts_are_taken_before_the_periods_usage() {
    let text =
        "Account|User|RawShares|RawUsage\nroot|||0\n a||1|0\n b||1|0\n  b|w|1|0\n  b|y|1|0\n";
    let rows = crate::slurm::sshare::parse(text, "t").unwrap();
    let tree = Tree::from_sshare(&rows, "t").unwrap();
    let size = Size {
        cpus: 2,
        nodes: 2,
        ..Size::default()
    };
    let mut m = Multifactor::new(classic_params(), tree, vec![at_zero(3), at_zero(4)], size);
    m.advance(0, true);
    m.submitted(0, 0);
    m.submitted(1, 0);
    m.started(0, 0);
    assert_eq!(m.priority(1), 1000.0);
    m.advance(60, true);
    assert_eq!(m.tree.nodes[3].usage, 60.0);
    assert_eq!(m.priority(1), 1000.0);
    m.advance(120, true);
    assert_eq!(m.priority(1), 250.0);
}

/// A user's factor is computed at the period when the job list reaches the user's first
/// waiting job, from the usage added so far (`_get_fairshare_priority` on a user whose
/// `usage_efctv` is `NO_VAL`), and kept until the next period. Two users under root (1 share
/// each: NormShares 1/2, UE = UA); u's job 0 waits, u's job 1 runs from 0. At 60 the list
/// reaches job 0 before job 1 adds its minute: u's usage 0 of root's 0, UA 0, factor 1, 1000
/// (from all the period's usage, UA 1: 2^(-1 / (1/2)) = 1/4, 250). At 120, u's usage before
/// job 1's second minute is 60 of 60: 250.
#[test]
fn classic_users_are_taken_in_job_list_order() {
    let tree = Tree::flat(["u", "v"].into_iter());
    let size = Size {
        cpus: 2,
        nodes: 2,
        ..Size::default()
    };
    let mut m = Multifactor::new(classic_params(), tree, vec![at_zero(1), at_zero(1)], size);
    m.advance(0, true);
    m.submitted(0, 0);
    m.submitted(1, 0);
    m.started(1, 0);
    m.advance(60, true);
    assert_eq!(m.priority(0), 1000.0);
    m.advance(120, true);
    assert_eq!(m.priority(0), 250.0);
}

/// A job's usage is charged times its QOS's `UsageFactor` (priority_multifactor.c
/// `_apply_new_usage`, `real_decay *= qos->usage_factor`), worked by hand with no decay, 2
/// processors, periods every 60 s ([`one_user`] with limits enforced, so an end adds its
/// last part): the job runs 10-50, 2 · 40 = 80 processor-seconds; with UsageFactor=2 the
/// association is charged 160, with 0.5 40, with 0 nothing (no usage at all, as Slurm's
/// `UsageFactor=0` QOS: the jobs run free).
#[test]
fn usage_is_charged_times_the_qos_usage_factor() {
    for (f, want) in [(1.0, 80.0), (2.0, 160.0), (0.5, 40.0), (0.0, 0.0)] {
        let mut m = one_user("limits", &[10]);
        m.jobs[0].usage_factor = f;
        m.advance(50, true);
        m.ended(0, 50);
        assert_eq!(m.tree.nodes[1].usage, want, "UsageFactor={f}");
        // The root is charged the same (every ancestor).
        assert_eq!(m.tree.nodes[0].usage, want, "UsageFactor={f}");
    }
}

/// A job's age counts from its accrue time, which the first queue build that finds it
/// waiting sets (acct_policy.c `acct_policy_handle_accrue_time`, called by
/// `build_job_queue`; to its submission here, no limits enforced); before it, no age
/// (priority_multifactor.c `set_priority_factors`: `accrue_time` 0). Worked by hand: age
/// weight 1000 over `PriorityMaxAge` 10 minutes (1000 / 600 a second, truncated), periods
/// every 60 s from 0, nothing else weighed. Job a submitted at 5, a build at 30, job b
/// submitted at 40: the period at 60 gives a 91 (55 s: 91.7) and b 1 (no age; a priority is
/// at least 1). A build at 70 finds b: the period at 120 gives a 191 (115 s) and b 133 (80 s,
/// from its submission, not the build). Without the rule b has 33 (20 s) at 60.
#[test]
fn a_job_ages_only_once_a_queue_build_found_it() {
    let mut p = SlurmParams::default();
    p.set("PriorityWeightAge", "1000").unwrap();
    p.set("PriorityMaxAge", "10").unwrap();
    p.set("PriorityCalcPeriod", "1").unwrap();
    let job = |submit| JobInfo {
        submit,
        ..at_zero(1)
    };
    let size = Size {
        cpus: 2,
        nodes: 1,
        ..Size::default()
    };
    let tree = Tree::flat(["a"].into_iter());
    let mut m = Multifactor::new(p, tree, vec![job(5), job(40)], size);
    m.advance(5, true);
    m.submitted(0, 5);
    m.queue_built(30);
    m.advance(40, true);
    m.submitted(1, 40);
    m.advance(60, true);
    assert_eq!((m.priority(0), m.priority(1)), (91.0, 1.0));
    m.queue_built(70);
    m.advance(120, true);
    assert_eq!((m.priority(0), m.priority(1)), (191.0, 133.0));
}

/// A job's usage is charged its billing when its partition weighs TRES
/// ([`Multifactor::set_billing`]), else its processors. Users a and b each run an 8-processor
/// job from 0, no decay, periods every 60 s: a's job billed 17.953125 (2 nodes, 8 CPUs, 8000
/// MB and 2 GPUs under `CPU=1.0,Mem=0.25G,GRES/gpu=4.0`), b's not. At 60 a has 60 · 17.953125
/// = 1077.1875 of usage, b 60 · 8 = 480, root both; and a's next job ranks below b's.
#[test]
fn usage_is_charged_the_billing() {
    let mut p = SlurmParams::default();
    p.set("PriorityWeightFairshare", "1000").unwrap();
    p.set("PriorityCalcPeriod", "1").unwrap();
    p.set("PriorityDecayHalfLife", "0").unwrap();
    let tree = Tree::flat(["a", "b"].into_iter());
    let job = |assoc| JobInfo {
        submit: 0,
        cpus: 8,
        nodes: 2,
        gpus: 2,
        mem_mb: 8000,
        limit: Some(600),
        assoc,
        part_factor: None,
        qos: 0.0,
        usage_factor: 1.0,
    };
    let size = Size {
        cpus: 32,
        nodes: 4,
        ..Size::default()
    };
    let mut m = Multifactor::new(p, tree, vec![job(1), job(2), job(1), job(2)], size);
    m.advance(0, true);
    for j in 0..2 {
        m.submitted(j, 0);
    }
    m.set_billing(0, 17.953125);
    assert_eq!((m.billing(0), m.billing(1)), (17.953125, 8.0));
    m.started(0, 0);
    m.started(1, 0);
    m.advance(60, true);
    let usage = |i: usize| m.tree.nodes[i].usage;
    assert_eq!(
        (usage(1), usage(2), usage(0)),
        (1077.1875, 480.0, 1557.1875)
    );
    // Fair Tree at 60: b ranks 2 of 2 (1000), a 1 of 2 (500).
    m.submitted(2, 60);
    m.submitted(3, 60);
    assert_eq!((m.priority(2), m.priority(3)), (500.0, 1000.0));
}
