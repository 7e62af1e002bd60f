//! Priority expressions as a queue order (`queue=expr(EXPR)`, or a stored one: `queue=wfp3`,
//! see [`crate::expr::PRESETS`]): the waiting jobs sorted by the expression's value, smallest
//! first, NaN after every number, ties by arrival.

use super::QueueOrder;
use crate::expr::{self, Expr, Vars};
use crate::policy::blocks::sorted::Sorted;
use crate::sim::Ctx;

pub struct ExprOrder {
    expr: Expr,
    keyed: Sorted,
    stack: Vec<f64>,
}

impl ExprOrder {
    pub fn new(expr: Expr) -> Self {
        Self {
            expr,
            keyed: Sorted::default(),
            stack: Vec::new(),
        }
    }
}

impl QueueOrder for ExprOrder {
    /// Keys every waiting job by the expression; sorted as far as the rule reads.
    fn begin(&mut self, c: &mut Ctx<'_>) {
        let now = c.now();
        self.keyed.clear();
        for &j in c.waiting() {
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
            let v = self.expr.eval_with(&vars, &mut self.stack);
            self.keyed.push(expr::order_key(v), j);
        }
    }

    fn extend(&mut self, _c: &Ctx<'_>, out: &mut Vec<usize>, upto: usize) {
        self.keyed.extend(out, upto);
    }
}
