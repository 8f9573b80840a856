package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLongCountSaysSo: a count past an hour on its workers says so on
// stderr before counting (the test cancels it once it has; a count that
// never said so would run for days, past the test's time limit), with core-hours, the wall time
// and the command for a closer figure; a short one
// says nothing and spends nothing on it.
func TestLongCountSaysSo(t *testing.T) {
	if testing.Short() {
		t.Skip("plans n = 24 and calibrates for 2 s")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &watchWriter{want: "is long", found: cancel}
	err := run(ctx, []string{"count", "24", "-j", "1", "--grace", "0s"}, strings.NewReader(""), io.Discard, w)
	require.Error(t, err, "cancelled once it spoke")
	assert.Regexp(t, `(?m)^nqueens: count 24 \(join\) is long: about [0-9.,]+ core-hours \(95%: [0-9.,]+ core-hours to [0-9.,]+ core-hours\) on this machine, [0-9.]+ (days|hours) on 1 worker; 'nqueens plan 24 -m join --sample 5m' gives a closer figure`, w.String())
}

// TestLongCountPastPublished: a count past the published counts and the
// calibration (n = 40 by sym: years a task) says what it costs from the
// cost model before counting, and a stop does not wait a grace period
// that no running task could finish in (the grace given is an hour: a
// stop that waited it would outlast the test's time limit).
func TestLongCountPastPublished(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &watchWriter{want: "is long", found: cancel}
	err := run(ctx, []string{"count", "40", "-j", "1", "--grace", "1h"}, strings.NewReader(""), io.Discard, w)
	require.Error(t, err, "cancelled once it spoke")
	assert.Regexp(t, `^nqueens: count 40 \(sym\) is long: about .* core-hours \(95%: .* to .*\) by the published counts, extrapolated past n = 27, on the reference machine, .* years on 1 worker; its tasks are too long to sample, so the model is the closest figure there is \('nqueens plan' says the same\)`, w.String(),
		"no advice to sample what no sample can time")
}

// TestLongCountPlaced: placed queens only remove solutions, so the plain
// board's model bounds the count from above, and a count that may be long
// says so at once, as a bound.
func TestLongCountPlaced(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &watchWriter{want: "may be long", found: cancel}
	err := run(ctx, []string{"count", "40", "--place", "0:1", "-j", "1"}, strings.NewReader(""), io.Discard, w)
	require.Error(t, err, "cancelled once it spoke")
	assert.Regexp(t, `^nqueens: count 40 \(mirror\) with queens placed may be long: at most about .* core-hours by the published counts, extrapolated past n = 27, on the reference machine`, w.String())
}

// TestLongCountUnknown: a count no model bounds and that is searched
// (knights past n = 18) says its cost is unknown, at once.
func TestLongCountUnknown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &watchWriter{want: "is unknown", found: cancel}
	err := run(ctx, []string{"count", "20", "--piece", "knight", "-j", "1"}, strings.NewReader(""), io.Discard, w)
	require.Error(t, err, "cancelled once it spoke")
	assert.Regexp(t, `^nqueens: count 20 \(knight, mirror\): its cost is unknown`, w.String())
}
