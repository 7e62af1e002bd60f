//! The side of a job's end against the priority period of its own second, when the
//! controller's debug log tells it (a replay's `--debug-log`: `replay::recorded::end_sides`).
//!
//! The decay thread's walk of the jobs skips one already finished or completing
//! (priority_multifactor.c `decay_apply_new_usage`, 2000-2016, from `fair_tree_decay`), and
//! without `AccountingStorageEnforce=limits` nothing else counts a job's last part: a job
//! running at the period of its end's second adds its usage up to that second, one ended
//! before the period never adds it. Without the log every end of a period's second is on the
//! side its loops' phases give (`calc_early`: an early period before them all, a late one
//! after them all); a job that ended by itself does so at its own fraction of the second,
//! which sacct (whole seconds) does not record, and the debug log does.

use super::Multifactor;
use crate::Time;

impl Multifactor {
    /// Each job's end after (`Some(true)`) or before (`Some(false)`) the fraction of its
    /// second at which the log's periods run, by job index (`None`, and a job past the list:
    /// the loops' side); the log's periods fall on second `decay` modulo the period.
    pub fn set_end_sides(&mut self, decay: Time, sides: Vec<Option<bool>>) {
        self.end_sides = (decay, sides);
    }

    /// Job `j`'s end at `t` against the period of that second, when told: only in a second
    /// where the log's periods fall (a `calc_phase` on another second has none of them).
    pub fn end_side(&self, j: usize, t: Time) -> Option<bool> {
        let (decay, sides) = &self.end_sides;
        let on_grid = (t - decay).rem_euclid(self.params.calc_period.max(1)) == 0;
        sides.get(j).copied().flatten().filter(|_| on_grid)
    }

    /// A period not run yet falls at `t`.
    pub fn period_at(&self, t: Time) -> bool {
        let next = self.next_period();
        t >= next && (t - next) % self.params.calc_period.max(1) == 0
    }

    /// Job `j` ended at `t`, the second of a period not run yet, after that period: it runs in
    /// it (its usage counted up to the period) and ends just after it.
    pub fn ends_after_period(&mut self, j: usize, t: Time) {
        if self.next_period() == t {
            self.after_period.push(j);
        } else {
            self.ended(j, t);
        }
    }

    /// After the period at `t`: the jobs that ended just after it end.
    pub(super) fn end_after_period(&mut self, t: Time) {
        for j in std::mem::take(&mut self.after_period) {
            self.ended(j, t);
        }
    }
}
