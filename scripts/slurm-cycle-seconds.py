#!/usr/bin/env python3
"""Where Slurm's backfill cycles fell around given seconds of a real run, from the controller's
debug log (`slurm-validate.sh -d`): the evidence for the `slurm` policy's late cycle
(docs/slurm-runs.md, "The late cycle against the debug logs").

    scripts/slurm-cycle-seconds.py tests/data/slurm/qos-6/run2 55 85 371

For each second T (a decision instant whose pass runs a cycle due at T - 1 a second late,
agent.rs `Agent::due`) it prints the backfill thread's cycles from T - 6 to T + 1.5
(`_attempt_backfill: beginning`, with the jobs each started and the idle nodes it left
planned, `_handle_planned`'s `PLANNED`) and the controller's events from T - 1 to T + 1
(ends, time-limit kills, the main scheduler's starts, submissions). A cycle in second T - 1
ran before the events of second T; one in second T may have run after them. A gap of more
than `bf_interval` between two cycles is a look of the thread that found nothing changed
(backfill.c `backfill_agent`, `_more_work`): it sleeps a second and looks again. Times are
seconds from the log's first submission (sacct.txt), as the model counts them.
"""

import re
import sys

from slurm_log import timed_lines

EVENT = re.compile(
    r"_job_complete: JobId=\d+ done|Time limit exhausted for JobId=\d+"
    r"|sched: Allocate JobId=\d+|_slurm_rpc_submit_batch_job: JobId=\d+"
)


def main(run, seconds):
    cycles, events, cur = [], [], None
    for t, text in timed_lines(run):
        if "_attempt_backfill: beginning" in text:
            cur = {"t": t, "started": [], "planned": 0}
            cycles.append(cur)
        elif cur is not None and "_start_job: Started" in text:
            cur["started"].append(re.search(r"JobId=(\d+)", text).group(1))
        elif cur is not None and "_handle_planned" in text and "cleared:" in text:
            cur["planned"] += "PLANNED" in text
        elif "completed testing" in text or "no jobs to backfill" in text:
            cur = None
        elif EVENT.search(text):
            events.append((t, EVENT.search(text).group(0)))
    for second in seconds:
        print(f"T = {second}:")
        for c in cycles:
            if second - 6 <= c["t"] < second + 1.5:
                started = ",".join(c["started"]) or "none"
                print(
                    f"  {c['t']:9.3f} cycle (second {int(c['t'] // 1)}): started {started}, "
                    f"{c['planned']} idle node(s) left planned"
                )
        for t, what in events:
            if second - 1 <= t < second + 1:
                print(f"  {t:9.3f}   {what}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], [int(s) for s in sys.argv[2:]])
