//! Slurm's priority weights are whole numbers: a fraction, as a `slurm` spec key or in a
//! slurm.conf, is refused naming the key and the value (and the file and line).

use crate::common::{schedlab, tmpdir};

const TRACE: &str = "tests/data/hpc2n.swf";
/// 52 jobs of a real Slurm run.
const SMALL: &str = "tests/data/slurm/json-16/sacct.txt";

#[test]
fn a_fractional_weight_in_a_spec_is_refused() {
    for key in schedlab::slurm::params::WHOLE_WEIGHTS {
        let spec = format!("slurm[{key}=1.5]");
        let (ok, _, err) = schedlab(&["run", TRACE, "-p", &spec]);
        assert!(!ok, "{spec} ran");
        assert!(
            err.contains(&format!(
                "{key}=1.5: \"1.5\" is not a weight >= 0: Slurm's priority weights are whole \
                 numbers from 0 to 4294967295"
            )),
            "{spec}: {err}"
        );
        // A whole one runs.
        let spec = format!("slurm[{key}=2]");
        let (ok, _, err) = schedlab(&["run", SMALL, "-p", &spec]);
        assert!(ok, "{spec}: {err}");
    }
}

#[test]
fn a_fractional_weight_in_slurm_conf_names_file_and_line() {
    let d = tmpdir("weights", "conf");
    let conf = d.join("slurm.conf");
    std::fs::write(
        &conf,
        "ClusterName=lab\nPriorityType=priority/multifactor\nPriorityWeightQOS=0.25\n\
         NodeName=n[1-4] CPUs=32\nPartitionName=batch Nodes=ALL Default=YES\n",
    )
    .unwrap();
    let conf_s = conf.to_str().unwrap();
    let (ok, _, err) = schedlab(&["run", TRACE, "-p", "slurm", "--slurm-conf", conf_s]);
    assert!(!ok, "ran");
    assert!(
        err.contains(&format!(
            "{conf_s}:3: PriorityWeightQOS: \"0.25\" is not a weight >= 0: Slurm's priority \
             weights are whole numbers"
        )),
        "{err}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// A partition's `PriorityJobFactor` is a whole number (Slurm's uint16, 0 to 65535): a
/// fraction, as the `slurm` key or on a slurm.conf partition line, is refused naming the key
/// and the value (and the file and line); a whole one runs.
#[test]
fn a_fractional_partition_job_factor_is_refused() {
    let (ok, _, err) = schedlab(&["run", TRACE, "-p", "slurm[PriorityJobFactor=1.5]"]);
    assert!(!ok, "ran");
    assert!(
        err.contains(
            "PriorityJobFactor=1.5: \"1.5\" is not a partition factor: Slurm's \
             PriorityJobFactor is a whole number from 0 to 65535"
        ),
        "{err}"
    );
    let (ok, _, err) = schedlab(&["run", TRACE, "-p", "slurm[PriorityJobFactor=65536]"]);
    assert!(!ok, "ran");
    assert!(
        err.contains("\"65536\" is not a partition factor: a whole number from 0 to 65535"),
        "{err}"
    );
    let (ok, _, err) = schedlab(&["run", SMALL, "-p", "slurm[PriorityJobFactor=65535]"]);
    assert!(ok, "{err}");
    let d = tmpdir("weights", "job-factor");
    let conf = d.join("slurm.conf");
    let conf_s = conf.to_str().unwrap();
    // slurm.conf's partition line with this factor: whether `slurm` ran, and its errors.
    let run_with = |factor: &str| {
        let text = format!(
            "ClusterName=lab\nNodeName=n[1-4] CPUs=32\n\
             PartitionName=batch Nodes=ALL Default=YES PriorityJobFactor={factor}\n"
        );
        std::fs::write(&conf, text).unwrap();
        let (ok, _, err) = schedlab(&["run", TRACE, "-p", "slurm", "--slurm-conf", conf_s]);
        (ok, err)
    };
    for (factor, want) in [
        (
            "0.5",
            "PriorityJobFactor: expected a whole number, got \"0.5\"",
        ),
        ("70000", "PriorityJobFactor: 70000 is too large"),
    ] {
        let (ok, err) = run_with(factor);
        assert!(!ok, "ran with {factor}");
        assert!(err.contains(&format!("{conf_s}:3: {want}")), "{err}");
    }
    let (ok, err) = run_with("2");
    assert!(ok, "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}
