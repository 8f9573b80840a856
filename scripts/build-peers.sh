#!/usr/bin/env bash
# build-peers.sh: builds the published CPU counters the speed claims are
# measured against, outside the repository, for side-by-side runs
# (scripts/side-join.sh, scripts/side-kernels.sh). Their code is never
# part of this project: give local clones of their public repositories,
# time the binaries, delete them.
#
#   scripts/build-peers.sh OUT KLUEV_CLONE MQUEENS_CLONE [SIZES]
#
#   KLUEV_CLONE    a clone of github.com/EvgenyKluev/N-Queens-Count-Sol (MIT)
#   MQUEENS_CLONE  a clone of github.com/sudden6/m-queens (GPL-3)
#   SIZES          the board sizes to build Kluev's counter for
#                  (default "16 17 18 19 20")
#
# OUT/kluevN is Kluev's quadrant join for the N×N board: its size and
# tuning are compile-time constants in solcounter.h, set here to the
# values its README's table gives for N (sieve cuts, the smallest match,
# BMI2 and prefetch switched on where the table says so); run it as
# `OUT/kluevN 1` for one thread. OUT/mq1 is m-queens' main.c built
# without OpenMP (one thread): `OUT/mq1 16`. Needs gcc and g++ 11 or
# later (C++20); -O3 -march=native for both, as their authors build them.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: build-peers.sh OUT KLUEV_CLONE MQUEENS_CLONE [SIZES]" >&2; exit 2; }
out=$(mkdir -p -- "$1" && cd -- "$1" && pwd)
kluev=$2 mqueens=$3 sizes=${4:-16 17 18 19 20}

if [ ! -x "$out/mq1" ]; then
	rm -rf "$out/mqueens-src"
	git clone -q "$mqueens" "$out/mqueens-src"
	gcc -O3 -march=native -o "$out/mq1" "$out/mqueens-src/main.c"
fi

# tuning N: Kluev's README's settings for board size N, as
# "sieveCuts matchMinSize bmi2 prefetch".
tuning() {
	case $1 in
	16 | 17 | 18) echo "0 40 false true" ;;
	19) echo "0 40 true true" ;;
	20) echo "3 60 true true" ;;
	21) echo "3 60 true false" ;;
	22) echo "6 80 true true" ;;
	*) echo "build-peers.sh: no tuning for N = $1 (accepted: 16..22)" >&2; exit 2 ;;
	esac
}

for n in $sizes; do
	[ -x "$out/kluev$n" ] && continue
	read -r cuts minsize bmi prefetch <<<"$(tuning "$n")"
	src=$out/kluev-src$n
	rm -rf "$src"
	git clone -q "$kluev" "$src"
	(
		cd "$src"
		sed -i -e "s/inline constexpr int size = 18;/inline constexpr int size = $n;/" \
			-e "s/.sieveCuts = 0, /.sieveCuts = $cuts, /" -e "s/.matchMinSize = 40, /.matchMinSize = $minsize, /" \
			-e "s/.bmiIntrin = false, /.bmiIntrin = $bmi, /" -e "s/.prefetch = false, /.prefetch = $prefetch, /" solcounter.h
		if [ "$bmi" = true ]; then sed -i 's|^//#include "bmi2.h"|#include "bmi2.h"|' bmintrin.h; fi
		if [ "$prefetch" = true ]; then sed -i 's|^//#include "prefetchx86.h"|#include "prefetchx86.h"|' prefetch.h; fi
		if [ "$n" = 22 ]; then sed -i 's/QNoSymmetry/QRowSymmetry/' solcounter.h; fi # its README's choice at 22
		g++ -std=c++20 -O3 -march=native main.cpp -o "$out/kluev$n" -lpthread
	)
done
ls "$out"
