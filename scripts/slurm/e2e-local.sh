#!/bin/bash
# e2e-local.sh: an end-to-end test of the Slurm scripts on this one machine.
# It installs Slurm and munge from Debian's packages (if missing), starts
# munged, slurmctld and slurmd on localhost (MaxArraySize left at its
# default, 1001), submits a count with submit.sh and waits for it and its
# merge job, then checks the total and that every shard has its file. By
# default n = 14 in 8 shards, one array task failing on its first attempt
# (exit 75, which RequeueExit makes Slurm requeue); `e2e-local.sh 16 2500`
# counts n = 16 in 2,500 shards, more than one array may index, so
# submit.sh batches them (3 a task). Needs root; the small run takes about
# a minute after the packages are installed. Leaves the daemons running and
# prints where the files are. Exit 0: passed; 1: failed; 3: this machine
# cannot run Slurm (no root, no packages, daemons that do not start):
# nothing was tested.
#
#   sudo scripts/slurm/e2e-local.sh [N SHARDS]
set -euo pipefail
N=${1:-14}
SHARDS=${2:-8}
case $N in
14) WANT=365596 ;;
16) WANT=14772512 ;;
*) echo "e2e: N is 14 or 16" >&2; exit 2 ;;
esac
flaky=0
[ "$SHARDS" -lt 3 ] || [ "$N" != 14 ] || flaky=1
WAIT=${WAIT:-600}
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
# Array task 3 fails once before counting: exit 75 asks Slurm to requeue
# it (only in the small run).
cat >"$work/nqueens-flaky" <<WRAP
#!/bin/bash
if [ "$flaky" = 1 ] && [ "\${SLURM_ARRAY_TASK_ID:-}" = 3 ] && [ ! -e "$work/task3-failed-once" ]; then
	touch "$work/task3-failed-once"
	echo "e2e: simulated preemption of array task 3 (exit 143, as nqueens after SIGTERM)" >&2
	exit 143
fi
exec "$work/nqueens" "\$@"
WRAP
chmod +x "$work/nqueens-flaky"

cd "$work"
log "submitting n = $N in $SHARDS shards with submit.sh (MaxArraySize $(scontrol show config | awk '$1 == "MaxArraySize" { print $3 }'))"
NQUEENS="$work/nqueens-flaky" "$here/submit.sh" --outdir "$work" "$N" "$SHARDS" -- --cpus-per-task=1 | tee "$work/submit.out"
start=$(date +%s)
for _ in $(seq "$WAIT"); do
	[ -z "$(squeue -h 2>/dev/null)" ] && break
	sleep 1
done
[ -z "$(squeue -h 2>/dev/null)" ] || { log "FAIL: jobs still queued after $WAIT s"; squeue | head; exit 1; }
log "all jobs done in $(($(date +%s) - start)) s"
if [ "$flaky" = 1 ]; then
	grep -h "simulated preemption" nqueens-*_3.log && log "array task 3 was stopped once and requeued itself"
fi
files=$(find "$work/n$N-join" -name '*.result' | wc -l)
log "$files shard files in $(find "$work/n$N-join" -mindepth 1 -type d | wc -l) folders"
total=$(cat "$work/n$N-join.total" 2>/dev/null || true)
log "merged total: $total"
if [ "$total" != "$WANT" ] || [ "$files" != "$SHARDS" ]; then
	log "FAIL: want $WANT from $SHARDS shard files"
	exit 1
fi
log "PASS: n = $N in $SHARDS shards through submit.sh, merged total $WANT (files in $work)"
