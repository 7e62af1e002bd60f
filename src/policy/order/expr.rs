//! Priority expressions as a queue order (`queue=expr(EXPR)`, or a stored one: `queue=wfp3`,
//! see [`crate::expr::PRESETS`]): the expression's value, smallest first, NaN after every
//! number.

use super::QueueOrder;
use crate::expr::{self, Expr, Vars};
use crate::sim::Ctx;

/// An order by a priority expression.
pub struct ExprOrder {
    expr: Expr,
    stack: Vec<f64>,
}

impl ExprOrder {
    /// The order by `expr`'s value.
    pub fn new(expr: Expr) -> Self {
        Self {
            expr,
            stack: Vec::new(),
        }
    }
}

impl QueueOrder for ExprOrder {
    fn key(&mut self, c: &Ctx<'_>, j: usize) -> f64 {
        let now = c.now();
        let job = c.job(j);
        let vars = Vars::new(
            (now - job.submit) as f64,
            c.estimate(j) as f64,
            job.requested.unwrap_or(job.estimate) as f64,
            f64::from(job.procs),
            job.submit as f64,
            job.user as f64,
            now as f64,
        );
        expr::order_key(self.expr.eval_with(&vars, &mut self.stack))
    }
}
