#!/bin/bash
# e2e-local.sh: an end-to-end test of the Slurm scripts on this one machine.
# It installs Slurm and munge from Debian's packages (if missing), starts
# munged, slurmctld and slurmd on localhost, submits n = 14 as an 8-task
# array in which task 3 fails on its first attempt (exit 75, which
# RequeueExit makes Slurm requeue), merges the shards with merge.sbatch and
# checks the total (365596). Needs root; takes about a minute after the
# packages are installed. Leaves the daemons running and prints where the
# files are. Exit 0: passed; 1: failed; 3: this machine cannot run Slurm
# (no root, no packages, daemons that do not start): nothing was tested.
#
#   sudo scripts/slurm/e2e-local.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${WORK:-$(mktemp -d /tmp/nqueens-slurm.XXXXXX)}
chmod 755 "$work"
log() { echo "e2e: $*"; }
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
PartitionName=e2e Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
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

log "building nqueens into $work"
(cd "$repo" && go build -o "$work/nqueens" ./cmd/nqueens)
# Task 3 fails once before counting: exit 75 asks Slurm to requeue it.
cat >"$work/nqueens-flaky" <<WRAP
#!/bin/bash
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 3 ] && [ ! -e "$work/task3-failed-once" ]; then
	touch "$work/task3-failed-once"
	echo "e2e: simulated failure of array task 3 (exit 75)" >&2
	exit 75
fi
exec "$work/nqueens" "\$@"
WRAP
chmod +x "$work/nqueens-flaky"

cd "$work"
export N=14 NQUEENS="$work/nqueens-flaky" OUTDIR="$work"
array=$(sbatch --parsable --array=0-7 --cpus-per-task=1 "$here/nqueens-array.sbatch")
log "submitted array job $array"
for _ in $(seq 300); do
	[ -z "$(squeue -h -j "$array" 2>/dev/null)" ] && break
	sleep 1
done
log "array done; task 3: $(scontrol show job "${array}_3" 2>/dev/null | grep -o 'Restarts=[0-9]*' || echo 'job record gone')"
grep -h "simulated failure" nqueens-"${array}"_3.log && log "task 3 failed once and was requeued"
ls -l "$work"/*.result
export NQUEENS="$work/nqueens"
merge=$(sbatch --parsable "$here/merge.sbatch")
for _ in $(seq 120); do
	[ -z "$(squeue -h -j "$merge" 2>/dev/null)" ] && break
	sleep 1
done
total=$(cat "$work/n14-join.total")
log "merged total: $total"
if [ "$total" != 365596 ]; then
	log "FAIL: want 365596"
	exit 1
fi
log "PASS: 8 shards, task 3 requeued after a failure, merged total 365596 (files in $work)"
