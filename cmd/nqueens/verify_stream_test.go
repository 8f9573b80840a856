package main

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVerifyStreams: verify judges each board on stdin as it arrives (the
// verdict comes before the next board is written), so `yes '1 3 0 2' |
// nqueens verify` runs in flat memory.
func TestVerifyStreams(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), []string{"verify"}, inR, outW, io.Discard)
		outW.Close()
	}()
	verdicts := bufio.NewScanner(outR)
	for _, b := range []string{"1 3 0 2", "0 1", "2 0 3 1"} {
		_, err := io.WriteString(inW, b+"\n")
		require.NoError(t, err)
		got := make(chan string, 1)
		go func() {
			verdicts.Scan()
			got <- verdicts.Text()
		}()
		select {
		case v := <-got:
			assert.True(t, strings.HasPrefix(v, "valid") || strings.HasPrefix(v, "invalid"), "verdict %q for %s", v, b)
		case <-time.After(10 * time.Second):
			t.Fatalf("no verdict for %q before stdin closed", b)
		}
	}
	inW.Close()
	err := <-done
	assert.ErrorContains(t, err, "1 of 3 boards invalid")
}
