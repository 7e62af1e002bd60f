use super::*;

fn tres(cpus: u64, mem_mb: u64, nodes: u64, gpus: u64) -> Tres {
    Tres {
        cpus,
        mem_mb,
        nodes,
        gpus,
    }
}

/// slurm.conf.5's own example (22.05, TRESBillingWeights): a job allocated 1 CPU and 8 GB on a
/// partition with `CPU=1.0,Mem=0.25G,GRES/gpu=2.0` is billed (1 · 1.0) + (8 · 0.25) + (0 ·
/// 2.0) = 3.0; with `PriorityFlags=MAX_TRES` MAX(1 · 1.0, 8 · 0.25) = 2.0. And "mem=.25" on
/// the same job (per MB, no unit): 8192 · 0.25 = 2048 and the CPU's 1: 2049.
#[test]
fn the_man_page_example() {
    let w = BillingWeights::parse("CPU=1.0,Mem=0.25G,GRES/gpu=2.0").unwrap();
    assert_eq!(
        (w.cpu, w.mem_mb, w.node, w.gpu),
        (1.0, 0.25 / 1024.0, 0.0, 2.0)
    );
    let job = tres(1, 8192, 1, 0);
    assert_eq!(w.billable(job, false), 3.0);
    assert_eq!(w.billable(job, true), 2.0);
    let per_mb = BillingWeights::parse("CPU=1,mem=.25").unwrap();
    assert_eq!(per_mb.billable(job, false), 2049.0);
}

/// The `billing` runs' weights (`CPU=1.0,Mem=0.25G,GRES/gpu=4.0`) by hand. A job of 2 nodes,
/// 4 CPUs, 4000 MB and 1 GPU on each: 8 + 8000 · 0.25 / 1024 (1.953125) + 2 · 4 = 17.953125,
/// recorded 17 (cut, not rounded); with MAX_TRES max(8, 1.953125, 8) = 8. One CPU, 500 MB
/// and 2 GPUs: 1 + 0.1220703125 + 8 = 9.1220703125 (9), MAX_TRES 8. No GPU, 8 CPUs, 16000
/// MB: 8 + 3.90625 = 11.90625 (11), MAX_TRES 8: a CPU job's billing near its cores, a GPU
/// job's far above them.
#[test]
fn the_billing_runs_weights_by_hand() {
    let w = BillingWeights::parse("CPU=1.0,Mem=0.25G,GRES/gpu=4.0").unwrap();
    let two = tres(8, 8000, 2, 2);
    assert_eq!(w.billable(two, false), 17.953125);
    assert_eq!(recorded(w.billable(two, false)), 17);
    assert_eq!(w.billable(two, true), 8.0);
    let small = tres(1, 500, 1, 2);
    assert_eq!(w.billable(small, false), 9.1220703125);
    assert_eq!(recorded(w.billable(small, false)), 9);
    assert_eq!(w.billable(small, true), 8.0);
    let cpu = tres(8, 16000, 1, 0);
    assert_eq!(w.billable(cpu, false), 11.90625);
    assert_eq!(w.billable(cpu, true), 8.0);
}

/// Units (`get_convert_unit_val`): memory's base unit is MB, so `K` and `M` leave its weight
/// as written and each step above divides by 1024; a CPU's base is none, so `K` divides by
/// 1024 (and `T`, four steps, wraps Slurm's `int` divisor to 0: none). Only the unit's first letter is read (`0.5GB` is `0.5G`). Case does not matter, a
/// later weight of the same TRES wins, and a node weight counts nodes.
#[test]
fn units_case_and_repeats() {
    let w = BillingWeights::parse("mem=2K,cpu=1K,NODE=3,Mem=2M").unwrap();
    assert_eq!((w.mem_mb, w.cpu, w.node), (2.0, 1.0 / 1024.0, 3.0));
    let w = BillingWeights::parse("Mem=0.5GB,gres/GPU=3T").unwrap();
    assert_eq!(w.mem_mb, 0.5 / 1024.0);
    // 1024^4 in Slurm's `int` divisor wraps to 0: no division.
    assert_eq!(w.gpu, 3.0);
    assert_eq!(
        BillingWeights::parse("Mem=1P").unwrap().mem_mb,
        1.0 / 1024f64.powi(3)
    );
    assert_eq!(BillingWeights::parse("CPU=2e1").unwrap().cpu, 20.0);
    assert_eq!(
        BillingWeights::parse("Node=3")
            .unwrap()
            .billable(tres(4, 0, 2, 0), false),
        6.0
    );
}

/// Weights on TRES the model holds none of are read and bill nothing (listed); a negative
/// weight (slurm.conf.5: "Negative values are allowed") lowers a sum, and under MAX_TRES the
/// largest starts at 0.
#[test]
fn unheld_and_negative_weights() {
    let w =
        BillingWeights::parse("CPU=1,GRES/gpu:a100=8,license/matlab=2,Energy=1,fs/disk=1").unwrap();
    assert_eq!(
        w.unheld,
        [
            "GRES/gpu:a100=8",
            "license/matlab=2",
            "Energy=1",
            "fs/disk=1"
        ]
    );
    assert_eq!(w.billable(tres(4, 100, 1, 2), false), 4.0);
    let neg = BillingWeights::parse("CPU=-1,GRES/gpu=2").unwrap();
    assert_eq!(neg.billable(tres(4, 0, 1, 1), false), -2.0);
    assert_eq!(recorded(-2.0), 0);
    assert_eq!(neg.billable(tres(4, 0, 1, 0), true), 0.0);
}

/// What Slurm refuses is an error naming the weight: an unknown TRES type, a value that is no
/// number, a unit that is none of K M G T P, an item without `=`.
#[test]
fn bad_weights_are_errors() {
    for (text, says) in [
        ("CPU=1,Disk=2", "Disk: not a TRES type"),
        ("CPU=x", "CPU: \"x\" is not a number"),
        ("Mem=0.25Q", "Mem: \"0.25Q\": the unit is K, M, G, T or P"),
        ("CPU", "\"CPU\" is not TRES=WEIGHT"),
        ("GRES/=1", "GRES/: not a TRES type"),
    ] {
        let e = BillingWeights::parse(text).unwrap_err();
        assert!(e.starts_with(says), "{text}: {e}");
    }
}
