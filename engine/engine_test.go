package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/partition"
)

func count(t testing.TB, n int, m partition.Method, workers int) engine.Counts {
	t.Helper()
	p, err := partition.Make(partition.Job{N: n, Method: m})
	require.NoError(t, err)
	c, err := engine.Run(context.Background(), n, p.Tasks, engine.Options{Workers: workers})
	require.NoError(t, err)
	return c
}

func maxN(t *testing.T) int {
	if testing.Short() {
		return 13
	}
	return 15
}

func TestKnownTotals(t *testing.T) {
	for _, m := range partition.Methods {
		for n := 0; n <= maxN(t); n++ {
			t.Run(fmt.Sprintf("%s/n=%d", m, n), func(t *testing.T) {
				c := count(t, n, m, 2)
				assert.Equal(t, fmt.Sprint(known.Total[n]), c.Total.String(), "Count(%d) total", n)
			})
		}
	}
}

func TestSymClasses(t *testing.T) {
	for n := 0; n <= maxN(t); n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			c := count(t, n, partition.Sym, 2)
			assert.Equal(t, fmt.Sprint(known.Unique[n]), c.Unique.String(), "unique")
			assert.Equal(t, fmt.Sprint(known.Rot90Sym[n]), c.Rot90Sym.String(), "rot90")
			assert.Equal(t, fmt.Sprint(known.PointSym(n)), c.PointSym.String(), "point")
		})
	}
}

func TestSymAgainstReference(t *testing.T) {
	for n := 0; n <= 10; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			total, unique, point, rot90 := reference.Classes(n)
			c := count(t, n, partition.Sym, 3)
			assert.Equal(t, total, c.Total.Lo, "total")
			assert.Equal(t, unique, c.Unique.Lo, "unique")
			assert.Equal(t, point, c.PointSym.Lo, "point")
			assert.Equal(t, rot90, c.Rot90Sym.Lo, "rot90")
		})
	}
}
