#!/bin/bash
# submit.sh: submit a sharded count and its merge to Slurm.
#
#   scripts/slurm/submit.sh N SHARDS [sbatch options...]
#   scripts/slurm/submit.sh 20 64 --partition=long --time=2-00:00:00
set -eu
N=$1 SHARDS=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
array=$(N=$N sbatch --parsable --export=ALL,N="$N" --array=0-$((SHARDS - 1)) "$@" "$here/nqueens-array.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL,N="$N" --dependency=afterok:"$array" "$here/merge.sbatch")
echo "array job $array ($SHARDS shards of n = $N), merge job $merge"
