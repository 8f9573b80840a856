//go:build unix

package cli

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWithSignals: the first signal cancels with a SignalError, the second
// closes StopNow's channel.
func TestWithSignals(t *testing.T) {
	assert.Nil(t, StopNow(context.Background()))
	ctx, stop := WithSignals(context.Background())
	defer stop()
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	<-ctx.Done()
	var sig *SignalError
	require.True(t, errors.As(context.Cause(ctx), &sig))
	assert.Equal(t, "interrupted by SIGTERM", sig.Error())
	select {
	case <-StopNow(ctx):
		t.Fatal("closed after one signal")
	default:
	}
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	select {
	case <-StopNow(ctx):
	case <-time.After(10 * time.Second):
		t.Fatal("a second signal did not close StopNow's channel")
	}
}
