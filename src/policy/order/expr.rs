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
    fn order(&mut self, c: &mut Ctx<'_>, out: &mut Vec<usize>, limit: usize) {
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
        // Smallest first, ties by arrival: a total order, so selecting the first `limit` jobs
        // and sorting them gives the same head as sorting all.
        let cmp = |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if limit > 0 && limit < self.keyed.len() {
            self.keyed.select_nth_unstable_by(limit - 1, cmp);
            self.keyed.truncate(limit);
        }
        self.keyed.sort_unstable_by(cmp);
        out.extend(self.keyed.iter().map(|&(_, j)| j));
    }
}
