#!/bin/bash
# Copied from the project's background notes (shared/slurm/single-node.sh, whose README lists the
# pitfalls each line avoids), so that CI can start Slurm from a fresh checkout. Changed: down
# waits for each daemon to exit, so that up can remove their files right after.
# A single-node Slurm cluster on this machine, without systemd.
#   single-node.sh up     install if needed, start munged + slurmctld + slurmd, wait for an idle node
#   single-node.sh down   stop the daemons it started, by pid
#   single-node.sh demo   up, a 4-task job array, srun, down (the default)
# Runtime files live in $SLURM_DIR (default /tmp/slurm-single-node); clients need
# SLURM_CONF=$SLURM_DIR/slurm.conf in their environment.
set -euo pipefail
D=${SLURM_DIR:-/tmp/slurm-single-node}; H=$(hostname -s)
export SLURM_CONF=$D/slurm.conf

up() {
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm >/dev/null
  fi
  down 2>/dev/null || true
  rm -rf "$D"/{munge,state,spool,log,jobs}; mkdir -p "$D"/{munge,state,spool,log,jobs}
  chown munge:munge "$D/munge"; chmod 0755 "$D/munge"     # munged insists on 0755
  if [ ! -s /etc/munge/munge.key ]; then
    mungekey -c -k /etc/munge/munge.key
    chown munge:munge /etc/munge/munge.key; chmod 0400 /etc/munge/munge.key
  fi
  cat > "$D/slurm.conf" <<CONF
ClusterName=single
SlurmctldHost=$H(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge/munge.socket.2
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmdSpoolDir=$D/spool
StateSaveLocation=$D/state
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
NodeName=$H NodeAddr=127.0.0.1 CPUs=$(nproc) Sockets=1 CoresPerSocket=$(nproc) ThreadsPerCore=1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  runuser -u munge -- munged --key-file=/etc/munge/munge.key --socket="$D/munge/munge.socket.2" \
    --pid-file="$D/munge/munged.pid" --log-file="$D/munge/munged.log" --seed-file="$D/munge/munged.seed"
  slurmctld; slurmd                        # both daemonize
  for _ in $(seq 120); do [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break; sleep 0.5; done
  [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] || { echo "slurm node not idle: $(sinfo 2>&1 | tail -1)" >&2; return 1; }
  echo "export SLURM_CONF=$SLURM_CONF"
}

down() {
  for f in "$D/slurmd.pid" "$D/slurmctld.pid" "$D/munge/munged.pid"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 100); do                # wait up to 10 s for it to exit (a zombie has)
      state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || break
      { [ -z "$state" ] || [ "$state" = Z ]; } && break
      sleep 0.1
    done
  done
}

demo() {
  up
  cat > "$D/jobs/task.sh" <<'TASK'
#!/bin/bash
echo "$(hostname) $(date +%T.%N)" > out_${SLURM_ARRAY_TASK_ID}.txt
TASK
  cd "$D/jobs"
  jid=$(sbatch --parsable --array=0-3 -o slurm-%A_%a.out task.sh)
  for _ in $(seq 240); do [ -z "$(squeue -h -j "$jid" 2>/dev/null)" ] && break; sleep 0.25; done
  ls out_*.txt
  srun -n1 hostname
  down
}

"${1:-demo}"
