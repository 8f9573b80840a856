package main

import (
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/partition"

	"github.com/nqueens/nqueens/internal/msg"
)

// pieceFlags are --piece and --torus: what stands on the board.
type pieceFlags struct {
	piece string
	torus bool
}

func (p *pieceFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&p.piece, "piece", "queen", "what stands on the board, one per row and column, no two attacking: queen, superqueen (queen and knight moves), king, knight or rook")
	fs.BoolVar(&p.torus, "torus", false, "queens on the torus: the diagonals wrap around the board")
}

// check parses the flags; it returns the library's options and the
// board's name ("queen", "superqueen", "queen torus").
func (p pieceFlags) check() ([]nqueens.Option, string, error) {
	pc, err := partition.ParsePiece(p.piece)
	if err != nil {
		return nil, "", usagef("unknown piece %s for --piece (accepted: %s)", msg.Quote(p.piece), partition.PieceNames())
	}
	if p.torus && pc != nqueens.Queen {
		return nil, "", usagef("--torus works with --piece queen only")
	}
	opts := []nqueens.Option{nqueens.WithPiece(pc)}
	if p.torus {
		opts = append(opts, nqueens.WithTorus())
	}
	return opts, p.board(), nil
}

// board names the flags' pieces ("queen", "king", "queen torus").
func (p pieceFlags) board() string { return partition.BoardName(partition.Piece(p.piece), p.torus) }

// queens reports whether the flags ask for the plain n-queens problem.
func (p pieceFlags) queens() bool { return p.board() == string(nqueens.Queen) }

// checkQueensOnly refuses, for other pieces and the torus, a flag that
// works with queens only (what names it, given).
func (p pieceFlags) checkQueensOnly(what string, given bool) error {
	if given && !p.queens() {
		return usagef("%s works with queens only, not with --piece %s%s", what, p.piece, map[bool]string{true: " --torus"}[p.torus])
	}
	return nil
}

// checkMethod refuses a method other than mirror for other pieces.
func (p pieceFlags) checkMethod(method nqueens.Method) error {
	if !p.queens() && method != nqueens.Mirror && method != nqueens.Auto {
		return usagef("other pieces and the torus are counted with --method mirror only (the default for them), not %s", method)
	}
	return nil
}

// label is the board's name for progress lines: "" for queens.
func (p pieceFlags) label() string {
	if p.queens() {
		return ""
	}
	return " " + p.board()
}
