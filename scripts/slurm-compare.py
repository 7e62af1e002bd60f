#!/usr/bin/env python3
"""Compare two real-Slurm dumps of the same workload (scripts/slurm-validate.sh): the noise floor.

    scripts/slurm-compare.py RUN1 RUN2 [--json]

RUN1 and RUN2 are dump directories (holding sacct.txt) or sacct.txt files. Jobs are matched by JobName
(w001, w002, ...: the workload's job, not Slurm's job id). Times are taken relative to each run's first
submission, so two runs started at different clock times compare.

Printed:
  - the share of jobs started within 5 s of each other (start relative to the run's first submission)
  - p50 / p90 of the start difference |start1 - start2|
  - the mean wait (Start - Submit) of each run, and their relative difference
  - per account, the mean wait of each run and their relative difference
  - the largest CDF gap of the two wait distributions (two-sample Kolmogorov-Smirnov statistic)
  - the earliest start that differs by more than 5 s (where the two runs part), timeouts, backfilled starts
Only the Python standard library is used.
"""
import json
import os
import sys
from datetime import datetime


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, "sacct.txt")
    with open(path) as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    head = lines[0].split("|")
    jobs = {}
    for line in lines[1:]:
        row = dict(zip(head, line.split("|")))
        if "." in row["JobID"]:  # a step, with sacct run without -X
            continue
        jobs[row["JobName"]] = row
    return jobs


def ts(s):
    try:
        return datetime.fromisoformat(s).timestamp()
    except ValueError:  # Unknown, None: never started
        return None


def quantile(xs, q):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def ks_gap(a, b):
    """Largest distance between the empirical CDFs of a and b."""
    a, b = sorted(a), sorted(b)
    gap, i, j = 0.0, 0, 0
    for x in sorted(set(a) | set(b)):
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        gap = max(gap, abs(i / len(a) - j / len(b)))
    return gap


def rel(x, y):
    m = (x + y) / 2
    return abs(x - y) / m if m else 0.0


def compare(p1, p2):
    r1, r2 = load(p1), load(p2)
    t01 = min(ts(j["Submit"]) for j in r1.values())
    t02 = min(ts(j["Submit"]) for j in r2.values())
    names = sorted(set(r1) & set(r2))
    diffs, w1, w2, acct, first = [], [], [], {}, None
    for n in names:
        a, b = r1[n], r2[n]
        s1, s2 = ts(a["Start"]), ts(b["Start"])
        if s1 is None or s2 is None:
            continue
        diffs.append(abs((s1 - t01) - (s2 - t02)))
        if diffs[-1] > 5 and (first is None or min(s1 - t01, s2 - t02) < first[1]):
            first = (n, min(s1 - t01, s2 - t02), s1 - t01, s2 - t02)
        wa, wb = s1 - ts(a["Submit"]), s2 - ts(b["Submit"])
        w1.append(wa)
        w2.append(wb)
        acct.setdefault(a["Account"], ([], []))
        acct[a["Account"]][0].append(wa)
        acct[a["Account"]][1].append(wb)
    mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
    out = {
        "run1": p1,
        "run2": p2,
        "jobs": len(names),
        "only_in_one": len(set(r1) ^ set(r2)),
        "compared": len(diffs),
        "within_5s": sum(d <= 5 for d in diffs) / len(diffs),
        "start_diff_p50": quantile(diffs, 0.5),
        "start_diff_p90": quantile(diffs, 0.9),
        "start_diff_max": max(diffs),
        "mean_wait_1": mean(w1),
        "mean_wait_2": mean(w2),
        "mean_wait_rel_diff": rel(mean(w1), mean(w2)),
        "accounts": {
            k: {"jobs": len(v[0]), "mean_wait_1": mean(v[0]), "mean_wait_2": mean(v[1]),
                "rel_diff": rel(mean(v[0]), mean(v[1]))}
            for k, v in sorted(acct.items())
        },
        "wait_cdf_gap": ks_gap(w1, w2),
        "first_divergence": first and {"job": first[0], "start_1": first[2], "start_2": first[3]},
        "timeouts_1": sum(j["State"] == "TIMEOUT" for j in r1.values()),
        "timeouts_2": sum(j["State"] == "TIMEOUT" for j in r2.values()),
        "backfilled_1": sum("SchedBackfill" in j.get("Flags", "") for j in r1.values()),
        "backfilled_2": sum("SchedBackfill" in j.get("Flags", "") for j in r2.values()),
    }
    return out


def show(o):
    print(f"{o['run1']}  vs  {o['run2']}")
    print(f"jobs matched by name: {o['jobs']} (in one run only: {o['only_in_one']}), started in both: {o['compared']}")
    print(f"started within 5 s of each other: {100 * o['within_5s']:.1f}%")
    print(f"start difference: p50 {o['start_diff_p50']:.1f} s, p90 {o['start_diff_p90']:.1f} s, max {o['start_diff_max']:.0f} s")
    print(f"mean wait: run1 {o['mean_wait_1']:.1f} s, run2 {o['mean_wait_2']:.1f} s ({100 * o['mean_wait_rel_diff']:.1f}% apart)")
    print("per-account mean wait:")
    for k, v in o["accounts"].items():
        print(f"  {k:6s} {v['jobs']:3d} jobs  run1 {v['mean_wait_1']:7.1f} s  run2 {v['mean_wait_2']:7.1f} s  ({100 * v['rel_diff']:.1f}% apart)")
    print(f"largest CDF gap of the wait distribution: {o['wait_cdf_gap']:.3f}")
    f = o["first_divergence"]
    if f:
        print(f"first start more than 5 s apart: {f['job']} at {f['start_1']:.0f} s / {f['start_2']:.0f} s after the first submission")
    print(f"timeouts: {o['timeouts_1']} / {o['timeouts_2']}; started by backfill: {o['backfilled_1']} / {o['backfilled_2']}")


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    o = compare(*args)
    if "--json" in argv:
        print(json.dumps(o, indent=2))
    else:
        show(o)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
