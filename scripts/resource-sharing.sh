#!/usr/bin/env bash
# Regenerates the runs of docs/experiments/resource-sharing.md: SJBF with First-Fit,
# LessConsume and LessConsume-Threshold (1, 1.15, 1.25, 1.5), and RUA, on KTH-SP2 and LANL-CM5
# with the node model (4 cores and 6000 MB/s per node), HIGH / MED / LOW mixes, the first 20,000
# jobs: 10,000 of warm-up, the next 10,000 measured. Usage: scripts/resource-sharing.sh OUTDIR [SEEDS...]
set -euo pipefail
out=${1:?output folder}; shift
seeds=("${@:-1}")
B=${B:-${CARGO_TARGET_DIR:-target}/release/schedlab}
S=${S:-tests/data}
mkdir -p "$out"
P=(-p sjbf -p 'sjbf[rsp=lc]' -p 'sjbf[rsp=lct,t=1]' -p 'sjbf[rsp=lct]' -p 'sjbf[rsp=lct,t=1.25]'
   -p 'sjbf[rsp=lct,t=1.5]' -p rua)
for t in KTH-SP2-1996-2.1-cln.swf.gz:kth LANL-CM5-1994-4.1-cln.swf.gz:lanl; do
  f=${t%%:*}; n=${t##*:}
  for mix in high med low; do
    for seed in "${seeds[@]}"; do
      "$B" run "$S/$f" "${P[@]}" --mix "$mix" --seed "$seed" --max-jobs 20000 \
        --warmup 10000 --measured 10000 --json > "$out/$n-$mix-$seed.json"
    done
  done
done
