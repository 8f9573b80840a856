#!/usr/bin/env bash
# peers.sh: fetches the published CPU counters the speed claims are
# measured against from their public repositories, at the commits the
# figures were measured with, and builds them outside the repository for
# side-by-side runs (scripts/side-join.sh, scripts/side-kernels.sh).
# Their code is never part of this project: time the binaries, delete
# them.
#
#   scripts/peers.sh OUT [SIZES]
#
#   OUT    where the clones and binaries go
#   SIZES  the board sizes to build Kluev's counter for (default
#          "16 17 18 19 20"; accepted 16..22)
#
# The peers, and where they are fetched from (KLUEV_REPO and
# MQUEENS_REPO name another clone, a local one where the network is
# closed; the pinned commit is checked out of it all the same):
#   github.com/EvgenyKluev/N-Queens-Count-Sol (MIT) at 580f44458d14
#   github.com/sudden6/m-queens (GPL-3) at 93a53fe06676
#
# OUT/kluevN is Kluev's quadrant join for the N×N board: its size and
# tuning are compile-time constants in solcounter.h, set here to the
# values its README's table gives for N (sieve cuts, the smallest match,
# BMI2 and prefetch switched on where the table says so); run it as
# `OUT/kluevN 1` for one thread. OUT/mq1 is m-queens' main.c built
# without OpenMP (one thread): `OUT/mq1 16`. Needs git, gcc and g++ 11
# or later (C++20); -O3 -march=native for both, as their authors build
# them.
set -euo pipefail
[ $# -ge 1 ] && [ -n "$1" ] || { echo "usage: scripts/peers.sh OUT [SIZES]" >&2; exit 2; }
out=$(mkdir -p -- "$1" && cd -- "$1" && pwd)
sizes=${2:-16 17 18 19 20}
kluev_repo=${KLUEV_REPO:-https://github.com/EvgenyKluev/N-Queens-Count-Sol}
kluev_commit=580f44458d14a3352bf37ccd58d9f0b96de41c05
mqueens_repo=${MQUEENS_REPO:-https://github.com/sudden6/m-queens}
mqueens_commit=93a53fe066766735a1251160d4dbb843a7b33203

# fetch REPO COMMIT DIR clones REPO into DIR at COMMIT.
fetch() {
	rm -rf "$3"
	git clone -q "$1" "$3"
	git -C "$3" -c advice.detachedHead=false checkout -q "$2"
}

# The clones, once each; each board's build copies Kluev's.
[ -d "$out/kluev-src/.git" ] || fetch "$kluev_repo" "$kluev_commit" "$out/kluev-src"
[ -d "$out/mqueens-src/.git" ] || fetch "$mqueens_repo" "$mqueens_commit" "$out/mqueens-src"
kluev=$out/kluev-src mqueens=$out/mqueens-src

if [ ! -x "$out/mq1" ]; then
	gcc -O3 -march=native -o "$out/mq1" "$mqueens/main.c"
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
	*) echo "peers.sh: no tuning for N = $1 (accepted: 16..22)" >&2; exit 2 ;;
	esac
}

for n in $sizes; do
	[ -x "$out/kluev$n" ] && continue
	read -r cuts minsize bmi prefetch <<<"$(tuning "$n")"
	src=$out/kluev$n-src
	rm -rf "$src"
	cp -r "$kluev" "$src"
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
