#!/usr/bin/env python3
"""Which jobs of a real Slurm run ended by themselves on the other side of a priority period
than the `slurm` model puts them, from the controller's debug log (`slurm-validate.sh -d`).

    scripts/slurm-end-sides.py tests/data/slurm/smallbf-8/run1

A period's usage counts a job still running at it and never the part of a job that ended
before it (without `AccountingStorageEnforce=limits`, priority_multifactor.c: the decay
thread skips finished jobs, `decay_apply_new_usage`, and `priority_p_job_end` is not called).
The model orders a period against the ends of its second as `calc_early` says, which
`slurm-period-sides.py` reads from the controller's background loop (the kills at a time
limit check, the full runs of the main scheduler): a period at a `calc_early` second before
every end of that second, any other after them. A job that ends by itself
(`_job_complete` without a `Time limit exhausted` line before it) ends at its own fraction of
the second, which sacct (whole seconds) does not record: this lists those on the other side
of the period than the model's, as `JOB@SECOND:b` (the job ended before the period, its last
part not counted) or `:a` (after it, counted), with the time of each.
"""

import re
import sys

from slurm_log import timed_lines


def main(run):
    decay, loop, ends, killed = None, [], [], set()
    for t, text in timed_lines(run):
        if "_read_last_decay_ran" in text and decay is None:
            decay = t
        m = re.search(r"Time limit exhausted for JobId=(\d+)", text)
        if m:
            killed.add(int(m.group(1)))
        if "Time limit exhausted" in text or "job scheduler for full queue" in text:
            loop.append(t)
        m = re.search(r"_job_complete: JobId=(\d+) (WEXITSTATUS|WTERMSIG)", text)
        if m and int(m.group(1)) not in killed:
            ends.append((t, int(m.group(1))))
    if decay is None:
        sys.exit(f"{run}: no _read_last_decay_ran line (a log made without -d?)")
    period = 60  # the committed runs' PriorityCalcPeriod=1
    frac = decay % 1
    other = []
    for t, job in ends:
        p = decay + round((t - decay) / period) * period
        second = int(p // 1)
        if int(t // 1) != second or p < decay + 1:
            continue
        first = min((x for x in loop if int(x // 1) == second), default=None)
        early = first is not None and first % 1 > frac
        before = t < p
        print(
            f"  job {job:4d} ended at {t:9.3f}, the period at {p:9.3f}: "
            f"{'before' if before else 'after'} it; the model: {'after' if early else 'before'}"
        )
        if before == early:
            other.append(f"{job}@{second}:{'b' if before else 'a'}")
    print(f"on the other side: {len(other)} ({','.join(other)})")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
