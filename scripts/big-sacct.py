#!/usr/bin/env python3
"""Writes a large Slurm accounting log (`sacct --parsable2`) from an SWF trace, for speed and
memory measurements of the sacct reader and the `slurm` policy (the file is not committed).

    scripts/big-sacct.py IN.swf[.gz] JOBS OUT.sacct
    scripts/big-sacct.py tests/data/LANL-CM5-1994-4.1-cln.swf.gz 1000000 /tmp/big.sacct
    scripts/big-sacct.py --json tests/data/LANL-CM5-1994-4.1-cln.swf.gz 1000000 /tmp/big.json

With --json the same jobs are written as `sacct --json` of Slurm 22.05 does (its layout, keys
and indentation, each job with the keys a real dump holds: comments, exit codes, flags, the
TRES lists, an empty steps list), about 3 KB a job.

The trace's jobs are written one after the other, then again shifted by the trace's span, until
JOBS lines are written. A job keeps its submit time, wait, runtime, processors and requested
time (Timelimit in whole minutes, rounded up); its user is `u<SWF user>` and its account one of
eight (`a<user mod 8>`), so that fair-share trees have two levels. Jobs that never ran (SWF
runtime or processors unknown) are left out. Times are Unix seconds from 2024-01-01 UTC.

An sacct log's machine is its recorded schedule's peak of CPUs (docs/workloads.md), and
LANL-CM5's gang-scheduled schedule peaks at 17,824 CPUs: give `--procs 1024` (its size) to
measure on LANL-CM5's machine, as the benchmarks before that rule did.
"""
import gzip
import sys

EPOCH = 1704067200  # 2024-01-01T00:00:00Z
HEADER = ("JobID|User|Account|Partition|Submit|Start|End|Elapsed|Timelimit|NCPUS|"
          "ReqTRES|State")


def open_in(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    return gzip.open(path, "rt") if magic == b"\x1f\x8b" else open(path, "rt")


def hms(s):
    d, s = divmod(int(s), 86400)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return f"{d}-{h:02}:{m:02}:{s:02}" if d else f"{h:02}:{m:02}:{s:02}"


def read_jobs(path):
    jobs = []
    with open_in(path) as f:
        for line in f:
            if line.startswith(";") or not line.strip():
                continue
            v = line.split()
            submit, wait, run, procs = int(v[1]), int(v[2]), int(v[3]), int(v[4])
            req_time, user = int(v[8]), int(v[11])
            if run < 0 or procs <= 0 or wait < 0:
                continue
            jobs.append((submit, wait, run, procs, req_time, max(user, 0)))
    return jobs


def json_job(k, user, submit, start, run, procs, req_time):
    """One job as Slurm 22.05's sacct --json writes it (openapi/dbv0.0.38)."""
    tres = lambda: [{"type": "cpu", "name": None, "id": 1, "count": procs},
                    {"type": "mem", "name": None, "id": 2, "count": 500 * procs},
                    {"type": "node", "name": None, "id": 4, "count": 1},
                    {"type": "billing", "name": None, "id": 5, "count": procs}]
    return {
        "account": f"a{user % 8}",
        "comment": {"administrator": None, "job": None, "system": None},
        "allocation_nodes": 1,
        "array": {"job_id": 0, "limits": {"max": {"running": {"tasks": 0}}}, "task": None, "task_id": None},
        "association": {"account": f"a{user % 8}", "cluster": "big", "partition": None, "user": f"u{user}"},
        "cluster": "big",
        "constraints": "",
        "container": None,
        "derived_exit_code": {"status": "SUCCESS", "return_code": 0},
        "time": {"elapsed": run, "eligible": submit, "end": start + run, "start": start, "submission": submit,
                 "suspended": 0, "system": {"seconds": 0, "microseconds": 0},
                 "limit": -(-req_time // 60) if req_time > 0 else None,
                 "total": {"seconds": 0, "microseconds": 0}, "user": {"seconds": 0, "microseconds": 0}},
        "exit_code": {"status": "SUCCESS", "return_code": 0},
        "flags": ["CLEAR_SCHEDULING", "STARTED_ON_SCHEDULE"],
        "group": "users",
        "het": {"job_id": 0, "job_offset": None},
        "job_id": k + 1,
        "name": f"job{k + 1}",
        "mcs": {"label": ""},
        "nodes": "n1",
        "partition": "batch",
        "priority": 1000,
        "qos": "normal",
        "required": {"CPUs": procs, "memory": 500 * procs},
        "kill_request_user": None,
        "reservation": {"id": 0, "name": 0},
        "state": {"current": "COMPLETED", "reason": "None"},
        "steps": [],
        "tres": {"allocated": tres(), "requested": tres()},
        "user": f"u{user}",
        "wckey": {"wckey": "", "flags": []},
        "working_directory": "/tmp",
    }


def main():
    as_json = sys.argv[1:2] == ["--json"]
    if as_json:
        del sys.argv[1]
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    jobs = read_jobs(src)
    if not jobs or n < 1:
        sys.exit("no job to write")
    span = max(j[0] + j[1] + j[2] for j in jobs) + 1
    if as_json:
        import json
        with open(out, "w") as f:
            f.write('{\n  "meta": {\n    "plugin": {"type": "openapi\\/dbv0.0.38"},\n'
                    '    "Slurm": {"release": "22.05.8"}\n  },\n  "errors": [\n  ],\n  "jobs": [\n')
            for k in range(n):
                copy, i = divmod(k, len(jobs))
                submit, wait, run, procs, req_time, user = jobs[i]
                submit += EPOCH + copy * span
                text = json.dumps(json_job(k, user, submit, submit + wait, run, procs, req_time), indent=2)
                f.write(("    " + text.replace("\n", "\n    ")) + (",\n" if k + 1 < n else "\n"))
            f.write("  ]\n}\n")
        return
    with open(out, "w") as f:
        f.write(HEADER + "\n")
        for k in range(n):
            copy, i = divmod(k, len(jobs))
            submit, wait, run, procs, req_time, user = jobs[i]
            submit += EPOCH + copy * span
            start = submit + wait
            limit = hms(60 * -(-req_time // 60)) if req_time > 0 else "UNLIMITED"
            f.write(f"{k + 1}|u{user}|a{user % 8}|batch|{submit}|{start}|{start + run}|{hms(run)}|"
                    f"{limit}|{procs}|cpu={procs}|COMPLETED\n")


if __name__ == "__main__":
    main()
