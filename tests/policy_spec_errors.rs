//! What a spec with a wrong key says: the key, the one it is a typo of (case included: Slurm's
//! names are CamelCase, and slurm.conf takes them in any case), the valid keys, and for a
//! `slurm` key that is no typo, that it is a Slurm parameter the model does not read or one of
//! a later Slurm, and where what it models is written. The CLI says the same with or without a
//! slurm.conf.

use crate::common::schedlab;

fn error(spec: &str) -> String {
    schedlab::policy::build(spec).err().unwrap().to_string()
}

#[test]
fn a_key_one_typo_or_a_case_away_is_named() {
    let e = error("easy[Queue=sjf]");
    assert!(
        e.contains("unknown key \"Queue\" for easy (did you mean \"queue\"?); valid keys: queue,"),
        "{e}"
    );
    let e = error("slurm[priorityweightage=10]");
    assert!(
        e.contains(
            "unknown key \"priorityweightage\" for slurm (did you mean \"PriorityWeightAge\"?); \
             valid keys: PriorityWeightAge,"
        ),
        "{e}"
    );
    assert!(!e.contains("later Slurm"), "{e}");
    let e = error("slurm[bf_windw=60]");
    assert!(e.contains("(did you mean \"bf_window\"?)"), "{e}");
}

/// `bf_max_time` is a 22.05 SchedulerParameters option the model does not read;
/// `bf_allow_magnetic_slot` came with 24.11 (docs/slurm.md "Later versions").
#[test]
fn a_slurm_parameter_the_model_lacks_says_so_and_where_to_look() {
    for key in [
        "bf_max_time",
        "bf_allow_magnetic_slot",
        "PriorityWeightAssoc",
    ] {
        let e = error(&format!("slurm[{key}=1]"));
        assert!(
            e.contains(&format!(
                "unknown key \"{key}\" for slurm; valid keys: PriorityWeightAge,"
            )),
            "{e}"
        );
        assert!(
            e.ends_with(
                "(not a parameter this model of Slurm 22.05 reads: one of a later Slurm, or \
                 one it does not model; docs/slurm.md, \"Parameters\" and \"Later versions\")"
            ),
            "{e}"
        );
    }
    // Another policy's key is said to be that policy's, not Slurm's.
    let e = error("slurm[queue=sjf]");
    assert!(e.contains("(a key of "), "{e}");
    assert!(!e.contains("later Slurm"), "{e}");
    // Not the slurm policy: no word of Slurm.
    assert!(!error("easy[bf_max_time=1]").contains("Slurm"));
}

/// A wrong value names the key, the value as written and what it takes.
#[test]
fn a_wrong_value_names_key_value_and_range() {
    for (spec, want) in [
        (
            "slurm[bf_window=abc]",
            "bf_window=abc: \"abc\" is not a whole number from 1 to 43200 (minutes)",
        ),
        (
            "slurm[PriorityWeightAge=-1]",
            "PriorityWeightAge=-1: \"-1\" is not a weight >= 0",
        ),
    ] {
        let e = error(spec);
        assert!(e.contains(want), "{spec}: {e}");
    }
}

#[test]
fn the_cli_says_the_same_with_or_without_a_slurm_conf() {
    let run1 = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/slurm/gpu-3/run1");
    let log = format!("{run1}/sacct.txt");
    let conf = format!("{run1}/slurm.conf");
    for with_conf in [false, true] {
        let mut args = vec!["run", &log, "-p", "slurm[bf_max_time=10]"];
        if with_conf {
            args.extend(["--slurm-conf", &conf]);
        }
        let (ok, _, err) = schedlab(&args);
        assert!(!ok);
        assert!(
            err.contains("unknown key \"bf_max_time\" for slurm; valid keys:")
                && err.contains("later Slurm"),
            "{with_conf}: {err}"
        );
    }
}
