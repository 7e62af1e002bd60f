//! A QOS's limits as `sacctmgr show qos format=Name,Priority,MaxJobsPU,MaxTRESPU,GrpTRES,
//! GrpJobs,MaxWall,Flags -P` prints them, and the trackable resources (TRES) they count. The
//! `slurm` policy holds a job back by them as Slurm 22.05's `acct_policy.c` does
//! (`policy/rule/slurm/qos_use.rs`; docs/slurm.md "QOS limits").
//!
//! ```text
//! Name|Priority|MaxJobsPU|MaxTRESPU|GrpTRES|GrpJobs|MaxWall|Flags
//! normal|10|2|||||
//! high|100||cpu=16||||
//! low|0|||cpu=12|3||
//! ```

use crate::quote::quote;
use crate::workload::slurm_time::{self, Limit};
use crate::workload::slurm_tres;
use crate::Time;

/// The TRES a limit can name (`cpu`, `mem`, `node`, `gres/gpu`), in that order: a limit's
/// values, or a job's or a QOS's use of them.
pub const TRES_NAMES: [&str; 4] = ["cpu", "mem", "node", "gres/gpu"];

/// A value per TRES of [`TRES_NAMES`] (memory in MB).
pub type TresCounts = [u64; 4];

/// A TRES limit: the most of each TRES (`None`: no limit on it).
pub type TresLimit = [Option<u64>; 4];

/// One QOS's limits (each `None`: no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QosLimits {
    /// `MaxJobsPU`: running jobs per user in the QOS (`max_jobs_pu`).
    pub max_jobs_pu: Option<u32>,
    /// `MaxTRESPU`: TRES of running jobs per user in the QOS (`max_tres_pu`).
    pub max_tres_pu: TresLimit,
    /// `GrpTRES`: TRES of all the QOS's running jobs (`grp_tres`).
    pub grp_tres: TresLimit,
    /// `GrpJobs`: running jobs of the QOS (`grp_jobs`).
    pub grp_jobs: Option<u32>,
    /// `MaxWall`: a job's time limit, seconds (`max_wall_pj`).
    pub max_wall: Option<Time>,
    /// `GrpTRESMins`: TRES-minutes of the QOS's decayed usage (`grp_tres_mins`).
    pub grp_tres_mins: TresLimit,
    /// `GrpTRESRunMins`: TRES-minutes left of its running jobs' limits (`grp_tres_run_mins`).
    pub grp_tres_run_mins: TresLimit,
    /// `MaxTRESMins` (`MaxTRESMinsPerJob`): TRES-minutes of one job's limit (`max_tres_mins_pj`).
    pub max_tres_mins: TresLimit,
}

impl QosLimits {
    /// True when it limits nothing.
    pub fn is_none(&self) -> bool {
        *self == Self::default()
    }

    /// The limits as the `qos` file's columns would give them, for a note: `MaxJobsPU=2
    /// GrpTRES=cpu=12`.
    pub fn text(&self) -> String {
        let mut out = Vec::new();
        if let Some(n) = self.max_jobs_pu {
            out.push(format!("MaxJobsPU={n}"));
        }
        if let Some(t) = tres_text(&self.max_tres_pu) {
            out.push(format!("MaxTRESPU={t}"));
        }
        if let Some(t) = tres_text(&self.grp_tres) {
            out.push(format!("GrpTRES={t}"));
        }
        if let Some(n) = self.grp_jobs {
            out.push(format!("GrpJobs={n}"));
        }
        if let Some(w) = self.max_wall {
            out.push(format!("MaxWall={}", w / 60));
        }
        mins_text(
            &mut out,
            &self.grp_tres_mins,
            &self.grp_tres_run_mins,
            &self.max_tres_mins,
        );
        out.join(" ")
    }
}

/// Pushes `GrpTRESMins=...`, `GrpTRESRunMins=...` and `MaxTRESMins=...` to `out`, those set.
pub(crate) fn mins_text(out: &mut Vec<String>, grp: &TresLimit, run: &TresLimit, max: &TresLimit) {
    for (key, t) in [
        ("GrpTRESMins", grp),
        ("GrpTRESRunMins", run),
        ("MaxTRESMins", max),
    ] {
        if let Some(t) = tres_text(t) {
            out.push(format!("{key}={t}"));
        }
    }
}

/// `cpu=16,gres/gpu=2`, or `None` with no limit.
pub(crate) fn tres_text(t: &TresLimit) -> Option<String> {
    let items: Vec<String> = TRES_NAMES
        .iter()
        .zip(t)
        .filter_map(|(n, v)| v.map(|v| format!("{n}={v}")))
        .collect();
    (!items.is_empty()).then(|| items.join(","))
}

/// Reads a TRES limit as sacctmgr prints it: `cpu=8,gres/gpu=2,mem=16000M,node=2` (empty: no
/// limit), with the sacct reader's TRES list rules ([`slurm_tres::tres`]: memory with Slurm's
/// units, MB by default; typed GPU counts summed; a TRES the model does not count, `billing`,
/// `license/...`, another GRES, left aside).
pub fn parse_tres(v: &str) -> Result<TresLimit, String> {
    let t = slurm_tres::tres(v)?;
    // Whole MB, as Slurm keeps a memory TRES (`as` saturates a huge value).
    Ok([t.cpu, t.mem_mb.map(|m| m as u64), t.node, t.gpus])
}

/// Reads a wall time as sacctmgr prints it (`[days-]hours:minutes:seconds`, `minutes:seconds`,
/// bare minutes, or `UNLIMITED`) into seconds, as a job's `Timelimit` is read
/// ([`slurm_time::limit`]); empty: no limit.
pub fn parse_wall(v: &str) -> Result<Option<Time>, String> {
    Ok(match slurm_time::limit(v)? {
        Limit::Seconds(s) => Some(s),
        Limit::None => None,
    })
}

/// Reads a job count limit (empty: none).
pub fn parse_count(v: &str) -> Result<Option<u32>, String> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(None);
    }
    v.parse::<u32>()
        .map(Some)
        .map_err(|_| format!("{} is not a whole number", quote(v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tres_limits_read_as_sacctmgr_prints_them() {
        let t = parse_tres("cpu=16,gres/gpu=2,mem=2G,billing=40").unwrap();
        assert_eq!(t, [Some(16), Some(2048), None, Some(2)]);
        assert_eq!(parse_tres("").unwrap(), [None; 4]);
        assert_eq!(parse_tres("node=2").unwrap(), [None, None, Some(2), None]);
        assert!(parse_tres("cpu").is_err());
        assert!(parse_tres("cpu=lots").is_err());
    }

    #[test]
    fn wall_times_read_as_sacctmgr_prints_them() {
        assert_eq!(parse_wall("").unwrap(), None);
        assert_eq!(parse_wall("01:00:00").unwrap(), Some(3600));
        assert_eq!(parse_wall("1-00:00:00").unwrap(), Some(86400));
        assert_eq!(parse_wall("2-12").unwrap(), Some(2 * 86400 + 12 * 3600));
        assert_eq!(parse_wall("05:30").unwrap(), Some(330));
        assert_eq!(parse_wall("90").unwrap(), Some(5400));
        assert_eq!(parse_wall("UNLIMITED").unwrap(), None);
        assert!(parse_wall("1:2:3:4").is_err());
        assert!(parse_wall("x").is_err());
    }

    #[test]
    fn limits_say_themselves() {
        let l = QosLimits {
            max_jobs_pu: Some(2),
            grp_tres: [Some(12), None, None, None],
            grp_jobs: Some(3),
            ..QosLimits::default()
        };
        assert_eq!(l.text(), "MaxJobsPU=2 GrpTRES=cpu=12 GrpJobs=3");
        assert!(!l.is_none());
        assert!(QosLimits::default().is_none());
    }
}
