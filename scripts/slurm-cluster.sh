#!/usr/bin/env bash
# A private one-node Slurm cluster on this machine, for the scale-out test and for trying
# `framelab submit slurm` (docs/scale-out.md). Runs as root; needs Debian's slurmctld,
# slurmd, slurm-client and munge (scripts/setup.sh installs them).
#
#   bash scripts/slurm-cluster.sh start    # writes the config, starts munged, slurmctld, slurmd;
#                                          # waits until the node is idle; prints `export SLURM_CONF=…`
#   bash scripts/slurm-cluster.sh stop     # stops the three daemons it started (by their pid files)
#   bash scripts/slurm-cluster.sh env      # prints the `export SLURM_CONF=…` line
#
# Everything lives in one private folder (default .build/slurm-cluster; FRAMELAB_SLURM_DIR
# overrides): munge key and socket, slurm.conf, state, spool, logs, pid files. Nothing under
# /etc is touched. Ports: FRAMELAB_SLURM_PORT (slurmctld, default 16817) and the next one (slurmd).
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${FRAMELAB_SLURM_DIR:-$PWD/.build/slurm-cluster}
port=${FRAMELAB_SLURM_PORT:-16817}
conf=$dir/etc/slurm.conf
node=$(hostname -s)

say() { echo "slurm-cluster: $*" >&2; }
die() { say "error: $*"; exit 1; }

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Stops the daemon whose pid file is $1: SIGTERM, then up to 10 s for it to exit, then SIGKILL.
stop_daemon() {
    local pidfile=$1 name=$2 pid
    [ -f "$pidfile" ] || return 0
    pid=$(cat "$pidfile")
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$pid" 2>/dev/null; then say "$name ($pid) ignored SIGTERM; killing it"; kill -KILL "$pid" || true; fi
    fi
    rm -f "$pidfile"
}

stop() {
    # Jobs still running are slurmd's children: stopping slurmd first would orphan them.
    if pid_alive "$dir/run/slurmctld.pid" && [ -f "$conf" ]; then
        SLURM_CONF=$conf scancel --quiet --full --user=root 2>/dev/null || true
    fi
    stop_daemon "$dir/run/slurmd.pid" slurmd
    stop_daemon "$dir/run/slurmctld.pid" slurmctld
    stop_daemon "$dir/run/munged.pid" munged
    say "stopped (state kept in $dir)"
}

write_config() {
    mkdir -p "$dir"/{etc,munge,state,spool,log,run}
    chmod 700 "$dir/munge"
    if [ ! -s "$dir/munge/munge.key" ]; then
        head -c 1024 /dev/urandom > "$dir/munge/munge.key"
    fi
    chmod 400 "$dir/munge/munge.key"
    local cpus=2
    cat > "$conf" <<EOF
# Written by scripts/slurm-cluster.sh: one node ($node), one partition, private paths.
ClusterName=framelab
SlurmctldHost=$node
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
# Finished jobs stay visible to squeue/scontrol for 10 minutes (there is no accounting database).
MinJobAge=600
NodeName=$node CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

# Descriptors this shell inherited beyond stdio are closed before the daemons start, so
# the daemons do not hold them: a caller waiting for them to close (Foundation's Process
# watches a socket it gives the child) would wait for the cluster to stop. 255 is bash's
# own handle on this script.
close_inherited_descriptors() {
    local fd
    for fd in /proc/$$/fd/*; do
        fd=${fd##*/}
        case $fd in 0|1|2|255) ;; *) eval "exec $fd>&-" 2>/dev/null || true ;; esac
    done
}

start() {
    for tool in munged slurmctld slurmd sinfo; do
        command -v "$tool" >/dev/null || die "$tool not found: run scripts/setup.sh (Debian: slurmctld slurmd slurm-client munge)"
    done
    [ "$(id -u)" = 0 ] || die "the private cluster runs its daemons as root (SlurmUser=root)"
    if pid_alive "$dir/run/slurmctld.pid"; then say "already running ($dir)"; echo "export SLURM_CONF=$conf"; return 0; fi
    stop >/dev/null 2>&1 || true
    write_config
    close_inherited_descriptors
    export SLURM_CONF=$conf
    # The daemons get their own stdio (a file), not the caller's: a caller that reads our
    # output to its end (a test) would otherwise wait for the daemons to exit.
    local out=$dir/log/daemons.out
    munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
        --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" \
        </dev/null >>"$out" 2>&1 || die "munged did not start (see $dir/log/munged.log, $out)"
    # -i: ignore state left by an earlier cluster in this folder (old jobs, old node state).
    slurmctld -i </dev/null >>"$out" 2>&1 || die "slurmctld did not start (see $dir/log/slurmctld.log, $out)"
    slurmd -N "$node" </dev/null >>"$out" 2>&1 || die "slurmd did not start (see $dir/log/slurmd.log, $out)"
    local state=""
    for _ in $(seq 120); do
        state=$(sinfo --noheader --nodes="$node" --format=%T 2>/dev/null | head -n1 || true)
        [ "$state" = idle ] && break
        sleep 0.5
    done
    if [ "$state" != idle ]; then
        say "node $node is '${state:-unknown}' after 60 s; slurmctld log:"
        tail -n 20 "$dir/log/slurmctld.log" >&2 || true
        tail -n 20 "$dir/log/slurmd.log" >&2 || true
        stop
        exit 1
    fi
    say "node $node idle, partition debug, $dir"
    echo "export SLURM_CONF=$conf"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    env) echo "export SLURM_CONF=$conf" ;;
    *) echo "usage: $0 start|stop|env" >&2; exit 64 ;;
esac
