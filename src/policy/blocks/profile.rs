//! Availability profiles for the planning rules (conservative backfilling, with and without
//! guarantees).
#![warn(missing_docs)]

use crate::policy::plan::Profile;
use crate::sim::{Ctx, SimError};
use crate::Time;

/// Length a job occupies in the profile: its planned runtime, at least one second so that a
/// zero-length job still holds its processors at the instant it starts.
pub fn hold(length: Time) -> Time {
    length.max(1)
}

/// The free processors over time from the running jobs at their planned ends.
pub fn profile_now(c: &Ctx<'_>) -> Profile {
    Profile::from_running(
        c.now(),
        c.free(),
        c.running().map(|(end, j)| (end, c.job(j).procs)),
    )
}

/// The error of a job that finds no room in a profile (cannot happen for jobs the machine fits).
pub fn no_room(c: &Ctx<'_>, j: usize) -> SimError {
    SimError::Invalid {
        policy: "conservative".into(),
        time: c.now(),
        reason: format!(
            "no room for job {} ({} processors) in the profile",
            c.job(j).id,
            c.job(j).procs
        ),
    }
}
