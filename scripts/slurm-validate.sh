#!/usr/bin/env bash
# Run a seeded workload on a real Slurm (Debian's slurm-wlm 22.05) on this one host, from a fresh state,
# and dump what Slurm did: the ground truth that schedlab's `slurm` policy is checked against (issue 34).
#
# Needs root: it installs packages, makes users, and starts munged, mariadbd, slurmdbd, slurmctld and four
# slurmd (started directly, not through systemd).
#
#   sudo scripts/slurm-validate.sh [-s SEED] [-c CONFIG] [-j JOBS] [-w WINDOW] [-o OUTDIR] [-k] [-g] [-d] [-x]
#     -s SEED     workload seed (default 1)
#     -c CONFIG   fairshare | smallbf | gpu | tiers | multipart | limits | qos | qoslimits | assoclimits |
#                 usage | billing | billingmax
#                 (default fairshare)
#                   fairshare: priority dominated by fairshare (PriorityWeightFairshare=100000), skewed users
#                   smallbf:   bf_window=2 (minutes), priority dominated by age
#                   gpu:       most jobs ask for GPUs (8 on the cluster), PriorityWeightTRES on GRES/gpu
#                   tiers:     three partitions over shared nodes: batch n[1-4] (default), short n[1-2]
#                              (PriorityTier=2, PriorityJobFactor=4, MaxTime=5), gpu n[3-4]
#                              (PriorityJobFactor=2); PriorityWeightPartition, PriorityWeightJobSize
#                              with PriorityFavorSmall=YES; jobs go to one partition each
#                   multipart: tiers' three partitions and weights, short's MaxTime=2; about half the jobs
#                              are submitted to two or three partitions (sbatch -p short,batch), in orders
#                              that are not always Slurm's (it sorts a job's list by PriorityTier); each job
#                              fits the limits and nodes of every partition it names
#                   limits:    the classic fairshare formula (PriorityFlags=NO_FAIR_TREE) and backfill's
#                              limits: bf_max_job_test=10, bf_max_job_user=3, default_queue_depth=5;
#                              skewed users as fairshare's
#                   qos:       three QOS (sacctmgr): high (Priority=100), normal (10), low (0); each job asks
#                              one with --qos; PriorityWeightQOS=10000 over fairshare 2000 and age 1000
#                   qoslimits: qos's three QOS and weights, with QOS limits enforced
#                              (AccountingStorageEnforce=associations,limits,qos): normal MaxJobsPU=2,
#                              high MaxTRESPU=cpu=16, low GrpTRES=cpu=12 and GrpJobs=3; low jobs take one
#                              node and high jobs at most 16 CPUs, so every job fits its QOS's limits
#                   assoclimits: association limits (sacctmgr, on accounts and users), enforced
#                              (AccountingStorageEnforce=associations,limits), no QOS weight: account phys
#                              GrpTRES=cpu=16, chem GrpJobs=3, bio GrpTRES=node=3,gres/gpu=2, eng MaxJobs=1
#                              MaxTRES=cpu=8 MaxWall=3 (inherited by frank's association); user alice
#                              MaxJobs=2 (both her associations), bob MaxJobs=1, carol GrpTRES=cpu=12,mem=16000;
#                              fairshare 2000, age 1000; every job fits its limits alone
#                   usage:     usage and minutes limits, enforced (AccountingStorageEnforce=associations,limits,qos),
#                              no QOS weight: three QOS, each job asks one with --qos: normal (UsageFactor 1),
#                              double (UsageFactor=2), half (UsageFactor=0.5, MaxTRESMins=cpu=64 per job);
#                              account chem GrpTRESRunMins=cpu=100, eng MaxTRESMins=cpu=24 (inherited by
#                              frank's association), user erin GrpTRESMins=cpu=50; fairshare 10000, age 1000;
#                              every job fits its limits alone
#                   billing:   fairshare usage charged by the partition's TRESBillingWeights
#                              ("CPU=1.0,Mem=0.25G,GRES/gpu=4.0" on batch), priority dominated by fairshare
#                              (100000, age 1000); half the jobs or more ask for GPUs; skewed users as
#                              fairshare's
#                   billingmax: billing's weights with PriorityFlags=MAX_TRES (a job's billing the largest
#                              of its weighted CPUs, memory, nodes and GRES, not their sum)
#     -j JOBS     number of jobs (default 60)
#     -w WINDOW   arrival window in seconds: arrivals are spread over it (default 240)
#     -o OUTDIR   where the dump goes (default tests/data/slurm/CONFIG-SEED/run1, or run2 if run1 exists)
#     -k          keep the daemons running after the dump (default: stop them)
#     -g          only generate the workload file (into OUTDIR) and exit; needs no root
#     -d          debug log: SlurmctldDebug=debug and DebugFlags=Backfill,BackfillMap, and slurmctld.log
#                 kept in OUTDIR (gzipped: slurmctld.log.gz); the run's decisions are Slurm's all the same
#     -x          the exports' checks: job JOBS/2 is submitted as an array of four (--array=1-4, each element
#                 the job's shape), job JOBS/3 asks for the whole cluster (4 nodes, 8 tasks each) and is
#                 cancelled 20 s after its submission, while it waits (a held job, never eligible, is not
#                 in sacct's output at all), and sacct's JSON of the run (sacct -X -a --json) dumped beside
#                 sacct.txt as sacct.json
#
# Every run starts from the same fresh state: the daemons of an earlier run stopped, an empty accounting
# database (mariadb's data directory made anew), empty controller state and slurmd spool directories, the
# same users, accounts and shares. State lives under $SLURMLAB_BASE (default /var/tmp/schedlab-slurm).
#
# The cluster: n[1-4] on this host (ports 17001-17004, SlurmdParameters=config_overrides), 8 CPUs,
# 16000 MB and gpu:2 each (device files are dummy files under the state directory), one partition `batch`
# (tiers: three),
# select/cons_tres with CR_Core_Memory, sched/backfill, priority/multifactor, accounting to slurmdbd.
#
# Output files in OUTDIR:
#   workload.csv       the generated jobs (id,name,arrival_s,user,account,nodes,tasks_per_node,mem_mb_per_node,
#                      gpus_per_node,timelimit_min,sleep_s[,partition][,qos]: partition only for tiers and
#                      multipart (multipart: a list joined by ':', submitted as -p a,b), qos only for qos)
#   submit.log         when each job was submitted (seconds after the run's t0) and its Slurm job id
#   sacct.txt          sacct -X -P -a ... of every job (parsable, '|' separated, ISO times)
#   sacct.json         with -x only: sacct -X -a --json of the same jobs (Slurm's JSON, read as sacct.txt is)
#   sshare-start.txt   sshare -a -l -P taken after the accounts were made, before the first submission
#   sshare-end.txt     the same once every job ended
#   squeue.log         squeue snapshots (every 10 s: epoch|jobid|name|state|priority|reason)
#   slurm.conf, gres.conf, slurmdbd.conf (password removed)  the configuration used
#   accounts.txt       sacctmgr show assoc of the tree the run used
#   qos.txt            sacctmgr show qos format=Name,Priority -P: every QOS's priority (qos only); for
#                      qoslimits format=Name,Priority,MaxJobsPU,MaxTRESPU,GrpTRES,GrpJobs,MaxWall,Flags -P:
#                      the priorities and the limits
#                      usage: format=Name,Priority,UsageFactor,MaxJobsPU,MaxTRESPU,GrpTRES,GrpJobs,MaxWall,
#                      GrpTRESMins,GrpTRESRunMins,MaxTRESMins,Flags -P (and assoc.txt with the minutes limits'
#                      columns after MaxWall: GrpTRESMins,GrpTRESRunMins,MaxTRESMins)
#   assoc.txt          assoclimits only: sacctmgr show assoc
#                      format=Cluster,Account,User,Partition,ParentName,Share,GrpJobs,GrpTRES,MaxJobs,MaxTRES,MaxWall -P
#   assoc-mgr.txt      assoclimits only: scontrol show assoc_mgr flags=assoc before the first submission
#   run.txt            the command, seed, config, host, versions, t0 and the run's duration
#   slurmctld.log.gz   with -d only: the controller's log at debug level with the backfill flags
set -euo pipefail

SEED=1
CONFIG=fairshare
JOBS=60
WINDOW=240
OUT=
KEEP=0
GENONLY=0
DEBUGLOG=0
EXPORTS=0
while getopts "s:c:j:w:o:kgdxh" opt; do
  case $opt in
    s) SEED=$OPTARG ;;
    c) CONFIG=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    w) WINDOW=$OPTARG ;;
    o) OUT=$OPTARG ;;
    k) KEEP=1 ;;
    g) GENONLY=1 ;;
    d) DEBUGLOG=1 ;;
    x) EXPORTS=1 ;;
    h) sed -n '2,62p' "$0"; exit 0 ;;
    *) echo "usage: $0 [-s SEED] [-c fairshare|smallbf|gpu|tiers|multipart|limits|qos|qoslimits|assoclimits|usage|billing|billingmax] [-j JOBS] [-w WINDOW] [-o OUTDIR] [-k] [-g] [-d] [-x]" >&2; exit 2 ;;
  esac
done
case $CONFIG in fairshare|smallbf|gpu|tiers|multipart|limits|qos|qoslimits|assoclimits|usage|billing|billingmax) ;; *) echo "unknown configuration '$CONFIG' (fairshare, smallbf, gpu, tiers, multipart, limits, qos, qoslimits, assoclimits, usage, billing, billingmax)" >&2; exit 2 ;; esac

REPO=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z $OUT ]]; then
  d=$REPO/tests/data/slurm/$CONFIG-$SEED
  if [[ -e $d/run1/sacct.txt ]]; then OUT=$d/run2; else OUT=$d/run1; fi
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# ---------------------------------------------------------------- the workload (seeded, no root needed)
gen_workload() {
python3 - "$SEED" "$CONFIG" "$JOBS" "$WINDOW" "$EXPORTS" > "$OUT/workload.csv" <<'PY'
import math, random, sys
seed, config, n, window = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
exports = sys.argv[5] == "1"  # -x: one job an array of four, one held and cancelled while pending
rng = random.Random(f"{config}-{seed}")
# (user, account, weight of submissions): the tree is the same for every configuration
users = [("alice", "phys", 4), ("bob", "phys", 1), ("carol", "chem", 2), ("dave", "chem", 1),
         ("erin", "bio", 2), ("frank", "eng", 1), ("alice", "bio", 1)]
if config in ("fairshare", "limits", "billing", "billingmax"):  # one heavy user per account: fairshare and bf_max_job_user act
    users = [("alice", "phys", 8), ("bob", "phys", 1), ("carol", "chem", 4), ("dave", "chem", 1),
             ("erin", "bio", 1), ("frank", "eng", 2), ("alice", "bio", 1)]
tiers = config == "tiers"
multipart = config == "multipart"
qos = config in ("qos", "qoslimits", "usage")
qoslimits = config == "qoslimits"
print("id,name,arrival_s,user,account,nodes,tasks_per_node,mem_mb_per_node,gpus_per_node,timelimit_min,sleep_s"
      + (",partition" if tiers or multipart else "") + (",qos" if qos else "") + (",extra" if exports else ""))
t = 0.0
mean_gap = window / n
for i in range(1, n + 1):
    # arrivals: exponential gaps, with one burst in five (several jobs at nearly the same time)
    t += rng.expovariate(1.0 / mean_gap) if rng.random() > 0.2 else rng.uniform(0, 2)
    user, account, _ = rng.choices(users, weights=[u[2] for u in users])[0]
    nodes = rng.choices([1, 2, 4], weights=[8, 2, 1])[0]
    tpn = rng.choices([1, 2, 4, 8], weights=[3, 3, 3, 2])[0]
    if nodes == 4 and tpn == 8 and rng.random() < 0.5:
        tpn = 4
    mem = tpn * rng.choice([500, 1000, 2000])
    if config == "gpu":
        gpus = rng.choices([0, 1, 2], weights=[3, 5, 2])[0]
    elif config in ("billing", "billingmax"):
        gpus = rng.choices([0, 1, 2], weights=[4, 4, 2])[0]
    elif tiers or multipart:
        gpus = rng.choices([0, 1, 2], weights=[6, 3, 1])[0]
    else:
        gpus = rng.choices([0, 1, 2], weights=[17, 2, 1])[0]
    # run time 5..120 s, short ones more likely; the limit in whole minutes (Slurm's unit)
    run = int(min(120, max(5, rng.lognormvariate(math.log(35), 0.7))))
    limit = math.ceil(run / 60) + rng.choices([0, 1, 2], weights=[3, 2, 1])[0]
    if rng.random() < 0.12:  # runs into its limit: killed by Slurm
        limit = rng.choice([1, 1, 2])
        run = limit * 60 + rng.randint(20, 60)
    row = f"{i},w{i:03d},{t:.1f},{user},{account},{nodes},{tpn},{mem},{gpus},{limit},{run}"
    if tiers:
        # short (n[1-2], MaxTime 5): about half the jobs that fit its limit and nodes; gpu (n[3-4]):
        # most jobs asking for GPUs on at most two nodes; the rest batch (n[1-4])
        if limit <= 5 and nodes <= 2 and rng.random() < 0.5:
            part = "short"
        elif gpus > 0 and nodes <= 2 and rng.random() < 0.7:
            part = "gpu"
        else:
            part = "batch"
        row += f",{part}"
    if multipart:
        # the partitions named, joined by ':' (sbatch gets them joined by ','): short (n[1-2], MaxTime 2)
        # only for jobs within its limit on at most two nodes, gpu (n[3-4]) only for jobs on at most two
        # nodes; some lists name batch before short (Slurm tries short first: its PriorityTier is higher)
        small, fits_short = nodes <= 2, limit <= 2 and nodes <= 2
        if gpus > 0 and small:
            opts = [("gpu:batch", 4), ("gpu", 2), ("batch:gpu", 1)]
            if fits_short:
                opts += [("short:gpu", 2), ("short:gpu:batch", 2)]
        elif fits_short:
            opts = [("short:batch", 4), ("short", 2), ("batch", 2), ("batch:short", 1),
                    ("short:gpu:batch", 2), ("gpu:short", 1)]
        elif small:
            opts = [("batch", 3), ("batch:gpu", 2), ("gpu:batch", 2), ("gpu", 1)]
        else:
            opts = [("batch", 1)]
        row += "," + rng.choices([o[0] for o in opts], weights=[o[1] for o in opts])[0]
    if qos:
        # the QOS asked with --qos: high for one job in five, low for three in ten, the rest normal
        q = rng.choices(["high", "normal", "low"], weights=[2, 5, 3])[0]
        if config == "usage":
            q = rng.choices(["double", "normal", "half"], weights=[3, 4, 3])[0]
        if qoslimits:
            # every job fits its QOS's limits (a job over one would pend for ever): low (GrpTRES=cpu=12)
            # on one node, high (MaxTRESPU=cpu=16) on at most 16 CPUs
            if q == "low":
                nodes = 1
            elif q == "high" and nodes * tpn > 16:
                nodes = max(1, 16 // tpn)
            row = f"{i},w{i:03d},{t:.1f},{user},{account},{nodes},{tpn},{mem},{gpus},{limit},{run}"
        if config == "usage":
            # every job fits its limits alone (a job over one would pend for ever): CPU-minutes asked
            # (CPUs times the limit in minutes) at most 64 in half (MaxTRESMins), 100 in chem
            # (GrpTRESRunMins), 24 in eng (MaxTRESMins), 40 for erin (under her GrpTRESMins)
            cap = 64 if q == "half" else 10**6
            cap = min(cap, {"chem": 100, "eng": 24}.get(account, 10**6))
            if user == "erin":
                cap = min(cap, 40)
            while nodes * tpn * limit > cap:
                if nodes > 1:
                    nodes //= 2
                elif tpn > 1:
                    tpn //= 2
                else:
                    limit -= 1
            mem = min(mem, tpn * 2000)
            row = f"{i},w{i:03d},{t:.1f},{user},{account},{nodes},{tpn},{mem},{gpus},{limit},{run}"
        row += "," + q
    if config == "assoclimits":
        # every job fits its association's limits alone (a job over one would pend for ever or be
        # refused): phys GrpTRES=cpu=16, carol GrpTRES=cpu=12,mem=16000, bio GrpTRES=node=3,gres/gpu=2,
        # eng MaxTRES=cpu=8 MaxWall=3
        cap = {"phys": 16, "eng": 8}.get(account, 32)
        if user == "carol":
            cap = 12
        while nodes * tpn > cap:
            if nodes > 1:
                nodes //= 2
            else:
                tpn //= 2
        if user == "carol":
            while nodes * mem > 16000 and nodes > 1:
                nodes //= 2
            mem = min(mem, 16000 // nodes)
        if account == "bio":
            nodes = min(nodes, 2)
            gpus = min(gpus, 2 // nodes)
        if account == "eng" and limit > 3:
            limit = 3
        row = f"{i},w{i:03d},{t:.1f},{user},{account},{nodes},{tpn},{mem},{gpus},{limit},{run}"
    if exports:  # no random draw: the workload is the one without -x
        if i == n // 3:  # the whole cluster: it waits, and is cancelled while it waits
            row = f"{i},w{i:03d},{t:.1f},{user},{account},4,8,{mem},0,{limit},{run}"
        row += "," + {n // 2: "array4", n // 3: "cancel"}.get(i, "")
    print(row)
PY
}
gen_workload
echo "workload: $OUT/workload.csv ($JOBS jobs, config $CONFIG, seed $SEED)"
if [[ $GENONLY == 1 ]]; then exit 0; fi

if [[ $(id -u) != 0 ]]; then
  echo "$0 needs root: it installs Slurm, makes users and starts munged, mariadbd and the Slurm daemons" >&2
  exit 1
fi

BASE=${SLURMLAB_BASE:-/var/tmp/schedlab-slurm}
HOST=$(hostname)
export SLURM_CONF=$BASE/etc/slurm.conf
CTLD_PORT=16817
NODE_PORTS=17001-17004
# shellcheck source=scripts/slurm-lib.sh
source "$REPO/scripts/slurm-lib.sh"

# ---------------------------------------------------------------- install
slurm_install slurmctld slurmd slurmdbd slurm-client munge mariadb-server

# ---------------------------------------------------------------- stop an earlier run
stop_all() {
  [[ -f $BASE/run/poller.pid ]] && stop_pidfile "$BASE/run/poller.pid"
  slurm_stop
}
log "stopping an earlier run's daemons, if any"
stop_all
rm -rf "$BASE/state" "$BASE/spool" "$BASE/log" "$BASE/mysql" "$BASE/etc" "$BASE/run" "$BASE/dev"
mkdir -p "$BASE"/{state,spool,log,etc,run,dev}
# dummy GPUs: character devices (major 195 as NVIDIA's); Slurm 22.05 takes a regular file too but logs
# "is not a valid character or block device" for it
for k in 1 2 3 4; do
  mkdir -p "$BASE/spool/n$k"
  for g in 0 1; do mknod "$BASE/dev/n${k}gpu$g" c 195 $(((k - 1) * 2 + g)) 2>/dev/null || : > "$BASE/dev/n${k}gpu$g"; done
done

# ---------------------------------------------------------------- users
for u in alice bob carol dave erin frank; do
  id "$u" >/dev/null 2>&1 || useradd -M -s /usr/sbin/nologin "$u"
done

# ---------------------------------------------------------------- munge
slurm_start_munge

# ---------------------------------------------------------------- mariadb, empty
log "making an empty mariadb"
DBPORT=13306
mariadb-install-db --no-defaults --user=root --datadir="$BASE/mysql" --auth-root-authentication-method=socket \
  > "$BASE/log/mysql-install.log" 2>&1
setsid mariadbd --no-defaults --user=root --datadir="$BASE/mysql" --socket="$BASE/run/mysql.sock" \
  --port=$DBPORT --bind-address=127.0.0.1 --skip-name-resolve --pid-file="$BASE/run/mysqld.pid" \
  --log-error="$BASE/log/mysqld.log" --innodb-buffer-pool-size=256M --innodb-lock-wait-timeout=900 \
  </dev/null >/dev/null 2>&1 &
for _ in $(seq 100); do mariadb -S "$BASE/run/mysql.sock" -e 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
mariadb -S "$BASE/run/mysql.sock" <<'SQL'
CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'slurmpw';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
FLUSH PRIVILEGES;
SQL

# ---------------------------------------------------------------- configuration
case $CONFIG in
  fairshare)
    PRIO="PriorityWeightFairshare=100000
PriorityWeightAge=1000
PriorityWeightJobSize=0
PriorityWeightPartition=0
PriorityWeightQOS=0"
    SCHED="bf_interval=5,bf_resolution=10,bf_window=30,bf_max_job_test=500,sched_interval=10"
    ;;
  smallbf)
    PRIO="PriorityWeightFairshare=2000
PriorityWeightAge=10000
PriorityWeightJobSize=1000
PriorityWeightPartition=0
PriorityWeightQOS=0"
    SCHED="bf_interval=5,bf_resolution=10,bf_window=2,bf_max_job_test=500,sched_interval=10"
    ;;
  gpu)
    PRIO="PriorityWeightFairshare=10000
PriorityWeightAge=5000
PriorityWeightJobSize=0
PriorityWeightPartition=0
PriorityWeightQOS=0
PriorityWeightTRES=CPU=1000,GRES/gpu=4000"
    SCHED="bf_interval=5,bf_resolution=10,bf_window=30,bf_max_job_test=500,sched_interval=10"
    ;;
  tiers|multipart)
    PRIO="PriorityWeightFairshare=2000
PriorityWeightAge=3000
PriorityWeightJobSize=2000
PriorityWeightPartition=10000
PriorityWeightQOS=0"
    SCHED="bf_interval=5,bf_resolution=10,bf_window=30,bf_max_job_test=500,sched_interval=10"
    ;;
  limits)
    PRIO="PriorityFlags=NO_FAIR_TREE
PriorityWeightFairshare=20000
PriorityWeightAge=5000
PriorityWeightJobSize=1000
PriorityWeightPartition=0
PriorityWeightQOS=0"
    SCHED="bf_interval=5,bf_resolution=10,bf_window=30,bf_max_job_test=10,bf_max_job_user=3,default_queue_depth=5,sched_interval=10"
    ;;
  assoclimits)
    PRIO="PriorityWeightFairshare=2000
PriorityWeightAge=1000
PriorityWeightJobSize=0
PriorityWeightPartition=0
PriorityWeightQOS=0"
    SCHED="bf_interval=5,bf_resolution=10,bf_window=30,bf_max_job_test=500,sched_interval=10"
    ;;
  usage)
    PRIO="PriorityWeightFairshare=10000
PriorityWeightAge=1000
PriorityWeightJobSize=0
PriorityWeightPartition=0
PriorityWeightQOS=0"
    SCHED="bf_interval=5,bf_resolution=10,bf_window=30,bf_max_job_test=500,sched_interval=10"
    ;;
  billing|billingmax)
    PRIO="PriorityWeightFairshare=100000
PriorityWeightAge=1000
PriorityWeightJobSize=0
PriorityWeightPartition=0
PriorityWeightQOS=0"
    if [[ $CONFIG == billingmax ]]; then PRIO="PriorityFlags=MAX_TRES
$PRIO"; fi
    SCHED="bf_interval=5,bf_resolution=10,bf_window=30,bf_max_job_test=500,sched_interval=10"
    ;;
  qos|qoslimits)
    PRIO="PriorityWeightFairshare=2000
PriorityWeightAge=1000
PriorityWeightJobSize=0
PriorityWeightPartition=0
PriorityWeightQOS=10000"
    SCHED="bf_interval=5,bf_resolution=10,bf_window=30,bf_max_job_test=500,sched_interval=10"
    ;;
esac
FAVOR=NO
ENFORCE=associations
if [[ $CONFIG == qoslimits || $CONFIG == usage ]]; then ENFORCE=associations,limits,qos; fi
if [[ $CONFIG == assoclimits ]]; then ENFORCE=associations,limits; fi
PARTS="PartitionName=batch Nodes=n[1-4] Default=YES MaxTime=INFINITE State=UP"
if [[ $CONFIG == tiers || $CONFIG == multipart ]]; then
  FAVOR=YES
  PARTS="PartitionName=batch Nodes=n[1-4] Default=YES MaxTime=INFINITE PriorityJobFactor=1 PriorityTier=1 State=UP
PartitionName=short Nodes=n[1-2] MaxTime=5 PriorityJobFactor=4 PriorityTier=2 State=UP
PartitionName=gpu Nodes=n[3-4] MaxTime=INFINITE PriorityJobFactor=2 PriorityTier=1 State=UP"
fi
if [[ $CONFIG == billing || $CONFIG == billingmax ]]; then
  # usage charged by weights: a CPU 1, a GB of memory 0.25 (Mem's unit is MB unless suffixed), a GPU 4
  PARTS="PartitionName=batch Nodes=n[1-4] Default=YES MaxTime=INFINITE TRESBillingWeights=\"CPU=1.0,Mem=0.25G,GRES/gpu=4.0\" State=UP"
fi
if [[ $CONFIG == multipart ]]; then
  PARTS=${PARTS/short Nodes=n\[1-2\] MaxTime=5/short Nodes=n[1-2] MaxTime=2}
fi
# -d: the controller's log at debug level with the backfill flags (the committed runs' configs keep info)
HEAD=$(slurm_conf_head)
if [[ $DEBUGLOG == 1 ]]; then
  HEAD=$(sed 's/^SlurmctldDebug=.*/SlurmctldDebug=debug\nDebugFlags=Backfill,BackfillMap/' <<< "$HEAD")
fi

cat > "$BASE/etc/slurm.conf" <<EOF
# made by scripts/slurm-validate.sh -c $CONFIG (schedlab, issue 34)
$HEAD
# scheduling
SchedulerType=sched/backfill
SchedulerParameters=$SCHED
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=500
GresTypes=gpu
# priority
PriorityType=priority/multifactor
PriorityCalcPeriod=1
PriorityDecayHalfLife=0-0:10
PriorityMaxAge=0-0:10
PriorityFavorSmall=$FAVOR
$PRIO
# accounting
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=16819
AccountingStorageEnforce=$ENFORCE
AccountingStorageTRES=gres/gpu
JobCompType=jobcomp/none
# cluster: four nodes on this one host
NodeName=n[1-4] NodeHostname=$HOST Port=$NODE_PORTS CPUs=8 Sockets=1 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=16000 Gres=gpu:2 State=UNKNOWN
$PARTS
EOF
: > "$BASE/etc/gres.conf"
for k in 1 2 3 4; do
  echo "NodeName=n$k Name=gpu File=$BASE/dev/n${k}gpu[0-1]" >> "$BASE/etc/gres.conf"
done
cat > "$BASE/etc/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v1
EOF
cat > "$BASE/etc/slurmdbd.conf" <<EOF
AuthType=auth/munge
DbdHost=localhost
DbdPort=16819
SlurmUser=root
LogFile=$BASE/log/slurmdbd.log
PidFile=$BASE/run/slurmdbd.pid
DebugLevel=info
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DBPORT
StorageUser=slurm
StoragePass=slurmpw
StorageLoc=slurm_acct_db
EOF
chmod 600 "$BASE/etc/slurmdbd.conf"

# ---------------------------------------------------------------- slurmdbd, accounts
log "starting slurmdbd"
slurmdbd
for _ in $(seq 100); do sacctmgr -n show cluster >/dev/null 2>&1 && break; sleep 0.3; done
sacctmgr -i add cluster schedlab >/dev/null
# the tree: root -> phys 40, chem 30, bio 20, eng 10; users share their account equally (1 share each)
sacctmgr -i add account phys,chem,bio,eng cluster=schedlab >/dev/null
sacctmgr -i modify account where name=phys cluster=schedlab set fairshare=40 >/dev/null
sacctmgr -i modify account where name=chem cluster=schedlab set fairshare=30 >/dev/null
sacctmgr -i modify account where name=bio cluster=schedlab set fairshare=20 >/dev/null
sacctmgr -i modify account where name=eng cluster=schedlab set fairshare=10 >/dev/null
add_user() { sacctmgr -i add user "$1" account="$2" cluster=schedlab fairshare=1 >/dev/null; }
add_user alice phys; add_user bob phys; add_user carol chem; add_user dave chem
add_user erin bio; add_user alice bio; add_user frank eng
sacctmgr -i modify user where name=alice set defaultaccount=phys >/dev/null
if [[ $CONFIG == qos || $CONFIG == qoslimits ]]; then
  # the QOS: normal (made with the cluster) at priority 10, high at 100, low at 0; every association
  # may use all three (normal stays the default)
  sacctmgr -i modify qos where name=normal set priority=10 >/dev/null
  sacctmgr -i add qos high priority=100 >/dev/null
  sacctmgr -i add qos low priority=0 >/dev/null
  for u in alice bob carol dave erin frank; do
    sacctmgr -i modify user where name=$u cluster=schedlab set qos+=high,low >/dev/null
  done
fi
if [[ $CONFIG == usage ]]; then
  # the QOS: normal (UsageFactor 1), double (usage charged twice), half (charged half, and at most 64
  # CPU-minutes asked per job); every association may use all three (normal stays the default)
  sacctmgr -i add qos double UsageFactor=2 >/dev/null
  sacctmgr -i add qos half UsageFactor=0.5 MaxTRESMins=cpu=64 >/dev/null
  for u in alice bob carol dave erin frank; do
    sacctmgr -i modify user where name=$u cluster=schedlab set qos+=double,half >/dev/null
  done
fi
if [[ $CONFIG == qoslimits ]]; then
  # the limits: two running normal jobs per user, 16 CPUs of running high jobs per user, 12 CPUs and
  # three running jobs of low over all its users
  sacctmgr -i modify qos where name=normal set MaxJobsPerUser=2 >/dev/null
  sacctmgr -i modify qos where name=high set MaxTRESPerUser=cpu=16 >/dev/null
  sacctmgr -i modify qos where name=low set GrpTRES=cpu=12 GrpJobs=3 >/dev/null
fi

# ---------------------------------------------------------------- slurmctld, slurmd
slurm_start
if [[ $CONFIG == assoclimits ]]; then
  # the association limits: Grp limits on accounts count every job of the account's users; MaxJobs,
  # MaxTRES and MaxWall set on an account are inherited by its users' associations. Set once slurmctld runs: the TRES gres/gpu
  # (AccountingStorageTRES) is made in the database when slurmctld registers
  sacctmgr -i modify account where name=phys cluster=schedlab set GrpTRES=cpu=16 >/dev/null
  sacctmgr -i modify account where name=chem cluster=schedlab set GrpJobs=3 >/dev/null
  sacctmgr -i modify account where name=bio cluster=schedlab set GrpTRES=node=3,gres/gpu=2 >/dev/null
  sacctmgr -i modify account where name=eng cluster=schedlab set MaxJobs=1 MaxTRES=cpu=8 MaxWall=3 >/dev/null
  sacctmgr -i modify user where name=alice cluster=schedlab set MaxJobs=2 >/dev/null
  sacctmgr -i modify user where name=bob cluster=schedlab set MaxJobs=1 >/dev/null
  sacctmgr -i modify user where name=carol cluster=schedlab set GrpTRES=cpu=12,mem=16000 >/dev/null
  sleep 3  # slurmdbd sends the changes to slurmctld
fi
if [[ $CONFIG == usage ]]; then
  # the minutes limits: chem's running jobs hold at most 100 CPU-minutes of their limits; an eng job asks
  # at most 24 CPU-minutes (inherited by frank's association); erin's decayed usage at most 50 CPU-minutes
  sacctmgr -i modify account where name=chem cluster=schedlab set GrpTRESRunMins=cpu=100 >/dev/null
  sacctmgr -i modify account where name=eng cluster=schedlab set MaxTRESMins=cpu=24 >/dev/null
  sacctmgr -i modify user where name=erin cluster=schedlab set GrpTRESMins=cpu=50 >/dev/null
  sleep 3  # slurmdbd sends the changes to slurmctld
fi

# ---------------------------------------------------------------- dump the configuration and the start state
cp "$BASE/etc/slurm.conf" "$BASE/etc/gres.conf" "$OUT/"
sed 's/^StoragePass=.*/StoragePass=(removed)/' "$BASE/etc/slurmdbd.conf" > "$OUT/slurmdbd.conf"
sacctmgr -n -P show assoc format=Cluster,Account,User,Partition,Share,ParentName > "$OUT/accounts.txt"
sshare -a -l -P > "$OUT/sshare-start.txt"
if [[ $CONFIG == qos ]]; then sacctmgr show qos format=Name,Priority -P > "$OUT/qos.txt"; fi
if [[ $CONFIG == qoslimits ]]; then
  sacctmgr show qos format=Name,Priority,MaxJobsPU,MaxTRESPU,GrpTRES,GrpJobs,MaxWall,Flags -P > "$OUT/qos.txt"
fi
if [[ $CONFIG == usage ]]; then
  sacctmgr show qos format=Name,Priority,UsageFactor,MaxJobsPU,MaxTRESPU,GrpTRES,GrpJobs,MaxWall,GrpTRESMins,GrpTRESRunMins,MaxTRESMins,Flags -P \
    > "$OUT/qos.txt"
  sacctmgr show assoc format=Cluster,Account,User,Partition,ParentName,Share,GrpJobs,GrpTRES,MaxJobs,MaxTRES,MaxWall,GrpTRESMins,GrpTRESRunMins,MaxTRESMins -P \
    > "$OUT/assoc.txt"
  scontrol show assoc_mgr flags=assoc,qos > "$OUT/assoc-mgr.txt"
fi
if [[ $CONFIG == assoclimits ]]; then
  sacctmgr show assoc format=Cluster,Account,User,Partition,ParentName,Share,GrpJobs,GrpTRES,MaxJobs,MaxTRES,MaxWall -P \
    > "$OUT/assoc.txt"
  scontrol show assoc_mgr flags=assoc > "$OUT/assoc-mgr.txt"  # the controller's copy: the limits arrived
fi

# ---------------------------------------------------------------- submit in real time
( while :; do
    ts=$(date +%s)
    squeue -h -a -o '%i|%j|%T|%Q|%r' 2>/dev/null | sed "s/^/$ts|/" || true
    sleep 10
  done >> "$OUT/squeue.log" ) &
echo $! > "$BASE/run/poller.pid"

LOAD0=$(cut -d" " -f1-3 /proc/loadavg)
T0=$(date +%s.%N)
log "submitting $JOBS jobs in real time (arrivals over ${WINDOW}s)"
python3 - "$OUT/workload.csv" "$T0" > "$OUT/submit.log" <<'PY'
import csv, subprocess, sys, time
path, t0 = sys.argv[1], float(sys.argv[2])
print("name,arrival_s,submitted_s,jobid")
for j in csv.DictReader(open(path)):
    wait = t0 + float(j["arrival_s"]) - time.time()
    if wait > 0:
        time.sleep(wait)
    args = ["sbatch", "--parsable", f"--uid={j['user']}", "-A", j["account"], "-p", j.get("partition", "batch").replace(":", ","),
            "-J", j["name"], "-N", j["nodes"], f"--ntasks-per-node={j['tasks_per_node']}",
            f"--mem={j['mem_mb_per_node']}", "-t", j["timelimit_min"],
            "--chdir=/tmp", "-o", "/dev/null", "-e", "/dev/null"]
    if int(j["gpus_per_node"]) > 0:
        args.append(f"--gres=gpu:{j['gpus_per_node']}")
    if j.get("qos"):
        args.append(f"--qos={j['qos']}")
    extra = j.get("extra", "")
    if extra == "array4":
        args.append("--array=1-4")
    args += ["--wrap", f"sleep {j['sleep_s']}"]
    ts = time.time() - t0
    r = subprocess.run(args, capture_output=True, text=True)
    jid = r.stdout.strip().split(";")[0] if r.returncode == 0 else "FAILED:" + r.stderr.strip().replace(",", ";")
    if extra == "cancel" and r.returncode == 0:
        # cancelled while it waits for the whole cluster, 20 s after its submission
        subprocess.Popen(["sh", "-c", f"sleep 20; scancel {jid}"])
    print(f"{j['name']},{j['arrival_s']},{ts:.2f},{jid}", flush=True)
PY
log "all submitted; waiting for the jobs to end"
failed=$(grep -c FAILED "$OUT/submit.log" || true)
[[ $failed == 0 ]] || log "WARNING: $failed submissions failed (see submit.log)"

while [[ -n $(squeue -h -o %i 2>/dev/null) ]]; do sleep 5; done
T1=$(date +%s.%N)
log "queue empty; waiting for accounting to hold every job"
FMT=JobID,JobName,User,Account,Partition,QOS,Submit,Eligible,Start,End,Elapsed,ElapsedRaw,Timelimit,TimelimitRaw,NCPUS,NNodes,NodeList,ReqCPUS,ReqNodes,ReqTRES,AllocTRES,ReqMem,State,ExitCode,Priority,Flags
sub=$(grep -vc -e FAILED -e '^name,' "$OUT/submit.log" || true)
if [[ $EXPORTS == 1 ]]; then sub=$((sub + 3)); fi  # the array's three more elements
for _ in $(seq 60); do
  n=$(sacct -X -n -P -a -S now-2days -o State | grep -cv -e PENDING -e RUNNING -e REQUEUED || true)
  [[ $n -ge $sub ]] && break
  sleep 2
done
sacct -X -P -a -S now-2days --format=$FMT > "$OUT/sacct.txt"
if [[ $EXPORTS == 1 ]]; then sacct -X -a -S now-2days --json > "$OUT/sacct.json"; fi
sshare -a -l -P > "$OUT/sshare-end.txt"
stop_pidfile "$BASE/run/poller.pid"

cat > "$OUT/run.txt" <<EOF
command: scripts/slurm-validate.sh -s $SEED -c $CONFIG -j $JOBS -w $WINDOW$([[ $DEBUGLOG == 1 ]] && echo " -d")$([[ $EXPORTS == 1 ]] && echo " -x")
config: $CONFIG
seed: $SEED
jobs: $JOBS (submitted: $sub)
arrival window: $WINDOW s
host: $HOST ($(nproc) cores)
slurm: $(slurmctld -V)
munge: $(dpkg-query -W -f '${Version}' munge)
mariadb: $(dpkg-query -W -f '${Version}' mariadb-server)
t0 (first submission clock): $(date -u -d @"${T0%.*}" +%FT%TZ) ($T0)
queue empty after: $(python3 -c "print(round($T1-$T0,1))") s
load average (1/5/15 min) at the first submission: $LOAD0; at the end: $(cut -d" " -f1-3 /proc/loadavg)
EOF
log "dump in $OUT ($(($(wc -l < "$OUT/sacct.txt") - 1)) jobs); $(grep 'queue empty' "$OUT/run.txt")"

if [[ $DEBUGLOG == 1 ]]; then
  gzip -9 -c "$BASE/log/slurmctld.log" > "$OUT/slurmctld.log.gz"
  log "slurmctld.log kept: $OUT/slurmctld.log.gz ($(du -h "$OUT/slurmctld.log.gz" | cut -f1))"
fi

if [[ $KEEP == 0 ]]; then
  log "stopping the daemons"
  stop_all
fi
