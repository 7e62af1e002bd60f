#!/usr/bin/env python3
"""What Slurm's backfill thread counted as "something changed" (backfill.c `backfill_agent`,
`_more_work`), checked on the controllers' debug logs (`DebugFlags=Backfill`): the evidence
for docs/slurm.md "When a cycle runs".

    scripts/slurm-more-work.py tests/data/slurm/*/run*/slurmctld.log.gz

After a cycle that ended in second B the thread sleeps `bf_interval` and runs the next only if
`last_job_update` or `last_node_update` is at or after B; else it looks again each second. A
gap between two cycles' beginnings of more than `bf_interval` + 1 s is **delayed**: nothing
had changed at the first look. For each gap it reads what the first cycle did that 22.05
counts as a change:

- `start`: it started a job (`_start_job` sets `last_job_update`);
- `planned`: it left an idle or mixed node planned (`_handle_planned: ... cleared: nX state is
  IDLE/MIXED...` (the flag's message is inverted in the source) or cleared one (`set:`),
  `last_node_update`);
- `raised`: a job tested from a later step of the map (`Test JobId=N at T` past the cycle's
  second) got T as its start or was held there by a limit: `start_res > job_ptr->start_time`
  (2584), `last_job_update`;
- `tested`: it tested a job (the model's rule before: every cycle that tests a job a change).

and what happened between the cycles: submissions, ends, starts, time-limit kills, and the
main scheduler's runs (`Running job scheduler`: `_schedule` sets `last_job_update` when it
changes a job's reason). It prints the counts per log and in all.
"""

import gzip
import math
import re
import sys
from datetime import datetime

STAMP = re.compile(r"^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+)\]")
EVENTS = ("_slurm_rpc_submit_batch_job", "_job_complete", "sched: Allocate", "time limit")


def seconds(s):
    return datetime.fromisoformat(s).timestamp()


def read(path):
    """The cycles (start, end, markers) and the events and main scheduler runs of one log."""
    cycles, events, sched, cur = [], [], [], None
    opener = gzip.open if path.endswith(".gz") else open
    for line in opener(path, "rt", errors="replace"):
        m = STAMP.match(line)
        if not m:
            continue
        x = seconds(m.group(1))
        if "_attempt_backfill: beginning" in line:
            cur = {"start": x, "end": None, "marks": set(), "test": None}
            cycles.append(cur)
            continue
        if cur is not None and cur["end"] is None:
            if "completed testing" in line or "no jobs to backfill" in line:
                cur["end"] = x
                continue
            if "_start_job: Started" in line:
                cur["marks"].add("start")
            if "BACKFILL: test for" in line:
                cur["marks"].add("tested")
            p = re.search(r"_handle_planned: BACKFILL: (set|cleared): \S+ state is (\S+)", line)
            if p and (p.group(1) == "set" or not p.group(2).startswith("ALLOCATED")):
                cur["marks"].add("planned")
            later = math.floor(cur["start"]) + 0.5
            t = re.search(r"_dump_job_test: Test JobId=(\d+) at (\S+) on", line)
            if t:
                cur["test"] = (t.group(1), seconds(t.group(2)))
            s = re.search(r"_dump_job_sched: JobId=(\d+) to start at (\S+),", line)
            test = cur["test"]
            if s and test and test[0] == s.group(1) and test[1] > later:
                if seconds(s.group(2)) <= test[1]:
                    cur["marks"].add("raised")
            if "blocked by acct_policy_job_runnable_post_select" in line and test:
                if test[1] > later:
                    cur["marks"].add("raised")
            continue
        if any(e in line for e in EVENTS):
            events.append(x)
        if "Running job scheduler" in line:
            sched.append(x)
    return cycles, events, sched


def interval(path):
    conf = path.replace("slurmctld.log.gz", "slurm.conf").replace("slurmctld.log", "slurm.conf")
    try:
        m = re.search(r"bf_interval=(\d+)", open(conf).read())
        return int(m.group(1)) if m else 30
    except OSError:
        return 30


def main(paths):
    keys = [
        "delayed",
        "delayed after start/planned",
        "delayed after raised",
        "delayed after tested",
        "delayed, an event before",
        "delayed, a main run in the first look",
        "on time",
        "on time, no event, no start/planned",
        "  of which raised",
        "  of which a main run between",
        "  of which neither",
    ]
    total = dict.fromkeys(keys, 0)
    for path in paths:
        iv = interval(path)
        cycles, events, sched = read(path)
        n = dict.fromkeys(keys, 0)
        for a, b in zip(cycles, cycles[1:]):
            if a["end"] is None:
                continue
            base = math.floor(a["end"])
            gap = math.floor(b["start"]) - base
            quiet = not any(base <= e < b["start"] - 1 for e in events)
            main_run = any(base <= e < b["start"] for e in sched)
            m = a["marks"]
            if gap > iv + 1:
                n["delayed"] += 1
                n["delayed after start/planned"] += bool(m & {"start", "planned"})
                n["delayed after raised"] += "raised" in m
                n["delayed after tested"] += "tested" in m
                n["delayed, an event before"] += not quiet
                n["delayed, a main run in the first look"] += any(
                    base <= e < base + iv for e in sched
                )
            else:
                n["on time"] += 1
                if quiet and not m & {"start", "planned"}:
                    n["on time, no event, no start/planned"] += 1
                    n["  of which raised"] += "raised" in m
                    n["  of which a main run between"] += "raised" not in m and main_run
                    n["  of which neither"] += "raised" not in m and not main_run
        print(path, {k: v for k, v in n.items() if v})
        for k in keys:
            total[k] += n[k]
    print("all:")
    for k in keys:
        print(f"  {k}: {total[k]}")


if __name__ == "__main__":
    main(sys.argv[1:])
