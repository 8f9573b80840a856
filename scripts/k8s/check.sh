#!/usr/bin/env bash
# check.sh: the rules of the Indexed Job that its schema (kubeconform, in
# CI) cannot express, as the API server would apply them, and the ones
# nqueens adds: restartPolicy Never (podFailurePolicy needs it), FailIndex
# only with backoffLimitPerIndex, completions and parallelism at most
# 100,000 (the API's bound with backoffLimitPerIndex), --shards equal to
# completions, and every podFailurePolicy rule naming the container.
#
#   scripts/k8s/check.sh [MANIFEST]
set -euo pipefail
f=${1:-$(dirname "$0")/nqueens-indexed-job.yaml}
fail() { echo "check.sh: $f: $*" >&2; exit 1; }
field() { awk -v k="$1:" '$1 == k { print $2; exit }' "$f"; }
completions=$(field completions)
parallelism=$(field parallelism)
[ -n "$completions" ] || fail "no completions"
[ "$completions" -le 100000 ] || fail "completions $completions: at most 100000 with backoffLimitPerIndex"
[ "${parallelism:-0}" -le 100000 ] || fail "parallelism $parallelism: at most 100000"
grep -q 'completionMode: Indexed' "$f" || fail "not an Indexed Job"
grep -q 'restartPolicy: Never' "$f" || fail "podFailurePolicy needs restartPolicy: Never"
if grep -q 'action: FailIndex' "$f"; then
	grep -q 'backoffLimitPerIndex:' "$f" || fail "FailIndex needs backoffLimitPerIndex"
fi
shards=$(grep -o -- '--shards=[0-9]*' "$f" | cut -d= -f2)
[ "$shards" = "$completions" ] || fail "--shards=$shards but completions: $completions"
container=$(awk '$1 == "-" && $2 == "name:" { print $3; exit }' "$f")
while read -r name; do
	[ "$name" = "$container" ] || fail "a podFailurePolicy rule names container $name, the pod's is $container"
done < <(awk '$1 == "containerName:" { print $2 }' "$f")
echo "check.sh: $f: ok ($completions completions, container $container)"
