//! Runtime predictors for the policies that plan with runtimes (`predictor=...` of `fcfs`,
//! `easy`, `conservative` and `pv-easy`). The engine runs a policy's predictor (it feeds it
//! submissions and ends) and a policy reads its values through `sim::Ctx::estimate`: this is
//! the one way the true runtime (`exact`) reaches a policy. A prediction is for planning only: the kill time stays the requested time, and
//! predictions above the requested time are capped at it.
//!
//! Spec values: `user` (the planning estimate, i.e. the requested time; the default), `exact`
//! (the actual runtime), `virtual[err=x]`, `last`, `rfactor[r=R,mode=det|rnd]`. Random
//! predictors draw once per job, when it is submitted, from the simulation's seeded generator,
//! so the same seed gives the same predictions.

mod exact;
mod last;
mod rfactor;
mod user;
mod virt;

use crate::job::Job;
use crate::quote::quote;
use crate::spec::Spec;
use crate::Time;
use rand_pcg::Pcg64;

/// Valid predictor values, as listed in the catalogue (`|` only between values, so that a front
/// end can split them; `mode=M` is `det` or `rnd`).
pub const VALUES: &str = "user|exact|virtual[err=x]|last|rfactor[r=R,mode=M]";

/// [`VALUES`] as a list for error messages.
const VALUES_LIST: &str =
    "user, exact, virtual[err=x] (0 <= x <= 1), last, rfactor[r=R,mode=det|rnd] (R >= 1)";

/// One predictor's model. `predict` is called for waiting jobs (and at their start).
trait Model {
    /// Called for each job when it is submitted (in arrival order within an instant).
    fn submitted(&mut self, _j: usize, _job: &Job, _rng: &mut Pcg64) {}
    /// Called for each job that ran to its end (completed or killed).
    fn finished(&mut self, _job: &Job) {}
    /// The prediction of job `j`, before the cap.
    fn predict(&self, j: usize, job: &Job) -> f64;
    /// The canonical spec value (defaults dropped).
    fn spec(&self) -> String;
    /// True when a job's prediction stays what it was at its submission.
    fn fixed(&self) -> bool {
        true
    }
}

/// A configured predictor with its state.
pub struct Predictor {
    model: Box<dyn Model>,
}

impl std::fmt::Debug for Predictor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Predictor({})", self.model.spec())
    }
}

/// Parses a real number key in `[lo, hi]`.
fn number(spec: &Spec, key: &str, default: f64, lo: f64, hi: f64) -> Result<f64, String> {
    let Some(v) = spec.get(key) else {
        return Ok(default);
    };
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= lo && x <= hi => Ok(x),
        _ => Err(format!(
            "predictor {}: {key}={v} is not a number in [{lo}, {hi}]",
            spec.name
        )),
    }
}

/// Rejects keys a predictor does not take.
fn only_keys(spec: &Spec, keys: &[&str]) -> Result<(), String> {
    for (k, _) in &spec.params {
        if !keys.contains(&k.as_str()) {
            let valid = if keys.is_empty() {
                "it takes no keys".to_string()
            } else {
                format!("valid keys: {}", keys.join(", "))
            };
            return Err(format!(
                "unknown key \"{k}\" for predictor {}; {valid}",
                spec.name
            ));
        }
    }
    Ok(())
}

impl Predictor {
    /// Parses a predictor value (`virtual[err=0.2]`); errors list the valid values.
    pub fn parse(text: &str) -> Result<Predictor, String> {
        let spec =
            Spec::parse(text).map_err(|e| format!("predictor {}: {}", quote(text), e.reason))?;
        let model: Box<dyn Model> = match spec.name.as_str() {
            "user" => {
                only_keys(&spec, &[])?;
                Box::new(user::User)
            }
            "exact" => {
                only_keys(&spec, &[])?;
                Box::new(exact::Exact)
            }
            "last" => {
                only_keys(&spec, &[])?;
                Box::new(last::Last::default())
            }
            "virtual" => {
                only_keys(&spec, &["err"])?;
                Box::new(virt::Virtual::new(number(
                    &spec,
                    "err",
                    virt::DEFAULT_ERR,
                    0.0,
                    1.0,
                )?))
            }
            "rfactor" => {
                only_keys(&spec, &["r", "mode"])?;
                let r = number(&spec, "r", rfactor::DEFAULT_R, 1.0, 1000.0)?;
                let random = match spec.get("mode").unwrap_or("det") {
                    "det" => false,
                    "rnd" => true,
                    m => {
                        return Err(format!(
                            "predictor rfactor: mode={m} is not valid; valid values: det, rnd"
                        ))
                    }
                };
                Box::new(rfactor::RFactor::new(r, random))
            }
            other => {
                return Err(format!(
                    "unknown predictor \"{other}\"; valid: {}",
                    VALUES_LIST
                ))
            }
        };
        Ok(Predictor { model })
    }

    /// The canonical spec value.
    pub fn spec(&self) -> String {
        self.model.spec()
    }

    /// True when a job's prediction stays what it was at its submission (every predictor but
    /// `last`, which follows its user's last finished job).
    pub fn fixed(&self) -> bool {
        self.model.fixed()
    }

    /// Takes in a submitted job (the engine calls it for each submission, in arrival order
    /// within an instant, after the ends of that pass).
    pub fn submitted(&mut self, j: usize, job: &Job, rng: &mut Pcg64) {
        self.model.submitted(j, job, rng);
    }

    /// Takes in a job that ran to its end (completed or killed).
    pub fn finished(&mut self, job: &Job) {
        self.model.finished(job);
    }

    /// The predicted runtime of job `j`: rounded to seconds, at least 0, at most its requested time.
    pub fn predict(&self, j: usize, job: &Job) -> Time {
        let p = self.model.predict(j, job);
        let p = if p.is_finite() {
            // Most predictions are whole seconds already (a requested time, a runtime): the
            // conversion check spares them the library call `round` is on x86-64.
            if p as i64 as f64 == p {
                p.max(0.0)
            } else {
                p.round().max(0.0)
            }
        } else {
            0.0
        };
        let p = p.min(9.0e15) as Time;
        job.requested().map_or(p, |r| p.min(r))
    }
}

/// A per-job value table grown on demand (random predictors draw once per job).
#[derive(Default)]
struct PerJob(Vec<f64>);

impl PerJob {
    fn set(&mut self, j: usize, v: f64) {
        if self.0.len() <= j {
            self.0.resize(j + 1, f64::NAN);
        }
        self.0[j] = v;
    }

    fn get(&self, j: usize) -> Option<f64> {
        self.0.get(j).copied().filter(|v| !v.is_nan())
    }
}

/// Formats a number for a canonical spec (`0.2`, `2`).
fn num(x: f64) -> String {
    format!("{x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn job(user: i64, runtime: Time, requested: Option<Time>) -> Job {
        let mut job = Job {
            id: 1,
            line: 1,
            runtime,
            trace_runtime: runtime,
            procs: 1,
            estimate: requested.unwrap_or(runtime),
            estimate_unknown: requested.is_none(),
            user,
            status: 1,
            used_memory: -1.0,
            requested_memory: -1.0,
            ..Job::default()
        };
        job.set_requested(requested);
        job.set_trace_wait(None);
        job
    }

    #[test]
    fn last_model_follows_each_users_last_finished_job() {
        let mut p = Predictor::parse("last").unwrap();
        let mut rng = Pcg64::seed_from_u64(1);
        let jobs = [
            job(7, 50, Some(100)), // user 7's first job: its requested time
            job(7, 30, Some(40)),  // after job 0 (accuracy 0.5): 20
            job(8, 30, Some(30)),  // user 8's first job: 30
            job(7, 90, Some(90)),  // after job 1 (accuracy 0.75): 67.5
            job(7, 10, Some(60)),  // after job 3 (accuracy 1): 60
            job(7, 10, None),      // no requested time: its estimate (the runtime)
        ];
        for (j, jb) in jobs.iter().enumerate() {
            p.model.submitted(j, jb, &mut rng);
        }
        let m = &mut p.model;
        assert_eq!(m.predict(0, &jobs[0]), 100.0);
        assert_eq!(m.predict(1, &jobs[1]), 40.0);
        m.finished(&jobs[0]);
        assert_eq!(m.predict(1, &jobs[1]), 20.0);
        assert_eq!(m.predict(2, &jobs[2]), 30.0);
        m.finished(&jobs[1]);
        assert_eq!(m.predict(3, &jobs[3]), 67.5);
        m.finished(&jobs[2]);
        assert_eq!(m.predict(3, &jobs[3]), 67.5);
        // Rounded to seconds through the predictor: 67.5 -> 68.
        assert_eq!(p.predict(3, &jobs[3]), 68);
        let m = &mut p.model;
        m.finished(&jobs[3]);
        assert_eq!(m.predict(4, &jobs[4]), 60.0);
        assert_eq!(m.predict(5, &jobs[5]), 10.0);
    }

    #[test]
    fn predictions_are_capped_at_the_requested_time() {
        let j = job(1, 50, Some(80));
        assert_eq!(Predictor::parse("rfactor").unwrap().predict(0, &j), 80);
        assert_eq!(
            Predictor::parse("rfactor[r=1.5]").unwrap().predict(0, &j),
            75
        );
        // Rounded to whole seconds, half away from zero: 62.5 -> 63, 56.25 -> 56.
        assert_eq!(
            Predictor::parse("rfactor[r=1.25]").unwrap().predict(0, &j),
            63
        );
        assert_eq!(
            Predictor::parse("rfactor[r=1.125]").unwrap().predict(0, &j),
            56
        );
        assert_eq!(Predictor::parse("exact").unwrap().predict(0, &j), 50);
        assert_eq!(Predictor::parse("user").unwrap().predict(0, &j), 80);
        // Without a requested time nothing caps (the job is not killed).
        let free = job(1, 50, None);
        assert_eq!(Predictor::parse("rfactor").unwrap().predict(0, &free), 100);
    }

    #[test]
    fn random_predictors_stay_in_their_ranges_and_repeat_with_the_seed() {
        let j = job(1, 1000, Some(5000));
        let draw = |spec: &str, seed: u64| {
            let mut p = Predictor::parse(spec).unwrap();
            let mut rng = Pcg64::seed_from_u64(seed);
            (0..200)
                .map(|i| {
                    p.model.submitted(i, &j, &mut rng);
                    p.predict(i, &j)
                })
                .collect::<Vec<_>>()
        };
        let v = draw("virtual[err=0.2]", 1);
        assert!(v.iter().all(|&x| (800..=1200).contains(&x)), "{v:?}");
        assert!(v.iter().any(|&x| x != 1000));
        assert_eq!(v, draw("virtual[err=0.2]", 1));
        assert_ne!(v, draw("virtual[err=0.2]", 2));
        assert!(draw("virtual[err=0]", 1).iter().all(|&x| x == 1000));
        // U(T_r, (2R - 1) T_r): R = 2 draws in [1000, 3000] with mean 2000.
        let r = draw("rfactor[r=2,mode=rnd]", 1);
        assert!(r.iter().all(|&x| (1000..=3000).contains(&x)), "{r:?}");
        assert!(r.iter().any(|&x| x > 2500) && r.iter().any(|&x| x < 1500));
        let mean = r.iter().sum::<i64>() as f64 / r.len() as f64;
        assert!((mean - 2000.0).abs() < 100.0, "mean {mean}");
        assert!(draw("rfactor[r=1,mode=rnd]", 1).iter().all(|&x| x == 1000));
    }
}
