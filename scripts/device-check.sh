#!/usr/bin/env bash
# device-check.sh: the check of an OpenCL device (a GPU) in under 10
# minutes: lists the devices, counts n = 16..21 on the device by sym,
# checks all four counts of each against the published ones, times n = 20
# and 21 three times each, and writes one CSV.
#
#   scripts/device-check.sh [OUT.csv] [DEVICE]     (DEVICE: opencl, opencl:N; default opencl)
#
# The binary: $NQUEENS, else .device/nqueens (built here and carried along:
# CGO_ENABLED=0 go build -o .device/nqueens ./cmd/nqueens), else go build.
# The OpenCL runtime: on NVIDIA it is part of the driver
# (libnvidia-opencl.so.1), but a machine may lack the ICD loader
# (libOpenCL.so.1) or its vendors file. Then the script takes the loader
# from .device/ (Debian's libOpenCL.so.1, copied along with the tree:
# apt-get download ocl-icd-libopencl1 && dpkg -x ocl-icd-libopencl1_*.deb x
# && cp x/usr/lib/x86_64-linux-gnu/libOpenCL.so.1 .device/) and writes a
# vendors file naming the NVIDIA library (OCL_ICD_VENDORS).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-device-check.csv}
device=${2:-opencl}

bin=${NQUEENS:-}
if [ -z "$bin" ]; then
	if [ -x .device/nqueens ]; then
		bin=$PWD/.device/nqueens
	else
		CGO_ENABLED=0 go build -o /tmp/nqueens-device-check ./cmd/nqueens
		bin=/tmp/nqueens-device-check
	fi
fi

# The ICD loader: the system's, else the one carried along.
if ! ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so\.1'; then
	if [ -f .device/libOpenCL.so.1 ]; then
		export OPENCL_LIBRARY=$PWD/.device/libOpenCL.so.1
		echo "device-check: ICD loader from .device/libOpenCL.so.1"
	fi
fi
# The vendors file: where none names a driver, name NVIDIA's.
if [ -z "$(ls /etc/OpenCL/vendors/*.icd 2>/dev/null)" ] && [ -z "${OCL_ICD_VENDORS:-}" ]; then
	lib=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1/ {print $NF; exit}')
	if [ -z "$lib" ]; then
		lib=$(find /usr /lib /usr/local -name 'libnvidia-opencl.so.1*' 2>/dev/null | head -1 || true)
	fi
	if [ -n "$lib" ]; then
		mkdir -p /tmp/nqueens-ocl-vendors
		echo "$lib" >/tmp/nqueens-ocl-vendors/nvidia.icd
		export OCL_ICD_VENDORS=/tmp/nqueens-ocl-vendors
		echo "device-check: vendors file naming $lib"
	fi
fi

"$bin" version
"$bin" devices

# Published counts (OEIS A000170, A002562, A032522, A033148), n = 16..21.
declare -A total=([16]=14772512 [17]=95815104 [18]=666090624 [19]=4968057848 [20]=39029188884 [21]=314666222712)
declare -A unique=([16]=1846955 [17]=11977939 [18]=83263591 [19]=621012754 [20]=4878666808 [21]=39333324973)
declare -A point=([16]=3000 [17]=8152 [18]=18104 [19]=44184 [20]=144620 [21]=375664)
declare -A rot90=([16]=64 [17]=128 [18]=0 [19]=0 [20]=480 [21]=704)

echo "date,device,n,method,run,seconds,total,unique,point_symmetric,rot90_symmetric,nodes,exact" >"$out"
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
fail=0
for n in 16 17 18 19 20 21; do
	runs=1
	if [ "$n" -ge 20 ]; then runs=3; fi
	for run in $(seq "$runs"); do
		json=$("$bin" count "$n" --method sym --device "$device" --json)
		line=$(python3 - "$json" "${total[$n]}" "${unique[$n]}" "${point[$n]}" "${rot90[$n]}" <<'EOF'
import json, sys
j = json.loads(sys.argv[1])
want = sys.argv[2:6]
got = [j["total"], j["unique"], j["point_symmetric"], j["rot90_symmetric"]]
dev = "; ".join(j.get("devices", [])).replace(",", " ")
print(f'{dev},{j["n"]},{j["method"]},{j["seconds"]:.3f},{",".join(got)},{j["nodes"]},{"yes" if got == want else "NO"}')
EOF
)
		dev=${line%%,*}
		rest=${line#*,}
		IFS=, read -r n2 method seconds t u p r nodes exact <<<"$rest"
		echo "$date,$dev,$n2,$method,$run,$seconds,$t,$u,$p,$r,$nodes,$exact" >>"$out"
		echo "device-check: n = $n run $run: $seconds s, total $t, unique $u, point $p, rot90 $r: exact $exact"
		[ "$exact" = yes ] || fail=1
	done
done
echo "device-check: wrote $out"
exit $fail
