"""The jobs CSV loads with evalys's JobSet.from_csv (GUIDE section 4).

Run by scripts/check.sh after the Rust tests: python3 tests/evalys_check.py path/to/schedlab
Exits non-zero (with the reason) on any mismatch.
"""
import csv
import os
import subprocess
import sys
import tempfile

from evalys.jobset import JobSet

binary = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
trace = os.path.join(root, "tests", "data", "KTH-SP2-1996-2.1-cln.swf.gz")
hand = "; MaxProcs: 10\n" + "".join(
    f"{i + 1} {s} -1 {r} {p} -1 -1 {p} {q} -1 1 1 1 -1 -1 -1 -1 -1\n"
    for i, (s, r, p, q) in enumerate([(0, 100, 6, 100), (1, 50, 8, 50), (2, 50, 4, 50), (3, 300, 2, 200)])
)
failures = []
with tempfile.TemporaryDirectory() as d:
    traces = [os.path.join(d, "hand.swf")]
    with open(traces[0], "w") as f:
        f.write(hand)
    if not os.path.exists(trace):
        sys.exit(f"{trace}: the repository's trace is missing")
    traces.append(trace)
    for t in traces:
        out = os.path.join(d, "jobs.csv")
        subprocess.run([binary, "run", t, "-p", "easy", "--jobs-csv", out], check=True, capture_output=True)
        with open(out) as f:
            rows = list(csv.DictReader(f))
        js = JobSet.from_csv(out)
        if len(js.df) != len(rows):
            failures.append(f"{t}: evalys read {len(js.df)} jobs, the CSV has {len(rows)}")
        peak = js.utilisation["load"].max()
        procs = 10 if t.endswith("hand.swf") else 100
        if peak > procs:
            failures.append(f"{t}: evalys sees {peak} busy processors on a {procs}-processor machine")
        if js.MaxProcs > procs:
            failures.append(f"{t}: evalys MaxProcs {js.MaxProcs} > {procs}")
        killed = (js.df["final_state"] == "COMPLETED_WALLTIME_REACHED").sum()
        if t.endswith("hand.swf") and killed != 1:
            failures.append(f"{t}: expected 1 killed job, evalys sees {killed}")
        print(f"evalys: {os.path.basename(t)}: {len(js.df)} jobs, peak load {peak}, killed {killed}")
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("evalys: 1 passed, 0 failed")
