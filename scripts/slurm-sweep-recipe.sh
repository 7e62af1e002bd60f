#!/usr/bin/env bash
# Run the job-array sweep recipe of docs/cluster.md on a real Slurm (Debian's slurm-wlm 22.05) on this one
# host, and check that the merged output equals the unsharded `schedlab sweep` byte for byte (issue 34).
# Not part of CI (CI never starts a Slurm).
#
# The recipe's `sweep.sbatch`, `merge.sbatch` and submission commands are taken from docs/cluster.md's code
# blocks (the test checks the doc, not a copy). Only what the doc says to adjust is changed: the TRACES and
# SHARDS lines and the `--array` range that follows from them; in the re-run block, MERGE_JOB_ID and the
# task number. The sweep command itself is the doc's.
#
# Needs root: it installs packages and starts munged, slurmctld and four slurmd (no accounting: the recipe
# needs none). Its Slurm has its own state directory and ports, so that it can run beside
# scripts/slurm-validate.sh.
#
#   sudo scripts/slurm-sweep-recipe.sh [-b SCHEDLAB] [-t "TRACE..."] [-s SHARDS] [-w SECONDS] [-r RECORD] [-F] [-k]
#     -b SCHEDLAB  the binary the nodes run (default target/release/schedlab)
#     -t TRACES    trace files of tests/data (default "hpc2n.swf NASA-iPSC-1993-3.1-cln.swf.gz")
#     -s SHARDS    shards per trace (default 3)
#     -w SECONDS   how long to wait for each submission's jobs at most (default 900)
#     -r RECORD    also write the printed summary to this file
#     -F           skip the second round (one task fails once, is re-run alone, the merge is run again)
#     -k           keep the daemons running at the end (default: stop them)
#
# Round 1: the array and the merge submitted as the doc says; every task and the merge must be COMPLETED.
# Round 2 (in a fresh directory): the binary on the nodes' PATH is a wrapper that fails once for one array
# task; the merge must then stay pending (DependencyNeverSatisfied); the doc's re-run commands are run
# (the task alone, then the merge again) and must complete.
# After each round every trace's merged table (results/TRACE.txt) and chart (results/TRACE.svg) are compared
# with those of the unsharded sweep (the doc's sweep command without --threads, --shard and --out).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BIN=$REPO/target/release/schedlab
TRACES="hpc2n.swf NASA-iPSC-1993-3.1-cln.swf.gz"
SHARDS=3
WAIT=900
RECORD=
FAILROUND=1
KEEP=0
while getopts "b:t:s:w:r:Fkh" opt; do
  case $opt in
    b) BIN=$OPTARG ;;
    t) TRACES=$OPTARG ;;
    s) SHARDS=$OPTARG ;;
    w) WAIT=$OPTARG ;;
    r) RECORD=$OPTARG ;;
    F) FAILROUND=0 ;;
    k) KEEP=1 ;;
    h) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "usage: $0 [-b SCHEDLAB] [-t TRACES] [-s SHARDS] [-w SECONDS] [-r RECORD] [-F] [-k]" >&2; exit 2 ;;
  esac
done
[[ $(id -u) == 0 ]] || { echo "$0 needs root: it installs Slurm and starts munged and the Slurm daemons" >&2; exit 1; }
BIN=$(realpath "$BIN")
[[ -x $BIN ]] || { echo "no schedlab binary at $BIN (cargo build --release --bin schedlab)" >&2; exit 1; }
[[ -z $RECORD ]] || RECORD=$(realpath -m "$RECORD")
read -r -a TRACE_LIST <<< "$TRACES"
TASKS=$((${#TRACE_LIST[@]} * SHARDS))

BASE=${SLURMLAB_SWEEP_BASE:-/var/tmp/schedlab-slurm-sweep}
export SLURM_CONF=$BASE/etc/slurm.conf
CTLD_PORT=16827
NODE_PORTS=17011-17014
# shellcheck source=scripts/slurm-lib.sh
source "$REPO/scripts/slurm-lib.sh"

# ---------------------------------------------------------------- the recipe, from the doc
DOC=$REPO/docs/cluster.md
# doc_block TEXT: the first ```bash block after the first line of the doc that contains TEXT
doc_block() {
  awk -v key="$1" 'index($0, key) { found = 1 } found && /^```bash/ { inside = 1; next }
                   inside && /^```/ { exit } inside { print }' "$DOC"
}
# adjust FILE PATTERN REPLACEMENT: replace the one line matching PATTERN (an ERE), or fail
adjust() {
  local n
  n=$(grep -cE -e "$2" "$1" || true)
  [[ $n == 1 ]] || { echo "docs/cluster.md: $n lines match /$2/ in $(basename "$1"), expected 1" >&2; exit 1; }
  sed -E -i "s|$2|$3|" "$1"
}
# write_recipe DIR: the doc's scripts in DIR, adjusted to this run's traces and shard count
write_recipe() {
  local dir=$1 quoted="" t
  for t in "${TRACE_LIST[@]}"; do quoted+="$t "; done
  doc_block '`sweep.sbatch`' > "$dir/sweep.sbatch"
  doc_block '`merge.sbatch`' > "$dir/merge.sbatch"
  doc_block 'Submit both' > "$dir/submit.sh"
  doc_block 'DependencyNeverSatisfied' > "$dir/rerun.sh"
  adjust "$dir/sweep.sbatch" '^TRACES=\(.*\)$' "TRACES=(${quoted% })"
  adjust "$dir/sweep.sbatch" '^SHARDS=[0-9]+$' "SHARDS=$SHARDS"
  adjust "$dir/sweep.sbatch" '^(#SBATCH --array=)0-[0-9]+( .*)?$' "\10-$((TASKS - 1))   # $TASKS tasks"
  mkdir -p "$dir/traces"
  for t in "${TRACE_LIST[@]}"; do cp "$REPO/tests/data/$t" "$dir/traces/$t"; done
}

# unsharded DIR: the doc's sweep command without --threads, --shard and --out, run here for every trace,
# its table to DIR/unsharded/TRACE.txt and its chart to DIR/unsharded/TRACE.svg
unsharded() {
  local dir=$1 cmd trace
  cmd=$(sed -n '/^schedlab sweep /,/[^\\]$/p' "$dir/sweep.sbatch" | sed 's/\\$//' | tr '\n' ' ' |
    sed -E 's/ --(threads|shard|out) +[^ ]+//g')
  [[ $cmd == "schedlab sweep "* ]] || { echo "no schedlab sweep command in sweep.sbatch" >&2; exit 1; }
  echo "unsharded: $cmd --out unsharded/\$trace.svg" >&2
  cmd="\"\$BIN\"${cmd#schedlab}"
  mkdir -p "$dir/unsharded"
  for trace in "${TRACE_LIST[@]}"; do
    (cd "$dir" && eval "$cmd --out unsharded/$trace.svg" > "unsharded/$trace.txt")
  done
}

# ---------------------------------------------------------------- Slurm from a fresh state
slurm_install slurmctld slurmd slurm-client munge
log "stopping an earlier run's daemons, if any"
slurm_stop
rm -rf "$BASE"
mkdir -p "$BASE"/{state,spool/n1,spool/n2,spool/n3,spool/n4,log,etc,run}
slurm_start_munge
cat > "$SLURM_CONF" <<EOF
# made by scripts/slurm-sweep-recipe.sh (schedlab, issue 34): no accounting, FIFO with backfill
$(slurm_conf_head)
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
PriorityType=priority/basic
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
NodeName=n[1-4] NodeHostname=$(hostname) Port=$NODE_PORTS CPUs=8 Sockets=1 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=16000 State=UNKNOWN
PartitionName=batch Nodes=n[1-4] Default=YES MaxTime=INFINITE State=UP
EOF
slurm_start
[[ $KEEP == 1 ]] || trap 'log "stopping the daemons"; slurm_stop' EXIT

# ---------------------------------------------------------------- helpers on jobs
# job_states ID: "JOBID STATE REASON" of the job, or of every task of the array ID (scontrol keeps them
# MinJobAge seconds after they end)
job_states() {
  scontrol -o show job "$1" | sed -E 's/.*ArrayJobId=([0-9]+) ArrayTaskId=([0-9]+) .*JobState=([A-Z_]+) Reason=([^ ]+).*/\1_\2 \3 \4/;
    s/.*JobId=([0-9]+) .*JobState=([A-Z_]+) Reason=([^ ]+).*/\1 \2 \3/' | sort -V
}
# wait_jobs SECONDS ID...: until none of the jobs is pending or running (a job pending for a dependency
# that can never be satisfied counts as ended); fails after SECONDS
wait_jobs() {
  local limit=$1 t0=$SECONDS
  shift
  while :; do
    local busy=0 id
    for id in "$@"; do
      if job_states "$id" | grep -vE 'DependencyNeverSatisfied' | grep -qE ' (PENDING|RUNNING|CONFIGURING|COMPLETING) '; then
        busy=1
      fi
    done
    [[ $busy == 0 ]] && return 0
    ((SECONDS - t0 < limit)) || { echo "jobs $* still not ended after ${limit}s:" >&2; squeue >&2; return 1; }
    sleep 3
  done
}
# all_completed ID...: every job (every task) COMPLETED, else print them and fail
all_completed() {
  local id
  for id in "$@"; do
    if job_states "$id" | grep -qv ' COMPLETED '; then
      echo "job $id: not every task COMPLETED:" >&2; job_states "$id" >&2; return 1
    fi
  done
}
# compare DIR UNSHARDED: every trace's merged table and chart (DIR/results) against the unsharded sweep's
# (in UNSHARDED); says one line per file
DIFFS=0
compare() {
  local dir=$1 ref=$2 trace f
  for trace in "${TRACE_LIST[@]}"; do
    for f in "$trace.txt" "$trace.svg"; do
      if cmp -s "$dir/results/$f" "$ref/$f"; then
        say "  same   results/$f = unsharded ($(wc -c < "$dir/results/$f") bytes, sha256 $(sha256sum < "$dir/results/$f" | cut -c1-16))"
      else
        say "  DIFFER results/$f vs unsharded/$f"
        diff <(cat "$dir/results/$f" 2>&1) "$ref/$f" | head -20 >&2 || true
        DIFFS=$((DIFFS + 1))
      fi
    done
    say "  $trace: $(points "$dir/parts/$trace") points in $(find "$dir/parts/$trace" -name 'part-*.json' | wc -l) parts; $(wc -l < "$ref/$trace.txt") lines in the table"
  done
}
# points DIR: how many points the parts in DIR hold
points() {
  python3 -c 'import json, sys; print(sum(len(json.load(open(f))["results"]) for f in sys.argv[1:]))' "$1"/part-*.json
}
SUMMARY=()
say() { echo "$*"; SUMMARY+=("$*"); }
# submit DIR SCRIPT: run the doc's commands of SCRIPT (submit.sh or rerun.sh) in DIR; sets ARRAY (the job id
# the script keeps in a variable: the array, or the re-run task) and MERGE (the job id sbatch printed)
submit() {
  local dir=$1 out
  out=$(cd "$dir" && bash -euo pipefail -x "$2" 2>"$dir/$2.trace")
  echo "$out"
  cat "$dir/$2.trace" >&2
  ARRAY=$(sed -nE "s/^\+* *[a-z]+='?([0-9]+)(;[^']*)?'?$/\1/p" "$dir/$2.trace" | head -1)
  MERGE=$(sed -nE 's/^Submitted batch job ([0-9]+).*/\1/p' <<< "$out" | tail -1)
  [[ -n $ARRAY && -n $MERGE ]] || { echo "could not read the job ids of $2" >&2; exit 1; }
}

# run_round DIR: the doc's scripts in DIR, submitted with DIR/bin first on the PATH the jobs inherit; waits
# for the array and the merge; sets T0 (when it submitted), ARRAY and MERGE
run_round() {
  write_recipe "$1"
  export PATH=$1/bin:$PATH
  log "submitting in $1"
  T0=$SECONDS
  submit "$1" submit.sh
  wait_jobs "$WAIT" "$ARRAY" "$MERGE"
}

WORK=$BASE/work
say "slurm-sweep-recipe: $(date -u +%FT%TZ), $(slurmctld -V), $(hostname) ($(nproc) cores), schedlab $("$BIN" --version 2>/dev/null | head -1)"
RECIPE_HASH=$(for k in '`sweep.sbatch`' '`merge.sbatch`' 'Submit both' 'DependencyNeverSatisfied'; do doc_block "$k"; done |
  sha256sum | cut -c1-16)
say "recipe: docs/cluster.md's four code blocks (sha256 $RECIPE_HASH); traces: ${TRACE_LIST[*]}; shards: $SHARDS; array tasks: $TASKS"

# ---------------------------------------------------------------- round 1: as the doc says
R1=$WORK/round1
mkdir -p "$R1/bin"
ln -s "$BIN" "$R1/bin/schedlab"
run_round "$R1"
say "round 1: array $ARRAY and merge $MERGE (--dependency=afterok) ended after $((SECONDS - T0)) s"
all_completed "$ARRAY" "$MERGE"
say "  every one of $(job_states "$ARRAY" | wc -l) array tasks and the merge COMPLETED; the tasks ran on $(
  scontrol -o show job "$ARRAY" | grep -oE ' NodeList=[^ ]+' | cut -d= -f2 | sort -u | paste -sd,)"
# the merge started only once the last task had ended
last_end=$(scontrol -o show job "$ARRAY" | grep -oE 'EndTime=[^ ]+' | sort | tail -1 | cut -d= -f2)
merge_start=$(scontrol -o show job "$MERGE" | grep -oE 'StartTime=[^ ]+' | cut -d= -f2)
[[ ! $merge_start < $last_end ]] || { say "  the merge started ($merge_start) before the last task ended ($last_end)"; exit 1; }
say "  last task ended $last_end, the merge started $merge_start"
PATH=${PATH#"$R1/bin:"}
unsharded "$R1"
compare "$R1" "$R1/unsharded"

# ---------------------------------------------------------------- round 2: a task fails once, re-run alone
if [[ $FAILROUND == 1 ]]; then
  R2=$WORK/round2
  FAIL_TASK=$((TASKS > 1 ? TASKS - 2 : 0))
  mkdir -p "$R2/bin"
  # the nodes' schedlab: fails once for the array task FAIL_TASK (while the mark exists), else the binary
  cat > "$R2/bin/schedlab" <<EOF
#!/bin/bash
if [[ \${SLURM_ARRAY_TASK_ID:-} == $FAIL_TASK ]] && rm "$R2/fail-once" 2>/dev/null; then
  echo "schedlab: failing on purpose (slurm-sweep-recipe.sh round 2)" >&2
  exit 1
fi
exec "$BIN" "\$@"
EOF
  chmod +x "$R2/bin/schedlab"
  : > "$R2/fail-once"
  log "round 2: task $FAIL_TASK fails once"
  run_round "$R2"
  failed=$(job_states "$ARRAY" | awk '$2 != "COMPLETED"' | tr '\n' ' ')
  merge_state=$(job_states "$MERGE")
  say "round 2: array $ARRAY: not completed: ${failed:-none}; merge: $merge_state"
  [[ $failed == "${ARRAY}_${FAIL_TASK} FAILED "* && $(wc -w <<< "$failed") == 3 ]] ||
    { say "  expected task $FAIL_TASK alone FAILED"; exit 1; }
  [[ $merge_state == *" PENDING DependencyNeverSatisfied" ]] ||
    { say "  expected the merge pending with DependencyNeverSatisfied"; exit 1; }
  # the doc's re-run: cancel the merge, the failed task alone, the merge again after it
  adjust "$R2/rerun.sh" '^scancel MERGE_JOB_ID$' "scancel $MERGE"
  adjust "$R2/rerun.sh" '--array=13 ' "--array=$FAIL_TASK "
  say "  re-run (the doc's commands): $(paste -sd';' "$R2/rerun.sh" | sed 's/;/; /g')"
  submit "$R2" rerun.sh
  wait_jobs "$WAIT" "$ARRAY" "$MERGE"
  all_completed "$ARRAY" "$MERGE"
  say "  re-run $ARRAY and merge $MERGE COMPLETED, $((SECONDS - T0)) s after the first submission"
  PATH=${PATH#"$R2/bin:"}
  compare "$R2" "$R1/unsharded"
fi

if [[ $DIFFS == 0 ]]; then
  say "PASS: every merged table and chart equals the unsharded sweep's, byte for byte"
else
  say "FAIL: $DIFFS merged files differ from the unsharded sweep's"
fi
[[ -z $RECORD ]] || printf '%s\n' "${SUMMARY[@]}" > "$RECORD"
[[ $DIFFS == 0 ]]
