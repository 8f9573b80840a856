package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
)

// SayIfLong says on stderr, before a count starts, what it will cost when
// [nqueens.Forecast] finds it long (past [nqueens.LongWall] on its
// workers; shards first..last of shards are counted one after another, so
// they are forecast as one shard of shards/(last-first+1)): core-hours
// with their interval and the wall time, and the command that gives a
// closer figure. Input the count refuses is left to the count to word.
func SayIfLong(ctx context.Context, stderr io.Writer, n int, opts []nqueens.EstimateOption, first, last, shards int) {
	count := last - first + 1 // shards counted one after another
	opts = append(opts, nqueens.WithShard(0, max(1, shards/count), nil))
	var long bool
	e, err := Patiently(ctx, stderr, n, opts, "weighing the count of", func() (nqueens.Cost, error) {
		e, l, err := nqueens.Forecast(ctx, n, opts...)
		long = l
		return e, err
	})
	if err == nil && e.Unknown {
		fmt.Fprintf(stderr, "nqueens: count %d (%s, %s): its cost is unknown (no model bounds it, and it is searched, not swept); 'nqueens plan %d --piece %s' samples it, and --checkpoint FILE keeps its work across stops\n",
			n, e.Piece, e.Method, n, e.Piece)
		return
	}
	if err != nil || !long {
		return
	}
	per := e.CoreSeconds / float64(e.Shards)
	what, closer := fmt.Sprintf("count %d (%s)", n, e.Method), fmt.Sprintf("nqueens plan %d -m %s --sample 5m", n, e.Method)
	if shards > 1 {
		what = fmt.Sprintf("shard %d/%d of count %d (%s)", first, shards, n, e.Method)
		if count > 1 {
			what = fmt.Sprintf("shards %d-%d/%d of count %d (%s)", first, last, shards, n, e.Method)
		}
		closer = fmt.Sprintf("nqueens plan %d -m %s --shards %d --sample 5m", n, e.Method, shards)
	}
	sure, is, about := "", "is long", "about"
	switch {
	case e.Modeled && e.CoreSecondsLow == 0:
		// Placed queens or the torus: the plain board's cost bounds theirs.
		is, about = "may be long", "at most about"
		switch {
		case e.Piece != nqueens.Queen:
			what = strings.Replace(what, "(", "("+string(e.Piece)+", ", 1)
		case e.Torus:
			what += " on the torus"
		default:
			what += " with queens placed"
		}
	case e.CoreSecondsHigh > 0:
		sure = report.Interval(" (95%%: %s to %s)", e.CoreSecondsLow/float64(e.Shards), e.CoreSecondsHigh/float64(e.Shards))
	}
	where := "on this machine"
	if e.Modeled {
		where = report.ModelSource(n)
	}
	advice := fmt.Sprintf("'%s' gives a closer figure", closer)
	if e.Modeled && e.Sampled == 0 && e.CoreSecondsLow > 0 { // its tasks are too long for any sample
		advice = "its tasks are too long to sample, so the model is the closest figure there is ('nqueens plan' says the same)"
	}
	fmt.Fprintf(stderr, "nqueens: %s %s: %s %s%s %s, %s on %s; %s, docs/clusters.md spreads a count over a cluster, and --checkpoint FILE keeps its work across stops\n",
		what, is, about, report.CoreTime(per), sure, where, report.Human(per/float64(max(1, e.Workers))), report.Plural(e.Workers, "worker"), advice)
}

// patience is how long a plan may take before [Patiently] says what the
// cost model knows.
const patience = 3 * time.Second

// Patiently runs estimate (an estimate of n with opts: doing says what,
// "planning") and, when it has not returned within a few seconds (a large
// plan's walk, a long sample), says on stderr what the count costs by the
// cost model ([nqueens.Model]) while it goes on, so that no plan or count
// of any n is silent.
func Patiently(ctx context.Context, stderr io.Writer, n int, opts []nqueens.EstimateOption, doing string, estimate func() (nqueens.Cost, error)) (nqueens.Cost, error) {
	type done struct {
		e   nqueens.Cost
		err error
	}
	ch := make(chan done, 1)
	go func() {
		e, err := estimate()
		ch <- done{e, err}
	}()
	t := time.NewTimer(patience)
	defer t.Stop()
	select {
	case d := <-ch:
		return d.e, d.err
	case <-t.C:
	}
	if m, err := nqueens.Model(n, opts...); err == nil && m.Modeled {
		bound := "about " + report.CoreTime(m.CoreSeconds) + report.Interval(" (95%%: %s to %s)", m.CoreSecondsLow, m.CoreSecondsHigh)
		if m.CoreSecondsLow == 0 {
			bound = "at most about " + report.CoreTime(m.CoreSecondsHigh)
		}
		fmt.Fprintf(stderr, "nqueens: still %s n = %d (%s); meanwhile, %s of the reference machine's cores for the whole board, %s (not this machine's figure; Ctrl-C stops it)\n", doing, n, m.Method, bound, report.CountSource(n))
	} else {
		fmt.Fprintf(stderr, "nqueens: still %s n = %d; no model of its cost (Ctrl-C stops it)\n", doing, n)
	}
	d := <-ch
	return d.e, d.err
}
