#!/usr/bin/env bash
# side-join.sh: the join method side by side with Kluev's quadrant join
# (PEERS/kluevN, built by scripts/peers.sh PEERS), one thread against
# one worker, runs alternated, then nqueens on 2 workers; one CSV line a
# run, with the peak RSS from /usr/bin/time.
#
#   scripts/side-join.sh PEERS NQUEENS OUT.csv "N:RUNS ..." [WORKERS2_SIZES]
#   scripts/side-join.sh /tmp/peers ./nqueens bench/data/side.csv "16:3 17:3 18:3 19:1 20:1" "18 20"
set -eu
anchors=$1; nq=$2; out=$3; plan=$4; two=${5:-}
commit=$(git rev-parse --short HEAD)
day=$(date +%F)
[ -s "$out" ] || echo "date,commit,counter,n,workers,run,seconds,peak_rss_kb,count,command" >"$out"
one() { # counter n workers run command...
	local counter=$1 n=$2 w=$3 run=$4; shift 4
	local t; t=$(mktemp)
	# The count: nqueens prints it alone, Kluev's after "Result: ".
	local count; count=$(/usr/bin/time -f "%e %M" -o "$t" "$@" 2>/dev/null | grep -Eo '^(Result: )?[0-9]+$' | grep -Eo '[0-9]+' | head -1)
	read -r secs rss <"$t"; rm -f "$t"
	echo "$day,$commit,$counter,$n,$w,$run,$secs,$rss,$count,$*" | tee -a "$out"
}
for item in $plan; do
	n=${item%%:*}; runs=${item##*:}
	for run in $(seq "$runs"); do
		one kluev "$n" 1 "$run" "$anchors/kluev$n" 1
		one nqueens "$n" 1 "$run" "$nq" count "$n" --workers 1
	done
done
for n in $two; do
	one nqueens "$n" 2 1 "$nq" count "$n" --workers 2
done
