// Package partition splits an n-queens count into independent tasks.
//
// A [Plan] is a deterministic list of [Task]s: the same n, method and version
// of this package always give the same tasks, with the same IDs, in the same
// order. Checkpoints, shards and merges identify work by those IDs. The
// package decides what is searched (prefixes, symmetry classes, weights,
// cost estimates); it knows nothing about goroutines, which are the engine's.
package partition

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
)

// MaxN is the largest board a plan can be made for: the kernels use one bit
// of a uint64 per column.
const MaxN = board.MaxN

// version identifies the planning rules. It changes whenever a plan for the
// same n and method would come out different, so stored task IDs from an
// older version are never mistaken for current ones.
const version = 3

// The board's vocabulary that plans hold, from the package below the
// library that the planner and the engine share, under partition's names,
// so that an importer can name every type partition's API holds.
type (
	// Piece is a chess piece a plan places in place of the queen
	// ([ParsePiece]; the zero Piece is the queen).
	Piece = board.Piece
	// Square is a square of the board: row and column from 0.
	Square = board.Square
	// Kind selects the kernel that counts a task.
	Kind = board.Kind
	// Bans lists, per row, the squares a task forbids there (bit c =
	// column c).
	Bans = board.Bans
	// Words are a message whose field names its reader words
	// ([JobError]).
	Words = msg.Words
)

// noBans is shared by every task without symmetry bounds.
var noBans Bans

// Task is an independent piece of a count: the queens of rows
// 0..len(Prefix)-1 are placed, the kernel counts the completions.
type Task struct {
	// ID is stable across runs and unique within a plan. Prefix tasks
	// have their prefix's columns joined by '.' ("3.7.1", "root" for the
	// empty prefix), after a tag for flipped sym regions ("f5:3.1");
	// join tasks name their east rows in hex ("e0f81", after "m6:" for
	// the middle queen's row of odd n); the join's symmetric searches are
	// "p" (180°) or "r" (90°) and the row-0 queen's column ("p0", "r3").
	ID string
	// Weight is how many solutions each completion stands for: 2 for a
	// mirror-halved prefix, up to 8 for a join task standing for its
	// orbit of row sets, 1 where nothing is halved.
	Weight uint64
	// Cost estimates the task's work, in arbitrary units comparable
	// within a plan: use it for progress, ETA and balancing shards.
	Cost uint64
	// Prefix holds the columns of the queens already placed, row by row.
	Prefix []uint8
	// Bans holds the squares the method forbids, shared between tasks.
	Bans *Bans
	// Rows is a Halves task's set of rows whose queen lies in the east half
	// (bit r = row r).
	Rows uint64
	// Kind selects the kernel.
	Kind Kind
	// Flip says the task searches the board upside down (row r of the
	// search is row n-1-r of the board): Classify turns each completion
	// back before comparing it with its images.
	Flip bool
	// Middle is a Halves task's row of the middle column's queen for odd n,
	// -1 otherwise.
	Middle int8
	// (Small fields last: 80 bytes a task; a plan of n = 23 has 4 million.)
}

// Plan is the full, ordered list of tasks for one count.
type Plan struct {
	N      int
	Method Method
	// Piece and Torus are the job's (Piece is never empty).
	Piece Piece
	Torus bool
	// Placed lists the queens every solution holds.
	Placed []Square
	// Depth is the number of rows the task prefixes fix (some may be shorter
	// when a board is tiny).
	Depth int
	// Tasks are the plan's tasks, or those of shard Shard of Shards alone
	// ([MakeShard]), in plan order.
	Tasks         []Task
	Shard, Shards int
	// AllTasks and AllCost are the whole plan's number of tasks and total
	// cost, a shard's or not.
	AllTasks int
	AllCost  uint64
	// fingerprint is the whole plan's (see [Plan.Fingerprint]).
	fingerprint string
}

// Cost sums the plan's cost estimates.
func (p *Plan) Cost() uint64 {
	var c uint64
	for _, t := range p.Tasks {
		c += t.Cost
	}
	return c
}

// Classes reports whether the plan's results include unique, point- and
// rot90-symmetric counts.
func (p *Plan) Classes() bool { return p.Method.Classes() }

// DerivesUnique reports whether the plan's unique count is not summed from
// its tasks but derived from the total and the symmetric counts once all
// tasks are counted (engine.Counts.DeriveUnique): the join method's.
func (p *Plan) DerivesUnique() bool { return p.Method == Join }

// Job describes a count to plan.
type Job struct {
	N      int
	Method Method
	// Placed lists queens that every solution must contain. Plans with
	// placed queens use the mirror method (halving only when the placement
	// is mirror-symmetric).
	Placed []Square
	// Every asks for a plan that searches every solution, without
	// symmetry, so that its tasks list all solutions in lexicographic order
	// (for listing them): prefixes of two rows, at most n² tasks.
	Every bool
	// Piece is what stands on the board (empty: [Queen]); Torus makes the
	// queens' diagonals wrap around the board (the modular n-queens
	// problem). Pieces other than the queen, and the torus, are counted
	// with the mirror method; Placed then lists pieces of that kind.
	Piece Piece
	Torus bool
}

// Make plans job, stopping with ctx's error when ctx is done. The method
// [Auto] (or none) is [Best](n), or mirror when queens are placed or every
// solution is to be listed. It holds every task of the plan: [Size] tells
// how many there are before any is made, and [MakeShard] makes one
// shard's alone.
func Make(ctx context.Context, job Job) (*Plan, error) {
	return MakeShard(ctx, job, 0, 1)
}

// AutoMethod is the method [Auto] (or none) resolves to for job: [Best](n)
// for plain queens, mirror when queens are placed, every solution is to be
// listed, the diagonals wrap around or the pieces are not queens.
func (job Job) AutoMethod() Method {
	if len(job.Placed) > 0 || job.Every || job.Torus || (job.Piece != "" && job.Piece != board.Queen) {
		return Mirror
	}
	return Best(job.N)
}

// resolve checks job's size and piece, and resolves its piece, method
// (pieces other than the queen and the torus are counted by mirror; the
// empty method and auto are the job's fastest) and placements (sorted),
// with the rules its piece moves by.
func resolve(job Job) (Job, board.Rules, error) {
	if err := board.CheckSize(job.N, MaxN); err != nil {
		return job, board.Rules{}, err
	}
	piece, err := ParsePiece(string(job.Piece))
	if err != nil {
		return job, board.Rules{}, err
	}
	rules := piece.Rules(job.Torus)
	if !rules.Queen() {
		switch {
		case job.Torus && piece != board.Queen:
			return job, rules, jobError("Torus", "Piece", errPieceMode, "%s works with queens only (their diagonals wrap around), not with %s", msg.Name{Of: "Torus", Value: ""}, msg.Name{Of: "Piece", Value: string(piece)})
		case job.Method != "" && job.Method != Auto && job.Method != Mirror:
			what, value := "Piece", string(piece)
			if piece == board.Queen {
				what, value = "Torus", ""
			}
			return job, rules, jobError("Method", what, errPieceMode, "%s is counted with %s only (its default), not %s", msg.Name{Of: what, Value: value}, msg.Name{Of: "Method", Value: string(Mirror)}, msg.Name{Of: "Method", Value: string(job.Method)})
		}
		job.Method = Mirror
	}
	if job.Method == "" || job.Method == Auto {
		job.Method = job.AutoMethod()
	}
	if len(job.Placed) > 0 {
		job.Placed = canonical(job.Placed)
	}
	job.Piece = piece
	return job, rules, nil
}

// prepare checks job, resolves its method and pieces, and returns the
// source of its tasks (for prefix methods after choosing the depth, a
// walk that counts prefixes and holds none).
func prepare(ctx context.Context, job Job) (*source, error) {
	job, rules, err := resolve(job)
	if err != nil {
		return nil, err
	}
	piece := job.Piece
	src := &source{job: job, w: &walker{ctx: ctx, rules: rules}}
	switch {
	case job.Method != Mirror && job.Method != Sym && job.Method != Join:
		_, err := ParseMethod(string(job.Method))
		return nil, err
	case job.Method == Join && len(job.Placed) == 0 && !job.Every:
		if job.N > JoinMaxN {
			return nil, fmt.Errorf("%w: %d is too large for the join method (accepted: 0..%d; sym and mirror accept up to %d)", board.ErrSize, job.N, JoinMaxN, MaxN)
		}
		src.join = true
		return src, nil
	case len(job.Placed) > 0 || job.Every:
		if job.Method != Mirror {
			return nil, jobError("Method", "Placed", ErrPlacedMethod, "%s works with %s only (its default), not %s", msg.Name{Of: "Placed", Value: ""}, msg.Name{Of: "Method", Value: string(Mirror)}, msg.Name{Of: "Method", Value: string(job.Method)})
		}
		if err := CheckPlacement(job.N, job.Placed); err != nil {
			return nil, err
		}
		src.seeds = placedSeeds(job.N, job.Placed, !job.Every, rules)
	case job.Method == Mirror:
		src.seeds = mirrorSeeds(job.N)
	default:
		src.seeds = symSeeds(job.N)
	}
	if !rules.Queen() {
		for i := range src.seeds {
			src.seeds[i].kind = board.CountPieces
		}
	}
	if piece == board.King && len(job.Placed) == 0 && !job.Every {
		// Kings without placed ones: the whole board in closed form.
		src.seeds = []seed{{kind: board.Formula, weight: 1, bans: &noBans}}
		src.depth, src.tasks = 0, 1
		return src, nil
	}
	if piece == board.Knight && len(job.Placed) == 0 && !job.Every && job.N <= board.MaxSweepN {
		// Knights without placed ones: the row sweep, which beats the
		// search at every n it can hold (n = 14: milliseconds against a
		// minute).
		src.seeds = []seed{{kind: board.Sweep, weight: 1, bans: &noBans}}
		src.depth, src.tasks = 0, 1
		return src, nil
	}
	// Listing is one search in order: a few tasks keep its plan small
	// (and quick) at any n.
	src.depth = min(2, job.N)
	if !job.Every && !rules.Rook() { // rooks' tasks are closed forms: two rows suffice
		src.depth, src.tasks = chooseDepth(src.w, job.N, src.seeds)
	}
	if src.w.err != nil {
		return nil, src.w.err
	}
	return src, nil
}
