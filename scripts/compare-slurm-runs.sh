#!/usr/bin/env bash
# Compares two schedlab binaries on every committed real Slurm run (tests/data/slurm/*/run*, and a
# run committed as its own folder):
# the jobs CSVs of `slurm`, `easy` and `conservative` (`schedlab run SACCT --slurm-conf ...
# --sshare ... [--qos ...] [--assoc ...] -p P`: full simulations) and the `slurm` decisions CSV
# (`schedlab replay ... --decisions-csv`: one step ahead). Prints each file that differs (with
# its count of changed rows) and the totals; exits 1 when any differ.
#
#   scripts/compare-slurm-runs.sh OLD_BINARY NEW_BINARY
#
# With scripts/compare-schedules.sh (the SWF traces) and scripts/compare-cluster-runs.sh (the
# cluster model), the before/after check of a change to the `slurm` policy or a reader.
set -euo pipefail
old=${1:?old binary}
new=${2:?new binary}
root=$(cd "$(dirname "$0")/.." && pwd)/tests/data/slurm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
d=0
# A workload's runs (WORKLOAD/runN/), and a run committed as its workload's own folder (json-16).
runs=()
for dir in "$root"/*/; do
  dir=${dir%/}
  if [ -f "$dir/sacct.txt" ]; then runs+=("$dir"); fi
  for r in "$dir"/run*/; do [ -d "$r" ] && runs+=("${r%/}"); done
done
for run in "${runs[@]}"; do
  name=${run#"$root"/}
  name=${name//\//-}
  args=(--slurm-conf "$run/slurm.conf" --sshare "$run/sshare-start.txt")
  [ -f "$run/qos.txt" ] && args+=(--qos "$run/qos.txt")
  [ -f "$run/assoc.txt" ] && args+=(--assoc "$run/assoc.txt")
  for side in old new; do
    bin=${!side}
    for p in slurm easy conservative; do
      "$bin" run "$run/sacct.txt" "${args[@]}" -p "$p" --jobs-csv "$work/$name.$p.$side.csv" \
        >/dev/null 2>"$work/$name.$p.$side.err" || true
    done
    "$bin" replay "$run/sacct.txt" "${args[@]}" -p slurm --decisions-csv "$work/$name.decisions.$side.csv" \
      >/dev/null 2>"$work/$name.decisions.$side.err" || true
  done
  for f in slurm easy conservative decisions; do
    n=$((n + 1))
    a=$work/$name.$f.old.csv
    b=$work/$name.$f.new.csv
    if [ ! -s "$b" ]; then
      d=$((d + 1))
      echo "FAILED $name $f: $(head -c 300 "$work/$name.$f.new.err" 2>/dev/null || true)"
    elif ! cmp -s "$a" "$b"; then
      d=$((d + 1))
      echo "DIFF   $name $f: $(diff "$a" "$b" | grep -c '^>' || true) rows"
    fi
  done
done
echo "compared $n files (${#runs[@]} runs), $d differ"
[ "$d" -eq 0 ]
