#!/usr/bin/env python3
"""Which side of its second each priority period of a real Slurm run fell on, from the
controller's debug log (`slurm-validate.sh -d`): the `slurm` policy's `calc_early` key.

    scripts/slurm-period-sides.py tests/data/slurm/tiers-4/run2

Slurm 22.05's decay thread (priority_multifactor.c `_decay_thread`) takes the time of day
once, just before it logs `_read_last_decay_ran`, and then wakes every PriorityCalcPeriod to
the microsecond (`abs.tv_sec += priority_calc_period`): every period falls at that line's
fraction of its second. The controller's background loop (controller.c
`_slurmctld_background`: the time-limit checks, `Time limit exhausted`, and the main
scheduler's full runs, `Running job scheduler for full queue`) wakes at a fraction that
drifts later by a few milliseconds a turn. A period comes before its second's kills and
passes when the loop's first work in that second comes after the period's fraction
(`calc_early` lists those seconds), after them otherwise; a second where the loop does
nothing has nothing of its to order (left late). Times are seconds from the log's first
submission (sacct.txt), as the model counts them; the period's second is the whole second
it falls in. Prints each period and the `calc_phase` and `calc_early` values.

The backfill thread (backfill.c `backfill_agent`, `_attempt_backfill: beginning`) wakes at its
own fraction of a second: a period in a second with a backfill cycle comes before that cycle
when the period's fraction is the smaller (`calc_early_bf` lists those seconds, and the
seconds without a cycle on the loop's side), after it otherwise.
"""

import sys

from slurm_log import timed_lines


def main(run):
    decay, loop, cycles = None, [], []
    for t, text in timed_lines(run):
        if "_read_last_decay_ran" in text and decay is None:
            decay = t
        elif "Time limit exhausted" in text or "job scheduler for full queue" in text:
            loop.append(t)
        elif "_attempt_backfill: beginning" in text:
            cycles.append(t)
    if decay is None:
        sys.exit(f"{run}: no _read_last_decay_ran line (a log made without -d?)")
    period = 60  # the committed runs' PriorityCalcPeriod=1
    frac = decay % 1
    print(f"decay thread from {decay:.3f} s: periods at {decay % period:.3f} s modulo {period}")
    early, early_bf = [], []
    p = decay + period
    while loop and p <= max(loop):
        second = int(p // 1)
        first = min((t for t in loop if int(t // 1) == second), default=None)
        if first is None:
            side = "late (the loop does nothing in this second)"
        elif first % 1 > frac:
            side = f"EARLY (the loop at {first:.3f})"
            early.append(second)
        else:
            side = f"late (the loop at {first:.3f})"
        cycle = min((t for t in cycles if int(t // 1) == second), default=None)
        if cycle is None:
            if side.startswith("EARLY"):
                early_bf.append(second)
        elif cycle % 1 > frac:
            side += f"; before the backfill cycle at {cycle:.3f}"
            early_bf.append(second)
        else:
            side += f"; after the backfill cycle at {cycle:.3f}"
        print(f"  period at {p:8.3f}: {side}")
        p += period
    phase = int(decay % period // 1)
    print(f"calc_phase={phase}.5,calc_early=({','.join(map(str, early))})", end="")
    if early_bf != early:
        print(f",calc_early_bf=({','.join(map(str, early_bf))})", end="")
    print()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
