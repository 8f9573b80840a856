#!/bin/bash
# e2e-local.sh: an end-to-end test of the Slurm scripts on this one machine.
# It starts a one-node Slurm cluster here (local-slurm.sh: Debian's
# packages, MaxArraySize left at its default, 1001), submits a count with
# submit.sh and waits for it and its merge job, then checks the total and
# that every shard has its file. By default n = 14 in 8 shards, one array
# task stopped on its first attempt as a preempted count stops (exit 143,
# on which the array script requeues it; Slurm would hold a requeued task
# about two minutes, which the test cuts short with StartTime=now); `e2e-local.sh 16 2500` counts n = 16 in 2,500 shards, more
# than one array may index, so submit.sh batches them (3 a task, each
# task's shards in one process; PER_TASK=100 makes it 100 a task, 25
# array tasks: Slurm takes about 3 s a job slot here, so 834 tasks of 3
# shards take 20 minutes, 25 of 100 under one). DEVICE=all (or opencl)
# counts the shards on the machine's OpenCL device too (submit.sh
# --device). Needs root; the small run takes about
# a minute after the packages are installed. Leaves the daemons
# running and prints where the files are. Exit 0: passed; 1: failed; 3:
# this machine cannot run Slurm (no root, no packages, daemons that do not
# start): nothing was tested.
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
"$here/local-slurm.sh" || exit $? # 3: this machine cannot run Slurm

log "building nqueens into $work"
(cd "$repo" && go build -o "$work/nqueens" ./cmd/nqueens)
# Array task 3 stops once before counting, as nqueens does on SIGTERM (exit
# 143): the array script requeues it (only in the small run).
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
per=()
[ -z "${PER_TASK:-}" ] || per=(--per-task "$PER_TASK")
[ -z "${DEVICE:-}" ] || per+=(--device "$DEVICE")
NQUEENS="$work/nqueens-flaky" "$here/submit.sh" "${per[@]}" --outdir "$work" "$N" "$SHARDS" -- --cpus-per-task=1 | tee "$work/submit.out"
start=$(date +%s)
for _ in $(seq "$WAIT"); do
	[ -z "$(squeue -h 2>/dev/null)" ] && break
	# Slurm holds a requeued task about two minutes (Reason BeginTime),
	# harmless in a campaign of hours; the test does not wait it out.
	for job in $(squeue -h -r -t PD -o '%i %r' 2>/dev/null | awk '$2 == "BeginTime" { print $1 }'); do
		scontrol update JobId="$job" StartTime=now 2>/dev/null && log "requeued task $job let start now instead of in two minutes"
	done
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
