#!/usr/bin/env bash
# shards.sh: counts a board in M shards one after another on this machine,
# the way a cluster would run them, each with a journal (so a stopped
# shard resumes) and a result file; records each shard's wall time and
# peak RSS, and commits each finished shard's result file (its journal and
# log are removed then; a stopped shard's stay, to resume from).
#
#   scripts/shards.sh NQUEENS N M DIR [WORKERS] [FIRST]
#   scripts/shards.sh ./nqueens 22 8 bench/data/n22 2
# then: nqueens merge DIR/*.result
# times.csv names the commit NQUEENS was built from: $COMMIT, or HEAD when
# the script starts (build the binary from HEAD, or say which commit).
set -eu
nq=$1; n=$2; m=$3; dir=$4; workers=${5:-2}; first=${6:-0}
mkdir -p "$dir"
commit=${COMMIT:-$(git rev-parse --short HEAD)}
times=$dir/times.csv
[ -s "$times" ] || echo "date,commit,n,shard,workers,seconds,peak_rss_kb,exit,command" >"$times"
for ((i = first; i < m; i++)); do
	out=$dir/shard-$i-of-$m.result
	[ -s "$out" ] && continue
	cmd=("$nq" count "$n" --shard "$i/$m" --workers "$workers" --checkpoint "$dir/shard-$i-of-$m.journal" --out "$out" -q)
	t=$(mktemp)
	set +e
	/usr/bin/time -f "%e %M" -o "$t" "${cmd[@]}" >"$dir/shard-$i-of-$m.log" 2>&1
	rc=$?
	set -e
	read -r secs rss < <(tail -1 "$t"); rm -f "$t"
	echo "$(date +%F),$commit,$n,$i/$m,$workers,$secs,$rss,$rc,${cmd[*]}" >>"$times"
	[ "$rc" = 0 ] || { echo "shard $i/$m stopped (exit $rc); run again to resume" >&2; exit "$rc"; }
	# The result file holds every task the journal did: keep it alone.
	rm -f "$dir/shard-$i-of-$m.journal" "$dir/shard-$i-of-$m.log"
	for try in 1 2 3 4 5; do
		git add -- "$out" "$times" &&
			git commit -q -m "n = $n: shard $i/$m counted ($secs s, peak RSS $rss KB, $workers workers)" -- "$out" "$times" && break
		sleep 5
	done
done
