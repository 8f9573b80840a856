package nqueens

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/known"
)

// TestSolutionsExtrapolated: the model's a(n) is the published value to
// n = 27, and its ratio rule reproduces the last published ratios.
func TestSolutionsExtrapolated(t *testing.T) {
	for n := 0; n <= known.MaxN; n++ {
		assert.Equal(t, float64(known.Total[n]), solutions(n), "n=%d", n)
	}
	for _, n := range []int{26, 27} {
		rule := float64(n) * math.Exp(1-simkinAlpha)
		got := float64(known.Total[n]) / float64(known.Total[n-1])
		assert.InEpsilon(t, got, rule, 0.005, "a(%d)/a(%d)", n, n-1)
	}
	assert.InEpsilon(t, 2.57e18, solutions(28), 0.01, "a(28) as the reference cost's samples were read")
	assert.Greater(t, solutions(64), solutions(63))
}

// TestModel: the model's figures where it applies, a bound from above
// where placed queens only remove solutions, none where it does not.
func TestModel(t *testing.T) {
	m, err := Model(40)
	require.NoError(t, err)
	assert.True(t, m.Modeled)
	assert.Equal(t, Sym, m.Method)
	assert.Less(t, m.CoreSecondsLow, m.CoreSeconds)
	assert.Less(t, m.CoreSeconds, m.CoreSecondsHigh)

	m, err = Model(40, WithPlaced(Square{Row: 0, Col: 1}))
	require.NoError(t, err)
	assert.Equal(t, Mirror, m.Method, "placed queens count by mirror")
	assert.True(t, m.Modeled)
	assert.Zero(t, m.CoreSecondsLow, "a bound from above only")
	assert.Equal(t, m.CoreSeconds, m.CoreSecondsHigh)

	m, err = Model(30, WithPiece(Superqueen))
	require.NoError(t, err)
	assert.True(t, m.Modeled, "the queens' model bounds superqueens")
	assert.Zero(t, m.CoreSecondsLow)

	for _, opts := range [][]EstimateOption{{WithMethod(Join)}, {WithPiece(King)}, {WithPiece(Knight)}} {
		m, err = Model(40, opts...)
		require.NoError(t, err)
		assert.False(t, m.Modeled)
		assert.Zero(t, m.CoreSeconds)
		assert.Equal(t, len(opts) == 1 && opts[0].name() == "WithPiece" && m.Piece == Knight, m.Unknown, "%s: unknown only for knights searched", m.Piece)
	}
	m, err = Model(18, WithPiece(Knight))
	require.NoError(t, err)
	assert.False(t, m.Unknown, "knights to n = 18 are swept at once")
	_, err = Model(65)
	assert.ErrorIs(t, err, ErrInvalid)
}

// TestForecast: a short count is known short at once; one past the
// published counts is known long at once, from the model, without a
// plan or a sample.
func TestForecast(t *testing.T) {
	ctx := context.Background()
	_, long, err := Forecast(ctx, 16)
	require.NoError(t, err)
	assert.False(t, long)
	plans := countPlans(t)
	e, long, err := Forecast(ctx, 40, WithWorkers(64))
	require.NoError(t, err)
	assert.True(t, long)
	assert.True(t, e.Modeled)
	assert.Equal(t, 64, e.Workers)
	assert.Zero(t, plans.Load(), "no plan, no sample")
	e, long, err = Forecast(ctx, 20, WithShard(0, 1000, nil))
	require.NoError(t, err)
	assert.False(t, long, "a shard of 1000 of n = 20")
}

// TestEstimatePastCalibration: a board whose tasks the model puts past
// ten times the sample answers from the model, without a sample; one with no such bound samples, and stops with its context,
// keeping the plan's figures (a sample of an hour that ignored its
// context would outlast the test's time limit).
func TestEstimatePastCalibration(t *testing.T) {
	e, err := Estimate(context.Background(), 40, WithSample(time.Second))
	require.NoError(t, err)
	assert.True(t, e.Modeled)
	assert.Zero(t, e.Sampled)
	assert.Positive(t, e.CoreSeconds)

	// An hour's sample of n = 20 by sym, stopped in its course.
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	e, err = Estimate(ctx, 20, WithMethod(Sym), WithSample(time.Hour))
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Positive(t, e.Tasks, "the plan's figures are kept")
	assert.Zero(t, e.CoreSeconds)
}
