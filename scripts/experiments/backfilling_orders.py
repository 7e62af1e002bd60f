#!/usr/bin/env python3
"""Regenerates the tables of docs/experiments/backfilling-orders.md (Zotkin, Keleher & Perkovic,
"Attacking the bottlenecks of backfilling schedulers": Tables 2, 3, 6-11 and the weighted-delay
check) with the schedlab CLI.

    cargo build --release
    python3 scripts/experiments/backfilling_orders.py target/release/schedlab tests/data > /tmp/tables.md

Every figure comes from `schedlab run --json`. Random variants run with seeds 1-10 and are shown
as mean (min-max). Model estimates: `--estimate ignore` (no requested times, no kill) with the
`rfactor` predictor; real estimates: the traces' requested times (the default input semantics).
"""

import json
import statistics
import subprocess
import sys

TRACES = [
    ("KTH-SP2", "KTH-SP2-1996-2.1-cln.swf.gz"),
    ("LANL-CM5", "LANL-CM5-1994-4.1-cln.swf.gz"),
    ("5K_sample", "5K_sample"),
]
SEEDS = range(1, 11)
# Input modes: True = model estimates (--estimate ignore), False = the requested times,
# "offline" = model estimates with every job submitted at 0.
RS = [1, 2, 3, 5, 20, 50]

BIN = sys.argv[1]
DIR = sys.argv[2]
CACHE = {}


def runs(trace, specs, seed, model):
    """Metrics of `specs` on `trace` with `seed`; cached by (trace, spec, seed, model)."""
    todo = [s for s in specs if (trace, s, seed, model) not in CACHE]
    if todo:
        cmd = [BIN, "run", f"{DIR}/{trace}", "--json", "--seed", str(seed)]
        if model:
            cmd += ["--estimate", "ignore"]
        if model == "offline":
            cmd += ["--offline"]
        for s in todo:
            cmd += ["-p", s]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        for s, r in zip(todo, json.loads(out)):
            CACHE[(trace, s, seed, model)] = dict(r["metrics"], fairness=r["fairness"])
    return [CACHE[(trace, s, seed, model)] for s in specs]


def random_spec(spec):
    return "random" in spec or "mode=rnd" in spec


def get(metrics, path):
    for k in path.split("."):
        metrics = metrics[k]
    return metrics


def figure(trace, spec, path, model, scale=1.0, digits=2):
    """One cell: the value, or mean (min-max) over the seeds for a random variant."""
    seeds = SEEDS if random_spec(spec) else [1]
    values = [get(runs(trace, [spec], s, model)[0], path) / scale for s in seeds]
    if len(values) == 1:
        return f"{values[0]:.{digits}f}"
    return f"{statistics.mean(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def prefetch(trace, specs, model):
    for seed in SEEDS:
        batch = [s for s in specs if seed == 1 or random_spec(s)]
        if batch:
            runs(trace, batch, seed, model)


def table(title, header, rows):
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")


def rf(r, mode="det"):
    return f"predictor=rfactor[r={r}]" if mode == "det" else f"predictor=rfactor[r={r},mode=rnd]"


def main():
    names = [n for n, _ in TRACES]
    # Tables 2 and 3: EASY with model estimates R x runtime (det) or U(runtime, (2R - 1) runtime)
    # (mean R x runtime, exact at R = 1; see docs/experiments/backfilling-orders.md).
    t23 = ["fcfs"] + [f"easy[{rf(r, m)}]" for r in RS for m in ("det", "rnd")]
    for _, f in TRACES:
        prefetch(f, t23, True)
    for path, title, scale, digits in [
        ("mbs", "Table 2 (on-line): mean bounded slowdown, EASY, model estimates", 1, 2),
        ("wait.mean", "Table 3 (on-line): mean wait, 10^3 s, EASY, model estimates", 1e3, 2),
    ]:
        rows = []
        for label, det, rnd in [("FCFS", "fcfs", "fcfs")] + [
            (f"R={r}", f"easy[{rf(r)}]", f"easy[{rf(r, 'rnd')}]") for r in RS
        ]:
            rows.append(
                [label]
                + [figure(f, det, path, True, scale, digits) for _, f in TRACES]
                + [figure(f, rnd, path, True, scale, digits) for _, f in TRACES]
            )
        table(title, ["R"] + [f"{n} dtm" for n in names] + [f"{n} rnd" for n in names], rows)

    # Tables 4 and 5: off-line (every job submitted at 0), EASY, model estimates. LANL-CM5 is
    # left out: 122,000 jobs waiting at once make each EASY pass scan the whole queue.
    offline = [t for t in TRACES if t[0] != "LANL-CM5"]
    for _, f in offline:
        prefetch(f, t23, "offline")
    for path, title, scale in [
        ("mbs", "Table 4 (off-line): mean bounded slowdown, 10^3, EASY, model estimates", 1e3),
        ("wait.mean", "Table 5 (off-line): mean wait, 10^6 s, EASY, model estimates", 1e6),
    ]:
        rows = []
        for label, det, rnd in [("FCFS", "fcfs", "fcfs")] + [
            (f"R={r}", f"easy[{rf(r)}]", f"easy[{rf(r, 'rnd')}]") for r in RS
        ]:
            rows.append(
                [label]
                + [figure(f, det, path, "offline", scale) for _, f in offline]
                + [figure(f, rnd, path, "offline", scale) for _, f in offline]
            )
        table(
            title,
            ["R"] + [f"{n} dtm" for n, _ in offline] + [f"{n} rnd" for n, _ in offline],
            rows,
        )

    # Tables 6 and 7: sorted FCFS and sorted EASY (shortest estimate first), model estimates.
    t67 = [("FCFS", "fcfs")]
    t67 += [(f"BF R={r}", f"easy[{rf(r)}]") for r in (1, 2, 3, 5)]
    t67 += [("SortFCFS", f"fcfs[queue=sjf,{rf(1)}]")]
    t67 += [(f"SortBF R={r}", f"easy[queue=sjf,{rf(r)}]") for r in (1, 2, 3, 5)]
    for _, f in TRACES:
        prefetch(f, [s for _, s in t67], True)
    rows = [
        [label]
        + [figure(f, s, "mbs", True) for _, f in TRACES]
        + [figure(f, s, "wait.mean", True, 1e3) for _, f in TRACES]
        for label, s in t67
    ]
    table(
        "Tables 6 and 7: sorted queues (shortest estimate first), model estimates: MBS | mean wait (10^3 s)",
        ["algorithm"] + [f"{n} MBS" for n in names] + [f"{n} wait" for n in names],
        rows,
    )

    # Table 8: sorted backfilling bounded by k shadow intervals (R = 1).
    t8 = [("BF R=1 (EASY)", f"easy[{rf(1)}]")]
    t8 += [
        (f"SortBF, {k} shadow interval{'s' if k > 1 else ''}", f"conservative[queue=sjf,guarantees=off,shadow={k},{rf(1)}]")
        for k in (1, 2, 3)
    ]
    t8 += [
        ("SortBF unbounded (guarantee-free)", f"conservative[queue=sjf,guarantees=off,{rf(1)}]"),
        ("SortBF R=1 (EASY, sorted)", f"easy[queue=sjf,{rf(1)}]"),
    ]
    for _, f in TRACES:
        prefetch(f, [s for _, s in t8], True)
    rows = [
        [label]
        + [figure(f, s, "mbs", True) for _, f in TRACES]
        + [figure(f, s, "wait.max", True, 3600, 1) for _, f in TRACES]
        + [figure(f, s, "fairness.violations.late", True, 1, 0) if "shadow" in s else "-" for _, f in TRACES]
        for label, s in t8
    ]
    table(
        "Table 8: sorted backfilling within k shadow intervals, R = 1: MBS | max wait (hours) | jobs started after their bound",
        ["algorithm"] + [f"{n} MBS" for n in names] + [f"{n} max wait" for n in names] + [f"{n} past bound" for n in names],
        rows,
    )

    # Table 9: conservative backfilling in four queue orders, estimates x1, x5, x15 and real.
    orders = [("BF", "fcfs"), ("LSBF", "sjf"), ("RBF", "random"), ("RLBF", "random-length")]
    rows = []
    for label, q in orders:
        for est in ("1", "5", "15", "real"):
            model = est != "real"
            spec = f"conservative[queue={q}" + (f",{rf(est)}]" if model else "]")
            for _, f in TRACES:
                prefetch(f, [spec], model)
            rows.append(
                [f"{label}-{est}"]
                + [figure(f, spec, "mbs", model) for _, f in TRACES]
                + [figure(f, spec, "wait.mean", model, 1, 0) for _, f in TRACES]
            )
    table(
        "Table 9: conservative backfilling by queue order and estimates: MBS | mean wait (s)",
        ["algorithm"] + [f"{n} MBS" for n in names] + [f"{n} wait" for n in names],
        rows,
    )

    # Tables 10 and 11: with and without guarantees, real estimates.
    rows = []
    for label, q in [("FIFO", "fcfs"), ("Shortest-first", "sjf"), ("Randomized", "random"), ("Combination", "random-length")]:
        on, off = f"conservative[queue={q}]", f"conservative[queue={q},guarantees=off]"
        for _, f in TRACES:
            prefetch(f, [on, off], False)
        rows.append(
            [label]
            + [f"{figure(f, on, 'mbs', False)} / {figure(f, off, 'mbs', False)}" for _, f in TRACES]
            + [f"{figure(f, on, 'wait.mean', False, 1, 0)} / {figure(f, off, 'wait.mean', False, 1, 0)}" for _, f in TRACES]
        )
    table(
        "Tables 10 and 11: conservative backfilling with / without guarantees, real estimates: MBS | mean wait (s)",
        ["queue order"] + [f"{n} MBS" for n in names] + [f"{n} wait" for n in names],
        rows,
    )

    # Weighted delay against starvation: guarantee-free sorted backfilling, real estimates.
    rows = []
    for w in ("0", "0.000000001", "0.00000001", "0.0000001", "0.000001"):
        for q in ("sjf", "random-length"):
            spec = f"conservative[queue={q},weight={w},guarantees=off]"
            for _, f in TRACES:
                prefetch(f, [spec], False)
            rows.append(
                [f"{q}, weight={w}"]
                + [figure(f, spec, "mbs", False) for _, f in TRACES]
                + [figure(f, spec, "wait.max", False, 3600, 1) for _, f in TRACES]
            )
    base = "conservative"
    rows.append(
        ["conservative (FIFO, guarantees)"]
        + [figure(f, base, "mbs", False) for _, f in TRACES]
        + [figure(f, base, "wait.max", False, 3600, 1) for _, f in TRACES]
    )
    table(
        "Weighted delay (section 8), guarantee-free, real estimates: MBS | max wait (hours)",
        ["variant"] + [f"{n} MBS" for n in names] + [f"{n} max wait" for n in names],
        rows,
    )

    # Width-normalized slowdown (equation 2) beside bounded slowdown, real estimates.
    rows = []
    for label, spec in [
        ("conservative", "conservative"),
        ("LSBF, no guarantees", "conservative[queue=sjf,guarantees=off]"),
        ("width order, no guarantees", "conservative[queue=width,guarantees=off]"),
        ("EASY", "easy"),
        ("EASY, width order", "easy[queue=width]"),
    ]:
        for _, f in TRACES:
            prefetch(f, [spec], False)
        rows.append(
            [label]
            + [figure(f, spec, "mbs", False) for _, f in TRACES]
            + [figure(f, spec, "wsld.mean", False, 1, 3) for _, f in TRACES]
        )
    table(
        "Width-normalized slowdown (equation 2), real estimates: MBS | mean width-normalized slowdown",
        ["policy"] + [f"{n} MBS" for n in names] + [f"{n} wsld" for n in names],
        rows,
    )


if __name__ == "__main__":
    main()
