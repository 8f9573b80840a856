package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/partition"
)

// SayIfLong says on stderr, before a count starts, what it will cost when
// that is past about an hour on these workers (the count of shards
// first..last of shards, one after another; 0, 0, 1 for the whole board): core-hours with their
// interval and the wall time, from a calibration of a few seconds
// ([nqueens.Estimate] with a 2 s sample), and the command that gives a
// closer figure. The published counts decide first, at no cost, whether
// the count may be that long at all ([MayBeLong]), so that short counts,
// and input the count refuses, spend nothing on it.
func SayIfLong(ctx context.Context, stderr io.Writer, n int, opts []nqueens.EstimateOption, method string, workers, first, last, shards int) {
	m := nqueens.Method(method)
	if m == "" || m == nqueens.Auto {
		m = nqueens.Method(partition.Best(n))
	}
	count := last - first + 1 // shards counted one after another
	if !MayBeLong(n, m, cmp.Or(workers, engine.DefaultWorkers()), max(1, shards/count)) {
		return
	}
	e, err := nqueens.Estimate(ctx, n, append(opts, nqueens.WithShard(0, shards, nil), nqueens.WithSample(2*time.Second))...)
	if err != nil || e.CoreSeconds == 0 {
		return // the count says what is wrong with its options
	}
	per := e.CoreSeconds / float64(shards) * float64(count)
	wall := per / float64(max(1, e.Workers))
	if wall < 3600 {
		return
	}
	what, closer := fmt.Sprintf("count %d (%s)", n, e.Method), fmt.Sprintf("nqueens plan %d -m %s --sample 5m", n, e.Method)
	if shards > 1 {
		what = fmt.Sprintf("shard %d/%d of count %d (%s)", first, shards, n, e.Method)
		if count > 1 {
			what = fmt.Sprintf("shards %d-%d/%d of count %d (%s)", first, last, shards, n, e.Method)
		}
		closer = fmt.Sprintf("nqueens plan %d -m %s --shards %d --sample 5m", n, e.Method, shards)
	}
	sure := ""
	if e.CoreSecondsHigh > 0 {
		sure = fmt.Sprintf(" (95%%: %s to %s)", report.CoreTime(e.CoreSecondsLow/float64(shards)*float64(count)), report.CoreTime(e.CoreSecondsHigh/float64(shards)*float64(count)))
	}
	fmt.Fprintf(stderr, "nqueens: %s is long: about %s%s on this machine, %s on %d workers; '%s' gives a closer figure, docs/clusters.md spreads a count over a cluster, and --checkpoint FILE keeps its work across stops\n",
		what, report.CoreTime(per), sure, report.Human(wall), e.Workers, closer)
}

// MayBeLong is the published counts' guess of whether counting n (a shard
// of shards) by method on workers may take past a quarter of an hour:
// A000170 times a generous cost per solution, on the slower machines this
// project has measured. n = 28, the first board past the published
// counts, may; larger boards are not calibrated (their plans alone take
// minutes to walk, and no machine counts them whole).
func MayBeLong(n int, method nqueens.Method, workers, shards int) bool {
	switch {
	case n == known.MaxN+1:
		return true
	case n > known.MaxN:
		return false
	}
	perSolution := map[nqueens.Method]float64{nqueens.Join: 5e-9, nqueens.Sym: 3e-7, nqueens.Mirror: 6e-7}[method]
	return float64(known.Total[n])*perSolution/float64(shards)/float64(max(1, workers)) > 15*60
}
