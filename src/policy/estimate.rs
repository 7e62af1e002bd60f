//! The runtime-estimate part of a policy: the `predictor` key (`predict/` holds the predictors;
//! the engine runs the one a policy names and reports its values through `Ctx::estimate`).

use super::{KeyInfo, Params, SpecError, Values};
use crate::predict::Predictor;

/// The `predictor` key of the policies that plan with runtimes.
pub const PREDICTOR: KeyInfo = KeyInfo {
    name: "predictor",
    default: "user",
    values: Values::Text(crate::predict::VALUES),
    help: "runtime prediction used for planning (shadow times, planned ends, backfilling); the kill time stays the requested time and predictions are capped at it. user: requested time; exact: actual runtime; virtual[err=x]: runtime x (1 + U(-x, x)), default x = 0.1; last: Last Model (lifetime accuracy = runtime / requested time of the user's last finished job, x the job's requested time; a waiting job is predicted again at every pass from the jobs finished by then, a running attempt keeps the prediction it started with, a restarted job is predicted again; finished = completed or killed at its requested time, not preempted; the requested time while the user has no finished job; a job without requested time gets its estimate and does not update its user; rounded half up to whole seconds); rfactor[r=R,mode=M]: R x runtime (M = det, the default) or U(runtime, (2R - 1) x runtime), the same mean R, drawn once per job at submission (M = rnd), R >= 1, default 2",
    presets: &[],
    examples: &["user", "exact", "last", "virtual[err=0.3]", "rfactor[r=3,mode=rnd]"],
};

/// Reads the `predictor` key; returns its canonical value.
pub fn parse(p: &Params) -> Result<String, SpecError> {
    let pred = Predictor::parse(p.raw("predictor")?).map_err(|e| p.error(e))?;
    p.record("predictor", pred.spec());
    Ok(pred.spec())
}
