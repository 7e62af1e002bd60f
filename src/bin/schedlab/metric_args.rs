//! The metrics options on the command line (`MetricOptions`: the bounded-slowdown bound, the
//! node model's measured window, the EET capacities), shared by `run`, `sweep`, `plot` and
//! `bench`. Their names and defaults are those of the options schema (`schedlab::options`; a
//! test in main.rs checks them).

use clap::Args;
use schedlab::metrics::eet::{parse_user_capacity, Capacity, EetError, EetOptions};
use schedlab::metrics::{MetricOptions, Window};

#[derive(Args, Clone)]
pub struct MetricArgs {
    /// Bound of the bounded slowdown, seconds.
    #[arg(long, default_value_t = 10.0)]
    bsld_bound: f64,
    /// Node model metrics: jobs (arrival order) left out as warm-up.
    #[arg(long, default_value_t = 0)]
    warmup: usize,
    /// Node model metrics: jobs measured after the warm-up (default: all the rest).
    #[arg(long)]
    measured: Option<usize>,
    /// Capacity each user expects for the EET metrics: `equal` (machine size / users) or a
    /// number of processors.
    #[arg(long, default_value = "equal", value_parser = parse_capacity)]
    eet_capacity: Capacity,
    /// Capacity of one user, USER=PROCESSORS (repeatable); overrides --eet-capacity.
    #[arg(long = "eet-user-capacity", value_parser = parse_user)]
    eet_user_capacity: Vec<(i64, f64)>,
    /// Machine memory in KB: the EETs also count memory (fields 10, else 7) when given.
    #[arg(long)]
    machine_memory: Option<u64>,
}

fn parse_capacity(s: &str) -> Result<Capacity, EetError> {
    s.parse()
}

fn parse_user(s: &str) -> Result<(i64, f64), EetError> {
    parse_user_capacity(s)
}

impl MetricArgs {
    /// The metrics options, or an error naming the flag that is wrong.
    pub fn options(&self) -> Result<MetricOptions, String> {
        let m = MetricOptions {
            bsld_bound: self.bsld_bound,
            window: Window {
                warmup: self.warmup,
                measured: self.measured,
            },
            eet: EetOptions {
                capacity: self.eet_capacity,
                user_capacity: self.eet_user_capacity.clone(),
                machine_memory: self.machine_memory,
            },
        };
        m.check().map_err(|_| {
            format!(
                "--bsld-bound {}: must be a number of seconds >= 0",
                self.bsld_bound
            )
        })?;
        Ok(m)
    }
}
