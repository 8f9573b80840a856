package main

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
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
	placed, err := nqueens.ParseSquares(s)
	if err != nil {
		return nil, usagef("--place: %w", err)
	}
	if err := nqueens.CheckPlacement(n, placed); err != nil {
		// Name the squares as they were typed ("z9", not "8:25").
		msg := err.Error()
		for i, tok := range strings.Split(s, ",") {
			if tok = strings.TrimSpace(tok); tok != placed[i].String() {
				msg = regexp.MustCompile(`\b`+regexp.QuoteMeta(placed[i].String())+`\b`).ReplaceAllLiteralString(msg, tok)
			}
		}
		return nil, usagef("--place: %s", msg)
	}
	return placed, nil
}

// boardArgs checks the arguments common to count and list: the board size,
// -j and --place.
func boardArgs(cmd *cobra.Command, arg string, workers int, place string) (int, []nqueens.Square, error) {
	n, err := parseN(arg)
	if err != nil {
		return 0, nil, err
	}
	if err := checkWorkers(cmd, workers); err != nil {
		return 0, nil, err
	}
	placed, err := parsePlacement(place, n)
	return n, placed, err
}

// noteConflict tells on stderr that placed queens attack each other, so the
// answer is no solution.
func noteConflict(stderr io.Writer, placed []nqueens.Square) bool {
	a, b, ok := nqueens.DiagonalConflict(placed)
	if ok {
		fmt.Fprintf(stderr, "nqueens: note: placed queens %s and %s share a diagonal, so no solution contains both\n", a, b)
	}
	return ok
}
