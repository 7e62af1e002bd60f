#!/usr/bin/env python3
"""Compares `schedlab generate --model lublin` with the model's reference output.

Usage: python3 scripts/validate-lublin.py [SCHEDLAB] [REFERENCE]
  SCHEDLAB   the binary (default target/release/schedlab)
  REFERENCE  tests/data/lublin_256.swf (10,000 jobs from the authors' m_lublin99.c, 256 nodes)

Prints, for the reference and for generated workloads of 256 processors (seeds 1-5 at 10,000
jobs, and 1,000 / 100,000 / 1,000,000 jobs at seed 1): share of serial jobs, share of
power-of-two sizes (> 1), quantiles (10/25/50/75/90%) of ln(runtime) and of inter-arrival
times, and the daily cycle (share of arrivals per 6-hour period, and the total variation
distance between the hourly arrival histograms). Each line ends in "ok" or "OUT" against the
tolerances of docs/workloads.md; the exit status is 1 if any is out.
"""
import math
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/schedlab"
REF = sys.argv[2] if len(sys.argv) > 2 else "tests/data/lublin_256.swf"
Q = (0.10, 0.25, 0.50, 0.75, 0.90)
# Tolerances (docs/workloads.md says why): a fixed part for the model's own deviations plus a
# part for sampling noise, which shrinks with the number of generated jobs n.


def tol_share(p, n):
    return 0.02 + 3 * math.sqrt(p * (1 - p) / n)


def tol_tvd(n):
    return 0.08 + 4 / math.sqrt(n)


TOL_LOG_RUNTIME = 0.35
TOL_ARRIVAL_REL = 0.30


def read(path):
    sub, run, procs = [], [], []
    with open(path) as f:
        for line in f:
            if line.startswith(";") or not line.strip():
                continue
            t = line.split()
            sub.append(int(t[1]))
            run.append(int(t[3]))
            procs.append(int(t[4]))
    return sub, run, procs


def quantiles(xs):
    s = sorted(xs)
    return [s[int(q * (len(s) - 1))] for q in Q]


def stats(path):
    sub, run, procs = read(path)
    n = len(sub)
    hours = [0] * 24
    for s in sub:
        hours[(s % 86400) // 3600] += 1
    return {
        "n": n,
        "serial": sum(p == 1 for p in procs) / n,
        "pow2": sum(p > 1 and p & (p - 1) == 0 for p in procs) / n,
        "lnrun": quantiles([math.log(max(r, 1)) for r in run]),
        "gap": quantiles([b - a for a, b in zip(sub, sub[1:])]),
        "hours": [h / n for h in hours],
    }


def fmt(xs, f="{:.2f}"):
    return " ".join(f.format(x) for x in xs)


def compare(name, s, ref):
    bad = []
    n = s["n"]
    if abs(s["serial"] - ref["serial"]) > tol_share(ref["serial"], n):
        bad.append("serial")
    if abs(s["pow2"] - ref["pow2"]) > tol_share(ref["pow2"], n):
        bad.append("pow2")
    if any(abs(a - b) > TOL_LOG_RUNTIME for a, b in zip(s["lnrun"], ref["lnrun"])):
        bad.append("ln runtime")
    # Inter-arrival quantiles: relative, on the median and the upper ones (the 10% / 25% ones
    # are a few seconds, where one second is a large relative change).
    if any(abs(a - b) > TOL_ARRIVAL_REL * b for a, b in list(zip(s["gap"], ref["gap"]))[2:]):
        bad.append("inter-arrival")
    tvd = sum(abs(a - b) for a, b in zip(s["hours"], ref["hours"])) / 2
    if tvd > tol_tvd(n):
        bad.append("daily cycle")
    six = [sum(s["hours"][i:i + 6]) for i in range(0, 24, 6)]
    print(f"{name:<22} {s['n']:>9,} {s['serial']:.3f} {s['pow2']:.3f}  {fmt(s['lnrun'])}  "
          f"{fmt(s['gap'], '{:.0f}')}  {fmt(six)}  {tvd:.3f}  {'ok' if not bad else 'OUT: ' + ', '.join(bad)}")
    return not bad


def main():
    ref = stats(REF)
    print(f"{'workload':<22} {'jobs':>9} serial pow2   ln(runtime) q10..q90        inter-arrival q10..q90 s   "
          f"arrivals 0-6/6-12/12-18/18-24 h  TVD")
    compare("reference lublin_256", ref, ref)
    ok = True
    runs = [(10_000, seed) for seed in range(1, 6)] + [(1_000, seed) for seed in range(1, 6)] + [(100_000, 1), (1_000_000, 1)]
    with tempfile.TemporaryDirectory() as d:
        for jobs, seed in runs:
            out = f"{d}/g.swf"
            subprocess.run([BIN, "generate", "--model", "lublin", "--procs", "256", "--jobs", str(jobs),
                            "--seed", str(seed), "--out", out], check=True, capture_output=True)
            ok &= compare(f"generated seed {seed}", stats(out), ref)
    sys.exit(0 if ok else 1)


main()
