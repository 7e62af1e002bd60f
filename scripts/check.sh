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

# What a fresh machine lacks (evalys, Chromium, node_modules) is fetched in the background while
# the lints compile: downloads and compiling overlap. The steps that need them wait for it below.
setup_log=$(mktemp)
(
  set -e
  if ! python3 -c 'import evalys' 2>/dev/null; then
    echo "installing evalys (pip)"
    python3 -m pip install --quiet --disable-pip-version-check evalys procset
  fi
  if [[ ! -x /usr/bin/chromium ]]; then
    echo "installing chromium (apt)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
  if [[ ! -d node_modules/playwright-core || ! -d node_modules/fast-check ]]; then
    echo "npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
) >"$setup_log" 2>&1 &
setup=$!
setup_done=""
wait_setup() {
  [[ -n "$setup_done" ]] && return 0
  local rc=0
  wait "$setup" || rc=$?
  setup_done=1
  cat "$setup_log"
  rm -f "$setup_log"
  [[ "$rc" -eq 0 ]] || { echo "installing what the checks need failed (above)" >&2; exit "$rc"; }
}

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
cargo build --bin schedlab
wait_setup
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
