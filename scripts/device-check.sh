#!/usr/bin/env bash
# device-check.sh: one short run that both measures and tunes an OpenCL
# device (a GPU) within a budget of 470 s (DEVICE_CHECK_SECONDS; a budget,
# not a measurement: no GPU has run it yet), into one CSV:
#   1. exactness: n = 16..19 counted by the join on the device, all four
#      counts against the published ones (n = 20..22 below);
#   2. the tuning sweep: a fixed sample of n = 22 (shard 3 of 128, about
#      1,400 tasks) counted on the device under each tuning, one knob at a
#      time from the defaults (list: who lists the sides, the device or the
#      host; sort: who sorts them where the host lists; block, group,
#      items, batch, hosts), keeping the fastest value
#      of each; every run checked against the same shard counted by the
#      CPU (total and nodes);
#   3. timings with the fastest tuning: n = 20 by join three times, n = 20
#      by sym once (the backtracking kernels, for the record), n = 21 and
#      n = 22 by join once, all four counts checked.
# Every device row says where its time went: the host's listing and
# sorting, waiting for the device, copying to it, the kernel (count
# --json's device_join). Each run has a time limit, and none passes the
# script's budget (DEVICE_CHECK_SECONDS, default 470): a run cut short is
# stopped with SIGTERM (the count stops cleanly) and its row says so.
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
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
exec python3 - "$bin" "$device" "$out" "$commit" "${DEVICE_CHECK_SECONDS:-470}" <<'EOF'
import csv, json, os, shutil, signal, subprocess, sys, tempfile, time

bin, device, out, commit, budget = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
began = time.time()
date = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
# Published counts (OEIS A000170, A002562, A032522, A033148).
published = {16: (14772512, 1846955, 3000, 64), 17: (95815104, 11977939, 8152, 128),
             18: (666090624, 83263591, 18104, 0), 19: (4968057848, 621012754, 44184, 0),
             20: (39029188884, 4878666808, 144620, 480), 21: (314666222712, 39333324973, 375664, 704),
             22: (2691008701644, 336376244042, 1250692, 0)}
SHARD = "3/128"
fields = ["date", "commit", "device", "driver", "step", "n", "method", "shard", "tuning", "run", "seconds", "total", "unique",
          "point_symmetric", "rot90_symmetric", "nodes", "exact", "hosts", "list_s", "sort_s", "wait_s", "write_s", "kernel_s",
          "launches", "blocks", "patterns", "item_blocks"]
rows = []
failed = False
driver = ""
try:
    devs = json.loads(subprocess.run([bin, "devices", "--json"], capture_output=True, text=True, check=True).stdout)
    idx = int(device.split(":")[1]) if ":" in device else next((d["index"] for d in devs if d["type"] == "gpu"), 0)
    driver = devs[idx]["driver_version"]
except Exception as e:
    print(f"device-check: devices: {e}")


def left():
    return budget - (time.time() - began)


tmp = tempfile.mkdtemp(prefix="device-check-")
runs = 0


def count(args, limit):
    """Runs nqueens count ARGS --json for at most limit seconds: its JSON, or None and why not.
    A shard's counts go to a fresh file (a shard is kept, and a file counted before is read back)."""
    global runs
    limit = min(limit, left() - 5)
    if limit < 3:
        return None, "skipped: no time left"
    runs += 1
    if "--shard" in args:
        args = [*args, "--out", os.path.join(tmp, f"run-{runs}.result")]
    p = subprocess.Popen([bin, "count", *args, "--json", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
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
    return json.loads(so), ""


def row(step, n, method, shard, tuning, run, j, exact, why=""):
    r = dict(date=date, commit=commit, driver=driver, step=step, n=n, method=method, shard=shard, tuning=tuning, run=run)
    if j is None:
        r.update(seconds="", exact=why or "stopped")
    else:
        r.update(device="; ".join(j.get("devices", ["cpu"])), seconds=f'{j["seconds"]:.3f}', total=j["total"], unique=j.get("unique", ""),
                 point_symmetric=j.get("point_symmetric", ""), rot90_symmetric=j.get("rot90_symmetric", ""), nodes=j["nodes"],
                 exact="yes" if exact else "NO")
        dj = j.get("device_join")
        if dj:
            r.update(hosts=dj["hosts"], list_s=f'{dj["list_seconds"]:.3f}', sort_s=f'{dj["sort_seconds"]:.3f}', wait_s=f'{dj["wait_seconds"]:.3f}',
                     write_s=f'{dj["write_seconds"]:.3f}', kernel_s=f'{dj["kernel_seconds"]:.3f}', launches=dj["launches"], blocks=dj["blocks"],
                     patterns=dj["patterns"], item_blocks=dj["item_blocks"])
    rows.append(r)
    where = ""
    if r.get("kernel_s"):
        where = (f'; {r["hosts"]} host goroutines: list {r["list_s"]} s, sort {r["sort_s"]} s, wait {r["wait_s"]} s;'
                 f' device: write {r["write_s"]} s, kernel {r["kernel_s"]} s, {r["launches"]} launches')
    print(f'device-check: {step} n = {n} {method} {shard} {tuning} run {run}: {r["seconds"] or "-"} s, exact {r["exact"]}{where}', flush=True)
    return r


def exact_counts(n, j):
    want = published.get(n)
    return j is not None and want is not None and (int(j["total"]), int(j["unique"]), int(j["point_symmetric"]), int(j["rot90_symmetric"])) == want


def write():
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


# 1. Exactness of the join on the device, all four counts.
for n in (16, 17, 18, 19):
    j, why = count([str(n), "--method", "join", "--device", device], 60)
    ok = exact_counts(n, j)
    failed |= not ok
    row("check", n, "join", "", "default", 1, j, ok, why)
write()

# 2. The sweep, on one fixed shard of n = 22, against the CPU's count of it.
ref, why = count(["22", "--method", "join", "--shard", SHARD], 120)
row("reference", 22, "join", SHARD, "cpu", 1, ref, ref is not None, why)


def sample(t):
    j, why = count(["22", "--method", "join", "--shard", SHARD, "--device", device, "--device-tuning", t], 40)
    ok = j is not None and ref is not None and (j["total"], j["nodes"]) == (ref["total"], ref["nodes"])
    r = row("sweep", 22, "join", SHARD, t, 1, j, ok, why)
    return (float(r["seconds"]) if ok else None), (j is not None and ref is not None and not ok)


best = {"list": 0, "sort": 0, "block": 256, "group": 128, "items": 1, "batch": 4194304, "hosts": 0}
spec = lambda t: ",".join(f"{k}={v}" for k, v in t.items())
best_s, bad = sample(spec(best))
failed |= bad
for knob, values in (("list", (1,)), ("sort", (1,)), ("block", (128, 512, 64)), ("group", (64, 256, 512)), ("items", (2, 4)),
                     ("batch", (1048576, 16777216)), ("hosts", (8, 32))):
    for v in values:
        if left() < 150 or knob == "sort" and best["list"] != 1:
            break  # the host sorts only what it lists
        t = dict(best, **{knob: v})
        s, bad = sample(spec(t))
        failed |= bad
        if s is not None and (best_s is None or s < best_s):
            best, best_s = t, s
    write()
tuning = spec(best)
print(f"device-check: fastest tuning on the sample: {tuning} ({best_s} s)", flush=True)

# 3. Timings with the fastest tuning.
for n, method, runs, limit in ((20, "join", 3, 60), (20, "sym", 1, 40), (21, "join", 1, 120), (22, "join", 1, 400)):
    for run in range(1, runs + 1):
        args = [str(n), "--method", method, "--device", device]
        if method == "join":
            args += ["--device-tuning", tuning]
        j, why = count(args, limit)
        ok = exact_counts(n, j)
        failed |= j is not None and not ok
        row("time", n, method, "", tuning if method == "join" else "", run, j, ok, why)
        write()
shutil.rmtree(tmp, ignore_errors=True)
print(f"device-check: wrote {out} in {time.time() - began:.0f} s", flush=True)
sys.exit(1 if failed else 0)
EOF
