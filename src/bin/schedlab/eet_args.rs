//! The EET capacity options shared by `run` and `plot`.

use clap::Args;
use schedlab::metrics::eet::{parse_user_capacity, Capacity, EetError, EetOptions};

#[derive(Args, Clone)]
pub struct EetArgs {
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

impl EetArgs {
    pub fn options(&self) -> EetOptions {
        EetOptions {
            capacity: self.eet_capacity,
            user_capacity: self.eet_user_capacity.clone(),
            machine_memory: self.machine_memory,
        }
    }
}
