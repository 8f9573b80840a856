#!/usr/bin/env bash
# scaling.sh: measure how `nqueens count` scales from 1 worker to all cores.
#
#   scripts/scaling.sh NQUEENS_BINARY OUT_CSV [TEXTBOOK_BINARY]
#
# For n = 16 (3 repeats) and 17 (1 repeat), methods join, sym and mirror,
# and workers = 1, 2, 4, 8, 12, 16 (those not above the logical cores), it
# writes one CSV row per run: n,method,workers,repeat,seconds,total,nodes.
# With a textbook binary (scripts/textbook.c) it also times that, as
# workers=1 method=textbook-c. The scaling tables (docs/performance.md) are the median of
# the repeats. SCALING_N, SCALING_METHODS and SCALING_REPS (repeats for
# every n) override the defaults.
set -euo pipefail
bin=$1 out=$2 textbook=${3:-}
cores=$(nproc)
echo "n,method,workers,repeat,seconds,total,nodes" >"$out"
field() { sed -n "s/.*\"$1\":\"\{0,1\}\([0-9.e+-]*\)\"\{0,1\}[,}].*/\1/p"; }
for n in ${SCALING_N:-16 17}; do
	reps=3
	[ "$n" -ge 17 ] && reps=1
	reps=${SCALING_REPS:-$reps}
	# Repeats outermost: each one times every method and the textbook in
	# turn, so that a drift of the (shared) machine's speed hits them alike.
	for r in $(seq 1 "$reps"); do
		for method in ${SCALING_METHODS:-join sym mirror}; do
			for w in 1 2 4 8 12 16; do
				[ "$w" -gt "$cores" ] && continue
				j=$("$bin" count "$n" --json -m "$method" -j "$w")
				echo "$n,$method,$w,$r,$(echo "$j" | field seconds),$(echo "$j" | field total),$(echo "$j" | field nodes)" | tee -a "$out"
			done
		done
		if [ -n "$textbook" ]; then
			s=$(date +%s.%N)
			t=$("$textbook" "$n")
			e=$(date +%s.%N)
			echo "$n,textbook-c,1,$r,$(awk "BEGIN{print $e - $s}"),$t," | tee -a "$out"
		fi
	done
done
