#!/usr/bin/env python3
"""Sum tests/fuzz/ledger.tsv per target: the totals table of docs/fuzzing.md.

    python3 scripts/fuzz-totals.py [LEDGER]

Columns of the ledger (scripts/fuzz.sh appends one line per run): date, target, seconds,
executions, coverage, corpus size, exit code. Coverage and corpus are those at the end of the
target's last run; a run "stopped by a finding" is one whose exit code is not 0.
"""
import sys
from collections import OrderedDict

ORDER = ["swf", "gzip", "sacct", "batsim", "spec", "expr", "options", "sweep", "generate",
         "pipeline", "link"]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/fuzz/ledger.tsv"
    totals = OrderedDict((t, None) for t in ORDER)
    with open(path) as f:
        for n, line in enumerate(f, 1):
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 7:
                sys.exit(f"{path}:{n}: expected 7 tab-separated fields, found {len(cols)}")
            _, target, secs, execs, cov, corp, rc = cols[:7]
            t = totals.get(target) or {"runs": 0, "secs": 0, "execs": 0, "found": 0}
            t["runs"] += 1
            t["secs"] += int(secs or 0)
            t["execs"] += int(execs) if execs.isdigit() else 0
            t["cov"], t["corp"] = cov, corp
            t["found"] += rc not in ("0", "")
            totals[target] = t
    print("| target | runs | minutes | executions | coverage (`cov:`) | corpus | runs stopped by a finding |")
    print("|---|---|---|---|---|---|---|")
    for name, t in totals.items():
        if t:
            print(f"| `{name}` | {t['runs']} | {t['secs'] / 60:.1f} | {t['execs']:,} | {t['cov']} "
                  f"| {t['corp']} | {t['found']} |")


if __name__ == "__main__":
    main()
