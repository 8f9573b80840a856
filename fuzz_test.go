package nqueens

import (
	"context"
	"errors"
	"io"
	"testing"
)

// FuzzOptions: any workers, shard, memory and sample values give counts or
// an error wrapping ErrInvalid, never a panic or an allocation sized by
// them (a shard of 1<<62, a million workers).
func FuzzOptions(f *testing.F) {
	for _, s := range [][5]int64{{8, 2, 0, 1, 0}, {12, 1, 0, 1 << 40, 0}, {12, 1_000_000, 0, 1, 0}, {10, 2, 5, 1 << 62, 1 << 20}, {9, -1, -1, 0, -5}, {11, 3, 2, 7, 64 << 20}} {
		f.Add(s[0], s[1], s[2], s[3], s[4])
	}
	f.Fuzz(func(t *testing.T, n, workers, shard, shards, memory int64) {
		n = n % 11 // boards that count in microseconds
		opts := []any{WithWorkers(int(workers)), WithShard(int(shard), int(shards), io.Discard), WithMemory(memory)}
		for _, call := range []func() error{
			func() error { _, err := Count(context.Background(), int(n), as[CountOption](opts)...); return err },
			func() error {
				_, err := Estimate(context.Background(), int(n), as[EstimateOption](opts)...)
				return err
			},
		} {
			if err := call(); err != nil && !errors.Is(err, ErrInvalid) {
				t.Fatalf("n=%d workers=%d shard=%d/%d memory=%d: %v is not an input error", n, workers, shard, shards, memory, err)
			}
		}
	})
}
