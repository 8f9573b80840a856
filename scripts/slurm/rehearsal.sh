#!/bin/bash
# rehearsal.sh: a campaign at cluster scale on this one machine, through
# the real Slurm scripts: N (default 22) in SHARDS (default 100,000) shards
# submitted with submit.sh to a one-node Slurm cluster (local-slurm.sh:
# MaxArraySize left at 1001, so the shards are batched; one CPU per array
# task, no oversubscription), with about 1% of the array tasks requeued
# mid-shard while they run (as a preemption does: nqueens saves the
# shard's journal, the task goes back to the queue, resumes it and skips
# the shards done), status read during the run, and the merge job's
# `merge --audit 0.001` at the end. Then, with the cluster idle, status,
# merge, and merge --audit 0.001 over every shard file are timed (seconds,
# peak memory), and a
# plain `count N` on the same machine (skipped when PLAIN_SECONDS gives
# its time). One line goes to OUT (default summary.csv here):
#
#   shards,array_tasks,wall_seconds,plain_count_seconds,status_seconds,
#   status_peak_kb,merge_seconds,merge_peak_kb,total,
#   requeued,status_during_seconds,per_task,audit_seconds,audit_peak_kb,
#   cpu,commit,date
#
# (merge alone; audit_*: merge --audit 0.001 --memory 512MiB -j 2.)
#
#   sudo scripts/slurm/rehearsal.sh [N SHARDS]
#   sudo PER_TASK=1000 scripts/slurm/rehearsal.sh 22 100000
#
# PER_TASK sets the shards an array task counts (submit.sh's --per-task;
# default: the fewest that fit in one array, 100 for 100,000 shards).
# Slurm takes about 3 s per job slot here between one array task and the
# next (allocation, launch, completion; the task itself 0.1 s), so array
# tasks of a few seconds spend half their time waiting: real sites ask for
# jobs of minutes.
#
# Needs root (Slurm) and hours: n = 22 is about an hour of both cores
# twice over (the campaign, then the plain count). Exit 0: the total is
# the published one; 1: it is not, or a step failed; 3: no Slurm here.
set -euo pipefail
N=${1:-22}
SHARDS=${2:-100000}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${WORK:-$(mktemp -d /tmp/nqueens-rehearsal.XXXXXX)}
OUT=${OUT:-$PWD/summary.csv}
mkdir -p "$work" && chmod 755 "$work"
log() { echo "rehearsal: $(date +%T) $*"; }

OVERSUBSCRIBE=NO "$here/local-slurm.sh" || exit $?
log "building nqueens into $work"
(cd "$repo" && go build -o "$work/nqueens" ./cmd/nqueens)
nq=$work/nqueens
case $N in # A000170
14) want=365596 ;;
16) want=14772512 ;;
18) want=666090624 ;;
20) want=39029188884 ;;
22) want=2691008701644 ;;
*) want= ;;
esac
cd "$work"
dir=$work/n$N-join
timed() { # timed FILE CMD...: run CMD, its output to /dev/null, "seconds peak_kb" to FILE
	local f=$1
	shift
	/usr/bin/time -f '%e %M' -o "$f" "$@" >/dev/null 2>"$f.err" || { cat "$f.err"; return 1; }
}

start=$(date +%s.%N)
per=()
[ -z "${PER_TASK:-}" ] || per=(--per-task "$PER_TASK")
NQUEENS=$nq "$here/submit.sh" "${per[@]}" --outdir "$work" --audit 0.001 "$N" "$SHARDS" -- --cpus-per-task=1 | tee submit.out
tasks=$(sed -n 's/.*: \([0-9]*\) array tasks in .*/\1/p' submit.out)
per_task=$(sed -n 's/.*, \([0-9]*\) a task: .*/\1/p' submit.out)
requeue_target=$(((tasks + 99) / 100))
log "$tasks array tasks of $per_task shards; requeueing $requeue_target of them mid-shard on the way"

# Every 20 s: once the shards done pass the next 1/(target+1) of the
# campaign, requeue a running array task that has been running a while (so
# that it is mid-shard). Once, half way, read the status.
requeued=0 status_during=
while [ -n "$(squeue -h 2>/dev/null)" ]; do
	sleep 20
	done_files=$(find "$dir" -name '*.result' 2>/dev/null | wc -l)
	if [ "$requeued" -lt "$requeue_target" ] && [ "$done_files" -ge $(((requeued + 1) * SHARDS / (requeue_target + 1))) ]; then
		victim=$(squeue -h -r -t R -o '%i %M' -n nqueens | awk '$2 !~ /^0:0/ { print $1 }' | shuf -n 1 || true)
		if [ -n "$victim" ]; then
			scontrol requeue "$victim" && requeued=$((requeued + 1)) && log "requeued $victim ($done_files shard files so far)"
		fi
	fi
	if [ -z "$status_during" ] && [ "$done_files" -ge $((SHARDS / 2)) ]; then
		timed status-during.time "$nq" status "$dir"
		status_during=$(cut -d' ' -f1 status-during.time)
		log "status during the run: $(cat status-during.time) (s, KB); its summary:"
		"$nq" status "$dir" | head -6
	fi
done
wall=$(echo "$(date +%s.%N) - $start" | bc)
log "all jobs done in $wall s"
total=$(cat "n$N-join.total" 2>/dev/null || true)
log "merge job's total: $total (published: ${want:-unknown}); its audit:"
grep -h "audit:" nqueens-merge-*.log || true

log "status over every shard file, the cluster idle"
timed status.time "$nq" status "$dir"
log "merge over every shard file"
timed merge.time "$nq" merge "$dir"
log "merge --audit 0.001 --memory 512MiB over every shard file"
timed audit.time "$nq" merge --audit 0.001 --memory 512MiB -j 2 "$dir"
if [ -z "${PLAIN_SECONDS:-}" ]; then
	log "plain count $N on this machine (every core)"
	timed plain.time "$nq" count "$N" -q
	PLAIN_SECONDS=$(cut -d' ' -f1 plain.time)
fi
read -r st_s st_kb <status.time
read -r mg_s mg_kb <merge.time
read -r au_s au_kb <audit.time
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
commit=$(cd "$repo" && git rev-parse --short HEAD)
[ -s "$OUT" ] || echo "shards,array_tasks,wall_seconds,plain_count_seconds,status_seconds,status_peak_kb,merge_seconds,merge_peak_kb,total,requeued,status_during_seconds,per_task,audit_seconds,audit_peak_kb,cpu,commit,date" >"$OUT"
echo "$SHARDS,$tasks,$wall,$PLAIN_SECONDS,$st_s,$st_kb,$mg_s,$mg_kb,$total,$requeued,$status_during,$per_task,$au_s,$au_kb,\"$cpu\",$commit,$(date +%F)" | tee -a "$OUT"
log "campaign/plain: $(echo "scale=2; $wall / $PLAIN_SECONDS" | bc); files in $work"
[ -n "$total" ] && { [ -z "$want" ] || [ "$total" = "$want" ]; } || { log "FAIL: total $total, want $want"; exit 1; }
log "PASS"
