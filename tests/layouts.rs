//! The typed-array layouts registry (`output::layouts`): `www/layouts.js` is generated from it
//! (run `UPDATE_LAYOUTS=1 cargo test --test integration layouts::` after a change), and each layout's stride
//! is the length of what the engine writes.

use crate::common;
use common::{job_set, run};
use schedlab::output::layouts::{self, JOB, RECT, SERIES};
use std::path::PathBuf;

#[test]
fn www_layouts_js_is_generated_from_the_registry() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("www/layouts.js");
    let want = layouts::js();
    if std::env::var_os("UPDATE_LAYOUTS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let got = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        got == want,
        "www/layouts.js is out of date: run `UPDATE_LAYOUTS=1 cargo test --test integration layouts::`"
    );
    assert!(want.contains("export const JOB = Object.freeze({ id: 0, user: 1,"));
    assert!(want.contains("'head', 'backfilled', 'extra', 'reserved'"));
}

#[test]
fn strides_match_what_the_engine_writes() {
    let set = job_set(10, &[(0, 100, 6, 100), (1, 50, 8, 50), (2, 50, 4, 50)]);
    let s = run(&set, "easy");
    let rects = schedlab::charts::gantt::flatten(&schedlab::charts::gantt::rects(&set, &s));
    assert_eq!(rects.len(), 3 * RECT.fields.len());
    let series = schedlab::charts::series::points(&s);
    assert_eq!(series.len() % SERIES.fields.len(), 0);
    assert_eq!(series.len() / SERIES.fields.len(), s.series.len());
    let row = layouts::job_row(&set, &s, 1, &Default::default());
    assert_eq!(row.len(), JOB.fields.len());
    let at = |name: &str| JOB.fields.iter().position(|f| *f == name).unwrap();
    // J2: submitted at 1, started at 100, reserved at 100 behind J1 (index 0), at the head.
    assert_eq!(row[at("submit")], 1.0);
    assert_eq!(row[at("start")], 100.0);
    assert_eq!(row[at("reservation")], 100.0);
    assert_eq!(row[at("waitedFor")], 0.0);
    assert_eq!(row[at("reason")], 1.0);
}
