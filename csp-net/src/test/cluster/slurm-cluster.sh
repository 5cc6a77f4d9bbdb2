#!/bin/sh
# A single-machine Slurm cluster for SlurmLaunchTest, every file of it in one directory:
#   slurm-cluster.sh start DIR   writes DIR/slurm.conf, starts munged, slurmctld and slurmd, waits until the
#                                node takes jobs; then: SLURM_CONF=DIR/slurm.conf srun ...
#   slurm-cluster.sh stop DIR    stops the daemons it started (by their pid files in DIR)
# Needs root and Debian's slurm-wlm and munge (apt-get install slurm-wlm munge). One node, named as this host.
set -eu
cmd=$1
dir=$(realpath -m "$2")

stop_pid() {
    if [ -f "$1" ]; then
        pid=$(cat "$1")
        kill "$pid" 2>/dev/null || true
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$1"
    fi
}

case "$cmd" in
start)
    mkdir -p "$dir/state" "$dir/spool"
    host=$(hostname -s)
    cat > "$dir/slurm.conf" <<CONF
ClusterName=weft
SlurmctldHost=$host
SlurmctldPort=6917
SlurmdPort=6918
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmdSpoolDir=$dir/spool
StateSaveLocation=$dir/state
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=weft Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
    munged --force -S "$dir/munge.socket" --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
        --seed-file="$dir/munged.seed"
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF"
    i=0
    until sinfo -h -o %t 2>/dev/null | grep -qx 'idle'; do
        i=$((i + 1))
        if [ $i -gt 300 ]; then
            echo "slurm did not come up in 30 s; its logs are in $dir" >&2
            sinfo >&2 || true
            exit 1
        fi
        sleep 0.1
    done
    ;;
stop)
    stop_pid "$dir/slurmd.pid"
    stop_pid "$dir/slurmctld.pid"
    stop_pid "$dir/munged.pid"
    ;;
*)
    echo "usage: slurm-cluster.sh start|stop DIR" >&2
    exit 2
    ;;
esac
