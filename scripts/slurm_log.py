"""The lines of a real Slurm run's controller debug log (`slurm-validate.sh -d`), each with its
time in seconds from the log's first submission (sacct.txt), as the model counts them: shared
by `slurm-period-sides.py` and `slurm-cycle-seconds.py`."""

import datetime
import gzip
import re


def timed_lines(run):
    """Yields (seconds from the first submission, the line's text after its time stamp)."""
    rows = [line.rstrip("\n").split("|") for line in open(f"{run}/sacct.txt")]
    submit = rows[0].index("Submit")
    t0 = min(datetime.datetime.fromisoformat(r[submit]) for r in rows[1:])
    for line in gzip.open(f"{run}/slurmctld.log.gz", "rt"):
        m = re.match(r"\[(\S+)\] (.*)", line)
        if m:
            yield (datetime.datetime.fromisoformat(m.group(1)) - t0).total_seconds(), m.group(2)
