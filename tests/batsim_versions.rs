//! Batsim 4 and Batsim 5 workloads read alike. Batsim 5 renamed its profile types
//! (`delay` became `DelayProfile`, docs/input-workload.rst and src/profiles.cpp of
//! oar-team/batsim v5.0.0-rc2); a job's runtime is its delay profile's `delay` in both.

use schedlab::swf::ReadOptions;

fn runtimes(profile_type: &str) -> Result<Vec<(i64, i64, i64)>, String> {
    // The example of Batsim 5's docs: a delay of 20.25 s; a float subtime and walltime.
    let text = format!(
        r#"{{"nb_res": 4, "jobs": [
          {{"id": "w0!1", "subtime": 0.0, "walltime": 30.7, "res": 2, "profile": "d", "extra_data": "{{}}"}},
          {{"id": "w0!2", "subtime": 5.6, "res": 1, "profile": "d"}}],
          "profiles": {{"d": {{"type": "{profile_type}", "delay": 20.25, "ret": 0}}}}}}"#
    );
    let w = schedlab::workload::read_bytes("w.json", text.as_bytes(), &ReadOptions::default())
        .map_err(|e| e.to_string())?;
    if let Some(i) = w.issues.first() {
        return Err(i.to_string());
    }
    Ok(w.records
        .iter()
        .map(|r| (r.submit_time, r.run_time, r.requested_time))
        .collect())
}

/// 20.25 s rounds to 20, 30.7 to 31, 5.6 to 6; no walltime is unknown (-1).
#[test]
fn a_batsim_5_delay_profile_reads_as_a_batsim_4_one() {
    let want = vec![(0, 20, 31), (6, 20, -1)];
    assert_eq!(runtimes("delay").unwrap(), want);
    assert_eq!(runtimes("DelayProfile").unwrap(), want);
    // Another profile type of either version is still no runtime of its own.
    for other in ["parallel_homogeneous", "ParallelTaskHomogeneousProfile"] {
        let e = runtimes(other).unwrap_err();
        assert!(
            e.contains(&format!("is of type \"{other}\": only delay profiles")),
            "{e}"
        );
    }
}

/// A delay profile's `ret` is the job's return code in Batsim 4 and 5 (default 0, success):
/// another code makes the job fail (Batsim's jobs output: `success` 0). Read as SWF status 0
/// (failed); schedlab's own `swf_status` wins when given.
#[test]
fn a_profiles_nonzero_ret_is_a_failed_job() {
    let text = r#"{"nb_res": 4, "jobs": [
      {"id": 1, "subtime": 0, "res": 1, "profile": "ok"},
      {"id": 2, "subtime": 1, "res": 1, "profile": "bad"},
      {"id": 3, "subtime": 2, "res": 1, "profile": "bad", "swf_status": 5},
      {"id": 4, "subtime": 3, "res": 1, "profile": "zero"}],
      "profiles": {"ok": {"type": "delay", "delay": 10},
                   "bad": {"type": "DelayProfile", "delay": 10, "ret": 2},
                   "zero": {"type": "delay", "delay": 10, "ret": 0}}}"#;
    let w =
        schedlab::workload::read_bytes("w.json", text.as_bytes(), &ReadOptions::default()).unwrap();
    let status: Vec<i64> = w.records.iter().map(|r| r.status).collect();
    assert_eq!(status, [1, 0, 5, 1]);
}
