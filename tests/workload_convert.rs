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
