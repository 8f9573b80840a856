package engine

import (
	"testing"

	"github.com/nqueens/nqueens/partition"
)

func TestJProf(t *testing.T) {
	n := 17
	p, _ := partition.Make(partition.Job{N: n, Method: partition.Join})
	js := newJoinScratch(DefaultJoinChunk)
	qc := newQuarterCache(n, DefaultQuarterBudget)
	var tot, nodes uint64
	for i := range p.Tasks {
		var r Result
		runJoin(n, &p.Tasks[i], qc, js, &r)
		tot += r.Total
		nodes += r.Nodes
	}
	t.Log(len(p.Tasks), tot, nodes, qc.kept.Load())
}
