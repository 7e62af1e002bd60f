//! Issue 37 item 10: SWF -> Batsim -> SWF keeps what a Batsim workload can carry (requested
//! processors, status, wait, group, the header: it turned requested processors into allocated
//! ones, failed and cancelled jobs into completed ones, and dropped waits, groups and the
//! header, after which `--from DATE` failed), and names each field it drops with a count.

use crate::common;

use schedlab::swf::ReadOptions;
use schedlab::workload::{self, batsim};

#[test]
fn swf_through_batsim_keeps_what_batsim_can_carry_and_names_the_rest() {
    for name in ["KTH-SP2-1996-2.1-cln.swf.gz", "hpc2n.swf", "5K_sample"] {
        let path = common::trace(name);
        let w = workload::read_path(&path, &ReadOptions::default()).unwrap();
        let mut json = Vec::new();
        let procs = w.header.max_procs.unwrap_or(100);
        let written = batsim::write(&mut json, &w, procs).unwrap();
        let back = workload::read_bytes("back.json", &json, &ReadOptions::default()).unwrap();
        let key = |r: &schedlab::swf::SwfRecord| {
            (
                r.job_number,
                r.submit_time,
                r.wait_time,
                r.run_time,
                r.allocated_processors,
                r.requested_processors,
                r.requested_time,
                r.status,
                r.user_id,
                r.group_id,
            )
        };
        let kept: Vec<_> = w
            .records
            .iter()
            .filter(|r| r.run_time >= 0 && r.allocated_processors.max(r.requested_processors) > 0)
            .map(key)
            .collect();
        let got: Vec<_> = back.records.iter().map(key).collect();
        assert_eq!(got.len(), kept.len(), "{name}");
        assert!(got == kept, "{name}: the records differ");
        assert_eq!(
            back.header.unix_start_time, w.header.unix_start_time,
            "{name}"
        );
        assert_eq!(back.header.lines, w.header.lines, "{name}");
        // A machine size given to the conversion replaces the header's.
        let mut json = Vec::new();
        batsim::write(&mut json, &w, procs + 1).unwrap();
        let other = workload::read_bytes("o.json", &json, &ReadOptions::default()).unwrap();
        assert_eq!(other.header.max_procs, Some(procs + 1), "{name}");
        println!("{name}: dropped {:?}", written.dropped);
        // Each field dropped is named with the jobs that knew it, counted here by hand.
        let count = |known: fn(&schedlab::swf::SwfRecord) -> bool| {
            w.records.iter().filter(|r| known(r)).count()
        };
        let named = |field: &str| {
            written
                .dropped
                .iter()
                .find(|(f, _)| f == field)
                .map_or(0, |(_, n)| *n)
        };
        assert_eq!(
            named("field 6 (average_cpu_time)"),
            count(|r| r.average_cpu_time >= 0.0)
        );
        assert_eq!(
            named("field 7 (used_memory)"),
            count(|r| r.used_memory >= 0.0)
        );
        assert_eq!(
            named("field 10 (requested_memory)"),
            count(|r| r.requested_memory >= 0.0)
        );
        assert_eq!(named("field 14 (executable)"), count(|r| r.executable >= 0));
        assert!(written.dropped.iter().all(|(_, n)| *n > 0));
    }
}

/// sacct -> SWF -> back keeps the TIMEOUT mark. SWF's status (field 11) has no code for it
/// (1 completed, 0 failed, 5 cancelled; 2, 3, 4 the parts of a checkpointed job), so the
/// conversion writes it in an extra column named by `; TimeoutField: N`, as it writes GPUs
/// (`GpuField`). Worked by hand: job 2 is a TIMEOUT whose recorded time (60 s) is below its
/// limit (120 s, a limit lowered after it started); job 1 failed at 60 s. Field 19 is sacct's
/// JobID, so the mark is field 20: 0 for job 1, 1 for job 2. Read back, job 2 alone is timed
/// out and killed at 60 s (the input's kill at the requested time: `Job::timed_out`); without
/// the column it read as a job failed at 60 s, not killed, like job 1.
#[test]
fn sacct_to_swf_keeps_the_timeout_mark() {
    use schedlab::input::{self, InputOptions};
    const SACCT: &str = "\
JobID|User|Submit|Start|Elapsed|Timelimit|NCPUS|State
101|alice|2026-11-27T13:00:00|2026-11-27T13:00:00|00:01:00|00:02:00|1|FAILED
102|bob|2026-11-27T13:00:01|2026-11-27T13:00:01|00:01:00|00:02:00|1|TIMEOUT
";
    let opts = ReadOptions::default();
    let mut w = workload::read_bytes("two.sacct", SACCT.as_bytes(), &opts).unwrap();
    let input = InputOptions {
        procs: Some(8),
        ..InputOptions::default()
    };
    let marks = |w: &schedlab::swf::Workload| -> Vec<(bool, bool, i64)> {
        let set = input::prepare(w, &input).unwrap();
        set.jobs
            .iter()
            .map(|j| (j.timed_out, j.killed, j.runtime))
            .collect()
    };
    assert_eq!(marks(&w), [(false, false, 60), (true, true, 60)]);
    let write = |w: &schedlab::swf::Workload| {
        let mut out = Vec::new();
        schedlab::swf::write(&mut out, w).unwrap();
        out
    };
    // Without the column: status 0 alone, the mark lost.
    let lost = workload::read_bytes("lost.swf", &write(&w), &opts).unwrap();
    assert_eq!(marks(&lost), [(false, false, 60), (false, false, 60)]);

    assert_eq!(workload::conversion::timeouts_to_column(&mut w), Some(20));
    assert_eq!(
        workload::conversion::timeouts_to_column(&mut w),
        None,
        "once"
    );
    let text = String::from_utf8(write(&w)).unwrap();
    assert!(text.contains("; TimeoutField: 20\n"), "{text}");
    assert!(
        text.contains(" 120 -1 0 2 -1 -1 -1 -1 -1 -1 102 1\n"),
        "{text}"
    );
    let back = workload::read_bytes("back.swf", text.as_bytes(), &opts).unwrap();
    assert_eq!(back.header.timeout_field, Some(20));
    assert_eq!(marks(&back), [(false, false, 60), (true, true, 60)]);
    // Converted again, the column is not added twice.
    let mut again = back.clone();
    assert_eq!(workload::conversion::timeouts_to_column(&mut again), None);

    // A value other than 1, 0 or -1 skips the line, naming the field.
    let bad = text.replace(" 102 1\n", " 102 yes\n");
    let b = workload::read_bytes("bad.swf", bad.as_bytes(), &opts).unwrap();
    assert_eq!(b.skipped_lines, 1);
    assert!(
        b.issues[0]
            .to_string()
            .contains("field 20 (timed out, the header's TimeoutField)"),
        "{}",
        b.issues[0]
    );
}
