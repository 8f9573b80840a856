package partition_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/long"
	"github.com/nqueens/nqueens/partition"
)

// TestFingerprintsPinned pins each plan's fingerprint (planning rules version 3: costs
// included, shards as cost ranges), as journals and shard
// files written by earlier versions record it: a change of plan (and with
// it of every stored task ID) must be deliberate, with a new Version.
func TestFingerprintsPinned(t *testing.T) {
	for _, tc := range []struct {
		n      int
		method partition.Method
		want   string
	}{
		{0, partition.Mirror, "f5ece7cb197e86d3c097c32b"},
		{1, partition.Mirror, "d142415fe4006d5c6ee4e870"},
		{5, partition.Mirror, "9f79add05cf14095740c6a10"},
		{8, partition.Mirror, "69caf67055c6d58c233b57ae"},
		{12, partition.Mirror, "c24d28858b3ab89fb2a33be1"},
		{13, partition.Mirror, "c96a222d95cb61792d227fe8"},
		{16, partition.Mirror, "5664f7d9f8420809455d06fc"},
		{17, partition.Mirror, "a7ee04eb6a63737c5cad5949"},
		{0, partition.Sym, "0453f3ae3445944d5678e0d6"},
		{1, partition.Sym, "94a2c6adb483bb5a4a1b4b57"},
		{5, partition.Sym, "502c54ec5a158daddf3dd65f"},
		{8, partition.Sym, "9480e4ab8a7de4c7417518ea"},
		{12, partition.Sym, "31da2369dfe8a6c4feb38676"},
		{13, partition.Sym, "2427113fe83058bb036846e9"},
		{16, partition.Sym, "817587c8f5fb8581b2c3d342"},
		{17, partition.Sym, "b4ca631842d0a7c950432c01"},
		{0, partition.Join, "57ff08d5d43b2db22b4922c4"},
		{1, partition.Join, "5b1e51cdddb44c4e8f2cf809"},
		{5, partition.Join, "49074b83e0ada6e87f740157"},
		{8, partition.Join, "1a0ea8f7cd629c33c93041b0"},
		{12, partition.Join, "ca7ab7fd151ed93a0450d792"},
		{13, partition.Join, "6e644e1f3ec8e4ccbcc76e24"},
		{16, partition.Join, "85babfffdeeae902ed1825dc"},
		{17, partition.Join, "e800afdad75a35a94da31161"},
		// From JoinLongFrom on, even boards' join tasks count weighted
		// shares (n = 18 was 36800548e6c0d1cb219cbf94 before, 22
		// 16944e7deaba28b1d17c34af); odd ones are unchanged.
		{18, partition.Join, "499f4baa37454ccf408dc38d"},
		{19, partition.Join, "81912dbb0d6baaf759a2bc0d"},
		{22, partition.Join, "7991e95ae9907e4332d246bb"},
	} {
		p, err := partition.Make(context.Background(), partition.Job{N: tc.n, Method: tc.method})
		require.NoError(t, err)
		assert.Equal(t, tc.want, p.Fingerprint(), "Fingerprint of n=%d %s", tc.n, tc.method)
	}
	// Two middle columns (JoinMiddle) make another plan, with a
	// fingerprint of its own: at n = 28 itself (10,034,160 tasks and
	// 1c5c7d8ec8bcf4bda5e6b49e before them, 033c51a7b54b9373e777c890
	// before its long-diagonal weights), a walk of 37 million tasks in a
	// long run; at n = 12 in TestFingerprintTwoMiddle.
	if long.Run() {
		pl, err := partition.NewPlanner(context.Background(), partition.Job{N: 28, Method: partition.Join})
		require.NoError(t, err)
		st, err := pl.Stats(1)
		require.NoError(t, err)
		assert.Equal(t, "3e8c6218092a2e03111d5d66", st.Fingerprint, "n = 28")
		// Odd boards are weighted from JoinLongOddFrom (25) on: n = 25
		// was 7a7d37cafd27544acd3ce2c1 before; n = 23 keeps its plan.
		for _, tc := range []struct {
			n    int
			want string
		}{{23, "3731251fb58f527240697594"}, {25, "db3704f797a02b5f12387535"}} {
			pl, err := partition.NewPlanner(context.Background(), partition.Job{N: tc.n, Method: partition.Join})
			require.NoError(t, err)
			st, err := pl.Stats(1)
			require.NoError(t, err)
			assert.Equal(t, tc.want, st.Fingerprint, "n = %d", tc.n)
		}
	}
	// Placed queens: the same question in any order is one plan, the one
	// sorted placements always had.
	for _, placed := range [][]board.Square{{{Row: 0, Col: 1}, {Row: 3, Col: 2}}, {{Row: 3, Col: 2}, {Row: 0, Col: 1}}} {
		p, err := partition.Make(context.Background(), partition.Job{N: 10, Method: partition.Mirror, Placed: placed})
		require.NoError(t, err)
		assert.Equal(t, "1bcc32bddd8a4e988657de97", p.Fingerprint(), "placed %v", placed)
	}
}

// TestMakeAuto checks that the empty method and auto are the fastest one.
func TestMakeAuto(t *testing.T) {
	for _, n := range []int{5, 11, 12, 16} {
		for _, m := range []partition.Method{"", partition.Auto} {
			p, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
			require.NoError(t, err)
			assert.Equal(t, partition.Best(n), p.Method, "n=%d method %q", n, m)
		}
	}
	p, err := partition.Make(context.Background(), partition.Job{N: 8, Placed: []board.Square{{Row: 0, Col: 0}}})
	require.NoError(t, err)
	assert.Equal(t, partition.Mirror, p.Method, "placed queens: mirror")
	_, err = p.Split(0)
	assert.ErrorIs(t, err, partition.ErrShard)
}

// TestSplitPinned pins one shard split, as stored shard files and running
// cluster jobs rely on it: the tasks of each of 5 shards of n = 14 and the
// first task of each. A change must come with a new Version (and then a
// new fingerprint, which covers every task's cost).
func TestSplitPinned(t *testing.T) {
	p, err := partition.Make(context.Background(), partition.Job{N: 14})
	require.NoError(t, err)
	split, err := p.Split(5)
	require.NoError(t, err)
	counts := make([]int, 5)
	first := make([]string, 5)
	for i, s := range split {
		if counts[s] == 0 {
			first[s] = p.Tasks[i].ID
		}
		counts[s]++
	}
	assert.Equal(t, []int{310, 183, 134, 157, 134}, counts)
	assert.Equal(t, []string{"p0", "e07aa", "e0c75", "e0f2a", "e1559"}, first)
}
