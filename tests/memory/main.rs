//! The memory bounds, a test binary of its own: it installs a counting global allocator
//! (`tests/fuzz/counting.rs`, also the fuzz binary's), whose live and peak bytes are the whole
//! process's, so its tests run one at a time (`SERIAL`) and no other test shares the process.

use std::sync::Mutex;

#[path = "../fuzz/counting.rs"]
mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

/// Every test here holds it while it measures.
static SERIAL: Mutex<()> = Mutex::new(());

mod input_bombs;
mod swf_memory;
