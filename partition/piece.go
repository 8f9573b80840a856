package partition

import (
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
)

// pieceNames lists the pieces' names, comma-separated, for messages.
func pieceNames() string { return joinNames(board.Pieces) }

// ParsePiece returns the piece named s; the empty name is [Queen].
func ParsePiece(s string) (Piece, error) {
	if s == "" {
		return board.Queen, nil
	}
	if p, ok := named(s, board.Pieces); ok {
		return p, nil
	}
	return "", jobError("Piece", "", errPiece, "%s is not a piece (accepted: %s)", msg.Name{Of: "Piece", Value: msg.Quote(s)}, pieceNames())
}
