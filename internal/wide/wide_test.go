package wide

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestUint: sums and products carry through every word, against
// math/big; FromBig refuses what does not fit; a carry out of the top
// word panics.
func TestUint(t *testing.T) {
	var u Uint
	u = u.Add64(^uint64(0)).Add64(^uint64(0)).Add64(2)
	assert.Equal(t, FromWords([Words]uint64{0, 2}), u)
	assert.Equal(t, "36893488147419103232", u.String())
	v := FromWords([Words]uint64{5, 1}).Add(FromWords([Words]uint64{^uint64(0), 1}))
	assert.Equal(t, FromWords([Words]uint64{4, 3}), v)
	assert.Equal(t, "18446744073709551615", Of(^uint64(0)).String())
	top := FromWords([Words]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)})
	assert.Panics(t, func() { top.Add64(1) })
	assert.Panics(t, func() { top.Mul64(2) })
	// Every word carries, in sums and products, against big.Int.
	f, want := Of(1), big.NewInt(1)
	for k := uint64(2); k <= 64; k++ {
		f, want = f.Mul64(k), want.Mul(want, new(big.Int).SetUint64(k))
		assert.Equal(t, want.String(), f.String(), "%d!", k)
		back, ok := FromBig(want)
		assert.True(t, ok)
		assert.Equal(t, f, back, "%d! from big", k)
	}
	assert.Equal(t, 1, f.Cmp(u))
	assert.Equal(t, -1, u.Cmp(f))
	assert.Zero(t, f.Cmp(f))
	assert.InEpsilon(t, 1.2688693218588417e89, f.Float64(), 1e-12)
	_, ok := FromBig(new(big.Int).Lsh(big.NewInt(1), 64*Words))
	assert.False(t, ok, "2^320 does not fit")
	_, ok = FromBig(big.NewInt(-1))
	assert.False(t, ok, "negative")
	_, ok = f.Uint64()
	assert.False(t, ok)
}

func TestUintFormat(t *testing.T) {
	u := FromWords([Words]uint64{2, 1})
	assert.Equal(t, "18446744073709551618", fmt.Sprint(u))
	assert.Equal(t, "18446744073709551618", fmt.Sprintf("%d", u))
	assert.Equal(t, "232", fmt.Sprintf("%v", Of(232)))
	assert.Equal(t, "  232", fmt.Sprintf("%5d", Of(232)))
	assert.Equal(t, "e8", fmt.Sprintf("%x", Of(232)))
	assert.Equal(t, `"232"`, fmt.Sprintf("%q", Of(232)))
}
