#!/usr/bin/env bash
# Compares what two schedlab binaries print and write: the `run` table (without its timing row),
# `run --json`, the jobs and runs CSVs of every catalogue policy at its defaults, node-model runs
# (with the resource-sharing metrics; first trace only, as the experiments run them), and a sweep.
# Usage:
#   scripts/compare-outputs.sh OLD_BINARY NEW_BINARY [TRACE...]
# Default traces: KTH-SP2 and LANL-CM5 from /work/shared/data/swf/ (or $SCHEDLAB_TRACES).
# Exits non-zero and lists the files that differ when the outputs are not byte-identical.
set -euo pipefail
old=$1 new=$2
shift 2
dir=${SCHEDLAB_TRACES:-/work/shared/data/swf}
traces=("$@")
[ ${#traces[@]} -gt 0 ] || traces=("$dir/KTH-SP2-1996-2.1-cln.swf.gz" "$dir/LANL-CM5-1994-4.1-cln.swf.gz")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
policies=(fcfs easy pv-easy conservative fairshare-fcfs fairshare-easy historic)
node_policies=(sjbf rua easy 'sjbf[rsp=lc]' 'sjbf[rsp=lct]')

produce() { # binary tag
  local bin=$1 tag=$2 t name args first=1
  mkdir -p "$out/$tag"
  for t in "${traces[@]}"; do
    name=$(basename "$t" .swf.gz)
    args=()
    for p in "${policies[@]}"; do args+=(-p "$p"); done
    "$bin" run "$t" "${args[@]}" --jobs-csv "$out/$tag/$name.jobs.csv" --runs-csv "$out/$tag/$name.runs.csv" \
      2>/dev/null | grep -v '^simulation (ms)' >"$out/$tag/$name.table"
    "$bin" run "$t" "${args[@]}" --json >"$out/$tag/$name.json" 2>/dev/null
    "$bin" sweep "$t" -p 'pv-easy[predictor=virtual]' -p 'easy[predictor=virtual]' --vary err=0,0.5,1 --seeds 2 --metric wasted-load \
      >"$out/$tag/$name.sweep" 2>/dev/null
    [ $first = 1 ] || continue
    first=0
    args=()
    for p in "${node_policies[@]}"; do args+=(-p "$p"); done
    "$bin" run "$t" "${args[@]}" --nodes --mix med --warmup 100 --measured 2000 --bsld-bound 60 \
      --jobs-csv "$out/$tag/$name.nodes.jobs.csv" 2>/dev/null | grep -v '^simulation (ms)' >"$out/$tag/$name.nodes.table"
    "$bin" run "$t" "${args[@]}" --nodes --json >"$out/$tag/$name.nodes.json" 2>/dev/null
  done
}
produce "$old" old
produce "$new" new
n=$(find "$out/old" -type f | wc -l)
if diff -rq "$out/old" "$out/new" >/dev/null; then
  echo "same outputs: $n files byte-identical (${#traces[@]} traces; ${#policies[@]} policies, ${#node_policies[@]} node-model specs on the first, a sweep each)"
else
  for f in $(cd "$out/old" && find . -type f | sort); do
    cmp -s "$out/old/$f" "$out/new/$f" || { echo "== $f"; diff "$out/old/$f" "$out/new/$f" | head -20 || true; }
  done
  same=$(cd "$out/old" && for f in $(find . -type f); do if cmp -s "$f" "$out/new/$f"; then echo "$f"; fi; done | wc -l)
  echo "outputs differ: $same of $n files byte-identical (differences above)" >&2
  exit 1
fi
