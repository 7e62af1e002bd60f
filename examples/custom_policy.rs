//! A policy of your own on schedlab's public API: LXF-EASY, EASY backfilling over a
//! largest-expansion-factor-first queue (the job whose slowdown would be largest if it started
//! now, `(wait + estimate) / estimate`, goes first; ties by arrival), compared with `easy` on a
//! trace.
//!
//! ```text
//! cargo run --release --example custom_policy -- TRACE.swf[.gz]
//! ```

use schedlab::policy::blocks::shadow::{backfill, reserve_head};
use schedlab::policy::Policy;
use schedlab::run::{self, RunResult};
use schedlab::sim::{Ctx, SimError};
use schedlab::swf::ReadOptions;
use std::process::ExitCode;

/// LXF order + EASY's start rule and backfilling.
#[derive(Default)]
struct LxfEasy {
    keyed: Vec<(f64, usize)>,
    queue: Vec<usize>,
}

impl Policy for LxfEasy {
    fn spec(&self) -> String {
        "lxf-easy".into()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        // 1. The queue order, from what a scheduler knows: the wait so far and the estimate.
        let now = c.now();
        self.keyed.clear();
        for &j in c.waiting() {
            let estimate = c.estimate(j).max(1) as f64;
            let xfactor = ((now - c.job(j).submit) as f64 + estimate) / estimate;
            self.keyed.push((xfactor, j));
        }
        self.keyed
            .sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        self.queue.clear();
        self.queue.extend(self.keyed.iter().map(|&(_, j)| j));
        // 2. Start jobs in that order while they fit, giving the reason in this policy's own
        //    word (the jobs CSV's `start_reason`, the page's tooltip); the backfilling step
        //    below states the built-in reasons `backfilled` and `extra`.
        let why = c.reason_word("most-expanded")?;
        let mut first = 0;
        while let Some(&j) = self.queue.get(first) {
            if !c.fits(j) {
                break;
            }
            let end = now + c.estimate(j);
            c.start_as(j, Some(why), None, Some(end))?;
            first += 1;
        }
        // 3. EASY: a reservation for the first job that does not fit, then backfill the rest
        //    (in the same order) if they end by it or use only the processors it leaves over.
        let Some(&head) = self.queue.get(first) else {
            return Ok(());
        };
        let Some(shadow) = reserve_head(c, head) else {
            return Ok(());
        };
        backfill(c, shadow, self.queue[first + 1..].iter().copied())
    }
}

fn row(r: &RunResult) {
    let m = &r.classic;
    println!(
        "{:<10} {:>12.0} {:>12.0} {:>10.2} {:>10.2} {:>8.4} {:>10}",
        r.spec,
        m.wait.mean,
        m.wait.max,
        m.bsld.mean,
        m.bsld.max,
        m.utilization,
        m.counts.backfilled
    );
}

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: custom_policy TRACE.swf[.gz]");
        return ExitCode::from(2);
    };
    let result = (|| -> Result<(), Box<dyn std::error::Error>> {
        let trace = run::Trace::load_path(
            path.as_ref(),
            &ReadOptions::default(),
            &Default::default(),
            Default::default(),
        )?;
        let jobs = &trace.jobs;
        let easy = trace.run("easy", 1, None)?;
        let lxf = trace.run_with(&mut LxfEasy::default(), 1, None)?;
        println!(
            "{}: {} jobs on {} processors",
            jobs.name,
            jobs.jobs.len(),
            jobs.procs
        );
        println!(
            "{:<10} {:>12} {:>12} {:>10} {:>10} {:>8} {:>10}",
            "policy", "mean wait s", "max wait s", "mean bsld", "max bsld", "util", "backfilled"
        );
        row(&easy);
        row(&lxf);
        for r in [&easy, &lxf] {
            println!("{}: jobs by start reason {:?}", r.spec, r.start_reasons());
        }
        Ok(())
    })();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("custom_policy: {e}");
            ExitCode::FAILURE
        }
    }
}
