package engine

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkMicroBuild(b *testing.B) {
	var t groupTable
	pats := make([]uint64, 64)
	for i := range pats {
		pats[i] = rand.Uint64() & rand.Uint64() & 0x3fffffff
	}
	for b.Loop() {
		buildGroup(&t, pats, 4)
	}
}

func BenchmarkMicroMatch(b *testing.B) {
	var t groupTable
	pats := make([]uint64, 64)
	for i := range pats {
		pats[i] = rand.Uint64() & rand.Uint64() & 0x3fffffff
	}
	buildGroup(&t, pats, 4)
	items := make([]uint64, 1000)
	for i := range items {
		items[i] = rand.Uint64() & rand.Uint64() & 0x3fffffff
	}
	var s uint64
	for b.Loop() {
		s += matchGroup(&t, 4, items)
	}
	_ = s
}

func TestTranspose64(t *testing.T) {
	var a, b [64]uint64
	for i := range a {
		a[i] = rand.Uint64()
	}
	b = a
	transpose64(&b)
	for i := 0; i < 64; i++ {
		for j := 0; j < 64; j++ {
			if (b[i]>>j)&1 != (a[j]>>i)&1 {
				t.Fatalf("bit %d of row %d", j, i)
			}
		}
	}
}
