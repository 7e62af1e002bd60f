#!/usr/bin/env bash
# Regenerates the sensitivity runs of docs/experiments/resource-sharing.md: FF, LC, LCT=1,
# LCT=1.5 and RUA (the configurations the claims name), with the high demand per process varied
# (1500, 2000, 2500, 3000, 4000 MB/s; low 500 and medium 1000 as in the paper), mixes HIGH and
# MED, seed 1. The job count is bounded because RUA and LessConsume-Threshold search later
# starts for every waiting job at every event once thresholds can rarely be met (a 20,000-job
# KTH run with all seven configurations at 2,500 MB/s did not finish in 7 minutes; LANL at
# 3,000 MB/s not in 13): KTH-SP2 the first 10,000 jobs (5,000 warm-up, 5,000 measured),
# LANL-CM5 the first 4,000 (2,000 / 2,000). Each run is stopped after LIMIT seconds (default
# 600); a stopped run leaves no JSON file and the table says so.
# Usage: scripts/resource-sharing-sensitivity.sh OUTDIR
set -uo pipefail
out=${1:?output folder}
B=${B:-${CARGO_TARGET_DIR:-target}/release/schedlab}
S=${S:-../shared/data/swf}
LIMIT=${LIMIT:-600}
mkdir -p "$out"
P=(-p sjbf -p 'sjbf[rsp=lc]' -p 'sjbf[rsp=lct,t=1]' -p 'sjbf[rsp=lct,t=1.5]' -p rua)
for t in KTH-SP2-1996-2.1-cln.swf.gz:kth:10000 LANL-CM5-1994-4.1-cln.swf.gz:lanl:4000; do
  IFS=: read -r f n jobs <<< "$t"
  for mix in high med; do
    for hi in 1500 2000 2500 3000 4000; do
      o="$out/$n-$mix-$hi.json"
      [ -s "$o" ] && continue
      start=$(date +%s)
      if timeout "$LIMIT" "$B" run "$S/$f" "${P[@]}" --mix "$mix" --demands "500,1000,$hi" --seed 1 \
        --max-jobs "$jobs" --warmup $((jobs / 2)) --measured $((jobs / 2)) --json > "$o.tmp"; then
        mv "$o.tmp" "$o"
        echo "$n $mix $hi: $(( $(date +%s) - start )) s" >&2
      else
        rm -f "$o.tmp"
        echo "$n $mix $hi: stopped after $LIMIT s" >&2
      fi
    done
  done
done
