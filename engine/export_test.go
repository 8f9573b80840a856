package engine

import "github.com/nqueens/nqueens/partition"

// SearchPieces counts a CountPieces plan by the pieces' search kernel
// alone (for rooks too, without their closed form), for the tests.
func SearchPieces(p *partition.Plan) uint64 {
	var total uint64
	rules := p.Rules()
	for _, t := range p.Tasks {
		a := rules.Start(p.N)
		for _, c := range t.Prefix {
			a = rules.Place(p.N, a, 1<<c)
		}
		sols, _ := walkPieces(p.N, rules, t.Bans, a, len(t.Prefix))
		total += sols * t.Weight
	}
	return total
}

// Kings and SweepRows are the closed forms' kernels, for the tests.
var (
	Kings     = kings
	SweepRows = sweepRows
)
