package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/partition"
)

// placeFlag adds --place to fs.
func placeFlag(fs *pflag.FlagSet, p *string) {
	fs.StringVar(p, "place", "", `queens that must be on the board: 0-based row:col pairs or chess squares (a1 = row 0, column 0, the top-left corner as printed), comma-separated, e.g. "0:1,3:2" or "b1,c4"`)
}

// parsePlacement parses and checks --place for an n×n board. It returns
// nil for an empty flag.
func parsePlacement(s string, n int) ([]nqueens.Square, error) {
	if s == "" {
		return nil, nil
	}
	placed, err := partition.ParseSquares(s)
	if err != nil {
		return nil, usagef("--place: %w", err)
	}
	var je *partition.JobError
	if err := partition.CheckPlacement(n, placed); errors.As(err, &je) {
		// Name the squares as they were typed ("z9", not "8:25").
		typed := map[string]string{}
		for i, tok := range strings.Split(s, ",") {
			typed[placed[i].String()] = strings.TrimSpace(tok)
		}
		return nil, usagef("%s", je.Explain(func(field, value string) string {
			if field == "Square" {
				return typed[value]
			}
			return "--place"
		}))
	}
	out := make([]nqueens.Square, len(placed))
	for i, q := range placed {
		out[i] = nqueens.Square(q)
	}
	return out, nil
}

// boardArgs parses the arguments common to count, plan and list: the
// board size and --place.
func boardArgs(arg string, place string) (int, []nqueens.Square, error) {
	n, err := parseN(arg)
	if err != nil {
		return 0, nil, err
	}
	placed, err := parsePlacement(place, n)
	return n, placed, err
}

// noteConflict tells on stderr that placed queens attack each other, so the
// answer is no solution.
func noteConflict(stderr io.Writer, placed []nqueens.Square) bool {
	qs := make([]partition.Square, len(placed))
	for i, q := range placed {
		qs[i] = partition.Square(q)
	}
	a, b, ok := partition.DiagonalConflict(qs)
	if ok {
		fmt.Fprintf(stderr, "nqueens: note: placed queens %s and %s share a diagonal, so no solution contains both\n", a, b)
	}
	return ok
}
