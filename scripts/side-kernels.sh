#!/usr/bin/env bash
# side-kernels.sh: the backtracking kernels side by side with the C
# counters they are measured against, one thread against one worker, runs
# alternated: m-queens (PEERS/mq1, built by scripts/peers.sh PEERS) against
# --method mirror, Takaken ver3.1 (PEERS/takaken, see docs/benchmarking.md, "Speed")
# against --method sym; then both methods on 2 workers. One CSV line a run,
# with the machine, Go and gcc versions.
#
#   scripts/side-kernels.sh PEERS NQUEENS OUT.csv "N:RUNS ..." ["N:RUNS ..." for 2 workers]
#   scripts/side-kernels.sh /tmp/peers ./nqueens bench/data/side-kernels.csv "16:11 17:3" "16:5 17:3"
set -eu
anchors=$1; nq=$2; out=$3; plan=$4; two=${5:-}
commit=$(git rev-parse --short HEAD)
day=$(date +%F)
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //; s/,/ /g')
gov=$(go env GOVERSION)
gccv=$(gcc -dumpfullversion)
[ -s "$out" ] || echo "date,commit,cpu,go,gcc,counter,n,workers,run,seconds,count,command" >"$out"
one() { # counter n workers run command...
	local counter=$1 n=$2 w=$3 run=$4; shift 4
	local t; t=$(mktemp)
	# The count: nqueens prints it alone, m-queens after "Solutions",
	# Takaken as "N:TOTAL:UNIQUE SECONDS".
	local line count
	line=$(/usr/bin/time -f "%e" -o "$t" "$@" 2>/dev/null | tail -1)
	case $counter in
	m-queens) count=$(echo "$line" | sed -E 's/.*Solutions +([0-9]+).*/\1/') ;;
	takaken) count=$(echo "$line" | cut -d: -f2) ;;
	*) count=$line ;;
	esac
	local secs; secs=$(cat "$t"); rm -f "$t"
	echo "$day,$commit,$cpu,$gov,$gccv,$counter,$n,$w,$run,$secs,$count,$*" | tee -a "$out"
}
for item in $plan; do
	n=${item%%:*}; runs=${item##*:}
	for run in $(seq "$runs"); do
		one m-queens "$n" 1 "$run" "$anchors/mq1" "$n"
		one mirror "$n" 1 "$run" "$nq" count "$n" --method mirror --workers 1
		one takaken "$n" 1 "$run" "$anchors/takaken" "$n"
		one sym "$n" 1 "$run" "$nq" count "$n" --method sym --workers 1
	done
done
for item in $two; do
	n=${item%%:*}; runs=${item##*:}
	for run in $(seq "$runs"); do
		one mirror "$n" 2 "$run" "$nq" count "$n" --method mirror --workers 2
		one sym "$n" 2 "$run" "$nq" count "$n" --method sym --workers 2
	done
done
