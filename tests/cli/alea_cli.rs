//! An Alea `.machines` file as the cluster (`cluster::alea`): wherever the command line takes
//! a cluster file (`--cluster FILE`, `schedlab cluster FILE`), with errors naming the file,
//! the line and the field.

use crate::common;
use common::{schedlab, tmpdir};

/// Two node groups by hand: `big`, one node of 8 CPUs and 8388608 KB (8192 MB); `small`, two
/// nodes of 4 CPUs and 4194304 KB (4096 MB). 16 cores on 3 nodes.
const MACHINES: &str = "0\tbig\t1\t8\t1\t8388608\n1\tsmall\t2\t4\t1\t4194304\n";

/// Worked by hand: three jobs submitted at 0 for 100 s, of 8, 4 and 4 processors, on a
/// trace whose `MaxProcs` is 8. Without the cluster they run on 8 processors one after the
/// other (`fcfs`: 0, 100, 100: the two of 4 together); on the machines' 16 cores, each on a
/// node of its own (8 on `big1`, 4 on `small1` and `small2`), all at 0.
#[test]
fn an_alea_machines_file_is_the_cluster() {
    let d = tmpdir("cli", "alea");
    let trace = d.join("t.swf");
    let jobs = [(0, 100, 8, 100), (0, 100, 4, 100), (0, 100, 4, 100)];
    std::fs::write(&trace, common::swf_text(8, &jobs)).unwrap();
    let machines = d.join("t.machines");
    std::fs::write(&machines, MACHINES).unwrap();
    let (t, m) = (trace.to_str().unwrap(), machines.to_str().unwrap());
    let (ok, out, err) = schedlab(&["cluster", m]);
    assert!(ok, "{err}");
    assert!(
        out.contains("cluster: 3 nodes in 2 groups, 16 cores, 16384 MB memory")
            && out.contains("big1  1 node  cpus 8  mem 8192 MB")
            && out.contains("small[1-2]  2 nodes  cpus 4  mem 4096 MB"),
        "{out}"
    );
    let starts = |extra: &[&str]| -> Vec<String> {
        let csv = d.join("jobs.csv");
        let args = [
            &["run", t, "-p", "fcfs", "--jobs-csv", csv.to_str().unwrap()][..],
            extra,
        ];
        let (ok, _, err) = schedlab(&args.concat());
        assert!(ok, "{err}");
        let text = std::fs::read_to_string(&csv).unwrap();
        let mut rows = csv::Reader::from_reader(text.as_bytes());
        let col = rows
            .headers()
            .unwrap()
            .iter()
            .position(|h| h == "starting_time");
        (rows.records())
            .map(|r| r.unwrap()[col.unwrap()].to_string())
            .collect()
    };
    assert_eq!(starts(&[]), ["0", "100", "100"]);
    assert_eq!(starts(&["--cluster", m]), ["0", "0", "0"]);
    // A file of another name whose lines look like Alea's is read as one too.
    let other = d.join("nodes.txt");
    std::fs::write(&other, MACHINES).unwrap();
    assert_eq!(
        starts(&["--cluster", other.to_str().unwrap()]),
        ["0", "0", "0"]
    );
}

/// A bad line: the file, the line and the field.
#[test]
fn a_bad_machines_line_names_the_file_line_and_field() {
    let d = tmpdir("cli", "alea-bad");
    let trace = d.join("t.swf");
    std::fs::write(&trace, common::swf_text(8, &[(0, 100, 8, 100)])).unwrap();
    let machines = d.join("bad.machines");
    std::fs::write(
        &machines,
        "0\tbig\t1\t8\t1\t8388608\n1\tsmall\t2\tfour\t1\t4194304\n",
    )
    .unwrap();
    let m = machines.to_str().unwrap();
    let (ok, _, err) = schedlab(&["run", trace.to_str().unwrap(), "-p", "fcfs", "--cluster", m]);
    assert!(!ok);
    assert!(
        err.contains(&format!(
            "{m}:2: CPUs_per_node: \"four\": not a whole number of at least 1"
        )),
        "{err}"
    );
    let (ok, _, err) = schedlab(&["cluster", m]);
    assert!(
        !ok && err.contains(&format!("{m}:2: CPUs_per_node")),
        "{err}"
    );
}

/// Alea's own workload on its own machines (tests/data/nonstandard/wagap-2013.swf, 17,900 jobs):
/// its field 10 is bytes per node (Alea's `SWFLoader` divides it by 1024 into KB per node),
/// which read as SWF's KB per processor made 11,319 jobs ask more than any node has. Read as
/// Alea does, one job alone is left out: job 8687 asks 549755813888 bytes = 524288 MB on its one
/// node, and zewura's nodes have 529426432 KB = 517018 MB. The two jobs with an unknown
/// runtime are skipped as before.
#[test]
fn alea_workload_memory_is_bytes_per_node() {
    let data = common::trace("nonstandard/wagap-2013.swf");
    let trace = data.to_str().unwrap();
    let machines = format!("{trace}.machines");
    let (ok, out, err) = schedlab(&["run", trace, "-p", "fcfs", "--cluster", &machines]);
    assert!(ok, "{err}");
    let err = format!("{out}{err}");
    // The machines file has one partition (all): the trace's partition number 1 means nothing
    // to it, and every job runs there. It said "partitions not in the cluster: 1 (17898 jobs);
    // those jobs run in its default partition all".
    assert!(!err.contains("partitions not in the cluster"), "{err}");
    assert!(
        err.contains("17900 job lines in Alea's MetaCentrum form")
            && err.contains("field 10 read as bytes per node")
            && err.contains(
                "1 job can never run on the cluster and is left out; first: job 8687: asks for \
                 524288 MB per node, partition all's largest node has 517018 MB"
            ),
        "{err}"
    );
    assert!(
        err.contains("17897 jobs simulated, 3 skipped (1 can never run on the cluster)"),
        "{err}"
    );
}

/// A trace in Alea's MetaCentrum form with its machines file beside it (`t.swf.machines` beside
/// `t.swf`, or `t.swf.gz`), and no cluster given: a note names the file and the flag (the jobs
/// ran on one machine of the trace's processors, and nothing said the nodes were at hand). No
/// note with the cluster given, nor without the file.
#[test]
fn a_machines_file_beside_an_alea_trace_is_named() {
    let d = tmpdir("cli", "alea-beside");
    let trace = d.join("t.swf");
    // Two jobs of 4 processors on one node each (`1:ppn=4`), field 10 1 MB per node in bytes.
    let line = |id: u32| {
        format!("{id} 0 0 100 4 1 1024 4 200 1048576 1 1 1 1 -1 1 1 1 {{n1}} q_1d 1:ppn=4\n")
    };
    std::fs::write(&trace, format!("; MaxProcs: 4\n{}{}", line(1), line(2))).unwrap();
    let t = trace.to_str().unwrap();
    let note =
        "t.swf.machines beside it is Alea's machines file of this trace: give it with --cluster";
    let (ok, _, err) = schedlab(&["run", t, "-p", "fcfs"]);
    assert!(
        ok && err.contains("in Alea's MetaCentrum form") && !err.contains(note),
        "{err}"
    );
    let machines = d.join("t.swf.machines");
    std::fs::write(&machines, MACHINES).unwrap();
    let (ok, _, err) = schedlab(&["run", t, "-p", "fcfs"]);
    assert!(ok && err.contains(note), "{err}");
    let m = machines.to_str().unwrap();
    let (ok, _, err) = schedlab(&["run", t, "-p", "fcfs", "--cluster", m]);
    assert!(ok && !err.contains("beside it"), "{err}");
    // Gzipped, the same file is named.
    let gz = d.join("t.swf.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut e, &std::fs::read(&trace).unwrap()).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    let (ok, _, err) = schedlab(&["run", gz.to_str().unwrap(), "-p", "fcfs"]);
    assert!(ok && err.contains(note), "{err}");
}

/// The page's hint (it cannot look beside a dropped file): a trace in Alea's MetaCentrum form
/// read without a cluster names the machines file it comes with and how the page takes it (the
/// CLI's note above names the flag). None with a cluster, nor for a trace in no such form.
#[test]
fn the_page_names_the_machines_file_of_an_alea_trace() {
    use schedlab::input::InputOptions;
    use schedlab::swf::ReadOptions;
    let line = |id: u32| {
        format!("{id} 0 0 100 4 1 1024 4 200 1048576 1 1 1 1 -1 1 1 1 {{n1}} q_1d 1:ppn=4\n")
    };
    let alea = format!("; MaxProcs: 4\n{}{}", line(1), line(2));
    let hint = |name: &str, text: &str, input: &InputOptions| {
        let (w, _) =
            schedlab::run::read_bytes(name, text.as_bytes(), &ReadOptions::default(), input)
                .unwrap();
        schedlab::run::machines_hint(&w, input)
    };
    let none = InputOptions::default();
    assert_eq!(
        hint("uploads/wagap-2013.swf.gz", &alea, &none).as_deref(),
        Some(
            "this trace's nodes are in Alea's machines file (wagap-2013.swf.machines where the \
             trace comes from): drop it on the page with the trace, or choose it in the Cluster \
             panel, to run the jobs on its nodes (without it, one machine of the trace's \
             processors)"
        )
    );
    let cluster = InputOptions {
        cluster: Some(
            schedlab::cluster::alea::parse_str(MACHINES, "m")
                .unwrap()
                .to_compact(),
        ),
        ..InputOptions::default()
    };
    assert_eq!(hint("t.swf", &alea, &cluster), None);
    let plain = common::swf_text(8, &[(0, 100, 4, 100)]);
    assert_eq!(hint("t.swf", &plain, &none), None);
}
