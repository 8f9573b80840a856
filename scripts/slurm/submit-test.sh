#!/bin/bash
# submit-test.sh: submit.sh against stand-in sbatch, scontrol, squeue and
# sacctmgr (no Slurm needed): 100,000 shards of n = 28 under MaxArraySize
# 1001 submit no array index above 1000 and cover every shard exactly once,
# in one array or several, within a user's submit limit, with a throttle;
# a campaign too large for the limit is refused, submitting nothing; so
# are values that would inject variables through sbatch's --export,
# numbers past bash's arithmetic and splits nqueens refuses; a campaign on
# GPUs (--device, --device-tuning) reaches every array task's command
# line; Slurm's commands failing or absent (--dry-run) leave its default
# limits.
#
#   scripts/slurm/submit-test.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir "$t/bin"
cat >"$t/bin/sbatch" <<'STUB'
#!/bin/bash
echo "$*" >>"$STUB_LOG"
echo "device=${NQUEENS_DEVICE-unset} tuning=${NQUEENS_DEVICE_TUNING-unset}" >>"$STUB_LOG.env"
n=$(wc -l <"$STUB_LOG")
echo "$((5000 + n));cluster"
STUB
cat >"$t/bin/scontrol" <<'STUB'
#!/bin/bash
[ "$1 $2 $3" = "show config " ] || [ "$1 $2" = "show config" ] || exit 1
echo "MaxArraySize            = ${STUB_MAX_ARRAY:-1001}"
echo "MaxJobCount             = ${STUB_MAX_JOBS:-10000}"
STUB
cat >"$t/bin/squeue" <<'STUB'
#!/bin/bash
for ((i = 0; i < ${STUB_QUEUED:-0}; i++)); do echo "queued job $i"; done
STUB
cat >"$t/bin/sacctmgr" <<'STUB'
#!/bin/bash
[ -z "${STUB_MAX_SUBMIT:-}" ] || echo "$STUB_MAX_SUBMIT"
STUB
chmod +x "$t/bin/"*
export PATH="$t/bin:$PATH" STUB_LOG="$t/log"
fail() { echo "submit-test: FAIL: $*" >&2; exit 1; }

# check SHARDS MAXINDEX: every array line of the log within 0..MAXINDEX,
# every shard 0..SHARDS-1 counted by exactly one array task, and the merge
# depending on every array. Prints "arrays tasks per_task".
check() {
	awk -v shards="$1" -v maxi="$2" '
	/nqueens-array.sbatch/ {
		match($0, /--array=0-[0-9]+/); hi = substr($0, RSTART + 10, RLENGTH - 10) + 0
		if (hi > maxi) { print "array index " hi " above " maxi; bad = 1 }
		match($0, /PER_TASK=[0-9]+/); k = substr($0, RSTART + 9, RLENGTH - 9) + 0
		match($0, /FIRST=[0-9]+/); f = substr($0, RSTART + 6, RLENGTH - 6) + 0
		arrays++; ids = ids ":" (5000 + NR)
		for (t = 0; t <= hi; t++) for (s = f + t * k; s < f + (t + 1) * k && s < shards; s++) seen[s]++
		tasks += hi + 1; per = k
	}
	/merge.sbatch/ { dep = $0 }
	END {
		for (s = 0; s < shards; s++) if (seen[s] != 1) { print "shard " s " counted " seen[s] + 0 " times"; bad = 1; exit 1 }
		if (index(dep, "--dependency=afterok" ids " ") == 0) { print "merge dependency wrong: " dep " want afterok" ids; bad = 1 }
		if (bad) exit 1
		print arrays, tasks, per
	}' "$STUB_LOG"
}
submit() { : >"$STUB_LOG"; : >"$STUB_LOG.env"; "$here/submit.sh" --outdir "$t/out" "$@" >"$t/stdout" 2>"$t/stderr"; }

submit 28 100000 -- --partition=long || fail "default: $(cat "$t/stderr")"
got=$(check 100000 1000) || fail "default: $got"
[ "$got" = "1 1000 100" ] || fail "default: want one array of 1000 tasks of 100 shards, got $got"
grep -q -- '--partition=long' "$STUB_LOG" || fail "sbatch options not passed on"
grep -q "n28-join" "$t/stdout" || fail "no summary line"

submit --per-task 40 --throttle 50 28 100000 || fail "--per-task 40: $(cat "$t/stderr")"
got=$(check 100000 1000) || fail "--per-task 40: $got"
[ "$got" = "3 2500 40" ] || fail "--per-task 40: want 3 arrays, 2500 tasks, got $got"
[ "$(grep -c -- '--array=0-[0-9]*%50 ' "$STUB_LOG")" = 3 ] || fail "throttle %50 missing"

STUB_MAX_SUBMIT=500 STUB_QUEUED=20 submit 28 100000 || fail "MaxSubmit 500: $(cat "$t/stderr")"
got=$(check 100000 1000) || fail "MaxSubmit 500: $got"
read -r arrays tasks per <<<"$got"
[ "$tasks" -le 479 ] || fail "MaxSubmit 500 with 20 queued: $tasks array tasks and the merge"

STUB_MAX_ARRAY=101 submit 16 2500 || fail "MaxArraySize 101: $(cat "$t/stderr")"
got=$(check 2500 100) || fail "MaxArraySize 101: $got"

STUB_MAX_SUBMIT=100 submit --per-task 10 28 100000 && fail "10,000 array tasks under a limit of 100 were submitted"
grep -q "raise --per-task to" "$t/stderr" || fail "no advice: $(cat "$t/stderr")"
[ ! -s "$STUB_LOG" ] || fail "a refused campaign submitted jobs"

submit 28 0 && fail "0 shards accepted"
submit --per-task x 28 10 && fail "--per-task x accepted"

# Values that would inject variables into every job through sbatch's
# comma-separated --export, numbers that would overflow bash's arithmetic,
# boards nqueens refuses: each refused (exit 2), nothing submitted.
refused() { # WHAT WANT ARGS...: submit.sh ARGS exits 2 naming WANT, submits nothing
	local what=$1 want=$2
	shift 2
	: >"$STUB_LOG"
	local rc=0
	"$here/submit.sh" "$@" >"$t/stdout" 2>"$t/stderr" || rc=$?
	[ "$rc" = 2 ] || fail "$what: exit $rc, want 2 ($(cat "$t/stderr"))"
	grep -q -- "$want" "$t/stderr" || fail "$what: no '$want' in: $(cat "$t/stderr")"
	[ ! -s "$STUB_LOG" ] || fail "$what: submitted $(cat "$STUB_LOG")"
}
refused "a comma in --outdir" "holds a comma" --outdir "$t/out,PATH=/evil" 16 10
refused "a newline in --outdir" "holds a comma, a quote or a newline" --outdir "$t/out
PATH=/evil" 16 10
refused "a quote in --outdir" "holds a comma, a quote" --outdir "$t/a'b" 16 10
refused "a double quote in --outdir" "holds a comma, a quote" --outdir "$t/a\"b" 16 10
refused "an option as --outdir's value" "--outdir needs a value, got '-rf'" --outdir -rf 16 10
refused "an option without its value" "--audit needs a value" 16 10 --audit
refused "--outdir that cannot be made" "cannot be created" --outdir /proc/nqueens-out 16 10
refused "a tuning on the CPU" "--device-tuning tunes a device's join" --outdir "$t/out" --device-tuning group=64 16 10
refused "a tuning with --device cpu" "--device-tuning tunes a device's join" --outdir "$t/out" --device cpu --device-tuning group=64 16 10
refused "a comma in --audit" "is not a fraction" --outdir "$t/out" --audit '0.1,N=12' 16 10
refused "--audit 2" "is not a fraction" --outdir "$t/out" --audit 2 16 10
refused "SHARDS past 64 bits" "from 1 to 999999999" --outdir "$t/out" 16 9223372036854775807
refused "--per-task past 64 bits" "from 1 to 999999999" --outdir "$t/out" --per-task 99999999999999999999 16 10
refused "N = 65" "too large for the sym method" --outdir "$t/out" --method sym 65 10
refused "N = 33 by join" "too large for the join method" --outdir "$t/out" 33 10
refused "--device gpu" "accepted: cpu, opencl, opencl:N, opencl:all or all" --outdir "$t/out" --device gpu 16 10
refused "a tuning not in digits" "--device-tuning 'group=64;id' is not a tuning (accepted: key=value pairs" --outdir "$t/out" --device opencl --device-tuning 'group=64;id' 16 10
refused "a newline in --device-tuning" "is not a tuning (accepted: key=value pairs" --outdir "$t/out" --device opencl --device-tuning 'block=128
PATH=/evil' 16 10

# A campaign on GPUs: the device and its tuning (commas and all) reach
# every job through the environment sbatch exports; without --device the
# jobs count on the CPU whatever the submitter's environment held.
submit --device opencl --device-tuning group=256,block=128 28 100000 -- --gres=gpu:1 || fail "--device opencl: $(cat "$t/stderr")"
[ "$(sort -u "$STUB_LOG.env")" = "device=opencl tuning=group=256,block=128" ] || fail "--device opencl: the jobs saw $(sort -u "$STUB_LOG.env")"
grep -q -- '--gres=gpu:1' "$STUB_LOG" || fail "--gres not passed on"
NQUEENS_DEVICE=opencl submit 28 100000 || fail "no --device: $(cat "$t/stderr")"
[ "$(sort -u "$STUB_LOG.env")" = "device=cpu tuning=" ] || fail "no --device: the jobs saw $(sort -u "$STUB_LOG.env")"
# The array task's command line, with a stand-in nqueens that prints it:
# the CPU workers from Slurm on the CPU, none on a device alone.
printf '#!/bin/sh\necho "$*"\n' >"$t/echo-nqueens"
chmod +x "$t/echo-nqueens"
task() { env -u NQUEENS_DEVICE -u NQUEENS_DEVICE_TUNING "$@" N=20 SHARDS=64 PER_TASK=8 SLURM_ARRAY_TASK_ID=1 SLURM_CPUS_PER_TASK=16 NQUEENS="$t/echo-nqueens" OUTDIR="$t/out" bash "$here/nqueens-array.sbatch"; }
[ "$(task)" = "count 20 -m join -q --shard 8-15/64 --dir $t/out/n20-join --device cpu -j 16" ] || fail "array task on the CPU: $(task)"
[ "$(task NQUEENS_DEVICE=opencl NQUEENS_DEVICE_TUNING=group=256,block=128)" = "count 20 -m join -q --shard 8-15/64 --dir $t/out/n20-join --device opencl --device-tuning group=256,block=128" ] ||
	fail "array task on a GPU: $(task NQUEENS_DEVICE=opencl NQUEENS_DEVICE_TUNING=group=256,block=128)"
[ "$(task NQUEENS_DEVICE=all)" = "count 20 -m join -q --shard 8-15/64 --dir $t/out/n20-join --device all -j 16" ] || fail "array task on all: $(task NQUEENS_DEVICE=all)"
submit --audit 0.001 16 10 || fail "--audit 0.001: $(cat "$t/stderr")"
grep -q 'AUDIT=0.001 ' "$STUB_LOG" || fail "--audit 0.001 not passed on: $(cat "$STUB_LOG")"

# The split against the plan, where the binary is at hand: n = 12 has
# 276 tasks, 100,000 shards are refused before anything is submitted.
(cd "$here/../.." && go build -o "$t/real/nqueens" ./cmd/nqueens) || fail "building nqueens"
NQUEENS="$t/real/nqueens" refused "more shards than the plan allows" "nqueens refuses the campaign: --shards 100000\|bad shard: 100000 shards of a plan of 276 tasks" --outdir "$t/out" 12 100000
NQUEENS="$t/real/nqueens" submit 12 64 || fail "n = 12 in 64 shards: $(cat "$t/stderr")"
NQUEENS="$t/real/nqueens" refused "a tuning out of bounds" "nqueens refuses the campaign: --device-tuning: block=100 is out of bounds" --outdir "$t/out" --device opencl --device-tuning block=100 12 64
# The plan check sees the device and the job's memory: a board past the
# device kernels, a tuning no node's memory holds (hosts=4096: 270 GiB),
# a batch past the job's --mem.
NQUEENS="$t/real/nqueens" refused "sym by a device past n = 32" "beyond the device kernels' 32 rows" --outdir "$t/out" --device opencl --method sym 40 1000
NQUEENS="$t/real/nqueens" refused "hosts=4096" "host goroutines feeding devices" --outdir "$t/out" --device opencl --device-tuning hosts=4096 20 100
NQUEENS="$t/real/nqueens" refused "a batch past --mem" "is too small for n = 20" --outdir "$t/out" --device opencl --device-tuning batch=268435456,hosts=1 20 100 -- --mem=4G
NQUEENS="$t/real/nqueens" submit --device opencl --device-tuning batch=268435456,hosts=1 20 100 -- --mem=64G || fail "a batch within --mem: $(cat "$t/stderr")"
# Each job's log is named by an absolute path of this folder with each %
# written %% (Slurm expands %-patterns in the whole path: a folder named
# 'odd %j *x' made every task fail at launch).
mkdir -p "$t/odd %j *x y"
(cd "$t/odd %j *x y" && submit 16 10) || fail "a folder with %: $(cat "$t/stderr")"
grep -qF -- "--output=$t/odd %%j *x y/nqueens-%A_%a.log" "$STUB_LOG" || fail "the array's log path: $(cat "$STUB_LOG")"
grep -qF -- "--output=$t/odd %%j *x y/nqueens-merge-%j.log" "$STUB_LOG" || fail "the merge's log path: $(cat "$STUB_LOG")"
mkdir -p "$t/back\\slash"
(cd "$t/back\\slash" && refused "a backslash in the folder" "holds a backslash" --outdir "$t/out" 16 10)

# Slurm's commands failing (a controller down), or absent with --dry-run
# on a machine without Slurm: its default limits stand in.
mkdir "$t/broken"
for c in scontrol squeue sacctmgr; do printf '#!/bin/sh\necho "%s: error: Unable to contact slurm controller" >&2\nexit 1\n' "$c" >"$t/broken/$c"; done
chmod +x "$t/broken/"*
PATH="$t/broken:$PATH" submit 28 100000 || fail "failing squeue: $(cat "$t/stderr")"
got=$(check 100000 1000) || fail "failing squeue: $got"
if ! PATH=/usr/bin:/bin command -v squeue >/dev/null; then
	: >"$STUB_LOG"
	PATH="/usr/bin:/bin" "$here/submit.sh" --dry-run --outdir "$t/out" 28 100000 >"$t/stdout" 2>"$t/stderr" || fail "--dry-run without Slurm: $(cat "$t/stderr")"
	grep -q -- "--array=0-999 " "$t/stderr" || fail "--dry-run without Slurm printed no array: $(cat "$t/stderr")"
	grep -q "1000 array tasks in 1 array job" "$t/stdout" || fail "--dry-run without Slurm: $(cat "$t/stdout")"
fi
# --dry-run prints the environment the jobs take, so that its lines,
# pasted, count on the device.
"$here/submit.sh" --dry-run --outdir "$t/out" --device opencl --device-tuning group=256,block=128 16 10 >"$t/stdout" 2>"$t/stderr" || fail "--dry-run on a device: $(cat "$t/stderr")"
[ "$(grep -c 'NQUEENS_DEVICE=opencl NQUEENS_DEVICE_TUNING=group=256\\,block=128 sbatch' "$t/stderr")" = 2 ] || fail "--dry-run left the device out: $(cat "$t/stderr")"
echo "submit-test: PASS (100,000 shards of n = 28 within MaxArraySize 1001, several arrays, throttle, submit limits, refusals, injected values, overflow, the plan's split and tuning, a campaign on GPUs and its plan check, log paths with %, Slurm failing or absent)"
