#!/usr/bin/env bash
# Large boards, one shard each: for every n, the plan's estimate of the
# whole board's core-hours from a sampled count, and one shard of M counted
# until its first task line is in its journal, then stopped with SIGTERM
# (which must exit 143 and keep the journal). One CSV line per n.
#
#   scripts/large-shards.sh NQUEENS OUT.csv "23 24 25 26 27" [M] [SAMPLE] [WORKERS]
#
# Needs GNU time (/usr/bin/time) for the peak RSS.
set -euo pipefail
nq=$1 out=$2 sizes=$3 m=${4:-100000} sample=${5:-30s} workers=${6:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "n,method,tasks,shards,shard_tasks_max,plan_seconds,plan_peak_rss_kb,sampled_tasks,sample_seconds,estimated_core_hours,estimated_core_hours_low,estimated_core_hours_high,shard,workers,first_task_seconds,shard_peak_rss_kb,sigterm_exit,journal_lines,command" >"$out"
for n in $sizes; do
	/usr/bin/time -f "%e %M" -o "$dir/plan.time" "$nq" plan "$n" --shards "$m" --sample "$sample" --json >"$dir/plan.json"
	read -r plan_s plan_rss <"$dir/plan.time"
	j() { sed -E "s/.*\"$1\":\"?([^,\"}]*).*/\1/" "$dir/plan.json"; }
	cs=$(j estimated_core_seconds) lo=$(j estimated_core_seconds_low) hi=$(j estimated_core_seconds_high)
	h() { awk -v s="$1" 'BEGIN { printf "%.4g", s / 3600 }'; }
	journal="$dir/n$n.journal"
	rm -f "$journal"
	start=$(date +%s.%N)
	/usr/bin/time -f "%M" -o "$dir/shard.time" "$nq" count "$n" --shard "0/$m" --checkpoint "$journal" -j "$workers" -q 2>"$dir/shard.err" &
	pid=$!
	first=""
	while kill -0 "$pid" 2>/dev/null; do
		if [ -f "$journal" ] && [ "$(grep -c . "$journal")" -ge 2 ]; then
			first=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
			break
		fi
		sleep 0.2
	done
	# SIGTERM to the counter (GNU time passes its child's status on).
	pkill -TERM -P "$pid" 2>/dev/null || true
	set +e
	wait "$pid"
	rc=$?
	set -e
	lines=$(($(grep -c . "$journal") - 1))
	echo "$n,$(j method),$(j tasks),$m,$(j tasks_per_shard_max),$plan_s,$plan_rss,$(j sampled_tasks),$(j sample_seconds),$(h "$cs"),$(h "$lo"),$(h "$hi"),0,$workers,$first,$(cat "$dir/shard.time" | tail -1),$rc,$lines,\"$(basename "$nq") plan $n --shards $m --sample $sample --json; $(basename "$nq") count $n --shard 0/$m --checkpoint F -j $workers\"" | tee -a "$out"
done
