//! Memory stays bounded on a 100 MB line without a newline, plain and gzip-compressed.
//! (Own test binary: it installs a counting global allocator.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{self, Read, Write as _};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use flate2::write::GzEncoder;
use flate2::Compression;
use schedlab::swf::{self, ReadOptions};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// The tests below measure one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Peak bytes allocated (above what was live before) while running `f`.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

const JOB: &str = "\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n";

#[test]
fn hundred_megabyte_line_in_bounded_memory() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let input = io::repeat(b'5').take(100 << 20).chain(JOB.as_bytes());
    let (w, peak) = peak_during(|| swf::read("big.swf", input, &ReadOptions::default()));
    let w = w.unwrap();
    assert_eq!(w.records.len(), 1);
    assert_eq!(w.issues[0].reason, "line longer than 1048576 bytes");
    assert!(peak < 8 << 20, "peak {peak} bytes");
}

#[test]
fn gzip_bomb_line_in_bounded_memory() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    // 100 MB of one line compresses to about 100 KB.
    let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..100 {
        enc.write_all(&chunk).unwrap();
    }
    enc.write_all(b"x").unwrap();
    enc.write_all(JOB.as_bytes()).unwrap();
    let gz = enc.finish().unwrap();
    let (w, peak) = peak_during(|| swf::read_bytes("bomb.swf.gz", &gz, &ReadOptions::default()));
    let w = w.unwrap();
    assert_eq!(w.records.len(), 1);
    assert_eq!(
        w.issues[0].to_string(),
        "line 1: line longer than 1048576 bytes"
    );
    assert!(peak < 8 << 20, "peak {peak} bytes");
}
