#!/usr/bin/env python3
"""Tables of the high-demand sensitivity in docs/experiments/resource-sharing.md, from the JSON
files of scripts/resource-sharing-sensitivity.sh.

    python3 scripts/resource-sharing-sensitivity.py OUTDIR > tables.md
"""

import json
import sys
from pathlib import Path

OUT = Path(sys.argv[1])
TRACES = [("kth", "KTH-SP2"), ("lanl", "LANL-CM5")]
MIXES = ["high", "med"]
DEMANDS = [1500, 2000, 2500, 3000, 4000]
NAMES = {"sjbf": "FF", "sjbf[rsp=lc]": "LC", "sjbf[rsp=lct,t=1]": "LCT=1", "sjbf[rsp=lct,t=1.5]": "LCT=1.5", "rua": "RUA"}


def load(n, mix, hi):
    f = OUT / f"{n}-{mix}-{hi}.json"
    if not f.exists():
        return None
    return {NAMES[r["policy"]]: r["penalty"] for r in json.loads(f.read_text())}


def ratio(a, b):
    return f"{a / b:.2f}" if b else ("-" if a == 0 else "inf")


print("| trace | mix | high MB/s | killed FF / LC / LCT=1 / LCT=1.5 / RUA | mean bsld FF / LC / LCT=1 / LCT=1.5 / RUA "
      "| killed FF/LC | killed FF/RUA | bsld RUA/FF | bsld LCT=1 / LCT=1.5 | LCT=1.5 = FF |")
print("|---|---|---:|---|---|---:|---:|---:|---:|---|")
for n, name in TRACES:
    for mix in MIXES:
        for hi in DEMANDS:
            d = load(n, mix, hi)
            if d is None:
                print(f"| {name} | {mix.upper()} | {hi:,} | not run (stopped after the time limit) | | | | | | |")
                continue
            k = {c: d[c]["killed_by_penalty"] for c in NAMES.values()}
            b = {c: d[c]["bsld"]["mean"] for c in NAMES.values()}
            same = d["LCT=1.5"] == d["FF"]
            print(f"| {name} | {mix.upper()} | {hi:,} | {' / '.join(f'{k[c]:,}' for c in NAMES.values())} "
                  f"| {' / '.join(f'{b[c]:.2f}' for c in NAMES.values())} | {ratio(k['FF'], k['LC'])} "
                  f"| {ratio(k['FF'], k['RUA'])} | {ratio(b['RUA'], b['FF'])} | {ratio(b['LCT=1'], b['LCT=1.5'])} "
                  f"| {'yes' if same else 'no'} |")
