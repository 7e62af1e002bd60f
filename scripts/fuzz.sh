#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer on the stable toolchain.
#
#   scripts/fuzz.sh                  every target for 60 s each
#   scripts/fuzz.sh TARGET [SECONDS] one target (swf gzip sacct batsim spec expr options sweep
#                                    generate pipeline jsproto link), default 60 s
#   scripts/fuzz.sh --smoke          every target for a few seconds
#   scripts/fuzz.sh --check [SECONDS] CI: clippy on the harness (libFuzzer's C++ compiled, no
#                                    instrumented build) and `link` for a few seconds
#   scripts/fuzz.sh --list           the targets
#
# The Rust targets (tests/fuzz/targets.rs) are one binary, `schedlab-fuzz` (tests/fuzz/libfuzzer.rs,
# `--features fuzz`: the libfuzzer-sys crate, which compiles libFuzzer with the system C++
# compiler), instrumented with the flags cargo-fuzz passes with `--sanitizer none` (stable -C
# flags: sancov-module, 8-bit counters, PC table, compare tracing) and built into its own target
# directory (target/fuzz) so the normal build is untouched. No sanitizer: that needs nightly, and
# safe Rust does not need one to catch what we look for (panics, overflows with debug assertions
# on, hangs, memory growth). `link` fuzzes the page's share-link decoder (www/share.js) under
# Node (tests/fuzz/link.mjs).
#
# Each run grows tests/fuzz/work/TARGET (the live corpus, not committed) from the committed seeds
# in tests/fuzz/corpus/TARGET; crashes land in tests/fuzz/artifacts/TARGET. Limits per input:
# FUZZ_TIMEOUT seconds (default 10), FUZZ_RSS_MB of memory (default 2048). Runs are niced
# (FUZZ_NICE, default 19: they take what the machine leaves over). FUZZ_NO_BUILD=1 runs the binary
# as last built (several targets in parallel on one build, while the sources change).
# Minimize a crash: SCHEDLAB_FUZZ_TARGET=T target/fuzz/x86_64-unknown-linux-gnu/fuzz/schedlab-fuzz
# -minimize_crash=1 -runs=10000 FILE; then commit it under tests/fuzz/regressions/T/.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=(swf gzip sacct batsim spec expr options sweep generate pipeline jsproto link)
TRIPLE=x86_64-unknown-linux-gnu
TARGET_DIR=${FUZZ_TARGET_DIR:-target/fuzz}
BIN=$TARGET_DIR/$TRIPLE/fuzz/schedlab-fuzz
TIMEOUT=${FUZZ_TIMEOUT:-10}
RSS=${FUZZ_RSS_MB:-2048}
NICE=${FUZZ_NICE:-19}

build() {
  # What cargo-fuzz passes (src/project.rs) with --sanitizer none, release mode plus debug
  # assertions (overflow checks included).
  local flags="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4"
  flags+=" -Cllvm-args=-sanitizer-coverage-inline-8bit-counters"
  flags+=" -Cllvm-args=-sanitizer-coverage-pc-table"
  flags+=" -Cllvm-args=-sanitizer-coverage-trace-compares"
  flags+=" -Cllvm-args=-simplifycfg-branch-fold-threshold=0"
  flags+=" -Cllvm-args=-sanitizer-coverage-stack-depth"
  flags+=" --cfg fuzzing -Clink-dead-code"
  # --target: the flags then reach the crate and its dependencies, never build scripts.
  RUSTFLAGS="$flags" nice -n 19 cargo build --quiet --profile fuzz --features fuzz \
    --bin schedlab-fuzz --target "$TRIPLE" --target-dir "$TARGET_DIR"
}

run_rust() {
  local t=$1 secs=$2
  local work=tests/fuzz/work/$t art=tests/fuzz/artifacts/$t
  local log=tests/fuzz/work/$t.log dict=()
  mkdir -p "$work" "$art"
  [ -f "tests/fuzz/dict/$t.dict" ] && dict=(-dict="tests/fuzz/dict/$t.dict")
  echo "== fuzz $t for ${secs}s (log: $log)" >&2
  local rc=0 start=$SECONDS
  SCHEDLAB_FUZZ_TARGET=$t nice -n "$NICE" "$BIN" "$work" "tests/fuzz/corpus/$t" \
    -max_total_time="$secs" -timeout="$TIMEOUT" -rss_limit_mb="$RSS" -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$art/" "${dict[@]}" >"$log" 2>&1 || rc=$?
  # The last progress line (executions, coverage, corpus) and the final statistics.
  grep -E '^#[0-9]+' "$log" | tail -n 1 >&2 || true
  grep -E '^stat::(number_of_executed_units|peak_rss_mb|new_units_added)' "$log" >&2 || true
  # One line per run in tests/fuzz/ledger.tsv (date, target, seconds, executions,
  # coverage, corpus size, exit code): what docs/fuzzing.md sums up.
  local last execs
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$((SECONDS - start))" "${execs:-?}" \
    "$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")" \
    "$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")" "$rc" >>"$LEDGER"
  if [ "$rc" -ne 0 ]; then
    tail -n 40 "$log" >&2
    echo "fuzz $t: FAILED (exit $rc); the input is in $art/" >&2
    return "$rc"
  fi
}

run_link() {
  local secs=$1
  echo "== fuzz link for ${secs}s" >&2
  if [[ ! -d node_modules/fast-check ]]; then
    echo "fuzz.sh: npm ci (fast-check)" >&2
    npm ci --no-audit --no-fund --loglevel=error
  fi
  local rc=0 out
  out=$(nice -n "$NICE" node tests/fuzz/link.mjs "$secs" 2>&1) || rc=$?
  printf '%s\n' "$out" >&2
  # "link: N executions in S s, K seeds, share.js blocks reached A of B"
  local line
  line=$(grep -E '^link: [0-9]+ executions' <<<"$out" || true)
  mkdir -p tests/fuzz/work
  printf '%s\tlink\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" \
    "$(sed -n 's/.* in \([0-9]*\)\..* s,.*/\1/p' <<<"$line")" \
    "$(sed -n 's/^link: \([0-9]*\) executions.*/\1/p' <<<"$line")" \
    "$(sed -n 's/.*reached \([0-9]*\) of \([0-9]*\).*/\1\/\2 blocks/p' <<<"$line")" \
    "$(sed -n 's/.*, \([0-9]*\) seeds.*/\1/p' <<<"$line")" "$rc" >>"$LEDGER"
  return "$rc"
}

one() {
  local t=$1 secs=$2
  case " ${TARGETS[*]} " in *" $t "*) ;; *) echo "fuzz.sh: unknown target $t (${TARGETS[*]})" >&2; exit 2 ;; esac
  if [ "$t" = link ]; then run_link "$secs"; else run_rust "$t" "$secs"; fi
}

# Long runs are recorded in the committed ledger; smoke runs (CI) in the work directory.
LEDGER=tests/fuzz/ledger.tsv

case "${1:-}" in
  --list) printf '%s\n' "${TARGETS[@]}"; exit 0 ;;
  --smoke)
    mkdir -p tests/fuzz/work
    LEDGER=tests/fuzz/work/smoke-ledger.tsv
    build
    for t in "${TARGETS[@]}"; do one "$t" "${2:-3}"; done ;;
  --check)
    # What CI runs instead of --smoke (docs/fuzzing.md, "In CI"): the instrumented build alone
    # was a fifth of CI's time. Every committed input already runs under `cargo test`
    # (fuzz_inputs, and the memory bound in tests/memory/swf_memory.rs).
    cargo clippy --quiet --features fuzz --bin schedlab-fuzz -- -D warnings
    mkdir -p tests/fuzz/work
    LEDGER=tests/fuzz/work/smoke-ledger.tsv
    one link "${2:-3}" ;;
  '')
    build
    for t in "${TARGETS[@]}"; do one "$t" 60; done ;;
  *)
    [ "$1" = link ] || [ -n "${FUZZ_NO_BUILD:-}" ] || build
    one "$1" "${2:-60}" ;;
esac
