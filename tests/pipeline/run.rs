//! The pipeline (`run::Trace`): one trace with its input and metrics options, EETs computed
//! once, `run(spec)` giving a result; the same figures as the steps taken one by one.

use crate::common::{self, swf_text_users, ujob, UJob};
use schedlab::input::{prepare, InputOptions};
use schedlab::metrics::eet::{expected_end_times, Capacity};
use schedlab::metrics::{self, MetricOptions};
use schedlab::run::{self, Trace};
use schedlab::swf::{read_bytes, ReadOptions};

fn text() -> String {
    // Two users on 4 processors, jobs that queue.
    let jobs: Vec<UJob> = (0..12)
        .map(|i| ujob(i * 3, 20 + (i * 7) % 30, 1 + (i % 4), 1 + i % 2))
        .collect();
    swf_text_users(4, &jobs)
}

#[test]
fn a_run_equals_the_steps_taken_one_by_one() {
    let text = text();
    let w = read_bytes("t.swf", text.as_bytes(), &ReadOptions::default()).unwrap();
    let opts = MetricOptions {
        bsld_bound: 30.0,
        ..Default::default()
    };
    let trace = Trace::new(w.clone(), &InputOptions::default(), opts.clone()).unwrap();
    let jobs = prepare(&w, &InputOptions::default()).unwrap();
    let expected = expected_end_times(&jobs, &opts.eet).unwrap();
    assert_eq!(trace.expected().eet, expected.eet);
    for spec in ["fcfs", "easy", "conservative", "pv-easy"] {
        let r = trace.run(spec, 7, None).unwrap();
        let s = run::simulate(&jobs, spec, 7, None).unwrap();
        assert_eq!(r.schedule.jobs, s.jobs, "{spec}");
        assert_eq!(r.classic, metrics::classic(&jobs, &s, &opts), "{spec}");
        assert_eq!(
            r.eet,
            metrics::eet::user_aware(&jobs, &s, &expected),
            "{spec}"
        );
        assert_eq!(r.fairness, metrics::fairness(&jobs, &s, &opts), "{spec}");
        assert_eq!(r.classic.bsld_bound, 30.0);
        // The same run again gives the same result (nothing of a run stays in the trace).
        assert_eq!(
            trace.run(spec, 7, None).unwrap().classic,
            r.classic,
            "{spec}"
        );
    }
}

#[test]
fn eet_options_are_metrics_options() {
    let text = text();
    let load = |capacity| {
        let w = read_bytes("t.swf", text.as_bytes(), &ReadOptions::default()).unwrap();
        let opts = MetricOptions {
            eet: metrics::EetOptions {
                capacity,
                ..Default::default()
            },
            ..Default::default()
        };
        Trace::new(w, &InputOptions::default(), opts).unwrap()
    };
    // A user who expects the whole machine expects earlier ends than one who expects half.
    let (half, whole) = (load(Capacity::Equal), load(Capacity::Procs(4.0)));
    let (a, b) = (
        half.run("fcfs", 1, None).unwrap(),
        whole.run("fcfs", 1, None).unwrap(),
    );
    assert_eq!(a.schedule.jobs, b.schedule.jobs);
    assert!(
        b.eet.violated > a.eet.violated,
        "{} vs {}",
        b.eet.violated,
        a.eet.violated
    );
    assert_eq!(b.eet.options.capacity, Capacity::Procs(4.0));
}

#[test]
fn bad_metrics_options_are_refused_when_the_trace_is_loaded() {
    let text = common::swf_text(2, &[(0, 10, 1, 10)]);
    for (opts, says) in [
        (
            MetricOptions {
                bsld_bound: -1.0,
                ..Default::default()
            },
            "bsld_bound",
        ),
        (
            MetricOptions {
                bsld_bound: f64::NAN,
                ..Default::default()
            },
            "bsld_bound",
        ),
        (
            MetricOptions {
                eet: metrics::EetOptions {
                    capacity: Capacity::Procs(-2.0),
                    ..Default::default()
                },
                ..Default::default()
            },
            "EET",
        ),
    ] {
        let w = read_bytes("t.swf", text.as_bytes(), &ReadOptions::default()).unwrap();
        let e = Trace::new(w, &InputOptions::default(), opts).err().unwrap();
        assert!(e.to_string().contains(says), "{e}");
    }
}

#[test]
fn sweeps_read_the_catalogue() {
    let w = read_bytes("t.swf", text().as_bytes(), &ReadOptions::default()).unwrap();
    let trace = Trace::new(w, &InputOptions::default(), MetricOptions::default()).unwrap();
    let r = trace.run("easy", 1, None).unwrap();
    assert_eq!(schedlab::sweep::metric(&r, "mbs").unwrap(), r.classic.mbs);
    assert_eq!(
        schedlab::sweep::metric(&r, "eet-violated").unwrap(),
        r.eet.violated_percent
    );
    assert!(schedlab::sweep::metric(&r, "nodes-bsld").unwrap().is_nan());
    assert!(schedlab::sweep::metric(&r, "nope").is_err());
}
