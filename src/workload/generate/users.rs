//! Users of a generated workload (model `lublin-users`): who submits each job, and the load
//! the model runs at.
//!
//! - **How many users**: ⌈√jobs⌉ (100 for 10,000 jobs, 317 for 100,000), at most the jobs. The
//!   archive's logs have a few hundred users for tens or hundreds of thousands of jobs (KTH-SP2:
//!   214 users, 28,476 jobs; SDSC-SP2: 437 users, 73,496 jobs; LANL-CM5: 213 users, 201,387 jobs).
//! - **Their job counts**: Zipf-like, as in those logs a few users submit most jobs: user k
//!   (k = 1 the busiest) submits each job with probability proportional to 1/k, so with 100
//!   users the busiest has about a fifth of the jobs and half the users fewer than 40 of
//!   10,000. Users are numbered 1..U by that rank; each job's user is drawn independently (no
//!   sessions, no correlation with the job's size or runtime).
//! - **Seeded apart**: the users are drawn from a stream of their own ([`stream`]), so adding
//!   draws to the jobs' model changes no user, and the users change no job.
//! - **Load**: the model spaces arrivals [`ARRIVAL_STRETCH`] times as far apart as the 1999
//!   model (the daily cycle kept: the stretch applies to the arrival process's own clock). The
//!   1999 parameters load a 256-processor machine at about 87 % (EASY backfilling: 84-86 %
//!   utilization, mean waits of 13-16 hours; FCFS 18 days); at 3/4 of their arrival rate EASY
//!   reaches 66-71 % with mean waits of about 4.4 hours, FCFS about 4 days, close to KTH-SP2's
//!   (70 %, 1.9 hours and 4.1 days). Measured in docs/workloads.md.

use rand::Rng;
use rand::SeedableRng;
use rand_pcg::Pcg64;

/// How much farther apart arrivals are than in the 1999 model (3/4 of its arrival rate).
pub const ARRIVAL_STRETCH: f64 = 4.0 / 3.0;

/// Mixed into the seed for the users' own random stream.
const USER_STREAM: u64 = 0x7573_6572_735f_5a31; // "users_Z1"

/// The number of users of a workload of `jobs` jobs: ⌈√jobs⌉, at least 1, at most `jobs`.
pub fn count(jobs: usize) -> usize {
    let mut u = (jobs as f64).sqrt().ceil() as usize;
    while u > 1 && (u - 1) * (u - 1) >= jobs {
        u -= 1; // guard against the square root's rounding
    }
    u.clamp(1, jobs.max(1))
}

/// The random stream of the users of the workload of `seed`.
pub fn stream(seed: u64) -> Pcg64 {
    Pcg64::seed_from_u64(seed ^ USER_STREAM)
}

/// The user (1..=count(jobs)) of each of `jobs` jobs, in job order.
pub fn assign(jobs: usize, rng: &mut Pcg64) -> Vec<i64> {
    let users = count(jobs);
    // The cumulative weights 1/1 + 1/2 + ... + 1/k, for an inverse-CDF draw.
    let mut cumulative = Vec::with_capacity(users);
    let mut sum = 0.0;
    for k in 1..=users {
        sum += 1.0 / k as f64;
        cumulative.push(sum);
    }
    (0..jobs)
        .map(|_| {
            let x = rng.random::<f64>() * sum;
            let k = cumulative.partition_point(|&c| c <= x).min(users - 1);
            k as i64 + 1
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_the_ceiling_of_the_square_root() {
        assert_eq!(count(0), 1);
        assert_eq!(count(1), 1);
        assert_eq!(count(2), 2);
        assert_eq!(count(4), 2);
        assert_eq!(count(5), 3);
        assert_eq!(count(10_000), 100);
        assert_eq!(count(10_001), 101);
        assert_eq!(count(100_000), 317);
    }

    #[test]
    fn job_counts_fall_as_one_over_rank() {
        let users = assign(100_000, &mut stream(1));
        let n = count(100_000);
        let mut jobs = vec![0usize; n + 1];
        for &u in &users {
            assert!(u >= 1 && u as usize <= n);
            jobs[u as usize] += 1;
        }
        // Harmonic number H_317 = 6.34: user 1 expects 100,000 / 6.34 = 15,770 jobs, user 2
        // half of that, user 10 a tenth (binomial spread: a few percent).
        let h: f64 = (1..=n).map(|k| 1.0 / k as f64).sum();
        for k in [1usize, 2, 10] {
            let expected = 100_000.0 / h / k as f64;
            let got = jobs[k] as f64;
            assert!(
                (got - expected).abs() < 0.05 * expected,
                "user {k}: {got} jobs, expected {expected:.0}"
            );
        }
        assert!(jobs[n] > 0, "the last user has jobs too");
    }

    #[test]
    fn seeded_and_independent_of_other_draws() {
        assert_eq!(assign(500, &mut stream(7)), assign(500, &mut stream(7)));
        assert_ne!(assign(500, &mut stream(7)), assign(500, &mut stream(8)));
    }
}
