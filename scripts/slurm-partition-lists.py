#!/usr/bin/env python3
"""Write RUN/sacct-lists.txt: RUN/sacct.txt with each job's Partition replaced by the list of
partitions it was submitted to (sbatch -p a,b), the partition it ran in first, the others after it
in the order Slurm keeps them (PriorityTier, highest first, then the submitted order): the form
slurmctld gives a started job's partition list (rebuild_job_part_list, job_scheduler.c of 22.05.8).

sacct itself names only the partition a started job ran in: slurmdbd stores the job's part_ptr
name once it is not pending (as_mysql_job.c 523-526 of 22.05.8), so a run's sacct.txt has no list
(a job still pending when dumped keeps the list as submitted). The lists come from the run's own
workload.csv (its partition column, names joined by ':') through submit.log (name -> Slurm job id),
the tiers from the run's slurm.conf.

    scripts/slurm-partition-lists.py tests/data/slurm/multipart-17/run1
"""
import csv
import re
import sys
from pathlib import Path

run = Path(sys.argv[1])
tiers = {}
for line in (run / "slurm.conf").read_text().splitlines():
    m = re.match(r"PartitionName=(\S+)", line)
    if m:
        t = re.search(r"PriorityTier=(\d+)", line)
        tiers[m.group(1)] = int(t.group(1)) if t else 1
lists = {r["name"]: r["partition"].split(":") for r in csv.DictReader(open(run / "workload.csv"))}
by_id = {r["jobid"]: lists[r["name"]] for r in csv.DictReader(open(run / "submit.log"))}
lines = (run / "sacct.txt").read_text().splitlines()
head = lines[0].split("|")
col, idcol = head.index("Partition"), head.index("JobID")
out = [lines[0]]
several = 0
for line in lines[1:]:
    f = line.split("|")
    names = by_id.get(f[idcol].split("_")[0])
    if names and len(names) > 1:
        ordered = sorted(names, key=lambda n: -tiers.get(n, 1))  # stable: ties keep the list's order
        ran = f[col]
        if ran in ordered:
            ordered = [ran] + [n for n in ordered if n != ran]
        f[col] = ",".join(ordered)
        several += 1
    out.append("|".join(f))
(run / "sacct-lists.txt").write_text("\n".join(out) + "\n")
print(f"{run}/sacct-lists.txt: {len(out) - 1} jobs, {several} submitted to several partitions")
