package partition

import (
	"strings"

	"github.com/nqueens/nqueens/internal/msg"
)

// This file is the catalogue of methods: their names, which is best for
// a board, what each counts, and how a name is parsed.

// Method names a way of counting.
type Method string

const (
	// Mirror halves the search by the left-right mirror: the row-0 queen in
	// the left half, weight 2; for odd n the middle column of row 0 is a
	// separate case whose row-1 queen is restricted to the left half.
	Mirror Method = "mirror"
	// Sym searches one representative of each class of solutions under the
	// 8 symmetries of the square and reports unique and symmetric counts too.
	Sym Method = "sym"
	// Join cuts the board into a west and an east half and counts the pairs
	// of halves that share no diagonal, without backtracking whole boards;
	// small searches count the symmetric solutions beside it, and the
	// unique count follows by Burnside's lemma.
	Join Method = "join"
)

// Methods lists the methods a plan can be made for.
var Methods = []Method{Sym, Mirror, Join}

// JoinFrom is the least n for which the join method is faster than sym, on
// one worker or all of them (measured with BenchmarkCount: docs/benchmarking.md, "Speed").
const JoinFrom = 12

// Best returns the fastest method for an n×n board: join from JoinFrom on,
// sym below (and beyond JoinMaxN).
func Best(n int) Method {
	if n >= JoinFrom && n <= JoinMaxN {
		return Join
	}
	return Sym
}

// Auto asks [Make] for the fastest method for the board: [Best](n).
// The empty method means the same.
const Auto Method = "auto"

// Classes reports whether the method counts the classes of solutions
// (unique, point- and rot90-symmetric) besides the total: sym and join
// do, mirror does not; [Auto] does wherever it picks one of them (for
// queens without placed ones).
func (m Method) Classes() bool { return m == Sym || m == Join || m == Auto || m == "" }

// Other returns a method independent of m, for checking its counts: sym for
// mirror and join, mirror for sym.
func Other(m Method) Method {
	if m == Sym {
		return Mirror
	}
	return Sym
}

// ParseMethod returns the method named s: one of [Methods] or [Auto].
func ParseMethod(s string) (Method, error) {
	if Method(s) == Auto {
		return Auto, nil
	}
	if m, ok := named(s, Methods); ok {
		return m, nil
	}
	return "", jobError("Method", "", errMethod, "%s is not a method (accepted: auto, %s)", msg.Name{Of: "Method", Value: msg.Quote(s)}, joinNames(Methods))
}

// named returns the one of all that is called s.
func named[T ~string](s string, all []T) (T, bool) {
	for _, x := range all {
		if string(x) == s {
			return x, true
		}
	}
	return "", false
}

// joinNames lists names, comma-separated.
func joinNames[T ~string](all []T) string {
	names := make([]string, len(all))
	for i, x := range all {
		names[i] = string(x)
	}
	return strings.Join(names, ", ")
}
