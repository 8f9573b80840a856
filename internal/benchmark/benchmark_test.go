package benchmark

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/machine"
)

func TestMedianUnit(t *testing.T) {
	assert.InDelta(t, 2.0, Median([]float64{3, 1, 2}), 0)
	assert.InDelta(t, 2.5, Median([]float64{4, 1, 2, 3}), 0)
	assert.Equal(t, "pairs", NodeUnit(nqueens.Join))
	assert.Equal(t, "queens", NodeUnit(nqueens.Sym))
	assert.NotEmpty(t, machine.Detect().CPU)
}

// TestRun times a tiny workload and writes it in every format.
func TestRun(t *testing.T) {
	wl := Workload{"tiny", []Case{{8, nqueens.Join}, {8, nqueens.Sym}}, Case{6, nqueens.Sym}, 2}
	rows, err := Run(context.Background(), wl, 2, nil)
	require.NoError(t, err)
	require.Len(t, rows, 4)
	for _, r := range rows {
		assert.Equal(t, "92", r.Total)
		assert.Len(t, r.Runs, 2)
	}
	for _, f := range Formats {
		var b bytes.Buffer
		require.NoError(t, Write(&b, f, machine.Detect(), wl, rows), f)
		assert.NotEmpty(t, b.String(), f)
		if f == "json" {
			assert.True(t, json.Valid(b.Bytes()))
		}
	}
}
