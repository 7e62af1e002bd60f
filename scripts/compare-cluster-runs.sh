#!/usr/bin/env bash
# Compares two schedlab binaries on the cluster model: the jobs CSV and the allocation CSV
# (`--alloc-csv`: each job's nodes) of several policies on a generated GPU workload on 1,000
# 4-GPU nodes and on every committed run of fairshare-1, smallbf-2, gpu-3 and tiers-4 (their
# slurm.conf's nodes, partitions and GPUs). Prints each file that differs and the totals; exits
# 1 when any differ.
#
#   scripts/compare-cluster-runs.sh OLD_BINARY NEW_BINARY
#
# SPECS="a b" replaces the policy list.
set -euo pipefail
old=${1:?old binary}
new=${2:?new binary}
root=$(cd "$(dirname "$0")/.." && pwd)/tests/data/slurm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
read -r -a specs <<<"${SPECS:-easy conservative easy[order=sjf] fairshare-easy sjbf historic slurm}"
n=0
d=0
"$new" generate --model lublin --procs 32000 --jobs 3000 --gpu-share 0.25 --seed 7 \
  --out "$work/gpu.swf" >/dev/null 2>&1
one() { # NAME ARGS...: every spec on one input
  local name=$1
  shift
  for s in "${specs[@]}"; do
    for side in old new; do
      bin=${!side}
      "$bin" run "$@" -p "$s" --jobs-csv "$work/$name.$s.$side.jobs" \
        --alloc-csv "$work/$name.$s.$side.alloc" >/dev/null 2>"$work/$name.$s.$side.err" || true
    done
    for k in jobs alloc; do
      n=$((n + 1))
      if [ ! -s "$work/$name.$s.new.$k" ]; then
        d=$((d + 1))
        echo "FAILED $name $s $k: $(head -c 300 "$work/$name.$s.new.err")"
      elif ! cmp -s "$work/$name.$s.old.$k" "$work/$name.$s.new.$k"; then
        d=$((d + 1))
        echo "DIFF   $name $s $k"
      fi
    done
  done
}
one gpu-1000-nodes "$work/gpu.swf" --cluster '1/n[1-1000]:c32:m256000:g4'
for run in "$root"/{fairshare-1,smallbf-2,gpu-3,tiers-4}/run*; do
  one "$(basename "$(dirname "$run")")-$(basename "$run")" "$run/sacct.txt" \
    --slurm-conf "$run/slurm.conf" --sshare "$run/sshare-start.txt"
done
echo "compared $n files, $d differ"
[ "$d" -eq 0 ]
