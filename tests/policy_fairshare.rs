//! Fairshare policies on hand-made two- and three-user workloads worked out by hand.

use crate::common;
use common::{job_set_users, run, starts, ujob};

/// Machine 4. Heavy user 1: H1 (3 processors, 100 s) at 0, H2 (4, 100 s) and H3 (1, 150 s) at
/// 10. Light user 2: L1 (4, 100 s) at 20. Arrival order: H1, H2, H3, L1.
fn light_and_heavy() -> schedlab::input::JobSet {
    job_set_users(
        4,
        &[
            ujob(0, 100, 3, 1),
            ujob(10, 100, 4, 1),
            ujob(10, 150, 1, 1),
            ujob(20, 100, 4, 2),
        ],
    )
}

#[test]
fn the_light_users_job_jumps_ahead_of_the_heavy_users_queue() {
    let set = light_and_heavy();
    // FCFS and EASY: H2 at 100 (H1 ends), H3 at 200 (H2 ends; 1 processor), L1 needs 4 and
    // waits for H3 until 350. EASY cannot backfill H3 earlier: 1 processor is free from 0 but
    // H3 would run past H2's shadow time 100 and there are no extra processors then.
    assert_eq!(starts(&run(&set, "fcfs")), vec![0, 100, 200, 350]);
    let easy = run(&set, "easy");
    assert_eq!(starts(&easy), vec![0, 100, 200, 350]);
    assert_eq!(easy.jobs[3].first_reservation(), Some(350));
    // Fairshare: at 100 user 1 has used 3 x 100 processor-seconds (decayed), user 2 nothing:
    // L1 starts first, then H2 (arrival before H3) at 200, H3 at 300.
    for spec in ["fairshare-fcfs", "fairshare-easy"] {
        let s = run(&set, spec);
        assert_eq!(starts(&s), vec![0, 200, 300, 100], "{spec}");
        assert!(
            s.jobs[3].backfilled,
            "{spec}: L1 started before earlier arrivals"
        );
    }
    // fairshare-easy gives the reservation to the head of the fairshare order: at 20 that is
    // L1 (shadow time 100, when H1 ends), not H2.
    let s = run(&set, "fairshare-easy");
    assert_eq!(s.jobs[3].first_reservation(), Some(100));
    assert_eq!(s.jobs[1].first_reservation(), Some(100));
}

/// Ties (no usage yet) go by arrival: with nothing run before, fairshare is FCFS.
#[test]
fn without_usage_the_order_is_arrival() {
    let set = job_set_users(
        4,
        &[
            ujob(0, 10, 4, 1),
            ujob(0, 10, 4, 2),
            ujob(0, 10, 4, 1),
            ujob(0, 10, 4, 3),
        ],
    );
    // All arrive at 0 with no usage: arrival order at 0. At 10, user 1 has used 40
    // processor-seconds and users 2, 3 nothing: user 2's job, then user 3's, then user 1's.
    assert_eq!(starts(&run(&set, "fcfs")), vec![0, 10, 20, 30]);
    assert_eq!(starts(&run(&set, "fairshare-fcfs")), vec![0, 10, 30, 20]);
}

/// The half-life decides between old heavy usage and recent light usage. Machine 4: user 1 ran
/// 4 processors over [0, 100), user 2 one processor over [1000, 1010); user 3 holds the
/// machine over [1990, 2100) while A2 (user 1, at 2000) and B2 (user 2, at 2001) wait.
/// At 2100, with a half-life of a day, user 1's usage is ~393 processor-seconds and user 2's
/// ~10: B2 first. With a half-life of 100 s, user 1's is 4 x 144.3 x (2^-20 - 2^-21) ~ 2.8e-4
/// and user 2's 144.3 x (2^-10.9 - 2^-11) ~ 5.3e-3: A2 first.
#[test]
fn the_half_life_decays_old_usage() {
    let set = job_set_users(
        4,
        &[
            ujob(0, 100, 4, 1),
            ujob(1000, 10, 1, 2),
            ujob(1990, 110, 4, 3),
            ujob(2000, 50, 4, 1),
            ujob(2001, 50, 4, 2),
        ],
    );
    assert_eq!(starts(&run(&set, "fcfs"))[3..], [2100, 2150]);
    for p in ["fairshare-fcfs", "fairshare-easy"] {
        assert_eq!(starts(&run(&set, p))[3..], [2150, 2100], "{p}");
        let short = format!("{p}[halflife=100]");
        let s = run(&set, &short);
        assert_eq!(s.policy, short);
        assert_eq!(starts(&s)[3..], [2100, 2150], "{short}");
    }
}

#[test]
fn halflife_key_is_checked_and_canonical() {
    use schedlab::policy::canonical;
    assert_eq!(
        canonical("fairshare-easy[halflife=86400]").unwrap(),
        "fairshare-easy"
    );
    assert_eq!(
        canonical("fairshare-easy[halflife=86400.0]").unwrap(),
        "fairshare-easy"
    );
    assert_eq!(
        canonical("fairshare-fcfs[halflife=3600]").unwrap(),
        "fairshare-fcfs[halflife=3600]"
    );
    for bad in ["0", "-5", "day", "inf", "NaN"] {
        let e = canonical(&format!("fairshare-fcfs[halflife={bad}]"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("halflife") && e.contains("> 0"), "{e}");
    }
    let info = schedlab::policy::catalogue()
        .iter()
        .find(|p| p.name == "fairshare-easy")
        .unwrap();
    assert!(info.source.contains("Tóth") && info.keys[0].default == "86400");
}

/// Usages stay comparable however old: with a half-life of 1 s (l = ln 2), user 1 ran 4
/// processors over [0, 10) and user 2 one over [10, 20), over 2,000 half-lives before the
/// machine frees at 2100; user 4 never ran. Their usages at 2100, 4 (1 - 2^-10) / l x 2^-2090
/// ~ 5.8 x 2^-2090 and (1 - 2^-10) / l x 2^-2080 ~ 1476 x 2^-2090 processor-seconds, underflow
/// to 0 as plain doubles. The order at 2100: the never-run user's C, then user 1's A (least
/// usage), then user 2's B: C 2100, A 2150, B 2200 (arrival order, which ties at 0 gave, would
/// give A 2100, B 2150, C 2200). The same as a queue order of fcfs and easy.
#[test]
fn usage_stays_comparable_after_two_thousand_idle_half_lives() {
    let set = job_set_users(
        4,
        &[
            ujob(0, 10, 4, 1),
            ujob(10, 10, 1, 2),
            ujob(2000, 100, 4, 3),
            ujob(2010, 50, 4, 1),
            ujob(2011, 50, 4, 2),
            ujob(2012, 50, 4, 4),
        ],
    );
    assert_eq!(starts(&run(&set, "fcfs"))[3..], [2100, 2150, 2200]);
    for spec in [
        "fairshare-fcfs[halflife=1]",
        "fairshare-easy[halflife=1]",
        "fcfs[queue=fairshare,halflife=1]",
        "easy[queue=fairshare,halflife=1]",
    ] {
        assert_eq!(starts(&run(&set, spec))[3..], [2150, 2200, 2100], "{spec}");
    }
}

/// Fairshare as a queue order of fcfs / easy / conservative keeps the fairshare policies'
/// schedules on the hand-made workload (the aliases are these compositions), and its keys are
/// checked: halflife only with queue=fairshare, no weighted-delay term.
#[test]
fn fairshare_is_a_queue_order_of_the_start_rules() {
    let set = light_and_heavy();
    assert_eq!(
        starts(&run(&set, "fcfs[queue=fairshare]")),
        starts(&run(&set, "fairshare-fcfs"))
    );
    assert_eq!(
        starts(&run(&set, "easy[queue=fairshare]")),
        starts(&run(&set, "fairshare-easy"))
    );
    // Conservative reserves on arrival: H2 and H3 (at 10) before L1 arrives (at 20), and
    // reservations only move earlier, so arrival decides here whatever the usage.
    assert_eq!(
        starts(&run(&set, "conservative[queue=fairshare]")),
        starts(&run(&set, "conservative"))
    );
    for (bad, why) in [
        (
            "easy[halflife=10]",
            "halflife does not apply to queue=fcfs; it is a key of queue=fairshare",
        ),
        (
            "easy[queue=fairshare,weight=1]",
            "weight does not apply to queue=fairshare",
        ),
        (
            "fcfs[queue=fairshare,halflife=0]",
            "halflife=0 is not valid",
        ),
    ] {
        let e = schedlab::policy::build(bad).err().unwrap().to_string();
        assert!(e.contains(why), "{bad}: {e}");
    }
    assert_eq!(
        schedlab::policy::canonical("easy[queue=fairshare,halflife=86400]").unwrap(),
        "easy[queue=fairshare]"
    );
}
