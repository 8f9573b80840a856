#!/usr/bin/env bash
# side-device.sh: the CPU kernels and a device side by side, runs
# alternated, one CSV line a run (method, n, where, seconds, total, exact).
#
#   scripts/side-device.sh NQUEENS OUT.csv ["16:5 17:3"] [DEVICE] ["sym mirror"]
#
# Each n:k pair runs k alternated pairs per method (default sym and
# mirror; join too): the CPU with its default workers, then --device
# DEVICE (default opencl).
set -euo pipefail
bin=$1 out=$2 plan=${3:-"16:5 17:3"} device=${4:-opencl} methods=${5:-"sym mirror"}
echo "date,cpu,device,method,n,where,run,seconds,total" >"$out"
cpu=$("$bin" version | sed -n 's/^cpu: \([^(]*\) (.*/\1/p' | sed 's/ *$//')
dev=$("$bin" devices --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[0]["name"] if d else "none")')
date=$(date -u +%Y-%m-%d)
for p in $plan; do
	n=${p%%:*} k=${p#*:}
	for run in $(seq "$k"); do
		for m in $methods; do
			for where in cpu "$device"; do
				read -r s t < <("$bin" count "$n" --method "$m" --device "$where" --json |
					python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["seconds"], j["total"])')
				echo "$date,$cpu,$dev,$m,$n,$where,$run,$s,$t" >>"$out"
			done
		done
	done
done
