#!/usr/bin/env bash
# The project's one check: formatting, lints (clippy on wasm32 compiles the library for the
# page's target, so a wasm-breaking change is caught the day it lands), pkg/ up to date with the sources, the jobs
# CSV in evalys, every native test, the fuzz harness (docs/fuzzing.md), and the page in headless
# Chromium. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  step "installing the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -D warnings (native, all targets)"
cargo clippy --all-targets -- -D warnings

step "cargo clippy -D warnings (wasm32 library)"
cargo clippy --lib --target wasm32-unknown-unknown -- -D warnings

step "cargo doc: the public API documented, every link resolved"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib

step "pkg/ (the committed wasm build) matches the sources"
bash scripts/check-pkg.sh

step "the jobs CSV loads in evalys (Python)"
if ! python3 -c 'import evalys' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check evalys procset
fi
cargo build --bin schedlab
python3 tests/evalys_check.py "${CARGO_TARGET_DIR:-target}/debug/schedlab"

step "cargo test"
cargo test --all-targets --no-run
# The memory binary runs its tests one at a time (one counting allocator for the process): it runs
# beside the others, on the core they leave idle. Every other target runs in the foreground; a new
# [[test]] target in Cargo.toml must be added to one of the two lines.
tests=$(grep -c '^\[\[test\]\]' Cargo.toml)
[ "$tests" -eq 2 ] || { echo "Cargo.toml has $tests [[test]] targets; scripts/check.sh runs integration and memory" >&2; exit 1; }
memlog=$(mktemp)
cargo test --test memory >"$memlog" 2>&1 &
memory=$!
cargo test --lib --bins --examples --benches --test integration
memory_rc=0
wait "$memory" || memory_rc=$?
cat "$memlog"
rm -f "$memlog"
[ "$memory_rc" -eq 0 ] || { echo "cargo test --test memory failed" >&2; exit "$memory_rc"; }
cargo test --doc

step "fuzzing: the libFuzzer harness linted, the link decoder fuzzed for a few seconds (scripts/fuzz.sh --check)"
bash scripts/fuzz.sh --check 2

step "browser tests: the page in headless Chromium (installs chromium and node_modules if missing)"
bash scripts/browser-test.sh
