//! Priority expressions as a queue order (`queue=expr(EXPR)`, or a stored one: `queue=wfp3`,
//! see [`crate::expr::PRESETS`]): the waiting jobs sorted by the expression's value, smallest
//! first, NaN after every number, ties by arrival.

use super::QueueOrder;
use crate::expr::{self, Expr, Vars};
use crate::sim::Ctx;

pub struct ExprOrder {
    expr: Expr,
    keyed: Vec<(f64, usize)>,
    stack: Vec<f64>,
}

impl ExprOrder {
    pub fn new(expr: Expr) -> Self {
        Self {
            expr,
            keyed: Vec::new(),
            stack: Vec::new(),
        }
    }
}

impl QueueOrder for ExprOrder {
    fn order(&mut self, c: &mut Ctx<'_>, out: &mut Vec<usize>) {
        out.clear();
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
            self.keyed.push((expr::order_key(v), j));
        }
        self.keyed
            .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        out.extend(self.keyed.iter().map(|&(_, j)| j));
    }
}
