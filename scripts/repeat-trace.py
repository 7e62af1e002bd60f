#!/usr/bin/env python3
"""Makes a large SWF trace from a small one: N copies one after the other, for memory and speed
measurements (the generated file is not committed).

    scripts/repeat-trace.py IN.swf[.gz] N OUT.swf[.gz]
    scripts/repeat-trace.py tests/data/LANL-CM5-1994-4.1-cln.swf.gz 80 /tmp/lanl-x80.swf

Copy k (0-based) has its submit times (field 2) shifted by k x (the last submit time + 1) and its
job numbers (field 1) and preceding-job numbers (field 17, when > 0) by k x (the largest job
number); every other field is kept. The header is the first copy's, with a `; Note:` line
saying how the file was made. Comment lines inside the trace are dropped.
"""
import gzip
import sys


def open_in(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    return gzip.open(path, "rt") if magic == b"\x1f\x8b" else open(path, "rt")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if n < 1:
        sys.exit("N must be >= 1")
    header, jobs = [], []
    with open_in(src) as f:
        for line in f:
            s = line.strip()
            if not s:
                continue
            if s.startswith(";"):
                if not jobs:
                    header.append(s)
                continue
            jobs.append(s.split())
    if not jobs:
        sys.exit(f"{src}: no jobs")
    span = max(int(j[1]) for j in jobs) + 1
    ids = max(int(j[0]) for j in jobs)
    opener = gzip.open if out.endswith(".gz") else open
    with opener(out, "wt") as w:
        for h in header:
            w.write(h + "\n")
        w.write(f"; Note: {n} copies of {src.split('/')[-1]}, copy k submitted k x {span} s later, "
                f"job numbers + k x {ids} (scripts/repeat-trace.py)\n")
        for k in range(n):
            dt, di = k * span, k * ids
            for j in jobs:
                f = list(j)
                f[0] = str(int(f[0]) + di)
                f[1] = str(int(f[1]) + dt)
                if len(f) > 16 and int(f[16]) > 0:
                    f[16] = str(int(f[16]) + di)
                w.write(" ".join(f) + "\n")


if __name__ == "__main__":
    main()
