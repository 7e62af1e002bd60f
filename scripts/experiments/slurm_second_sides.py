#!/usr/bin/env python3
"""An experiment, not a model: how far the order of events within a second moves a whole run
of the `slurm` policy (docs/slurm-runs.md, "smallbf-2/run4: job 9's two plans and the order within
a second").

    scripts/experiments/slurm_second_sides.py 'smallbf-2/run4 58.5,calc_early=(58,178,238,418),sched_phase=8,bf_phase=3' ...

Each argument is a run under tests/data/slurm with a debug log and its phases (the text after
`calc_phase=` in the tests' spec). The model runs every event of a second (a submission, a
job's end) before that second's passes. The controller's debug log times Slurm's loops'
turns (`Running job scheduler`, `_attempt_backfill: beginning`) and the events
(`_slurm_rpc_submit_batch_job`, `_job_complete: JobId=N done`) to the millisecond. An event
that came after every turn of its second was seen by Slurm's loops only in a later second.
The script writes a copy of sacct.txt with such events moved one second later (a submission:
Submit and Eligible; an end: End and Elapsed, which also lengthens that job's run wherever
the model starts it), runs `schedlab run` on the original and on the copies, and prints the
model's mean wait (on the original submit times) beside the recorded one, and how many jobs
start within 5 s of their recorded start. Set SCHEDLAB to the binary (default
target/release/schedlab).
"""

import csv
import datetime
import gzip
import os
import re
import subprocess
import sys
import tempfile

BIN = os.environ.get("SCHEDLAB", "target/release/schedlab")


def stamp(s):
    return datetime.datetime.fromisoformat(s)


def late_events(run, t0):
    """Log job ids whose submission, and whose end, came after every loop turn of its second
    (seconds from t0, the log's first submission)."""
    turns, subs, ends = {}, {}, {}
    for line in gzip.open(f"{run}/slurmctld.log.gz", "rt"):
        m = re.match(r"\[(\S+)\] (.*)", line)
        if not m:
            continue
        t = (stamp(m.group(1)) - t0).total_seconds()
        msg = m.group(2)
        job = re.search(r"JobId=(\d+)", msg)
        if "Running job scheduler" in msg or "_attempt_backfill: beginning" in msg:
            turns.setdefault(int(t // 1), []).append(t)
        elif "_slurm_rpc_submit_batch_job" in msg:
            subs[job.group(1)] = t
        elif re.search(r"_job_complete: JobId=\d+ done", msg):
            ends[job.group(1)] = t

    def late(events):
        out = set()
        for j, t in events.items():
            ts = turns.get(int(t // 1), [])
            if ts and all(x < t for x in ts):
                out.add(j)
        return out

    # A submission in the log's first second stays: moved, it would move the log's time 0
    # (and every phase with it) when no other job is submitted in that second.
    first = {j for j, t in subs.items() if t < 1}
    return late(subs) - first, late(ends)


def shifted(rows, late_subs, late_ends):
    h = rows[0]
    i = {k: h.index(k) for k in ["JobID", "Submit", "Eligible", "End", "Elapsed", "ElapsedRaw"]}
    out = [h]
    one = datetime.timedelta(seconds=1)
    for r in rows[1:]:
        r = list(r)
        if r[i["JobID"]] in late_subs:
            for k in ("Submit", "Eligible"):
                r[i[k]] = (stamp(r[i[k]]) + one).isoformat()
        if r[i["JobID"]] in late_ends:
            r[i["End"]] = (stamp(r[i["End"]]) + one).isoformat()
            e = int(r[i["ElapsedRaw"]]) + 1
            r[i["ElapsedRaw"]] = str(e)
            r[i["Elapsed"]] = "%02d:%02d:%02d" % (e // 3600, e % 3600 // 60, e % 60)
        out.append(r)
    return out


def model(run, phase, rows, recorded, tmp):
    path = os.path.join(tmp, "sacct.txt")
    with open(path, "w") as f:
        f.write("\n".join("|".join(r) for r in rows) + "\n")
    jobs = os.path.join(tmp, "jobs.csv")
    subprocess.run(
        [BIN, "run", path, "--slurm-conf", f"{run}/slurm.conf", "--sshare",
         f"{run}/sshare-start.txt", "-p", f"slurm[calc_phase={phase}]", "--jobs-csv", jobs],
        capture_output=True, check=True)
    waits, close = [], 0
    for r in csv.DictReader(open(jobs)):
        sub, start = recorded[r["log_job_id"]]
        waits.append(float(r["starting_time"]) - sub)
        close += abs(float(r["starting_time"]) - start) <= 5
    return sum(waits) / len(waits), close


def main(args):
    for arg in args:
        name, phase = arg.split(" ", 1)
        run = f"tests/data/slurm/{name}"
        rows = [line.rstrip("\n").split("|") for line in open(f"{run}/sacct.txt")]
        h = rows[0]
        t0 = min(stamp(r[h.index("Submit")]) for r in rows[1:])
        recorded = {
            r[0]: ((stamp(r[h.index("Submit")]) - t0).total_seconds(),
                   (stamp(r[h.index("Start")]) - t0).total_seconds())
            for r in rows[1:]
        }
        rec = sum(s - q for q, s in recorded.values()) / len(recorded)
        subs, ends = late_events(run, t0)
        line = f"{name}: recorded {rec:.1f} s"
        for label, late in [("model", (set(), set())), (f"{len(subs)} late submissions", (subs, set())),
                            (f"and {len(ends)} late ends", (subs, ends))]:
            with tempfile.TemporaryDirectory() as tmp:
                w, close = model(run, phase, shifted(rows, *late), recorded, tmp)
            apart = abs(w - rec) / ((w + rec) / 2) * 100
            line += f"; {label} {w:.1f} s ({apart:.1f}% apart, {close} within 5 s)"
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
