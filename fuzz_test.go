package nqueens

import (
	"context"
	"errors"
	"io"
	"testing"
)

// FuzzParseBoard: any text is a board or an error, never a panic; a board
// has a column (or -1, -2) per row, and Verify judges it.
func FuzzParseBoard(f *testing.F) {
	for _, s := range []string{"1 3 0 2", "1,3,0,2", ". Q . .\n. . . Q\nQ . . .\n. . Q .", "Q.\n.Q", "", "\r\n", "1 3 x", "Q Q\n. .", "0 0", "-1", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		cols, err := ParseBoard(text)
		if err != nil {
			if len(err.Error()) > 300 {
				t.Fatalf("message of %d bytes", len(err.Error()))
			}
			return
		}
		for _, c := range cols {
			if c < -2 || c >= len(cols) {
				t.Fatalf("column %d of a %d-row board", c, len(cols))
			}
		}
		_ = Verify(cols)
	})
}

// FuzzShardFromEnv: any environment names a shard in range or is an error.
func FuzzShardFromEnv(f *testing.F) {
	f.Add("5", "8", "1", "", 0)
	f.Add("", "", "", "6", 7)
	f.Add("9", "8", "", "", 0)
	f.Add("", "", "", "x", 3)
	f.Add("-1", "-1", "-1", "-1", -1)
	f.Fuzz(func(t *testing.T, id, count, lo, index string, shards int) {
		env := map[string]string{"SLURM_ARRAY_TASK_ID": id, "SLURM_ARRAY_TASK_COUNT": count, "SLURM_ARRAY_TASK_MIN": lo, "JOB_COMPLETION_INDEX": index}
		i, m, _, err := ShardFromEnv(func(k string) string { return env[k] }, shards)
		if err != nil {
			if len(err.Error()) > 600 {
				t.Fatalf("message of %d bytes", len(err.Error()))
			}
			return
		}
		if m < 1 || i < 0 || i >= m {
			t.Fatalf("shard %d/%d", i, m)
		}
	})
}

// FuzzOptions: any workers, shard, memory and sample values give counts or
// an error wrapping ErrInvalid, never a panic or an allocation sized by
// them (a shard of 1<<62, a million workers).
func FuzzOptions(f *testing.F) {
	for _, s := range [][5]int64{{8, 2, 0, 1, 0}, {12, 1, 0, 1 << 40, 0}, {12, 1_000_000, 0, 1, 0}, {10, 2, 5, 1 << 62, 1 << 20}, {9, -1, -1, 0, -5}, {11, 3, 2, 7, 64 << 20}} {
		f.Add(s[0], s[1], s[2], s[3], s[4])
	}
	f.Fuzz(func(t *testing.T, n, workers, shard, shards, memory int64) {
		n = n % 11 // boards that count in microseconds
		opts := []Option{WithWorkers(int(workers)), WithShard(int(shard), int(shards), io.Discard), WithMemory(memory)}
		for _, call := range []func() error{
			func() error { _, err := Count(context.Background(), int(n), opts...); return err },
			func() error { _, err := Estimate(context.Background(), int(n), opts...); return err },
		} {
			if err := call(); err != nil && !errors.Is(err, ErrInvalid) {
				t.Fatalf("n=%d workers=%d shard=%d/%d memory=%d: %v is not an input error", n, workers, shard, shards, memory, err)
			}
		}
	})
}
