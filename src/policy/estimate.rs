//! The runtime-estimate part of a policy: the `predictor` key (`predict/` holds the predictors;
//! the engine runs the one a policy names and reports its values through `Ctx::estimate`).

use super::{KeyInfo, Params, SpecError, Values};
use crate::predict::Predictor;

/// The `predictor` key of the policies that plan with runtimes.
pub const PREDICTOR: KeyInfo = KeyInfo {
    name: "predictor",
    default: "user",
    values: Values::Text(crate::predict::VALUES),
    help: "runtime prediction used for planning (shadow times, planned ends, backfilling), capped at the requested time, which stays the kill time: user, exact, virtual[err=x], last (Last Model), rfactor[r=R,mode=det|rnd] (docs/policies.md#predictor)",
    presets: &[],
    examples: &["user", "exact", "last", "virtual[err=0.3]", "rfactor[r=3,mode=rnd]"],
};

/// Reads the `predictor` key; returns its canonical value.
pub fn parse(p: &Params) -> Result<String, SpecError> {
    let pred = Predictor::parse(p.raw("predictor")?).map_err(|e| p.error(e))?;
    p.record("predictor", pred.spec());
    Ok(pred.spec())
}
