#!/bin/bash
# Issue 13's speed figures for two binaries, each command alternating them (minimum of the
# repetitions, wall-clock seconds of the whole process), then each binary's bench rows.
# Usage: scripts/measure-speed.sh OLD_BINARY NEW_BINARY   (run on a quiet machine)
set -u
OLD=$1; NEW=$2
cd "$(dirname "$0")/.."
L=tests/data/LANL-CM5-1994-4.1-cln.swf.gz; K=tests/data/5K_sample
err=$(mktemp); trap 'rm -f "$err"' EXIT
t() { /usr/bin/time -f %e "$@" >/dev/null 2>"$err"; tail -1 "$err"; }
row() { # name repetitions args...
  local name=$1 reps=$2; shift 2; local a=() b=()
  for _ in $(seq "$reps"); do a+=("$(t "$OLD" "$@")"); b+=("$(t "$NEW" "$@")"); done
  printf '%-34s old %6s s   new %6s s\n' "$name" \
    "$(printf '%s\n' "${a[@]}" | sort -n | head -1)" "$(printf '%s\n' "${b[@]}" | sort -n | head -1)"
}
for B in "$OLD" "$NEW"; do
  echo "== $B"
  "$B" bench "$L" -p easy -p conservative --repeat 5 2>&1 | grep -E 'whole|easy|conservative|parse'
done
row "run LANL-CM5 easy" 5 run "$L" -p easy
row "off-line 5K_sample conservative" 3 run --offline "$K" -p conservative
row "off-line 5K_sample guarantees=off" 3 run --offline "$K" -p 'conservative[guarantees=off]'
row "off-line 5K_sample shadow=2" 3 run --offline "$K" -p 'conservative[guarantees=off,shadow=2]'
row "LANL-CM5 --nodes rua" 3 run "$L" --nodes -p rua
row "LANL-CM5 --nodes sjbf[rsp=lc]" 3 run "$L" --nodes -p 'sjbf[rsp=lc]'
