package cli

import (
	"fmt"
	"strconv"

	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/partition"
)

// ShardFromEnv returns the shard a cluster scheduler assigned to this
// process, from its environment as getenv reads it (os.Getenv): Slurm's
// job arrays (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT and, for arrays
// not starting at 0, SLURM_ARRAY_TASK_MIN), else a Kubernetes Indexed
// Job's JOB_COMPLETION_INDEX when shards (the Job's completions) is above
// 0. from names the variable used; it is "" and the shard 0 of 1 when
// neither applies. An explicit --shards (shards above 0) that is not the
// Slurm array's size is an error: neither silently wins. A variable that names no shard is an error wrapping
// a usage error.
func ShardFromEnv(getenv func(string) string, shards int) (i, m int, from string, err error) {
	if id, count := getenv("SLURM_ARRAY_TASK_ID"), getenv("SLURM_ARRAY_TASK_COUNT"); id != "" && count != "" {
		i, err1 := strconv.Atoi(id)
		m, err2 := strconv.Atoi(count)
		lo := 0
		var err3 error
		if s := getenv("SLURM_ARRAY_TASK_MIN"); s != "" {
			lo, err3 = strconv.Atoi(s)
		}
		if err1 != nil || err2 != nil || err3 != nil || !partition.IsShards(i-lo, i-lo, m) {
			return 0, 0, "", Usagef("SLURM_ARRAY_TASK_ID=%s, SLURM_ARRAY_TASK_COUNT=%s, SLURM_ARRAY_TASK_MIN=%s do not name a shard (the array must be contiguous, e.g. --array=0-7)",
				msg.Quote(id), msg.Quote(count), msg.Quote(getenv("SLURM_ARRAY_TASK_MIN")))
		}
		if shards > 0 && shards != m {
			return 0, 0, "", Usagef("--shards %d and SLURM_ARRAY_TASK_COUNT=%d disagree (the array's tasks are the shards): leave out --shards", shards, m)
		}
		return i - lo, m, "SLURM_ARRAY_TASK_ID", nil
	}
	switch {
	case shards < 0:
		return 0, 0, "", Usagef("--shards must be at least 1, got %d", shards)
	case shards == 0:
		return 0, 1, "", nil
	}
	idx := getenv("JOB_COMPLETION_INDEX")
	i, err = strconv.Atoi(idx)
	if idx == "" || err != nil || !partition.IsShards(i, i, shards) {
		return 0, 0, "", Usagef("a Job of %d shards needs JOB_COMPLETION_INDEX in 0..%d (a Kubernetes Indexed Job sets it), got %s", shards, shards-1, msg.Quote(idx))
	}
	return i, shards, "JOB_COMPLETION_INDEX", nil
}

// Shard is the shard a count runs: flag (--shard I/M, or a range A-B/M)
// when given, else the scheduler's environment as getenv reads it
// ([ShardFromEnv], with shards from --shards), else 0 of 1: shards first
// to last of m (first = last but for a range). from names the variable
// that chose it, "" when none did.
func Shard(flag string, shards int, getenv func(string) string) (first, last, m int, from string, err error) {
	if flag != "" {
		first, last, m, err := partition.ParseShards(flag)
		if err != nil {
			return 0, 0, 0, "", Usagef("bad --shard %s (accepted: %s)", msg.Quote(flag), partition.ShardsAccepted)
		}
		return first, last, m, "", nil
	}
	i, m, from, err := ShardFromEnv(getenv, shards)
	if err != nil {
		return 0, 0, 0, "", fmt.Errorf("%w; or use --shard I/M", err)
	}
	return i, i, m, from, nil
}
