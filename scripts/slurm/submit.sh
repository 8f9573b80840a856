#!/bin/bash
# submit.sh: submit a sharded count and its merge to Slurm, within the
# site's limits.
#
#   scripts/slurm/submit.sh [OPTIONS] N SHARDS [-- SBATCH OPTIONS...]
#   scripts/slurm/submit.sh 28 100000 -- --partition=long --time=2-00:00:00
#   scripts/slurm/submit.sh --per-task 50 --throttle 200 28 100000
#
# Slurm refuses array indices of MaxArraySize and above (1001 by default:
# 0-1000) and jobs beyond MaxJobCount (10,000 by default) or a user's
# MaxSubmitJobs, and every array task counts as a job. So the shards are
# counted PER_TASK at a time by each array task, one after another (each
# with its own journal and result file: nqueens-array.sbatch), in as few
# arrays of at most MaxArraySize tasks as that takes, each told its first
# shard (FIRST); the merge job depends on all of them. The limits are read
# from `scontrol show config` and, where accounting runs, `sacctmgr`; jobs
# the user already has queued count against them.
#
# Options:
#   --per-task K    shards per array task (default: the fewest that fit the
#                   whole campaign in one array within the limits)
#   --throttle P    at most P tasks of each array running at once (%P)
#   --max-jobs J    submit at most J jobs, merge included (below the limits)
#   --method M      join (default) or sym (unique and symmetric counts too)
#   --outdir DIR    where the shard files go (default: this directory);
#                   they land in DIR/nN-METHOD/DDD/
#   --audit F       the merge recounts fraction F of the task lines first
#   --device D      where the array tasks count: cpu (default), opencl,
#                   opencl:N, opencl:all (the node's GPUs: request them
#                   with sbatch's --gres, and CPUs for the host's share
#                   with --cpus-per-task) or all (GPUs and CPU workers)
#   --device-tuning T
#                   the device join's tuning (nqueens count --device-tuning)
#   --dry-run       print the sbatch commands instead of running them (no
#                   Slurm needed: its default limits stand in)
# Environment: NQUEENS, the binary the jobs run (default nqueens on PATH);
# where it is on this machine's PATH, the campaign is checked against the
# plan (nqueens plan N --shards SHARDS --device D --device-tuning T, and
# --memory half of sbatch's --mem=SIZE where it is given, else this
# machine's default) before anything is submitted: a split, a board the
# device kernels cannot count, a tuning no task's memory holds.
# Every value is checked before it reaches sbatch (numbers of at most nine
# digits, N within what the method accepts, a path without commas, quotes
# or newlines, a fraction, a value for every option and none that is
# another option, a tuning only with a device), exit 2 on the first that
# is not. The jobs' logs go to this folder (nqueens-ARRAY_TASK.log,
# nqueens-merge-JOB.log), named by an absolute path in which each % is
# written %% (Slurm expands %-patterns in the whole path); a folder whose
# path holds a backslash is refused. --dry-run prints each sbatch command
# after the environment the jobs take (env NQUEENS=... NQUEENS_DEVICE=...).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: submit.sh [--per-task K] [--throttle P] [--max-jobs J] [--method M] [--outdir DIR] [--audit F] [--device D] [--device-tuning T] [--dry-run] N SHARDS [-- SBATCH OPTIONS...]" >&2; exit 2; }
fail() { echo "submit.sh: $*" >&2; exit 2; }
per_task= throttle= max_jobs= method=join outdir=$PWD audit= device=cpu tuning= tuned= dry=
pos=()
# value OPTION VALUE...: the option's value, refused (exit 2) where it is
# missing or is another option (a path that starts with '-' is written ./-x).
value() {
	[ $# -ge 2 ] || fail "$1 needs a value"
	case $2 in -*) fail "$1 needs a value, got '$2' (a value may not start with '-'; a path can be written ./$2)" ;; esac
	printf '%s' "$2"
}
while [ $# -gt 0 ]; do
	case $1 in
	--per-task) per_task=$(value "$@"); shift 2 ;;
	--throttle) throttle=$(value "$@"); shift 2 ;;
	--max-jobs) max_jobs=$(value "$@"); shift 2 ;;
	--method) method=$(value "$@"); shift 2 ;;
	--outdir) outdir=$(value "$@"); shift 2 ;;
	--audit) audit=$(value "$@"); shift 2 ;;
	--device) device=$(value "$@"); shift 2 ;;
	--device-tuning) tuning=$(value "$@"); tuned=1; shift 2 ;;
	--dry-run) dry=1; shift ;;
	--) shift; break ;;
	-h | --help) usage ;;
	-*) fail "unknown option $1 (accepted: --per-task, --throttle, --max-jobs, --method, --outdir, --audit, --device, --device-tuning, --dry-run, then -- and sbatch's options)" ;;
	*) pos+=("$1"); shift ;;
	esac
done
[ ${#pos[@]} -eq 2 ] || usage
N=${pos[0]} SHARDS=${pos[1]}
# Whole numbers of at most 9 digits, so that no arithmetic below can
# overflow (bash's is 64-bit and wraps silently).
num() { [[ $2 =~ ^[1-9][0-9]{0,8}$ ]] || fail "$1 must be a whole number from 1 to 999999999, got '$2'"; }
num N "$N"
num SHARDS "$SHARDS"
[ -z "$per_task" ] || num --per-task "$per_task"
[ -z "$throttle" ] || num --throttle "$throttle"
[ -z "$max_jobs" ] || num --max-jobs "$max_jobs"
case $method in join | sym | mirror) ;; *) fail "--method '$method' (accepted: join, sym, mirror)" ;; esac
max_n=64
[ "$method" != join ] || max_n=32
[ "$N" -le "$max_n" ] || fail "N = $N is too large for the $method method (accepted: 1..$max_n)"
# Values travel in sbatch's --export, a comma-separated list of NAME=VALUE
# that sbatch splits honouring quotes: a comma, a quote or a newline in one
# would add or change variables of every job.
case $outdir in *,* | *\'* | *\"* | *$'\n'* | '') fail "--outdir '$outdir' holds a comma, a quote or a newline, or is empty (accepted: a path without them)" ;; esac
if [ -n "$audit" ] && ! [[ $audit =~ ^(0|1|0?\.[0-9]+|1\.0*)$ ]]; then
	fail "--audit '$audit' is not a fraction (accepted: 0 to 1, e.g. 0.001)"
fi
# The device and its tuning travel in the environment sbatch exports
# (--export=ALL): a tuning holds commas.
[[ $device =~ ^(cpu|opencl|opencl:[0-9]{1,4}|opencl:all|all)$ ]] || fail "--device '$device' (accepted: cpu, opencl, opencl:N, opencl:all or all)"
[ -z "$tuning" ] || [[ $tuning =~ ^[a-z]+=[0-9]{1,10}(,[a-z]+=[0-9]{1,10})*$ ]] || fail "--device-tuning '$tuning' is not a tuning (accepted: key=value pairs separated by commas, each value in digits, e.g. group=256,block=128)"
[ -z "$tuned" ] || [ "$device" != cpu ] || fail "--device-tuning tunes a device's join, and the shards count on the CPU: give --device (opencl, opencl:N, opencl:all or all) too"
export NQUEENS_DEVICE=$device NQUEENS_DEVICE_TUNING=$tuning
mkdir -p -- "$outdir" 2>/dev/null || fail "--outdir '$outdir' cannot be created (accepted: a folder this user may write)"
outdir=$(cd -- "$outdir" && pwd)
case $outdir in *,* | *\'* | *\"* | *$'\n'*) fail "--outdir resolves to '$outdir', which holds a comma, a quote or a newline" ;; esac
# The jobs' logs go to this folder, as an absolute path: Slurm expands
# %-patterns in the whole path (a folder named 'a %j' would name a log in
# a folder that does not exist, and every task would fail at launch), so
# each % is written %%; a backslash would turn the patterns off altogether.
case $PWD in *\\* | *$'\n'*) fail "this folder's path '$PWD' holds a backslash or a newline, which Slurm's log names cannot hold: submit from another folder" ;; esac
logdir=${PWD//%/%%}
export NQUEENS=${NQUEENS:-nqueens}
# The split, against the plan: nqueens refuses more shards than the plan
# has tasks, and says so now rather than in every array task.
if command -v "$NQUEENS" >/dev/null; then
	# With the device and its tuning, and the job's memory where sbatch's
	# --mem gives it (a count takes half of it by default), so that a board
	# the device kernels cannot count or a tuning that cannot fit is
	# refused here, not in every array task; without --mem, the limit is
	# this machine's.
	memory=()
	for a in "$@"; do
		if [[ $a =~ ^--mem=([1-9][0-9]{0,8})([KMGT]?)$ ]]; then # --mem=0: the whole node
			mib=${BASH_REMATCH[1]}
			case ${BASH_REMATCH[2]} in K) mib=$((mib / 1024)) ;; G) mib=$((mib * 1024)) ;; T) mib=$((mib * 1024 * 1024)) ;; esac
			[ "$((mib / 2))" -eq 0 ] || memory=(--memory "$((mib / 2))MiB")
		fi
	done
	if ! out=$("$NQUEENS" plan "$N" --method "$method" --shards "$SHARDS" --sample 0 --device "$device" ${tuning:+--device-tuning "$tuning"} "${memory[@]}" 2>&1 >/dev/null); then
		fail "nqueens refuses the campaign: ${out#nqueens: }"
	fi
else
	echo "submit.sh: note: $NQUEENS is not on this machine's PATH: the split is not checked against the plan here" >&2
fi

# The site's limits (Slurm's defaults where it cannot be asked: --dry-run
# on a machine without Slurm).
config=$(scontrol show config 2>/dev/null || true)
setting() { awk -v k="$1" '$1 == k && $3 ~ /^[0-9]+$/ { print $3; exit }' <<<"$config"; }
max_array=$(setting MaxArraySize)
max_array=${max_array:-1001}
limit=$(setting MaxJobCount)
limit=${limit:-10000}
user=${USER:-$(id -un)}
if command -v sacctmgr >/dev/null; then
	s=$(sacctmgr -nP show assoc where user="$user" format=MaxSubmit 2>/dev/null | grep -m1 -E '^[0-9]{1,9}$' || true)
	[ -z "$s" ] || [ "$s" -ge "$limit" ] || limit=$s
fi
queued=0
if command -v squeue >/dev/null && out=$(squeue -h -r -u "$user" 2>/dev/null); then
	queued=$(printf '%s' "$out" | grep -c . || true)
fi
room=$((limit - queued))
[ -z "$max_jobs" ] || [ "$max_jobs" -ge "$room" ] || room=$max_jobs
[ "$room" -ge 2 ] || fail "the submit limit leaves room for $room jobs ($queued queued of $limit): one array task and the merge need 2"
tasks_room=$((room - 1)) # the merge job

# Shards per array task: given, or the fewest that fit one array.
if [ -z "$per_task" ]; then
	cap=$tasks_room
	[ "$cap" -le "$max_array" ] || cap=$max_array
	per_task=$(((SHARDS + cap - 1) / cap))
fi
tasks=$(((SHARDS + per_task - 1) / per_task))
[ "$tasks" -le "$tasks_room" ] || fail "$SHARDS shards at $per_task a task make $tasks array tasks, but the submit limit leaves room for $tasks_room (raise --per-task to $(((SHARDS + tasks_room - 1) / tasks_room)) or more)"

run() {
	if [ -n "$dry" ]; then
		# The environment the jobs take (--export=ALL) first, so that the
		# printed line, pasted, submits the same campaign.
		printf '%q ' env NQUEENS="$NQUEENS" NQUEENS_DEVICE="$NQUEENS_DEVICE" NQUEENS_DEVICE_TUNING="$NQUEENS_DEVICE_TUNING" "$@" >&2
		echo >&2
		echo "$((1000 + ${#arrays[@]}))" # a made-up job id
	else
		"$@"
	fi
}
arrays=()
for ((t0 = 0; t0 < tasks; t0 += max_array)); do
	n=$((tasks - t0))
	[ "$n" -le "$max_array" ] || n=$max_array
	spec="0-$((n - 1))${throttle:+%$throttle}"
	id=$(run sbatch --parsable --array="$spec" \
		--export=ALL,N="$N",SHARDS="$SHARDS",PER_TASK="$per_task",FIRST=$((t0 * per_task)),METHOD="$method",OUTDIR="$outdir" \
		--output="$logdir/nqueens-%A_%a.log" "$@" "$here/nqueens-array.sbatch")
	arrays+=("${id%%;*}")
done
dep=$(IFS=:; echo "afterok:${arrays[*]}")
merge=$(run sbatch --parsable --dependency="$dep" --export=ALL,N="$N",METHOD="$method",OUTDIR="$outdir",AUDIT="$audit" --output="$logdir/nqueens-merge-%j.log" "$here/merge.sbatch")
echo "submit.sh: n = $N in $SHARDS shards on $device${tuning:+ ($tuning)}, $per_task a task: $tasks array tasks in ${#arrays[@]} array job(s) ${arrays[*]} (MaxArraySize $max_array, room for $room jobs); merge job ${merge%%;*}; files in $outdir/n$N-$method/"
