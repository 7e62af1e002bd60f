# Sourced by scripts/slurm-validate.sh and scripts/slurm-sweep-recipe.sh: install Debian's slurm-wlm,
# start munge, write the common head of slurm.conf, start slurmctld and four slurmd (n1..n4) on this one
# host, stop them by their pid files. The daemons are started directly (not through systemd) and listen
# on this host only.
#
# The caller sets, before calling these functions:
#   BASE         the state directory (etc/ run/ log/ state/ spool/ under it)
#   SLURM_CONF   $BASE/etc/slurm.conf (exported: every Slurm command and daemon reads it)
#   CTLD_PORT    slurmctld's port (slurm-validate.sh: 16817)
#   NODE_PORTS   the four slurmd's ports, as Slurm writes a range (slurm-validate.sh: 17001-17004)

log() { echo "[$(date -u +%H:%M:%S)] $*"; }

# slurm_install PACKAGE...: install those of the packages that are missing (waits for another apt-get)
slurm_install() {
  local need=() p
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
  done
  if ((${#need[@]})); then
    log "installing ${need[*]}"
    apt-get -o DPkg::Lock::Timeout=900 update -q
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q "${need[@]}"
  fi
  # the packages' own services are not used (no systemd here); the daemons are started by slurm_start
}

# stop_pidfile FILE: stop the process whose pid the file holds, wait for it, remove the file
stop_pidfile() {
  local f=$1 pid
  [[ -f $f ]] || return 0
  pid=$(cat "$f" 2>/dev/null || true)
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

# slurm_stop: the daemons of $BASE (slurmd n1..n4, slurmctld, slurmdbd, mariadbd), those that run
slurm_stop() {
  for k in 1 2 3 4; do stop_pidfile "$BASE/run/slurmd-n$k.pid"; done
  stop_pidfile "$BASE/run/slurmctld.pid"
  stop_pidfile "$BASE/run/slurmdbd.pid"
  stop_pidfile "$BASE/run/mysqld.pid"
}

# slurm_start_munge: make the key if there is none, start munged unless a running one answers
slurm_start_munge() {
  mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
  [[ -s /etc/munge/munge.key ]] || mungekey --create --keyfile=/etc/munge/munge.key
  chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge
  chmod 700 /etc/munge; chmod 600 /etc/munge/munge.key; chmod 755 /run/munge
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    log "starting munged"
    runuser -u munge -- /usr/sbin/munged
    for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.2; done
  fi
  munge -n | unmunge >/dev/null || { echo "munge does not work" >&2; return 1; }
}

# slurm_conf_head: slurm.conf's lines up to the scheduling part (hosts, ports, paths, plugins, timeouts)
slurm_conf_head() {
  cat <<EOF
ClusterName=schedlab
SlurmctldHost=$(hostname)
SlurmctldPort=$CTLD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
StateSaveLocation=$BASE/state
SlurmdSpoolDir=$BASE/spool/%n
SlurmctldPidFile=$BASE/run/slurmctld.pid
SlurmdPidFile=$BASE/run/slurmd-%n.pid
SlurmctldLogFile=$BASE/log/slurmctld.log
SlurmdLogFile=$BASE/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
KillWait=5
OverTimeLimit=0
InactiveLimit=0
SlurmdTimeout=300
MessageTimeout=30
EOF
}

# slurm_start: slurmctld (ignoring any saved state), then slurmd n1..n4; waits for the four nodes idle
slurm_start() {
  log "starting slurmctld and slurmd n1..n4"
  slurmctld -i
  for _ in $(seq 100); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 0.3; done
  for k in 1 2 3 4; do slurmd -N "n$k"; done
  local ok=0
  for _ in $(seq 120); do
    if [[ $(sinfo -h -N -t idle -o '%N' | sort -u | wc -l) == 4 ]]; then ok=1; break; fi
    sleep 0.5
  done
  if [[ $ok != 1 ]]; then
    echo "the four nodes did not come up:" >&2; sinfo -N -l >&2; tail -20 "$BASE"/log/slurm*.log >&2
    return 1
  fi
  sinfo -N -o '%N %T %c %m %G'
}
