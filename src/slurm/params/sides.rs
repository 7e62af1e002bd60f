//! Each priority period's side of its second, for each of the controller's loops: the
//! background loop's (`calc_early`, else `calc_phase`'s fraction) and the backfill thread's
//! (`calc_early_bf`, else the same).

use super::SlurmParams;
use crate::Time;

impl SlurmParams {
    /// Whether a period at second `t` comes before that second's passes: (the main
    /// scheduler's and limit checks', `calc_early` or `calc_phase`'s side; the backfill
    /// cycle's, `calc_early_bf`, else the same).
    pub fn period_sides(&self, t: Time) -> (bool, bool) {
        let main = match &self.calc_early {
            Some(secs) => secs.binary_search(&t).is_ok(),
            None => !self.calc_late,
        };
        let bf = self
            .calc_early_bf
            .as_ref()
            .map_or(main, |secs| secs.binary_search(&t).is_ok());
        (main, bf)
    }
}
