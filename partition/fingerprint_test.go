package partition_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/partition"
)

// TestFingerprintsPinned pins each plan's fingerprint, as journals and shard
// files written by earlier versions record it: a change of plan (and with
// it of every stored task ID) must be deliberate, with a new Version.
func TestFingerprintsPinned(t *testing.T) {
	for _, tc := range []struct {
		n      int
		method partition.Method
		want   string
	}{
		{0, partition.Mirror, "3a33151d9b71b3ef9c09a951"},
		{1, partition.Mirror, "efcdae53a5e68003cf1d10e3"},
		{5, partition.Mirror, "ca65d73ef7e9aa18551a36ce"},
		{8, partition.Mirror, "6b96a51ca19dd44b8e719997"},
		{12, partition.Mirror, "d70ef5291f160be2848a15f7"},
		{13, partition.Mirror, "0a1e8faa3046202ff4282b13"},
		{16, partition.Mirror, "9657438f07dd45acbe3767a8"},
		{17, partition.Mirror, "b59719a3d5350717d228f9a7"},
		{0, partition.Sym, "8df5cab539153467bbd3d855"},
		{1, partition.Sym, "0093f5d8589fc1aee99de119"},
		{5, partition.Sym, "201987f25e280ed3bb01029d"},
		{8, partition.Sym, "c028b8525f14b2f1450cc291"},
		{12, partition.Sym, "a7b1c4f494618d3c55c628e5"},
		{13, partition.Sym, "c0f872669fb0db59269a1c15"},
		{16, partition.Sym, "de9919f362dd3ee4703fde80"},
		{17, partition.Sym, "1e3d9bbe71fa7b591e4059ce"},
		{0, partition.Join, "c4f5501395f2afa0d26ff2e1"},
		{1, partition.Join, "1a25b6cd4f3b8050e45a0d57"},
		{5, partition.Join, "aaaa5d668149dab4e9b99cb8"},
		{8, partition.Join, "26036179ebd9bf801d36e2a0"},
		{12, partition.Join, "220c19d1612010ee58681dcc"},
		{13, partition.Join, "14a9c422087fda954001eb52"},
		{16, partition.Join, "da4ad9766afea0abf595d65c"},
		{17, partition.Join, "d7a8b0e8c73e54944117f3b3"},
	} {
		p, err := partition.Make(partition.Job{N: tc.n, Method: tc.method})
		require.NoError(t, err)
		assert.Equal(t, tc.want, p.Fingerprint(), "Fingerprint of n=%d %s", tc.n, tc.method)
	}
	// Placed queens: the same question in any order is one plan, the one
	// sorted placements always had.
	for _, placed := range [][]partition.Square{{{Row: 0, Col: 1}, {Row: 3, Col: 2}}, {{Row: 3, Col: 2}, {Row: 0, Col: 1}}} {
		p, err := partition.Make(partition.Job{N: 10, Method: partition.Mirror, Placed: placed})
		require.NoError(t, err)
		assert.Equal(t, "3cb3c2c86aeb03ba2450d06e", p.Fingerprint(), "placed %v", placed)
	}
}

// TestMakeAuto checks that the empty method and auto are the fastest one.
func TestMakeAuto(t *testing.T) {
	for _, n := range []int{5, 11, 12, 16} {
		for _, m := range []partition.Method{"", partition.Auto} {
			p, err := partition.Make(partition.Job{N: n, Method: m})
			require.NoError(t, err)
			assert.Equal(t, partition.Best(n), p.Method, "n=%d method %q", n, m)
		}
	}
	p, err := partition.Make(partition.Job{N: 8, Placed: []partition.Square{{Row: 0, Col: 0}}})
	require.NoError(t, err)
	assert.Equal(t, partition.Mirror, p.Method, "placed queens: mirror")
	_, err = p.Shards(0)
	assert.ErrorIs(t, err, partition.ErrShard)
}
