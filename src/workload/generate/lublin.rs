//! The Lublin–Feitelson 1999 workload model ("The workload on parallel supercomputers:
//! modeling the characteristics of rigid jobs", JPDC 2003), with the parameters of the
//! "whole sample" (no batch / interactive distinction) of the authors' `m_lublin99.c`, which
//! produced the reference trace `tests/data/lublin_256.swf`:
//! - size: serial with probability 0.244; otherwise log2(size) is two-stage uniform on
//!   [0.8, UHi - 2.5] (probability 0.86) or [UHi - 2.5, UHi], UHi = log2(processors), rounded
//!   to an integer (a power of two) for jobs drawn with u <= 0.244 + 0.576; sizes are clamped
//!   to the machine;
//! - runtime: ln(runtime) is hyper-gamma: Gamma(4.2, 0.94) with probability
//!   p = clamp(-0.0054 * size + 0.78, 0, 1), else Gamma(312, 0.03) (bigger jobs run longer),
//!   redrawn above 12 (runtime at most e^12 s, about 45 h);
//! - arrivals: ln(inter-arrival) at rush hour is Gamma(10.2303 * 1.0225, 0.4871) (redrawn
//!   above 13), spent as "points" against 48 half-hour buckets of the day weighted by a
//!   Gamma(8.1737, 3.9631) density (buckets 11..58 folded cyclically, the day starting at
//!   midnight), which makes the daily cycle.
//!
//! Our own code; the C program was read only to check our reading of the paper.

use rand::Rng;
use rand_distr::{Distribution, Gamma};
use rand_pcg::Pcg64;

const SERIAL_PROB: f64 = 0.244;
const POW2_PROB: f64 = 0.576;
const ULOW: f64 = 0.8;
const UMED_BELOW_UHI: f64 = 2.5;
const UPROB: f64 = 0.86;
const A1: f64 = 4.2;
const B1: f64 = 0.94;
const A2: f64 = 312.0;
const B2: f64 = 0.03;
const PA: f64 = -0.0054;
const PB: f64 = 0.78;
const AARR: f64 = 10.2303 * 1.0225;
const BARR: f64 = 0.4871;
const ANUM: f64 = 8.1737;
const BNUM: f64 = 3.9631;
/// ln of the longest runtime and of the longest inter-arrival time.
const MAX_LN_RUNTIME: f64 = 12.0;
const MAX_LN_ARRIVAL: f64 = 13.0;
const BUCKETS: usize = 48;
const BUCKET_SECONDS: f64 = 86_400.0 / BUCKETS as f64;
const CYCLIC_DAY_START: usize = 11;

/// One generated job.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Job {
    pub submit: i64,
    pub procs: i64,
    pub runtime: i64,
}

/// The model's state: its distributions and the arrival process.
pub struct Lublin {
    procs: u32,
    uhi: f64,
    umed: f64,
    short: Gamma<f64>,
    long: Gamma<f64>,
    arrival: Gamma<f64>,
    weights: [f64; BUCKETS],
    bucket: usize,
    points: f64,
    remainder: f64,
    /// Seconds since the start. Kept exact: the C program truncates its clock to whole
    /// seconds at every arrival, which loses half a second per job on average, so that over
    /// 100,000 jobs the arrivals drift off the daily cycle the buckets keep (the cycle flattens);
    /// submit times are rounded down only when reported.
    clock: f64,
    started: bool,
    /// Inter-arrival times are multiplied by this (1: the 1999 model's load).
    stretch: f64,
}

impl Lublin {
    pub fn new(procs: u32) -> Lublin {
        Lublin::with_stretch(procs, 1.0)
    }

    /// The model with arrivals `stretch` times as far apart (the daily cycle kept: the
    /// stretch applies to the points spent against the day's buckets).
    pub fn with_stretch(procs: u32, stretch: f64) -> Lublin {
        let uhi = f64::from(procs.max(1)).log2();
        // A machine of 1-4 processors leaves no room for the two stages: keep them ordered.
        let umed = (uhi - UMED_BELOW_UHI).max(ULOW.min(uhi));
        let gamma = |a, b| Gamma::new(a, b).expect("the model's gamma parameters are valid");
        Lublin {
            procs: procs.max(1),
            uhi,
            umed,
            short: gamma(A1, B1),
            long: gamma(A2, B2),
            arrival: gamma(AARR, BARR),
            weights: day_weights(),
            bucket: 0,
            points: 0.0,
            remainder: 0.0,
            clock: 0.0,
            started: false,
            stretch,
        }
    }

    /// The next job: arrival, size, runtime (the C program's order of draws per job: the
    /// next arrival is drawn when a job arrives).
    pub fn next(&mut self, rng: &mut Pcg64) -> Job {
        if !self.started {
            self.started = true;
            self.advance(rng); // the first arrival is drawn at start-up
        }
        let submit = self.clock.floor() as i64;
        self.advance(rng);
        let procs = self.size(rng);
        let runtime = self.runtime(procs, rng);
        Job {
            submit,
            procs,
            runtime,
        }
    }

    fn size(&self, rng: &mut Pcg64) -> i64 {
        let u: f64 = rng.random();
        if u <= SERIAL_PROB {
            return 1;
        }
        let mut par = two_stage_uniform(ULOW.min(self.uhi), self.umed, self.uhi, UPROB, rng);
        if u <= SERIAL_PROB + POW2_PROB {
            par = par.round();
        }
        let n = 2f64.powf(par).round() as i64;
        n.clamp(1, i64::from(self.procs))
    }

    fn runtime(&self, procs: i64, rng: &mut Pcg64) -> i64 {
        let p = (PA * procs as f64 + PB).clamp(0.0, 1.0);
        loop {
            let u: f64 = rng.random();
            let ln = if u <= p {
                self.short.sample(rng)
            } else {
                self.long.sample(rng)
            };
            if ln <= MAX_LN_RUNTIME {
                return ln.exp() as i64;
            }
        }
    }

    /// Moves the clock to the next arrival.
    fn advance(&mut self, rng: &mut Pcg64) {
        let ln = loop {
            let g = self.arrival.sample(rng);
            if g <= MAX_LN_ARRIVAL {
                break g;
            }
        };
        self.points += ln.exp() * self.stretch / BUCKET_SECONDS;
        let mut next = 0.0;
        while self.points > self.weights[self.bucket] {
            self.points -= self.weights[self.bucket];
            self.bucket = (self.bucket + 1) % BUCKETS;
            next += BUCKET_SECONDS;
        }
        let remainder = self.points / self.weights[self.bucket];
        next += BUCKET_SECONDS * (remainder - self.remainder);
        self.remainder = remainder;
        self.clock = (self.clock + next).max(0.0);
    }
}

fn two_stage_uniform(low: f64, med: f64, hi: f64, prob: f64, rng: &mut Pcg64) -> f64 {
    let (a, b) = if rng.random::<f64>() <= prob {
        (low, med)
    } else {
        (med, hi)
    };
    a + (b - a) * rng.random::<f64>()
}

/// The weight of each half-hour of the day, normalised to a mean of 1: the mass of the
/// Gamma(ANUM, BNUM) density on [i - 0.5, i + 0.5] for i in 11..59, bucket (i - 1) mod 48.
/// The density's constant cancels in the normalisation, so x^(a-1) e^(-x/b) is integrated
/// (Simpson's rule, 64 panels per bucket: error far below the model's precision).
fn day_weights() -> [f64; BUCKETS] {
    let f = |x: f64| ((ANUM - 1.0) * x.ln() - x / BNUM).exp();
    let mut w = [0.0; BUCKETS];
    for i in CYCLIC_DAY_START..BUCKETS + CYCLIC_DAY_START {
        let (a, b) = (i as f64 - 0.5, i as f64 + 0.5);
        let n = 64;
        let h = (b - a) / n as f64;
        let mut s = f(a) + f(b);
        for k in 1..n {
            s += f(a + k as f64 * h) * if k % 2 == 1 { 4.0 } else { 2.0 };
        }
        w[(i - 1) % BUCKETS] = s * h / 3.0;
    }
    let mean = w.iter().sum::<f64>() / BUCKETS as f64;
    w.map(|x| x / mean)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn weights_have_mean_one_and_a_daily_peak() {
        let w = day_weights();
        let mean = w.iter().sum::<f64>() / BUCKETS as f64;
        assert!((mean - 1.0).abs() < 1e-12);
        // The gamma's mode (a - 1) * b = 28.4 -> i = 28, bucket 27 (13:30-14:00).
        let peak = (0..BUCKETS).max_by(|&a, &b| w[a].total_cmp(&w[b])).unwrap();
        assert_eq!(peak, 27);
        assert!(w[peak] > 1.5 && w[(peak + 24) % BUCKETS] < 0.5, "{w:?}");
    }

    #[test]
    fn sizes_and_runtimes_stay_in_range() {
        let mut rng = Pcg64::seed_from_u64(3);
        for procs in [1, 3, 100, 256] {
            let mut m = Lublin::new(procs);
            let mut last = 0;
            for _ in 0..2000 {
                let j = m.next(&mut rng);
                assert!(j.procs >= 1 && j.procs <= i64::from(procs));
                assert!(j.runtime >= 1 && (j.runtime as f64) <= MAX_LN_RUNTIME.exp());
                assert!(j.submit >= last);
                last = j.submit;
            }
        }
    }
}
