package main

import (
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/partition"
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

// options are the library's options for the flags; the library checks
// them.
func (p pieceFlags) options() []nqueens.Option {
	opts := []nqueens.Option{nqueens.WithPiece(nqueens.Piece(p.piece))}
	if p.torus {
		opts = append(opts, nqueens.WithTorus())
	}
	return opts
}

// board names the flags' pieces ("queen", "king", "queen torus").
func (p pieceFlags) board() string { return partition.BoardName(partition.Piece(p.piece), p.torus) }

// queens reports whether the flags ask for the plain n-queens problem.
func (p pieceFlags) queens() bool { return p.board() == string(nqueens.Queen) }

// label is the board's name for progress lines: "" for queens.
func (p pieceFlags) label() string {
	if p.queens() {
		return ""
	}
	return " " + p.board()
}
