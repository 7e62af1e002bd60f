#!/usr/bin/env python3
"""How the seconds of Slurm's two scheduling loops drift over a real run, from the controller's
debug log (`slurm-validate.sh -d`): the evidence for docs/slurm-runs.md "The loops' drift over a long run" (the rule itself is
held by tests/replay/loop_drift.rs).

    scripts/slurm-loop-drift.py tests/data/slurm/*/run*     (runs with a slurmctld.log.gz)

Per run, for the backfill thread (`_attempt_backfill: beginning` .. `completed testing N(M)
jobs, usec=U` or `no jobs to backfill`; backfill.c `backfill_agent`):
- cycles, and the gap from one cycle's start to the next's, split by what came between:
  "on the grid" (the next start within bf_interval + 1 s of the previous: the thread slept
  `bf_interval` after the cycle and found a change), "after looks" (longer: it found nothing
  changed and looked again every second, `short_sleep`);
- the sleep's overshoot on the grid: gap - bf_interval - the cycle's own length (usec), in ms,
  and its least-squares fit against the cycle's length and the jobs it tested;
- the cycle's length against the debug lines it writes (`DebugFlags=Backfill`);
- the grid's moves (second mod bf_interval), on the grid (w) or after looks;
- the fraction of the second a cycle starts at, at the start and end of the run, and how many
  times it wrapped past a whole second (each wrap moves the grid one second later);
- after looks: the fraction of the start against the previous cycle's end fraction plus
  whole seconds (each look overshoots too).
For the main loop (`Running job scheduler for full queue`; controller.c
`_slurmctld_background`, ten `usleep(100000)` then its work, a full run once `now -
last_full_sched_time >= sched_interval`): the gaps between full runs (10 s, or 11 where the
loop's fraction wrapped), the loop's drift per turn (ms), and the seconds its grid moved.
Times are seconds from the log's first submission (sacct.txt), as the model counts them.
"""

import re
import statistics
import sys

from slurm_log import timed_lines

TESTED = re.compile(r"completed testing (\d+)\((\d+)\) jobs, usec=(\d+)")


def conf_int(run, key, default):
    for line in open(f"{run}/slurm.conf"):
        m = re.search(rf"\b{key}=(\d+)", line)
        if m:
            return int(m.group(1))
    return default


def read(run):
    cycles, full, cur = [], [], None
    for t, text in timed_lines(run):
        if "_attempt_backfill: beginning" in text:
            cur = {"t": t, "usec": 0, "tested": 0, "yields": 0, "lines": 0}
            cycles.append(cur)
        elif cur is not None and "yielding locks" in text:
            cur["yields"] += 1
        elif cur is not None and TESTED.search(text):
            m = TESTED.search(text)
            cur["tested"], cur["usec"] = int(m.group(1)), int(m.group(3))
            cur = None
        elif cur is not None and "no jobs to backfill" in text:
            cur = None
        elif cur is not None and "sched/backfill" in text:
            cur["lines"] += 1
        elif "Running job scheduler for full queue" in text:
            full.append(t)
    return cycles, full


def fit(xs, ys):
    """Least squares y = a + b x; (a, b, r)."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    syy = sum((y - my) ** 2 for y in ys)
    b = sxy / sxx if sxx else 0.0
    r = sxy / (sxx * syy) ** 0.5 if sxx and syy else 0.0
    return my - b * mx, b, r


def report(run):
    bf = conf_int(run, "bf_interval", 30)
    si = conf_int(run, "sched_interval", 60)
    cycles, full = read(run)
    if len(cycles) < 3:
        print(f"{run}: no debug log cycles")
        return
    grid, looks = [], []
    for a, b in zip(cycles, cycles[1:]):
        gap = b["t"] - a["t"]
        end = a["t"] + a["usec"] / 1e6
        if gap < bf + 1:
            grid.append((a, gap, (b["t"] - end - bf) * 1e3))
        else:
            # whole looks after the sleep: the start's offset past end + bf + k
            k = round(b["t"] - end - bf)
            looks.append((k, (b["t"] - end - bf - k) * 1e3))
    over = [o for _, _, o in grid]
    frac = [c["t"] % 1 for c in cycles]
    wraps = sum(1 for x, y in zip(frac, frac[1:]) if y < x - 0.5)
    usecs = [c["usec"] for c in cycles]
    print(f"{run}: bf_interval={bf}, {len(cycles)} cycles over {cycles[-1]['t']:.0f} s")
    print(
        f"  on the grid: {len(grid)} gaps, gap {statistics.fmean(g for _, g, _ in grid):.4f} s mean;"
        f" overshoot (gap - bf_interval - cycle) median {statistics.median(over):.2f} ms,"
        f" p90 {sorted(over)[len(over) * 9 // 10]:.2f}, max {max(over):.1f}"
    )
    if len(grid) > 2:
        a0, b0, r0 = fit([a["usec"] / 1e3 for a, _, _ in grid], [g * 1e3 - bf * 1e3 for _, g, _ in grid])
        a1, b1, r1 = fit([a["tested"] for a, _, _ in grid], [a["usec"] / 1e3 for a, _, _ in grid])
        print(
            f"  gap - bf_interval (ms) = {a0:.2f} + {b0:.3f} x cycle length (ms), r = {r0:.3f};"
            f" cycle length (ms) = {a1:.3f} + {b1:.4f} x jobs tested, r = {r1:.3f}"
        )
    ran = [c for c in cycles if c["usec"]]
    a2, b2, r2 = fit([c["lines"] for c in ran], [c["usec"] / 1e3 for c in ran])
    print(
        f"  cycle length (ms) = {a2:.2f} + {b2 * 1e3:.1f} us x the cycle's debug log lines"
        f" (DebugFlags=Backfill), r = {r2:.3f}; lines a cycle: median {statistics.median(c['lines'] for c in ran)}"
    )
    print(
        f"  cycle length: median {statistics.median(usecs) / 1e3:.2f} ms, max {max(usecs) / 1e3:.1f} ms;"
        f" yields {sum(c['yields'] for c in cycles)}"
    )
    if looks:
        lo = [o for _, o in looks]
        print(
            f"  after looks: {len(looks)} gaps ({sum(k for k, _ in looks)} looks), offset past"
            f" end + bf_interval + whole looks median {statistics.median(lo):.2f} ms, max {max(lo):.1f};"
            f" per look {statistics.median(o / k for k, o in looks if k):.2f} ms"
        )
    moves = []
    for a, b in zip(cycles, cycles[1:]):
        g = int(b["t"]) % bf
        if g != int(a["t"]) % bf:
            # w: on the grid (the sleep after the cycle carried the wake past a whole second)
            moves.append(f"{b['t']:.3f}:{g}{'w' if b['t'] - a['t'] < bf + 1 else ''}")
    print(
        f"  grid (second mod bf_interval) moves {len(moves)} times"
        f" ({sum(m.endswith('w') for m in moves)} w: a wake carried past a whole second, the others"
        f" after looks): {' '.join(moves)}"
    )
    print(
        f"  start fraction: first {frac[0]:.3f}, last {frac[-1]:.3f}; wrapped {wraps} times;"
        f" drift {(cycles[-1]['t'] % 1 - frac[0] + wraps) / (cycles[-1]['t'] - cycles[0]['t']) * 1e3:.2f} ms per 1 s"
    )
    if len(full) > 2:
        gaps = [round(b - a) for a, b in zip(full, full[1:])]
        turns = sum(gaps)
        drift = (full[-1] - full[0] - turns) / turns * 1e3
        per = [(b - a - round(b - a)) / round(b - a) * 1e3 for a, b in zip(full, full[1:])]
        print(
            f"  main loop: {len(full)} full runs, gaps {dict(sorted((g, gaps.count(g)) for g in set(gaps)))}"
            f" (sched_interval={si}); drift {drift:.2f} ms a turn (median {statistics.median(per):.2f},"
            f" max {max(per):.2f}); full-run second mod {si}: first {int(full[0]) % si}, last {int(full[-1]) % si}"
        )


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for run in sys.argv[1:]:
        report(run)
