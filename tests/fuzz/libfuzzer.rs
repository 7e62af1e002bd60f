//! The libFuzzer binary `schedlab-fuzz` (built by `scripts/fuzz.sh` with `--features fuzz` and
//! the coverage instrumentation; not part of the normal build). The target is named by the
//! environment variable `SCHEDLAB_FUZZ_TARGET` (see `targets.rs`). A counting allocator holds
//! the readers to the memory bound the product promises: no input makes a reader's peak
//! allocation exceed `targets::TARGET_BYTES_PER_BYTE` times the size of the text plus
//! `targets::READER_SLACK`.
#![no_main]

use std::sync::OnceLock;

#[path = "counting.rs"]
mod counting;
#[path = "targets.rs"]
mod targets;

use counting::{peak_during, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

fn chosen() -> &'static targets::Target {
    static TARGET: OnceLock<&'static targets::Target> = OnceLock::new();
    TARGET.get_or_init(|| {
        let name = std::env::var("SCHEDLAB_FUZZ_TARGET").unwrap_or_default();
        targets::target(&name).unwrap_or_else(|| {
            let names: Vec<&str> = targets::TARGETS.iter().map(|t| t.name).collect();
            eprintln!(
                "SCHEDLAB_FUZZ_TARGET={name:?}: not a target (one of {})",
                names.join(", ")
            );
            std::process::exit(2)
        })
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let t = chosen();
    if !t.reader {
        (t.run)(data);
        return;
    }
    let size = targets::text_size(t, data);
    let ((), peak) = peak_during(|| (t.run)(data));
    let bound = targets::TARGET_BYTES_PER_BYTE * size + targets::READER_SLACK;
    assert!(
        peak <= bound,
        "{}: {peak} bytes allocated at peak for {size} bytes of text (bound {bound})",
        t.name
    );
});
