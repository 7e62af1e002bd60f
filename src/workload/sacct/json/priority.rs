//! The priority each job of an `sacct --json` dump records (`priority`: the one Slurm gave it
//! at its submission, as a `-P` log's `Priority` column), by the job's place in `jobs`. The
//! reader skips it, as the input step keeps no priority; a replay reads it apart
//! ([`crate::replay::recorded::Logged::from_sacct_json`]) to compare with the model's
//! (`replay::prio_phase`, `prio_sides`).

use serde::Deserialize;

use super::value::Num;

#[derive(Default, Deserialize)]
#[serde(default)]
struct Dump {
    jobs: Vec<Priority>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct Priority {
    /// A number in both layouts: 22.05's plain one, 23.02's `{"set", "infinite", "number"}`.
    priority: Num,
}

/// Each job's recorded priority by its place in `jobs` (a job's line, less one), `None` where
/// it records none (unset, `null`, not a number); empty for text that is not sacct's JSON.
pub fn priorities(text: &str) -> Vec<Option<f64>> {
    let Ok(dump) = serde_json::from_str::<Dump>(text) else {
        return Vec::new();
    };
    (dump.jobs.into_iter())
        .map(|j| match j.priority {
            Num::Value(v) => Some(v as f64),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::priorities;

    /// 22.05's plain numbers and `null`, 23.02's objects (set, unset), a job without the key,
    /// and a string: by place.
    #[test]
    fn both_layouts_by_place() {
        let text = r#"{"meta": {}, "jobs": [
            {"job_id": 1, "priority": 14500, "steps": [{"priority": 3}]},
            {"job_id": 2, "priority": null},
            {"job_id": 3, "priority": {"set": true, "infinite": false, "number": 4200}},
            {"job_id": 4, "priority": {"set": false, "infinite": false, "number": 0}},
            {"job_id": 5},
            {"job_id": 6, "priority": "high"}
        ]}"#;
        assert_eq!(
            priorities(text),
            [Some(14500.0), None, Some(4200.0), None, None, None]
        );
        assert!(priorities("JobID|Priority\n1|5\n").is_empty());
    }
}
