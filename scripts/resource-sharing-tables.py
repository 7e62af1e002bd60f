#!/usr/bin/env python3
"""Tables (markdown) and figures of docs/experiments/resource-sharing.md from the JSON files of
scripts/resource-sharing.sh. Usage: resource-sharing-tables.py DIR [IMGDIR]. Every figure is the
mean over the seeds found in DIR; killed-job counts also show their min-max over the seeds."""
import glob
import json
import os
import sys

TRACES = [("kth", "KTH-SP2"), ("lanl", "LANL-CM5")]
MIXES = [("high", "HIGH"), ("med", "MED"), ("low", "LOW")]
CONFIGS = [
    ("sjbf", "FF"),
    ("sjbf[rsp=lc]", "LC"),
    ("sjbf[rsp=lct,t=1]", "LCT=1"),
    ("sjbf[rsp=lct]", "LCT=1.15"),
    ("sjbf[rsp=lct,t=1.25]", "LCT=1.25"),
    ("sjbf[rsp=lct,t=1.5]", "LCT=1.5"),
    ("rua", "RUA"),
]


def load(d):
    runs = {}  # (trace, mix, spec) -> [penalty objects]
    for path in sorted(glob.glob(os.path.join(d, "*.json"))):
        trace, mix, _seed = os.path.basename(path)[:-5].split("-")
        try:
            reports = json.load(open(path))
        except json.JSONDecodeError:
            print(f"<!-- {path}: incomplete, left out -->")
            continue
        for r in reports:
            runs.setdefault((trace, mix, r["policy"]), []).append(r["penalty"])
    return runs


def get(p, path):
    for k in path.split("."):
        p = p[k]
    return p


def mean(xs):
    return sum(xs) / len(xs)


def cell(runs, key, path, digits, spread=False):
    ps = runs.get(key)
    if not ps:
        return "-"
    vs = [get(p, path) for p in ps]
    text = f"{mean(vs):,.{digits}f}"
    if spread and len(vs) > 1:
        text += f" ({min(vs):,.0f}-{max(vs):,.0f})"
    return text


def table(runs, title, path, digits, configs, spread=False):
    out = [f"**{title}**", "", "| trace | mix | " + " | ".join(c[1] for c in configs) + " |",
           "|---|---|" + "---:|" * len(configs)]
    for t, tn in TRACES:
        for m, mn in MIXES:
            cells = [cell(runs, (t, m, spec), path, digits, spread) for spec, _ in configs]
            out.append(f"| {tn} | {mn} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def figures(runs, imgdir):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    markers = {"high": "o", "med": "s", "low": "^"}
    for t, tn in TRACES:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
        for ax, (path, label) in zip(
            axes, [("penalized_pct.mean", "mean penalized runtime (%)"),
                   ("killed_by_penalty", "jobs killed by their penalty")]):
            for m, mn in MIXES:
                for spec, cn in CONFIGS:
                    ps = runs.get((t, m, spec))
                    if not ps:
                        continue
                    x = mean([get(p, path) for p in ps])
                    y = mean([get(p, "bsld.mean") for p in ps])
                    ax.scatter([x], [y], marker=markers[m], color="C%d" % CONFIGS.index((spec, cn)))
                    ax.annotate(f"{cn} {mn}", (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
            ax.set_xlabel(label)
            ax.set_ylabel("mean bounded slowdown")
            ax.grid(alpha=0.3)
        fig.suptitle(f"{tn}: bounded slowdown against penalized runtime and killed jobs (mean of seeds)")
        fig.tight_layout()
        fig.savefig(os.path.join(imgdir, f"rs-{t}-tradeoff.png"), dpi=90)
        plt.close(fig)


def main():
    runs = load(sys.argv[1])
    sjbf = CONFIGS[:6]
    print(table(runs, "Table 1: bounded slowdown, p95", "bsld.p95", 2, sjbf))
    print(table(runs, "Table 2: bounded slowdown, mean", "bsld.mean", 2, sjbf))
    print(table(runs, "Table 3: wait time (s), p95", "wait.p95", 0, sjbf))
    print(table(runs, "Table 4: wait time (s), mean", "wait.mean", 0, sjbf))
    print(table(runs, "Table 5: penalized runtime (%), p95", "penalized_pct.p95", 2, sjbf))
    print(table(runs, "Table 6: penalized runtime (%), mean", "penalized_pct.mean", 2, sjbf))
    print(table(runs, "Table 7: jobs killed by their penalty (min-max over seeds)", "killed_by_penalty", 0, sjbf, True))
    rua = [CONFIGS[0], CONFIGS[1], CONFIGS[6]]
    print("**Figures 8-9: RUA against SJBF-FF and SJBF-LC**\n")
    for path, title, digits, spread in [
        ("bsld.p95", "bounded slowdown, p95", 2, False),
        ("bsld.mean", "bounded slowdown, mean", 2, False),
        ("wait.p95", "wait time (s), p95", 0, False),
        ("penalized_pct.p95", "penalized runtime (%), p95", 2, False),
        ("penalized_pct.mean", "penalized runtime (%), mean", 2, False),
        ("killed_by_penalty", "jobs killed by their penalty", 0, True),
    ]:
        print(table(runs, title, path, digits, rua, spread))
    # Ratios the conclusions quote.
    print("**Ratios**\n")
    print("| trace | mix | killed FF / LC | killed FF / RUA | p95 bsld RUA / FF | mean bsld RUA / FF |")
    print("|---|---|---:|---:|---:|---:|")
    for t, tn in TRACES:
        for m, mn in MIXES:
            def mv(spec, path):
                ps = runs.get((t, m, spec))
                return mean([get(p, path) for p in ps]) if ps else float("nan")
            ff_k, lc_k, rua_k = (mv(s, "killed_by_penalty") for s in ("sjbf", "sjbf[rsp=lc]", "rua"))
            ratio = lambda a, b: f"{a / b:.2f}" if b else "inf"
            print(f"| {tn} | {mn} | {ratio(ff_k, lc_k)} | {ratio(ff_k, rua_k)} | "
                  f"{ratio(mv('rua', 'bsld.p95'), mv('sjbf', 'bsld.p95'))} | "
                  f"{ratio(mv('rua', 'bsld.mean'), mv('sjbf', 'bsld.mean'))} |")
    if len(sys.argv) > 2:
        figures(runs, sys.argv[2])


main()
