//! Conservative compression: the reserved jobs re-checked in queue order, each moved to its
//! earliest fit when that is earlier.

use super::Conservative;
use crate::policy::plan::Profile;
use crate::sim::Ctx;
use crate::Time;

impl Conservative {
    /// Re-plans reserved waiting jobs in queue order; each moves to its earliest fit if that is
    /// earlier.
    ///
    /// A job reserved at `s` fits at `t < s` when its processors are free over
    /// `[t, min(t + d, s))`: past `s` its own reservation holds them. So the search looks only
    /// before `s`, without releasing the reservation, and a job that cannot move costs one
    /// scan and no change to the profile. The scan covers only the start times that the
    /// stretches freed since the job was last shown unable to move can have opened
    /// (`freed.rs`); the answer is the same as a scan from now.
    ///
    /// Not inlined into `pass`: on its own its search loops keep their values in registers
    /// (measured: 15.42 -> 14.85 G instructions off-line on 5K_sample, and fewer on LANL-CM5).
    #[inline(never)]
    pub(super) fn compress(
        &mut self,
        c: &mut Ctx<'_>,
        profile: &mut Profile,
        queue: &[usize],
        track: bool,
    ) {
        if !track {
            self.compress_short(c, profile, queue);
            return;
        }
        let now = c.now();
        self.no_fit.clear();
        for &j in queue {
            let Some((s, e, procs)) = self.ahead(c, j, now) else {
                continue;
            };
            let d = e - s;
            let search = |from, below| profile.earliest_capped(from, procs, d, s, below);
            // Whether the check searched windows: what it found is worth telling the later
            // jobs (most jobs checked without a search are not wide or long enough to help).
            let mut searched = false;
            let moved = if self.tuning.full_checks {
                search(now, s)
            } else {
                let seen = self.seen[j];
                let need = i64::from(procs);
                let reaches_s = self.freed.windows(seen, now, need, d, s, &mut self.windows);
                searched = !self.windows.is_empty();
                // Before `bound`, the jobs checked earlier show that a fit lies only in the run
                // reaching the reservation (`no_fit.rs`).
                let bound = if searched {
                    self.no_fit.bound(need, d)
                } else {
                    Time::MIN
                };
                let clipped = self.windows.first().is_some_and(|w| w.0 < bound);
                // The earliest fit in the run reaching the reservation, if any: a fit in a
                // run of `d` or more (in the windows) must come before it. Looked at when
                // the stretches say it may hold one, and when the windows are clipped (they
                // no longer cover it).
                let before = if reaches_s || clipped {
                    profile.run_before(now, procs, s, &mut self.hints[j])
                } else {
                    None
                };
                let cap = before.map_or(s, |f| f.start);
                // The windows in order: the first fit is the earliest.
                self.windows
                    .iter()
                    .take_while(|w| w.0 < cap)
                    .find_map(|&(from, below)| {
                        let (from, below) = (from.max(bound), below.min(cap));
                        if from < below {
                            search(from, below)
                        } else {
                            None
                        }
                    })
                    .or(before)
            };
            if let Some(fit) = moved {
                let t = fit.start;
                self.hints[j] = profile.hint(fit);
                profile.move_to_fit(fit, (s, e), d, procs);
                self.res[j] = Some((t, t + d));
                self.due_index.push(t, j);
                self.earliest = self.earliest.min(t);
                // [t, t + d) replaced [s, e), t < s: the part past t + d gained processors.
                let gained = s.max(t + d);
                self.freed.push_after(profile, fit, gained, e);
                self.no_fit.gained(gained);
            }
            if searched {
                self.no_fit
                    .record(i64::from(procs), d, moved.map_or(s, |f| f.start), s);
            }
            self.seen[j] = self.freed.now();
        }
    }

    /// [`Conservative::compress`] with a short queue: every reserved job checked from now to
    /// its reservation, nothing logged. A loop of its own: sharing the long queues' loop, its
    /// values left the registers (measured: 503.6 -> 516.7 M instructions on LANL-CM5).
    #[inline(never)]
    fn compress_short(&mut self, c: &mut Ctx<'_>, profile: &mut Profile, queue: &[usize]) {
        let now = c.now();
        for &j in queue {
            let Some((s, e, procs)) = self.ahead(c, j, now) else {
                continue;
            };
            let d = e - s;
            if let Some(fit) = profile.earliest_capped(now, procs, d, s, s) {
                let t = fit.start;
                profile.move_to_fit(fit, (s, e), d, procs);
                self.res[j] = Some((t, t + d));
                self.due_index.push(t, j);
                self.earliest = self.earliest.min(t);
            }
        }
        // Nothing was logged: no certificate holds.
        self.freed.invalidate();
    }
}

impl Conservative {
    /// Job `j`'s reservation `[s, e)` and processors when it begins after `now` (a job to
    /// check), `None` otherwise.
    #[inline(always)]
    fn ahead(&self, c: &Ctx<'_>, j: usize, now: Time) -> Option<(Time, Time, u32)> {
        let (s, e) = self.res[j].filter(|r| r.0 > now)?;
        Some((s, e, c.job(j).procs))
    }
}
