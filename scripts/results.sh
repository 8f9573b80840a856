#!/usr/bin/env bash
# results.sh: regenerate results.csv, the project's published table: one row
# per n from 0 to MAX (default 19) with the four counts from the default method
# (auto: sym below 12, join from 12; METHOD=sym or join for one method), the workers, seconds, nodes and
# nodes/s, the CPU, the Go version and the date.
# internal/known/results_test.go checks every count in it.
#
#   scripts/results.sh [MAX]
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-19}
go run ./cmd/nqueens table 0 "$max" --method "${METHOD:-auto}" --format csv --meta --quiet >results.csv.tmp
mv results.csv.tmp results.csv
echo "results.csv: n = 0..$max"
