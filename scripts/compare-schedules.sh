#!/usr/bin/env bash
# Compares the schedules of two schedlab binaries byte for byte: every catalogue policy at its
# defaults, every spec used in docs/experiments/*.md and one spec per key value, on KTH-SP2 and
# LANL-CM5 (node-model specs also on KTH-SP2 with --nodes). Prints the number of runs compared
# and every difference (jobs CSV or runs CSV); exits 1 when any differ.
#
#   scripts/compare-schedules.sh OLD_BINARY NEW_BINARY [DATA_DIR]
#
# DATA_DIR holds KTH-SP2-1996-2.1-cln.swf.gz and LANL-CM5-1994-4.1-cln.swf.gz
# (default: the repository's tests/data). SPECS="a b" replaces the spec list (quick checks).
# NEW_COLUMNS="a,b" names jobs CSV columns the new binary added: they are removed from its CSVs
# before the comparison (the schedule is compared, not the new columns).
# IGNORE_COLUMNS="a,b" names columns both binaries write whose values may differ (e.g.
# `success,final_state,outcome`: how outcomes are told): they are removed from both binaries'
# jobs and runs CSVs before the comparison, and each run's line counts the job rows and run
# rows whose values there changed.
set -euo pipefail
old=${1:?old binary}
new=${2:?new binary}
data=${3:-$(cd "$(dirname "$0")/.." && pwd)/tests/data}
kth=$data/KTH-SP2-1996-2.1-cln.swf.gz
lanl=$data/LANL-CM5-1994-4.1-cln.swf.gz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every catalogue policy at its defaults and every value of every key (the new binary's
# catalogue: `policies --samples`; a spec the old binary cannot run is reported and skipped),
# then the catalogue policies of the old binary, and the specs of docs/experiments/*.md and
# scripts/experiments/ that combine keys.
mapfile -t samples < <("$new" policies --samples)
mapfile -t catalogue < <("$old" policies --json | python3 -c 'import json,sys; [print(p["name"]) for p in json.load(sys.stdin)]')
specs=("${samples[@]}")
for p in "${catalogue[@]}"; do [[ " ${specs[*]} " == *" $p "* ]] || specs+=("$p"); done
specs+=(
  'conservative[queue=random-length,guarantees=off]' 'conservative[queue=sjf,guarantees=off,shadow=2]'
  'conservative[queue=sjf,guarantees=off]' 'easy[predictor=rfactor[mode=rnd]]' 'easy[predictor=rfactor]'
  'easy[predictor=virtual,order=spf]' 'easy[predictor=virtual]' 'fairshare-easy[halflife=604800]'
  'conservative[queue=sjf,predictor=rfactor[r=2]]' 'conservative[queue=random,weight=0.001,guarantees=off]'
  'pv-easy[predictor=exact,slp=off,vb=off]' 'easy[predictor=rfactor[r=3,mode=rnd],queue=sjf]')
node_specs=(sjbf 'sjbf[rsp=lc]' 'sjbf[rsp=lct]' 'sjbf[rsp=lct,t=1]' 'sjbf[rsp=lct,t=1.25]'
  'sjbf[rsp=lct,t=1.5]' rua 'rua[thresholds=1.1;1.3]')
if [[ -n ${SPECS:-} ]]; then read -ra specs <<<"$SPECS"; node_specs=(); fi

compared=0
differ=0
run() { # label, spec, args...
  local label=$1 spec=$2
  shift 2
  local i=$compared
  "$old" run -p "$spec" --jobs-csv "$work/o$i.jobs" --runs-csv "$work/o$i.runs" "$@" >/dev/null 2>&1 &
  local opid=$! ook=1
  "$new" run -p "$spec" --jobs-csv "$work/n$i.jobs" --runs-csv "$work/n$i.runs" "$@" >/dev/null 2>&1 || {
    wait "$opid" || true
    echo "DIFF  $label $spec: the new binary failed"
    differ=$((differ + 1)) compared=$((compared + 1))
    return
  }
  wait "$opid" || ook=0
  if [[ $ook -eq 0 ]]; then
    echo "SKIP  $label $spec: the old binary does not run it"
    return
  fi
  compared=$((compared + 1))
  if [[ -n ${NEW_COLUMNS:-} ]]; then
    python3 - "$work/n$i.jobs" "$NEW_COLUMNS" <<'PY'
import csv, sys
path, drop = sys.argv[1], set(sys.argv[2].split(","))
rows = list(csv.reader(open(path, newline="")))
keep = [k for k, name in enumerate(rows[0]) if name not in drop] if rows else []
with open(path, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    for r in rows:
        w.writerow([r[k] for k in keep])
PY
  fi
  local ignored=""
  if [[ -n ${IGNORE_COLUMNS:-} ]]; then
    ignored=$(python3 - "$work/o$i.jobs" "$work/n$i.jobs" "$work/o$i.runs" "$work/n$i.runs" "$IGNORE_COLUMNS" <<'PY'
import csv, sys
*paths, names = sys.argv[1:]
drop = set(names.split(","))
changed = []
for old, new in (paths[0:2], paths[2:4]):
    tables = [list(csv.reader(open(p, newline=""))) for p in (old, new)]
    at = [[k for k, n in enumerate(t[0]) if n in drop] if t else [] for t in tables]
    if len(tables[0]) == len(tables[1]):
        changed.append(sum(
            [r[k] for k in at[0]] != [q[k] for k in at[1]]
            for r, q in zip(tables[0][1:], tables[1][1:])))
    else:
        changed.append("?")
    for path, t, a in zip((old, new), tables, at):
        with open(path, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            for r in t:
                w.writerow([v for k, v in enumerate(r) if k not in a])
print(f" ({changed[0]} job rows, {changed[1]} run rows differ in {names})")
PY
)
  fi
  local what=""
  cmp -s "$work/o$i.jobs" "$work/n$i.jobs" || what+=" jobs"
  cmp -s "$work/o$i.runs" "$work/n$i.runs" || what+=" runs"
  if [[ -n $what ]]; then
    differ=$((differ + 1))
    local changed
    changed=$(diff "$work/o$i.jobs" "$work/n$i.jobs" | grep -c "^>" || true)
    echo "DIFF  $label $spec:$what CSV differ ($changed job rows changed)$ignored"
  else
    echo "same  $label $spec$ignored"
  fi
  rm -f "$work"/[on]"$i".*
}

for spec in "${specs[@]}"; do
  run KTH-SP2 "$spec" "$kth"
  run LANL-CM5 "$spec" "$lanl"
done
for spec in "${node_specs[@]}"; do
  run "KTH-SP2 --nodes" "$spec" "$kth" --nodes
done
# Offline mode re-sorts the whole trace at every pass: bounded to the first 3000 jobs.
run "KTH-SP2 --offline --max-jobs 3000" 'easy[queue=sjf]' "$kth" --offline --max-jobs 3000
run "KTH-SP2 --estimate ignore" 'conservative[predictor=rfactor[r=2,mode=rnd]]' "$kth" --estimate ignore
echo "compared $compared runs (jobs CSV + runs CSV each), $differ differ"
[[ $differ -eq 0 ]]
