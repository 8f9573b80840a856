#!/bin/bash
# local-slurm.sh: a one-node Slurm cluster on this machine, for the
# end-to-end test and the campaign rehearsal. It installs Slurm and munge
# from Debian's packages (if missing), writes /etc/slurm/slurm.conf
# (MaxArraySize left at its default, 1001; RequeueExit=75; every CPU of
# this machine, shared by up to 8 jobs a CPU, or as OVERSUBSCRIBE says:
# NO for one job a CPU) and starts munged, slurmctld
# and slurmd on localhost, restarting them if they run. Needs root. Exit
# 0: the node is up; 3: this machine cannot run Slurm (no root, no
# packages, daemons that do not start).
set -euo pipefail
log() { echo "slurm: $*"; }
cannot() {
	log "SKIP: $*"
	exit 3
}
[ "$(id -u)" = 0 ] || cannot "needs root to install and start Slurm"

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	log "installing slurm-wlm and munge"
	apt-get update -qq || cannot "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null || cannot "cannot install slurm-wlm and munge"
fi

host=$(hostname -s)
cpus=$(nproc)
log "configuring Slurm for $host ($cpus CPUs) in /etc/slurm"
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge /etc/munge
if [ ! -s /etc/munge/munge.key ]; then
	dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown -R munge:munge /etc/munge /run/munge 2>/dev/null || true
chmod 400 /etc/munge/munge.key
cat >/etc/slurm/slurm.conf <<CONF
ClusterName=nqueens-e2e
SlurmctldHost=$host
AuthType=auth/munge
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobRequeue=1
RequeueExit=75
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=e2e Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=${OVERSUBSCRIBE:-FORCE:8}
CONF

log "starting munged, slurmctld, slurmd"
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged || /usr/sbin/munged --force || cannot "munged does not start"
pkill -x slurmd 2>/dev/null || true
pkill -x slurmctld 2>/dev/null || true
sleep 1
slurmctld -c || cannot "slurmctld does not start"
slurmd || cannot "slurmd does not start"
up=
for _ in $(seq 60); do
	if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
		up=1
		break
	fi
	sleep 1
done
[ -n "$up" ] || cannot "the node did not come up (see /var/log/slurm)"
sinfo

