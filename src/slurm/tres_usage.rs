//! The TRES usage the `GrpTRESMins` limits read (Slurm 22.05, with `AccountingStorageEnforce`
//! naming `limits`): per group (an association, a QOS), its TRES-seconds of usage
//! (`usage->usage_tres_raw`), decayed and accrued by the multifactor plugin's periods as the
//! fairshare usage is ([`super::priority`]): at each period every group's usage is multiplied
//! by `d^Δ` (priority_multifactor.c:189-210), then each running job adds `δ · d^δ · f · t` to
//! every group it is charged to, per TRES `t` it holds, `f` its QOS's `UsageFactor`
//! (`_apply_new_usage`, lines 1077-1096 and `_handle_assoc_tres_run_secs` /
//! `_handle_qos_tres_run_secs`, 816 and 855: its QOS, its association and every parent); a
//! job's end adds its last part (`priority_p_job_end`). The limit checks read it in whole
//! minutes (`(uint64_t)(usage_tres_raw / 60.0)`, acct_policy.c:2159, 3799).

use super::qos_limits::TresCounts;

/// What the running jobs have used of each group, TRES-seconds, decayed.
#[derive(Debug, Clone, Default)]
pub struct TresUsage {
    /// Per job: the groups it is charged to.
    groups: Vec<Vec<u32>>,
    /// Per job: the TRES it holds (cpu, mem MB, node, gpu) times its QOS's `UsageFactor`.
    charge: Vec<[f64; 4]>,
    /// Per group: TRES-seconds (`usage_tres_raw`).
    usage: Vec<[f64; 4]>,
}

impl TresUsage {
    /// `groups` groups, no usage; job `j` holds `tres[j]`, is charged to `of_job[j]` times
    /// `factor[j]`.
    pub fn new(groups: usize, of_job: Vec<Vec<u32>>, tres: &[TresCounts], factor: &[f64]) -> Self {
        let charge = (tres.iter().zip(factor))
            .map(|(t, &f)| t.map(|x| x as f64 * f))
            .collect();
        TresUsage {
            groups: of_job,
            charge,
            usage: vec![[0.0; 4]; groups],
        }
    }

    /// Every group's usage times `f` (a period's decay).
    pub fn decay(&mut self, f: f64) {
        for u in &mut self.usage {
            for x in u.iter_mut() {
                *x *= f;
            }
        }
    }

    /// Job `j` ran `run_decay` (`δ · d^δ`) seconds, decayed, since the last period.
    pub fn add(&mut self, j: usize, run_decay: f64) {
        let (Some(groups), Some(c)) = (self.groups.get(j), self.charge.get(j)) else {
            return;
        };
        for &g in groups {
            if let Some(u) = self.usage.get_mut(g as usize) {
                for (x, t) in u.iter_mut().zip(c) {
                    *x += run_decay * t;
                }
            }
        }
    }

    /// No usage (`PriorityUsageResetPeriod`).
    pub fn reset(&mut self) {
        self.usage.iter_mut().for_each(|u| *u = [0.0; 4]);
    }

    /// Group `g`'s usage in whole TRES-minutes, as the limit checks read it.
    pub fn minutes(&self, g: usize) -> TresCounts {
        self.usage
            .get(g)
            .map_or([0; 4], |u| u.map(|x| (x / 60.0) as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two groups (an association and a QOS); job 0 of 4 CPUs charged to both with
    /// UsageFactor 2, job 1 of 2 CPUs to the association only with 0.5. Job 0 runs 30
    /// seconds (no decay): 30 · 4 · 2 = 240 CPU-seconds to each; job 1 60 seconds: 60 · 2 ·
    /// 0.5 = 60 more to the association, 300: 5 CPU-minutes, the QOS 4. A decay of one half:
    /// 150 and 120, 2 minutes each (whole minutes, rounded down).
    #[test]
    fn usage_is_charged_times_the_factor_and_decays() {
        let mut u = TresUsage::new(
            2,
            vec![vec![0, 1], vec![0]],
            &[[4, 0, 1, 0], [2, 0, 1, 0]],
            &[2.0, 0.5],
        );
        u.add(0, 30.0);
        u.add(1, 60.0);
        assert_eq!(u.minutes(0), [5, 0, 1, 0]);
        assert_eq!(u.minutes(1), [4, 0, 1, 0]);
        u.decay(0.5);
        assert_eq!(u.minutes(0)[0], 2);
        assert_eq!(u.minutes(1)[0], 2);
        u.reset();
        assert_eq!(u.minutes(0), [0; 4]);
    }
}
