#!/usr/bin/env python3
"""Runs the papers gallery (www/gallery/entries.json) with the schedlab CLI.

    cargo build --release
    python3 scripts/gallery.py target/release/schedlab --check [ID...]   # ours == the CLI's numbers
    python3 scripts/gallery.py target/release/schedlab --update [ID...]  # write the CLI's numbers
    python3 scripts/gallery.py target/release/schedlab --commands        # the command lines

Each entry runs its rows' specs on `www/demo/<trace file>` with the entry's CLI flags; a row
with `seeds: N` (else the entry's `seeds`, else 1) is the mean of seeds 1..N. The value shown
is the metric (a path into `schedlab run --json`: `mbs`, `penalty.bsld.p95`, ...) divided by
`scale` and rounded to `digits`. The page (papers.html) computes the same from the same file.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = ROOT / "www" / "gallery" / "entries.json"
TRACES = {
    "kth": "KTH-SP2-1996-2.1-cln.swf.gz",
    "lanl": "LANL-CM5-1994-4.1-cln.swf.gz",
    "hpc2n": "hpc2n.swf.gz",
    "5K_sample": "5K_sample.swf.gz",
}


def field(row, entry, key, default):
    return row.get(key, entry.get(key, default))


def metric(report, path):
    """`path` in the report: top-level objects by name, else inside `metrics` (as the page)."""
    keys = path.split(".")
    node = report if keys[0] in report and keys[0] != "metrics" else report["metrics"]
    for k in keys:
        node = node[k]
    return float(node)


def commands(entry):
    """[(seed, specs)] the entry needs: seed 1 for every spec, more seeds for random rows."""
    top = max(field(r, entry, "seeds", 1) for r in entry["rows"])
    out = []
    for seed in range(1, top + 1):
        specs = []
        for r in entry["rows"]:
            if field(r, entry, "seeds", 1) >= seed and r["spec"] not in specs:
                specs.append(r["spec"])
        out.append((seed, specs))
    return out


def argv(binary, entry, seed, specs):
    cmd = [binary, "run", f"www/demo/{TRACES[entry['trace']]}", *entry["args"], "--seed", str(seed)]
    for s in specs:
        cmd += ["-p", s]
    return cmd + ["--json"]


def run(binary, entry):
    reports = {}
    for seed, specs in commands(entry):
        out = subprocess.run(argv(binary, entry, seed, specs), cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        for spec, rep in zip(specs, json.loads(out)):
            reports[(spec, seed)] = rep
    values = []
    for r in entry["rows"]:
        n = field(r, entry, "seeds", 1)
        path = field(r, entry, "metric", None)
        xs = [metric(reports[(r["spec"], s)], path) for s in range(1, n + 1)]
        v = sum(xs) / n / field(r, entry, "scale", 1)
        values.append(round(v, field(r, entry, "digits", 2)))
    return values


def main():
    binary, mode, *ids = sys.argv[1:]
    data = json.loads(ENTRIES.read_text())
    bad = 0
    for e in data["entries"]:
        if ids and e["id"] not in ids:
            continue
        if mode == "--commands":
            for seed, specs in commands(e):
                print(" ".join(a if "[" not in a else f"'{a}'" for a in argv("schedlab", e, seed, specs)))
            continue
        values = run(binary, e)
        for r, v in zip(e["rows"], values):
            if mode == "--update":
                r["ours"] = v
            elif r.get("ours") != v:
                bad += 1
                print(f"{e['id']}: {r['label']}: entries.json {r.get('ours')}, CLI {v}")
        print(f"{e['id']}: done", file=sys.stderr)
    if mode == "--update":
        ENTRIES.write_text(json.dumps(data, indent=1) + "\n")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
