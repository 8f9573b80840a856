#!/usr/bin/env bash
# device-check.sh: the one prepared run on a lent GPU: it checks the
# device join's counts, sweeps its tuning and times it, and leaves every
# file in one folder (a device machine returns only what is written
# under its $OUT):
#
#   scripts/device-check.sh OUT [DEVICE]      (DEVICE: opencl, opencl:N; default opencl)
#
#   OUT/device-check.csv  one row a count: exactness, sweep, timings, each
#                         with count --json's device_join (the host's
#                         listing and sorting, waiting, copying, the
#                         kernels) and the device's own time per stage
#                         (copies in, list, sort, join, copies out: the
#                         runtime's profiling events, NQUEENS_OPENCL_PROFILE)
#   OUT/devices.json      nqueens devices --json
#   OUT/version.txt       nqueens version (the CPU, the Go version, the devices)
#   OUT/build-logs/       each kernel program's build options and log
#                         (NQUEENS_OPENCL_BUILD_LOG; on NVIDIA with
#                         -cl-nv-verbose: registers and spills per kernel)
#   OUT/nvidia-smi.csv    utilization, clocks (SM, its most, memory), power,
#                         temperature, memory and the clocks' event
#                         (throttle) reasons every 250 ms while the counts
#                         run (where nvidia-smi is)
#   OUT/nvidia-smi.txt    nvidia-smi's summary: the GPU and its driver
#   OUT/log.txt           what the script printed
#
# The steps, in the order that keeps what matters most if time runs out,
# within DEVICE_CHECK_SECONDS (default 330: the script and a rerun fit a
# 15-minute lease; DEVICE_CHECK_MODE=short, steps 1 and 2 alone, 170);
# each count has its own limit and is stopped with SIGTERM at it (the
# count stops cleanly and its row says so):
#   1. exactness: n = 16..20 by the join (a device on the CPU, pocl, to
#      18), all four counts against the published ones, unprofiled;
#   2. n = 22 whole with the defaults, unprofiled (a device on the CPU,
#      pocl, counts its shard 100 of 512 instead, checked against the
#      CPU's count written below);
#   3. the sweep: a 32nd of n = 22 (shard 6 of 32) on the device
#      under each tuning, profiled (NQUEENS_OPENCL_PROFILE=1) and ranked by
#      the device's own time (its commands' events: no start-up, no host),
#      one knob at a time from the defaults, in the order of their expected
#      effect: batch, block, group, items, list, cut, popcount, chunk,
#      layout, then the copies from pageable memory
#      (NQUEENS_OPENCL_PINNED=0); each run's total and nodes checked
#      against the CPU's count of the sample, written below;
#   4. timings with the fastest tuning, unprofiled: n = 20 three times, n =
#      20 by sym once, n = 21 once, and n = 22 again where the sweep changed
#      the tuning.
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
#
# Every file it makes is under OUT: its scratch folder OUT/.work (the
# binary where it builds one, the vendors file, the shard files) is
# removed when it ends, normally or by a signal (INT, TERM, HUP), which
# also stops the count running. A budget too short to time any count
# exits 3 and says so.
# docs/devices.md ("The first run on a GPU") has the steps.
set -euo pipefail
[ $# -ge 1 ] && [ -n "$1" ] || { echo "usage: scripts/device-check.sh OUT [DEVICE]" >&2; exit 2; }
out=$(mkdir -p -- "$1" && cd -- "$1" && pwd)
device=${2:-opencl}
cd "$(dirname "$0")/.."
work=$out/.work
rm -rf -- "$work" && mkdir -p -- "$work"
smi= py=
cleanup() {
	[ -z "$py" ] || { pkill -TERM -P "$py" 2>/dev/null || true; kill "$py" 2>/dev/null || true; wait "$py" 2>/dev/null || true; }
	[ -z "$smi" ] || kill "$smi" 2>/dev/null || true
	rm -rf -- "$work"
}
trap cleanup EXIT
trap 'echo "device-check: stopped by SIGINT"; exit 130' INT
trap 'echo "device-check: stopped by SIGTERM"; exit 143' TERM
trap 'echo "device-check: stopped by SIGHUP"; exit 129' HUP
exec > >(tee "$out/log.txt") 2>&1

bin=${NQUEENS:-}
if [ -z "$bin" ]; then
	if [ -x .device/nqueens ]; then
		bin=$PWD/.device/nqueens
	else
		CGO_ENABLED=0 go build -buildvcs=auto -o "$work/nqueens" ./cmd/nqueens
		bin=$work/nqueens
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
		mkdir -p "$work/vendors"
		echo "$lib" >"$work/vendors/nvidia.icd"
		export OCL_ICD_VENDORS=$work/vendors
		echo "device-check: vendors file naming $lib"
	fi
fi

# Profiling only where a run asks for it (the sweep): the timings run as
# a count does.
export NQUEENS_OPENCL_BUILD_LOG=$out/build-logs
mode=${DEVICE_CHECK_MODE:-full}
case $mode in
full) budget=${DEVICE_CHECK_SECONDS:-330} ;;
short) budget=${DEVICE_CHECK_SECONDS:-170} ;;
*) echo "device-check: DEVICE_CHECK_MODE=$mode is not a mode (accepted: full, short)" >&2; exit 2 ;;
esac
mkdir -p "$out/build-logs"
"$bin" version | tee "$out/version.txt"
"$bin" devices --json >"$out/devices.json" || echo "device-check: nqueens devices --json failed"
if command -v nvidia-smi >/dev/null; then
	nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || true
	# Clocks, temperature and why the clocks are held back (the field's
	# name before driver 535: clocks_throttle_reasons.active).
	query=timestamp,utilization.gpu,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,memory.used
	if nvidia-smi --query-gpu=clocks_event_reasons.active --format=csv >/dev/null 2>&1; then
		query+=,clocks_event_reasons.active
	else
		query+=,clocks_throttle_reasons.active
	fi
	nvidia-smi --query-gpu="$query" --format=csv -lms 250 >"$out/nvidia-smi.csv" 2>&1 &
	smi=$!
else
	echo "device-check: no nvidia-smi here: no utilization log"
fi
# The commit measured: the tree's, else the one the binary was built from
# (a copy of the tree without .git; nqueens version says it where Go
# recorded it: go build -buildvcs=auto in the repository).
commit=$(git rev-parse --short HEAD 2>/dev/null || sed -n 's/.*(commit \([0-9a-f+changes]*\)).*/\1/p' "$out/version.txt")
commit=${commit:-unknown}
# The steps run in the background, so that a signal reaches the traps at
# once (bash runs a trap only once its foreground command ends).
rc=0
python3 - "$bin" "$device" "$out/device-check.csv" "$commit" "$budget" "$work" "$mode" <<'EOF' &
import csv, json, os, signal, subprocess, sys, time

bin, device, out, commit, budget, tmp, mode = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), sys.argv[6], sys.argv[7]
began = time.time()
date = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
# Published counts (OEIS A000170, A002562, A032522, A033148).
published = {16: (14772512, 1846955, 3000, 64), 17: (95815104, 11977939, 8152, 128),
             18: (666090624, 83263591, 18104, 0), 19: (4968057848, 621012754, 44184, 0),
             20: (39029188884, 4878666808, 144620, 480), 21: (314666222712, 39333324973, 375664, 704),
             22: (2691008701644, 336376244042, 1250692, 0)}
# The sweep's sample of n = 22, a 32nd of its plan (one shard: one
# start-up), whose matching work a solution is the board's (the GPU
# model's replay: 1.72 item-blocks a solution, 1.77 over the plan, 4.08
# in shard 3 of 128, the sweep's before), and the 512th of the
# plan inside it that a device on the CPU (pocl) counts instead of n =
# 22; the CPU's counts of both (nqueens count 22 -m join --shard I/M
# --json: total and nodes), valid for the plan whose fingerprint is
# SAMPLE_PLAN (TestDeviceCheckSample keeps them true).
SAMPLE, SAMPLE_PLAN, SAMPLE_TOTAL, SAMPLE_NODES = "6/32", "7991e95ae9907e4332d246bb", 82268502466, 9801141584
PIECE, PIECE_TOTAL, PIECE_NODES = "100/512", 5587229456, 639626636
fields = ["date", "commit", "device", "driver", "step", "n", "method", "shard", "tuning", "run", "seconds", "startup_s", "device_s", "total", "unique",
          "point_symmetric", "rot90_symmetric", "nodes", "exact", "hosts", "list_s", "sort_s", "wait_s", "write_s", "kernel_s",
          "launches", "blocks", "patterns", "item_blocks", "bytes_copied", "dev_copy_in_s", "dev_list_s", "dev_sort_s", "dev_join_s", "dev_copy_out_s",
          "dev_busy"]
rows = []
failed = False
driver, gpu = "", False
try:
    devs = json.loads(subprocess.run([bin, "devices", "--json"], capture_output=True, text=True, check=True).stdout)
    idx = int(device.split(":")[1]) if ":" in device else next((d["index"] for d in devs if d["type"] == "gpu"), 0)
    driver, gpu = devs[idx]["driver_version"], devs[idx]["type"] == "gpu"
except Exception as e:
    print(f"device-check: devices: {e}")
PROFILE = {"NQUEENS_OPENCL_PROFILE": "1"}


def left():
    return budget - (time.time() - began)


runs = 0
STAGES = ("copy_in_seconds", "list_seconds", "sort_seconds", "join_seconds", "copy_out_seconds")


def combine(js):
    """One count's JSON from the lines of a --shard range (a line a shard): the
    counts, seconds and device figures summed."""
    if len(js) == 1:
        return js[0]
    j = dict(js[0])
    for k in ("total", "nodes"):
        j[k] = str(sum(int(x[k]) for x in js))
    for k in ("seconds", "startup_seconds"):
        j[k] = sum(x.get(k, 0) for x in js)
    djs = [x["device_join"] for x in js if x.get("device_join")]
    if djs:
        dj = dict(djs[0])
        for k, v in dj.items():
            if isinstance(v, (int, float)) and k not in ("hosts", "device_busy"):
                dj[k] = sum(d.get(k, 0) for d in djs)
        sts = [d["device_stages"] for d in djs if d.get("device_stages")]
        if sts:
            dj["device_stages"] = {k: sum(st[k] for st in sts) for k in STAGES}
        j["device_join"] = dj
    return j


def count(args, limit, env=None):
    """Runs nqueens count ARGS --json for at most limit seconds (with env added to the
    environment): its JSON (a --shard range's lines combined), or None and why not.
    Shards' files go to a fresh folder (a shard file counted before would be read back)."""
    global runs
    limit = min(limit, left() - 5)
    if limit < 3:
        return None, "skipped: no time left"
    runs += 1
    if "--shard" in args:
        args = [*args, "--dir", os.path.join(tmp, f"run-{runs}")]
    p = subprocess.Popen([bin, "count", *args, "--json", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, **(env or {})})
    try:
        so, se = p.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGTERM)
        try:
            so, se = p.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            p.kill()
            so, se = p.communicate()
        return None, f"stopped after {limit:.0f} s"
    if p.returncode != 0:
        lines = se.strip().splitlines()
        return None, (lines[-1] if lines else f"exit {p.returncode}").replace(",", ";")
    return combine([json.loads(line) for line in so.splitlines() if line.strip()]), ""


def device_seconds(j):
    """The device's own time: its stages' profiled seconds, summed ("" unprofiled)."""
    st = ((j or {}).get("device_join") or {}).get("device_stages")
    return sum(st[k] for k in STAGES) if st else None


def row(step, n, method, shard, tuning, run, j, exact, why=""):
    r = dict(date=date, commit=commit, driver=driver, step=step, n=n, method=method, shard=shard, tuning=tuning, run=run)
    if j is None:
        r.update(seconds="", exact=why or "stopped")
    else:
        r.update(device="; ".join(j.get("devices", ["cpu"])), seconds=f'{j["seconds"]:.3f}', total=j["total"], unique=j.get("unique", ""),
                 point_symmetric=j.get("point_symmetric", ""), rot90_symmetric=j.get("rot90_symmetric", ""), nodes=j["nodes"],
                 exact="yes" if exact else "NO")
        ds = device_seconds(j)
        if ds is not None:
            r.update(device_s=f"{ds:.3f}")
        if "startup_seconds" in j:
            r.update(startup_s=f'{j["startup_seconds"]:.3f}')
        dj = j.get("device_join")
        if dj:
            r.update(hosts=dj["hosts"], list_s=f'{dj["list_seconds"]:.3f}', sort_s=f'{dj["sort_seconds"]:.3f}', wait_s=f'{dj["wait_seconds"]:.3f}',
                     write_s=f'{dj["write_seconds"]:.3f}', kernel_s=f'{dj["kernel_seconds"]:.3f}', launches=dj["launches"], blocks=dj["blocks"],
                     patterns=dj["patterns"], item_blocks=dj["item_blocks"], bytes_copied=dj.get("bytes_copied", ""))
            if "device_busy" in dj:
                r.update(dev_busy=f'{dj["device_busy"]:.3f}')
            st = dj.get("device_stages")
            if st:
                r.update(dev_copy_in_s=f'{st["copy_in_seconds"]:.3f}', dev_list_s=f'{st["list_seconds"]:.3f}', dev_sort_s=f'{st["sort_seconds"]:.3f}',
                         dev_join_s=f'{st["join_seconds"]:.3f}', dev_copy_out_s=f'{st["copy_out_seconds"]:.3f}')
    rows.append(r)
    where = ""
    if r.get("kernel_s"):
        where = (f'; {r["hosts"]} host goroutines: list {r["list_s"]} s, sort {r["sort_s"]} s, wait {r["wait_s"]} s;'
                 f' device: write {r["write_s"]} s, kernel {r["kernel_s"]} s, {r["launches"]} launches')
    if r.get("dev_join_s"):
        where += (f'; on the device: {r["device_s"]} s: copy in {r["dev_copy_in_s"]} s, list {r["dev_list_s"]} s, sort {r["dev_sort_s"]} s,'
                  f' join {r["dev_join_s"]} s, copy out {r["dev_copy_out_s"]} s, busy {r.get("dev_busy", "-")}')
    start = f' (start-up {r["startup_s"]} s)' if r.get("startup_s") else ""
    print(f'device-check: {step} n = {n} {method} {shard} {tuning} run {run}: {r["seconds"] or "-"} s{start}, exact {r["exact"]}{where}', flush=True)
    return r


def exact_counts(n, j):
    want = published.get(n)
    return j is not None and want is not None and (int(j["total"]), int(j["unique"]), int(j["point_symmetric"]), int(j["rot90_symmetric"])) == want


def write():
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def timed(n, method, tuning, run, limit, step="time"):
    """Counts n by method on the device, unprofiled, and checks all four counts."""
    global failed
    args = [str(n), "--method", method, "--device", device]
    if method == "join" and tuning != "default":
        args += ["--device-tuning", tuning]
    j, why = count(args, limit)
    ok = exact_counts(n, j)
    failed |= j is not None and not ok
    row(step, n, method, "", tuning if method == "join" else "", run, j, ok, why)
    write()
    return j


# 1. Exactness of the join on the device, all four counts, unprofiled (a
# device on the CPU to n = 18: n = 19 and 20 take a minute there).
for n, limit in ((16, 30), (17, 30), (18, 30), (19, 40), (20, 60)):
    if gpu or n <= 18:
        timed(n, "join", "default", 1, limit, "check")


def piece(tuning, env=None, shard=None, step="sweep"):
    """Counts a piece of n = 22 (the sample, or the shard a CPU device counts),
    checked against the CPU's count of it: its JSON and whether it was exact."""
    global failed
    tuning = tuning or "default"
    shard = shard or (SAMPLE if gpu else PIECE)
    total, nodes = (SAMPLE_TOTAL, SAMPLE_NODES) if shard == SAMPLE else (PIECE_TOTAL, PIECE_NODES)
    args = ["22", "--method", "join", "--shard", shard, "--device", device]
    if tuning != "default":
        args += ["--device-tuning", tuning]
    j, why = count(args, 90 if gpu else 60, env)
    ok = j is not None and (int(j["total"]), int(j["nodes"])) == (total, nodes)
    failed |= j is not None and not ok
    label = tuning + "".join(f" {k}={v}" for k, v in (env or {}).items() if k != "NQUEENS_OPENCL_PROFILE")
    row(step, 22, "join", shard, label, 1, j, ok, why)
    write()
    return j if ok else None


# 2. n = 22 whole with the defaults, unprofiled: the figure that matters,
# before the sweep (a device on the CPU counts one shard of it instead).
if gpu:
    timed(22, "join", "default", 1, 200)
else:
    piece("default", shard=PIECE, step="time")
if mode == "short":
    write()
    print(f"device-check: short mode: exactness and n = 22 only", flush=True)
else:
    # 3. The sweep on the sample, profiled, ranked by the device's own time
    # (its stages' events: no start-up, no host), one knob at a time from
    # the defaults, in the order of their expected effect.
    def rank(j):
        ds = device_seconds(j)
        return ds if ds is not None else (j["seconds"] if j else None)

    best = dict.fromkeys(("batch", "block", "group", "items", "list", "cut", "popcount", "chunk", "layout"), 0)  # 0: the default
    spec = lambda t: ",".join(f"{k}={v}" for k, v in t.items() if v)
    best_s = rank(piece(spec(best), PROFILE))
    for knob, values in (("batch", (1048576, 2097152, 4194304, 16777216)), ("block", (128, 512)), ("group", (64, 256)), ("items", (2, 4)),
                         ("list", (1,)), ("cut", (1,)), ("popcount", (64,)), ("chunk", (6, 7)), ("layout", (1,))):
        for v in values:
            if left() < 60:
                break  # the timings' share
            t = dict(best, **{knob: v})
            s = rank(piece(spec(t), PROFILE))
            if s is not None and (best_s is None or s < best_s):
                best, best_s = t, s
    # The copies through pinned staging (a GPU's default) against pageable
    # memory, with the fastest tuning.
    best_env = {}
    if left() >= 60:
        s = rank(piece(spec(best), {**PROFILE, "NQUEENS_OPENCL_PINNED": "0"}))
        if s is not None and (best_s is None or s < best_s):
            best_env, best_s = {"NQUEENS_OPENCL_PINNED": "0"}, s
    tuning = spec(best) or "default"
    if best_s is None:
        print("device-check: no tuning was timed on the sample (the budget left too little, or no run was exact): the timings take the defaults", flush=True)
    else:
        how = "".join(f" with {k}={v}" for k, v in best_env.items())
        print(f"device-check: fastest tuning on the sample: {tuning}{how} ({best_s:.3f} s of the device's time)", flush=True)
    os.environ.update(best_env)

    # 4. Timings with the fastest tuning, unprofiled; n = 22 again where the
    # sweep changed the tuning.
    plan = [(20, "join", 3, 60), (20, "sym", 1, 40), (21, "join", 1, 90)]
    if gpu and tuning != "default":
        plan.append((22, "join", 1, 200))
    for n, method, times, limit in plan:
        for run in range(1, times + 1):
            timed(n, method, tuning, run, limit)
write()
print(f"device-check: wrote {out} in {time.time() - began:.0f} s", flush=True)
if failed:
    sys.exit(1)
if not any(r.get("seconds") for r in rows):
    print(f"device-check: nothing was timed: a budget of {budget:.0f} s (DEVICE_CHECK_SECONDS) is too short for any count here", flush=True)
    sys.exit(3)
EOF
py=$!
wait "$py" || rc=$?
py=
echo "device-check: files in $out: $(cd "$out" && ls | tr '\n' ' ')"
exit "$rc"
