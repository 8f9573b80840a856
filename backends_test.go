package nqueens

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/backend/backendtest"
	"github.com/nqueens/nqueens/internal/known"
)

// TestRegisteredBackend counts through a back end that registers itself
// in its own folder (internal/backend/backendtest, "host": the
// backtracking methods' batches in Go), with nothing edited here: its
// specs are accepted and its devices counted on, exactly, alone and
// beside the CPU workers, and what it does not run is refused.
func TestRegisteredBackend(t *testing.T) {
	backendtest.Register(t, 2)
	ctx := context.Background()
	for _, spec := range []string{"host", "host:1", "host:all"} {
		for _, n := range []int{1, 8, 11} {
			c, err := Count(ctx, n, WithDevice(spec), WithMethod(Mirror))
			require.NoError(t, err, "%s n=%d", spec, n)
			assert.Equal(t, fmt.Sprint(known.Total[n]), c.Total.String(), "%s n=%d", spec, n)
			assert.NotEmpty(t, c.Devices, "%s", spec)
		}
	}
	c, err := Count(ctx, 12, WithDevice("host:1"), WithMethod(Mirror))
	require.NoError(t, err)
	assert.Equal(t, []string{"host device 1 (Go, a test back end)"}, c.Devices)
	_, err = Count(ctx, 10, WithDevice("host:2"), WithMethod(Mirror))
	assert.ErrorContains(t, err, "no host device 2: there are 2, host:0 to host:1")
	_, err = Count(ctx, 10, WithDevice("host"), WithMethod(Sym))
	assert.ErrorContains(t, err, "count with the mirror method")
	_, err = Count(ctx, 14, WithDevice("host"), WithMethod(Join))
	assert.ErrorContains(t, err, "does not run the join")
	_, err = Count(ctx, 10, WithDevice("gpu"))
	var oe *OptionError
	require.ErrorAs(t, err, &oe)
	assert.Contains(t, err.Error(), "host, host:N, host:all", "the accepted specs name the registered back end")
}
