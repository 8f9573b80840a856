#!/usr/bin/env bash
# shards.sh: counts a board in M shards one after another on this machine,
# the way a cluster would run them, each with a journal (so a stopped
# shard resumes) and a result file; records each shard's wall time and
# peak RSS, and commits each finished shard's result file (its journal and
# log are removed then). While a shard runs, its journal is committed every
# JOURNAL_COMMIT seconds (default 600; 0: never), so that a run stopped
# mid-shard (its machine taken away) leaves the tasks it counted in the
# repository: the same command, run again from a checkout, resumes the
# shard from the committed journal, recounting nothing it holds.
#
#   scripts/shards.sh NQUEENS N M DIR [WORKERS] [FIRST]
#   scripts/shards.sh ./nqueens 22 8 bench/data/n22 2
# then: nqueens merge DIR/*.result
# times.csv names the commit NQUEENS was built from: $COMMIT, or HEAD when
# the script starts (build the binary from HEAD, or say which commit). A
# shard resumed over several runs has a line per run (its seconds add up).
set -eu
nq=$1; n=$2; m=$3; dir=$4; workers=${5:-2}; first=${6:-0}
every=${JOURNAL_COMMIT:-600}
mkdir -p "$dir"
commit=${COMMIT:-$(git rev-parse --short HEAD)}
times=$dir/times.csv
[ -s "$times" ] || echo "date,commit,n,shard,workers,seconds,peak_rss_kb,exit,command" >"$times"

# commit_paths MESSAGE PATH...: commits those paths alone, retrying while
# another commit holds the index.
commit_paths() {
	local message=$1; shift
	for try in 1 2 3 4 5; do
		git add -- "$@" 2>/dev/null &&
			git commit -q -m "$message" -- "$@" && return 0
		git diff --quiet HEAD -- "$@" 2>/dev/null && return 0 # nothing new
		sleep 5
	done
	return 1
}

for ((i = first; i < m; i++)); do
	out=$dir/shard-$i-of-$m.result
	journal=$dir/shard-$i-of-$m.journal
	[ -s "$out" ] && continue
	cmd=("$nq" count "$n" --shard "$i/$m" --workers "$workers" --checkpoint "$journal" --out "$out" -q)
	t=$(mktemp)
	set +e
	/usr/bin/time -f "%e %M" -o "$t" "${cmd[@]}" >"$dir/shard-$i-of-$m.log" 2>&1 &
	pid=$!
	if [ "$every" -gt 0 ]; then
		(
			while sleep "$every"; do
				kill -0 "$pid" 2>/dev/null || exit 0
				[ -s "$journal" ] && commit_paths "n = $n: shard $i/$m in progress (journal)" "$journal" >/dev/null 2>&1
			done
		) &
		saver=$!
	fi
	# A signal to this script stops the count (time's child), which saves
	# its journal and exits; the script waits for it.
	trap 'pkill -TERM -P "$pid" 2>/dev/null' INT TERM
	while :; do
		wait "$pid"
		rc=$?
		kill -0 "$pid" 2>/dev/null || break
	done
	trap - INT TERM
	[ "$every" -gt 0 ] && kill "$saver" 2>/dev/null
	set -e
	read -r secs rss < <(tail -1 "$t"); rm -f "$t"
	echo "$(date +%F),$commit,$n,$i/$m,$workers,$secs,$rss,$rc,${cmd[*]}" >>"$times"
	if [ "$rc" != 0 ]; then
		# Keep what it counted: the journal, committed, resumes next time.
		[ -s "$journal" ] && commit_paths "n = $n: shard $i/$m stopped (exit $rc) after $secs s; its journal resumes it" "$journal" "$times"
		echo "shard $i/$m stopped (exit $rc); run again to resume" >&2
		exit "$rc"
	fi
	# The result file holds every task the journal did: keep it alone.
	rm -f "$dir/shard-$i-of-$m.log" "$journal"
	paths=("$out" "$times")
	if git ls-files --error-unmatch "$journal" >/dev/null 2>&1; then
		paths+=("$journal") # a committed journal: its removal too
	fi
	commit_paths "n = $n: shard $i/$m counted ($secs s, peak RSS $rss KB, $workers workers)" "${paths[@]}"
done
