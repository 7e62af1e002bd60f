//! A policy of your own on schedlab's public API: LXF-EASY, EASY backfilling over a
//! largest-expansion-factor-first queue (the job whose slowdown would be largest if it started
//! now, `(wait + estimate) / estimate`, goes first; ties by arrival), compared with `easy` on a
//! trace.
//!
//! ```text
//! cargo run --release --example custom_policy -- TRACE.swf[.gz]
//! ```

use schedlab::api::*;
use std::process::ExitCode;

/// The LXF queue order: the largest expansion factor first, from what a scheduler knows (the
/// wait so far and the estimate); ties by arrival (the composition's rule for equal keys).
struct Lxf;

impl QueueOrder for Lxf {
    fn key(&mut self, c: &Ctx<'_>, j: usize) -> f64 {
        let estimate = c.estimate(j).max(1) as f64;
        let waited = (c.now() - c.job(j).submit) as f64;
        -((waited + estimate) / estimate)
    }
}

/// EASY's start rule, stating this policy's own word for the jobs started in queue order (the
/// jobs CSV's `start_reason`, the page's tooltip); the backfilling step states the built-in
/// reasons `backfilled` and `extra`.
struct EasyRule;

impl StartRule for EasyRule {
    fn pass(&mut self, c: &mut Ctx<'_>, queue: &mut Queue<'_>) -> Result<(), SimError> {
        let why = c.reason_word("most-expanded")?;
        let first = start_heads(c, queue, why)?;
        // A reservation for the first job that does not fit, then backfill the rest (in the
        // same order) if they end by it or use only the processors it leaves over.
        let Some(head) = queue.get(c, first) else {
            return Ok(());
        };
        let Some(shadow) = reserve_head(c, head) else {
            return Ok(());
        };
        backfill_queue(c, shadow, queue, first + 1)
    }
}

/// `lxf-easy`: the LXF order composed with the rule, planning with the input's estimate.
fn lxf_easy(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let policy = Composed::new(
        p.canonical()?,
        None,
        Some(Box::new(Lxf)),
        Box::new(EasyRule),
    );
    Ok(Box::new(policy))
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
        let trace = Trace::load_path(
            path.as_ref(),
            &Default::default(),
            &Default::default(),
            Default::default(),
        )?;
        let mut registry = Registry::builtin();
        registry.add(PolicyInfo::new(
            "lxf-easy",
            "EASY over a largest-expansion-factor-first queue",
            &[],
            lxf_easy,
        ))?;
        let jobs = &trace.jobs;
        let easy = trace.run("easy", 1, None)?;
        let lxf = trace.run_with(registry.build("lxf-easy")?.as_mut(), 1, None)?;
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
