#!/usr/bin/env bash
# results.sh: regenerate results.csv, the project's published table: one row
# per n from 0 to MAX (default 17) with the four counts from the sym method
# (METHOD=join or auto for the faster one), the workers, seconds, nodes and
# nodes/s, the CPU, the Go version and the date.
# internal/known/results_test.go checks every count in it.
#
#   scripts/results.sh [MAX]
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-17}
go run ./cmd/nqueens table 0 "$max" --method "${METHOD:-sym}" --format csv --meta --quiet >results.csv.tmp
mv results.csv.tmp results.csv
echo "results.csv: n = 0..$max"
