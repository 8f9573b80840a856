//go:build twomiddle

package partition_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/partition"
)

// These tests check plans with two middle columns between the join's
// halves (JoinMiddle) on small boards: built with -tags twomiddle, the
// planner cuts every even board from 4 on so, as it does n = 28 and above
// (go test -tags twomiddle -run TwoMiddle ./partition).

// TestJoinTaskCountTwoMiddle: the planner's size of a plan with two
// middle columns is its tasks, as for every other plan.
func TestJoinTaskCountTwoMiddle(t *testing.T) {
	require.Equal(t, 2, board.JoinMiddle(12), "built with -tags twomiddle")
	for n := 12; n <= 20; n += 2 {
		p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		pl, err := partition.NewPlanner(context.Background(), partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		assert.Equal(t, len(p.Tasks), pl.Size().Tasks, "n=%d, two middle columns", n)
	}
}

// TestFingerprintTwoMiddle: two middle columns make another plan, with a
// fingerprint of its own.
func TestFingerprintTwoMiddle(t *testing.T) {
	require.Equal(t, 2, board.JoinMiddle(12), "built with -tags twomiddle")
	p, err := partition.Make(context.Background(), partition.Job{N: 12, Method: partition.Join})
	require.NoError(t, err)
	assert.Equal(t, "283eef5ea0b2a0179490fe8c", p.Fingerprint(), "n = 12 with two middle columns")
}
