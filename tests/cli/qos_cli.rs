//! `--qos`: the QOS priorities of `sacctmgr show qos format=Name,Priority -P` for the `slurm`
//! policy's QOS factor, each job's QOS from the sacct log's `QOS` column.

use crate::common::{schedlab, tmpdir};

/// Three jobs of 4 processors on a pool of 4: 1 (submit 0, 100 s, normal), 2 (submit 10,
/// 50 s, low), 3 (submit 20, 50 s, high); `PriorityWeightQOS=1000`, nothing else weighed.
/// With the file (normal 10, high 100, low 0) the factors are 0.1, 0 and 1: when job 1 ends
/// at 100, job 3 (priority 1000) starts before job 2 (priority 1, Slurm's least): 3 at 100,
/// 2 at 150. Without the file every priority is 1 and job 2, the first submitted, starts
/// first: 2 at 100, 3 at 150 (the schedule of Slurm's defaults). The `qos` key gives the same
/// priorities as the file. A job in a QOS the file lacks is said on stderr.
#[test]
fn qos_priorities_order_the_queue() {
    let d = tmpdir("cli", "qos");
    let log = d.join("sacct.txt");
    std::fs::write(
        &log,
        "JobID|User|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|State\n\
         1|ann|normal|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:40|00:01:40|00:10:00|4|1|COMPLETED\n\
         2|bob|low|2024-01-01T00:00:10|2024-01-01T00:01:40|2024-01-01T00:02:30|00:00:50|00:10:00|4|1|COMPLETED\n\
         3|ann|high|2024-01-01T00:00:20|2024-01-01T00:02:30|2024-01-01T00:03:20|00:00:50|00:10:00|4|1|COMPLETED\n",
    )
    .unwrap();
    let qos = d.join("qos.txt");
    std::fs::write(&qos, "Name|Priority\nnormal|10\nhigh|100\nlow|0\n").unwrap();
    let starts = |spec: &str, extra: &[&str]| {
        let csv = d.join("jobs.csv");
        let args = [
            &["run", log.to_str().unwrap(), "--procs", "4", "-p", spec][..],
            extra,
            &["--jobs-csv", csv.to_str().unwrap()][..],
        ]
        .concat();
        let (ok, _, err) = schedlab(&args);
        assert!(ok, "{err}");
        let text = std::fs::read_to_string(&csv).unwrap();
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
        let (id, start) = (col("job_id"), col("starting_time"));
        let mut out: Vec<(String, String)> = lines
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                (f[id].to_string(), f[start].to_string())
            })
            .collect();
        out.sort();
        (out, err)
    };
    let want = |s: [&str; 3]| -> Vec<(String, String)> {
        ["1", "2", "3"]
            .iter()
            .zip(s)
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let spec = "slurm[PriorityWeightQOS=1000]";
    let q = qos.to_str().unwrap();
    assert_eq!(starts(spec, &["--qos", q]).0, want(["0", "150", "100"]));
    assert_eq!(starts(spec, &[]).0, want(["0", "100", "150"]));
    let key = "slurm[PriorityWeightQOS=1000,qos=(normal:10,high:100,low:0)]";
    assert_eq!(starts(key, &[]).0, want(["0", "150", "100"]));
    // A file without high: job 3 gets 0 as job 2, and the note names high.
    std::fs::write(&qos, "Name|Priority\nnormal|10\nlow|0\n").unwrap();
    let (s, err) = starts(spec, &["--qos", q]);
    assert_eq!(s, want(["0", "100", "150"]));
    assert!(
        err.contains("qos.txt: 1 of the log's 3 QOS is not in it (high)"),
        "{err}"
    );
}

/// A bad qos file is an error naming the file, line and field, for every front end.
#[test]
fn a_bad_qos_file_names_file_line_and_field() {
    let d = tmpdir("cli", "qos-bad");
    let run = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slurm/gpu-3/run1");
    let sacct = run.join("sacct.txt");
    let bad = d.join("bad.txt");
    std::fs::write(&bad, "Name|Priority\nnormal|10\nhigh|lots\n").unwrap();
    let (s, b) = (sacct.to_str().unwrap(), bad.to_str().unwrap());
    for cmd in ["run", "replay"] {
        let (ok, _, err) = schedlab(&[cmd, s, "-p", "slurm", "--qos", b]);
        assert!(
            !ok && err.contains("bad.txt:3: Priority: \"lots\""),
            "{cmd}: {err}"
        );
    }
    let svg = d.join("g.svg");
    let (ok, _, err) = schedlab(&[
        "plot",
        s,
        "-p",
        "slurm",
        "--qos",
        b,
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("bad.txt:3: Priority"), "plot: {err}");
    let (ok, _, err) = schedlab(&[
        "sweep",
        s,
        "-p",
        "slurm",
        "--vary",
        "bf_window=1,2",
        "--qos",
        b,
    ]);
    assert!(!ok && err.contains("bad.txt:3: Priority"), "sweep: {err}");
    std::fs::write(&bad, "Name|Priority\n|5\n").unwrap();
    let (ok, _, err) = schedlab(&["run", s, "-p", "slurm", "--qos", b]);
    assert!(!ok && err.contains("bad.txt:2: Name"), "{err}");
}
