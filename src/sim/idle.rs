//! The engine's idle guard: a run that can never progress ends with [`super::SimError::Stuck`].

use crate::Time;

/// Instants in a row with a pass that starts nothing, while jobs wait, nothing runs and no
/// submission is left, before the engine calls the policy stuck: only the policy's own
/// wake-ups remain (a periodic scheduler's), and nothing they can see changes but the clock.
/// Instants before a time the policy has named (`Ctx::wake_at`) beyond its next wake-up do
/// not count: it waits for that time (a time of day), polling meanwhile.
/// No committed run or catalogue policy comes near it: with nothing running, each starts a
/// waiting job it can start within a few passes (its wake-up at a recorded start, its next
/// scheduler run).
pub(super) const MAX_IDLE_INSTANTS: u32 = 10_000;

/// The idle instants in a row (instants with a pass, jobs waiting and nothing running) that
/// the guard counts, with the first one's time and the jobs waiting and finished then.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct IdleRun {
    /// Idle instants counted (0: none yet).
    pub count: u32,
    /// The first one's time.
    pub since: Time,
    /// The jobs waiting and finished at the first one.
    state: (usize, usize),
}

impl IdleRun {
    /// One idle instant at `t`, with `state` = (jobs waiting, jobs finished). The rule: it
    /// continues the run (one more) when the run has begun, no submission is left, the policy
    /// waits for no time it named and no job has come or gone since the run's first instant;
    /// otherwise it begins a new run, of 1 at `t` — or of 0 while the policy waits for a
    /// named time (that wait counts nothing, and the run begins at the first instant after it).
    /// With submissions left the run never passes 1, so only instants after the last
    /// submission add up to [`MAX_IDLE_INSTANTS`].
    pub fn idle(&mut self, t: Time, state: (usize, usize), submissions_left: bool, waits: bool) {
        let continues = self.count > 0 && !submissions_left && !waits && self.state == state;
        if continues {
            self.count += 1;
        } else {
            let count = u32::from(!waits);
            *self = IdleRun {
                count,
                since: t,
                state,
            };
        }
    }

    /// An instant with a pass while a job runs (or none waits): the run ends.
    pub fn busy(&mut self) {
        self.count = 0;
    }

    /// The run has reached the guard's bound, with no submission left: the policy is stuck.
    pub fn stuck(&self, submissions_left: bool) -> bool {
        self.count >= MAX_IDLE_INSTANTS && !submissions_left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three idle instants with the same jobs, no submission left: a run of 3 from the first.
    /// A job that finishes (the state changes) begins a new run at 1; a busy instant ends it.
    #[test]
    fn a_run_counts_instants_with_the_same_jobs() {
        let mut r = IdleRun::default();
        for t in [10, 11, 12] {
            r.idle(t, (2, 0), false, false);
        }
        assert_eq!((r.count, r.since), (3, 10));
        r.idle(13, (2, 1), false, false);
        assert_eq!((r.count, r.since), (1, 13));
        r.busy();
        r.idle(20, (2, 1), false, false);
        assert_eq!((r.count, r.since), (1, 20));
    }

    /// With submissions left each idle instant begins a run of 1 (never stuck); while the
    /// policy waits for a named time, a run of 0, and the next instant after begins at 1.
    #[test]
    fn submissions_left_and_a_named_wait_count_nothing() {
        let mut r = IdleRun::default();
        for t in 0..5 {
            r.idle(t, (1, 0), true, false);
        }
        assert_eq!((r.count, r.since), (1, 4));
        r.idle(5, (1, 0), false, true);
        assert_eq!((r.count, r.since), (0, 5));
        r.idle(6, (1, 0), false, false);
        r.idle(7, (1, 0), false, false);
        assert_eq!((r.count, r.since), (2, 6));
        r.count = MAX_IDLE_INSTANTS;
        assert!(r.stuck(false) && !r.stuck(true));
    }
}
