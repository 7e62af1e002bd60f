//! Slurm's priority weights are whole numbers: a fraction, as a `slurm` spec key or in a
//! slurm.conf, is refused naming the key and the value (and the file and line).

use crate::common::{schedlab, tmpdir};

const TRACE: &str = "tests/data/hpc2n.swf";
/// 52 jobs of a real Slurm run.
const SMALL: &str = "tests/data/slurm/json-16/sacct.txt";

#[test]
fn a_fractional_weight_in_a_spec_is_refused() {
    for key in [
        "PriorityWeightAge",
        "PriorityWeightFairshare",
        "PriorityWeightJobSize",
        "PriorityWeightPartition",
        "PriorityWeightQOS",
    ] {
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
