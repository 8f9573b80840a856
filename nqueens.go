// Package nqueens counts the solutions of the n-queens problem on every CPU
// core, exactly: the total (OEIS A000170), the classes under the 8
// symmetries of the square (A002562) and the solutions equal to their own
// 180° and 90° rotations (A032522, A033148).
//
// One call counts a board:
//
//	c, err := nqueens.Count(ctx, 12)
//	fmt.Println(c)        // 14200
//	u, ok := c.Unique()   // 1787, true
//
// [Count] takes options: the method ([WithMethod]), the workers, a memory
// limit, queens placed in advance, a progress callback, a journal that a
// later run resumes from, and a shard of the work for a cluster, whose
// pieces [Merge] puts together and [Status] reports on, and the devices
// it runs on ([WithDevice]: GPUs through OpenCL). [Table] counts a range
// of boards. [Solve], [List] and [Verify] work with single solutions.
// Errors carry no package prefix; input errors wrap [ErrInvalid], and
// those about options are [*OptionError]s naming them.
//
// Every run goes through one runner (runner.go): the plan
// ([partition.Plan]) minus the tasks a journal already holds is counted by
// the engine ([engine.Run]), each task's result is kept by task ID in a
// ledger that takes each task exactly once, and the counts are its sum. The
// command cmd/nqueens is this package with flags.
package nqueens

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/partition"
)

// Method is a way of counting: [Auto], the default, [Join], [Sym] or
// [Mirror].
type Method string

// Piece is what stands on the board, n of them, one per row and column,
// no two attacking each other: [Queen], the default, [Superqueen],
// [King], [Knight] or [Rook].
type Piece string

// Square is a square of the board: row 0 is the first row printed,
// column 0 the first column.
type Square struct {
	Row, Col int
}

// String gives the square as "row:col", 0-based, as WithPlaced's squares
// are written in files and messages.
func (s Square) String() string { return board.Square(s).String() }

// boardSquares are placed as the planner takes them.
func boardSquares(placed []Square) []board.Square {
	if placed == nil {
		return nil
	}
	out := make([]board.Square, len(placed))
	for i, q := range placed {
		out[i] = board.Square(q)
	}
	return out
}

// squaresOf are the planner's squares as the library gives them.
func squaresOf(placed []board.Square) []Square {
	if placed == nil {
		return nil
	}
	out := make([]Square, len(placed))
	for i, q := range placed {
		out[i] = Square(q)
	}
	return out
}

// A MemoryError says that a count does not fit its memory limit
// ([WithMemory]); it comes before anything large is made, and the error
// that carries it wraps [ErrInvalid]. What the count would need is Need
// bytes against Limit; its methods say whether shards would fit it.
type MemoryError struct {
	// N, Method, Tasks and Shards are the board, its method, the tasks
	// of the plan (or shard) and the shards it is one of (1: the whole
	// board).
	N             int
	Method        Method
	Tasks, Shards int
	// Workers are the goroutines that would run: the CPU workers and
	// Hosts, those that feed devices (each with its batch: what fewer of
	// them, or a smaller batch=, would save).
	Workers, Hosts int
	// Limit and Need are the memory limit and what the count needs, in
	// bytes.
	Limit, Need int64
}

// engine is e as the engine decides it.
func (e *MemoryError) engine() *engine.MemoryError {
	return &engine.MemoryError{N: e.N, Method: partition.Method(e.Method), Tasks: e.Tasks, Shards: e.Shards,
		Workers: e.Workers, Hosts: e.Hosts, Limit: e.Limit, Need: e.Need}
}

func (e *MemoryError) Error() string { return e.engine().Error() }

// MostlyTasks reports whether most of what the count needs is its plan's
// tasks (so that fewer tasks, in shards or smaller boards, would fit).
func (e *MemoryError) MostlyTasks() bool { return e.engine().MostlyTasks() }

// ShardsToFit is a number of shards of the whole board (a power of 2)
// whose each fits the limit with room to spare (shards differ in their
// number of tasks), or 0 when shards would not help.
func (e *MemoryError) ShardsToFit() int { return e.engine().ShardsToFit() }

// memoryError is the engine's refusal as the library's.
func memoryError(me *engine.MemoryError) *MemoryError {
	return &MemoryError{N: me.N, Method: Method(me.Method), Tasks: me.Tasks, Shards: me.Shards,
		Workers: me.Workers, Hosts: me.Hosts, Limit: me.Limit, Need: me.Need}
}

const (
	// Auto picks the fastest method for the board: Join for n = 12..32,
	// Sym otherwise, Mirror with placed queens.
	Auto = Method(partition.Auto)
	// Join counts pairs of west and east half-boards that share no
	// diagonal (meet in the middle) and the symmetric solutions apart:
	// all four counts, unique by Burnside's lemma. n ≤ 32.
	Join = Method(partition.Join)
	// Sym backtracks over one representative of each class of solutions
	// under the 8 symmetries and classifies it: all four counts.
	Sym = Method(partition.Sym)
	// Mirror backtracks over half the board, halved by the left-right
	// mirror: the total alone. It is the method for placed queens.
	Mirror = Method(partition.Mirror)

	// Queen is the n-queens problem. The other pieces are counted with
	// the mirror method (the total alone), and placed ([WithPlaced]),
	// solved and listed as queens are.
	Queen = Piece(board.Queen)
	// Superqueen moves as a queen and as a knight (OEIS A051223).
	Superqueen = Piece(board.Superqueen)
	// King: no two on neighbouring squares (OEIS A002464).
	King = Piece(board.King)
	// Knight: no two a knight's move apart.
	Knight = Piece(board.Knight)
	// Rook: columns only, n! arrangements (OEIS A000142), counted in
	// closed form, exact on every board (64! needs 297 bits; [Uint]).
	Rook = Piece(board.Rook)

	// MaxN is the largest board [Count] accepts (32 for the join method).
	MaxN = partition.MaxN
	// DefaultGrace is how long tasks still running when a count's context
	// is cancelled may finish unless [WithGrace] says otherwise.
	DefaultGrace = 30 * time.Second
	// JournalSync is how often a journal ([WithJournalFile]) is flushed
	// and fsynced while a count runs, besides at its end.
	JournalSync = 2 * time.Second
	// ForecastSample is the calibration [Forecast] takes where the cost
	// model says a count may be long and the board is within the
	// reference costs (to n = 28).
	ForecastSample = 2 * time.Second
	// LongWall is the expected wall time from which a count is long:
	// [Forecast] reports it, and the command warns before such a count
	// starts.
	LongWall = time.Hour
)

// The options: each call takes options of its own type, and each With*
// function's option is of the types of the calls that take it (its doc
// names them), so that an option a call does not take does not compile:
// Verify(cols, WithWorkers(4)) is an error of the compiler, not of the
// run. A list of options for one call is a slice of its type, e.g.
// []CountOption.
type (
	// CountOption configures [Count].
	CountOption interface {
		option
		countOption()
	}
	// ShardsOption configures [CountShards].
	ShardsOption interface {
		option
		shardsOption()
	}
	// TableOption configures [Table].
	TableOption interface {
		option
		tableOption()
	}
	// EstimateOption configures [Estimate].
	EstimateOption interface {
		option
		estimateOption()
	}
	// BoardOption configures [Solve] and [List], which find boards.
	BoardOption interface {
		option
		boardOption()
	}
	// VerifyOption configures [Verify].
	VerifyOption interface {
		option
		verifyOption()
	}
	// AuditOption configures [Audit].
	AuditOption interface {
		option
		auditOption()
	}
)

// option is what every option does: apply itself to the config, and say
// which With* function made it.
type option interface {
	apply(*config)
	name() string
}

// set is what an option does to the config, and the With* function that
// made it; every option type holds one, beside the marks of the calls
// that take it.
type set struct {
	of string
	f  func(*config)
}

func (s set) apply(c *config) { s.f(c) }
func (s set) name() string    { return s.of }

// The marks: an option type that embeds inCount is a CountOption, and so
// on.
type (
	inCount    struct{}
	inShards   struct{}
	inTable    struct{}
	inEstimate struct{}
	inBoard    struct{}
	inVerify   struct{}
	inAudit    struct{}
)

func (inCount) countOption()       {}
func (inShards) shardsOption()     {}
func (inTable) tableOption()       {}
func (inEstimate) estimateOption() {}
func (inBoard) boardOption()       {}
func (inVerify) verifyOption()     {}
func (inAudit) auditOption()       {}

// The options' types, by the calls that take them: each is an option of
// every call its doc names (it implements their option interfaces), so
// that a signature such as func WithWorkers(n int) ResourceOption says
// where the option goes, and a call it does not name refuses it at
// compile time.
type (
	// PieceOption is [WithPiece]'s and [WithTorus]': every call but
	// [Audit] takes it.
	PieceOption struct {
		set
		inCount
		inShards
		inTable
		inEstimate
		inBoard
		inVerify
	}
	// MethodOption is [WithMethod]'s: [Count], [CountShards], [Table],
	// [Estimate], [Solve] and [List] take it.
	MethodOption struct {
		set
		inCount
		inShards
		inTable
		inEstimate
		inBoard
	}
	// PlacedOption is [WithPlaced]'s: [Count], [CountShards],
	// [Estimate], [Solve] and [List] take it.
	PlacedOption struct {
		set
		inCount
		inShards
		inEstimate
		inBoard
	}
	// ResourceOption is [WithWorkers]', [WithMemory]'s, [WithDevice]'s and
	// [WithDeviceTuning]'s: [Count], [CountShards], [Table], [Estimate]
	// and [Audit] take it.
	ResourceOption struct {
		set
		inCount
		inShards
		inTable
		inEstimate
		inAudit
	}
	// RunOption is [WithProgress]', [WithGrace]'s and [WithStopNow]'s:
	// [Count], [CountShards] and [Table] take it.
	RunOption struct {
		set
		inCount
		inShards
		inTable
	}
	// CheckOption is [WithCheck]'s: [Count] and [Table] take it.
	CheckOption struct {
		set
		inCount
		inTable
	}
	// ShardOption is [WithShard]'s: [Count] and [Estimate] take it.
	ShardOption struct {
		set
		inCount
		inEstimate
	}
	// countOnly: WithJournalFile, WithShardFile.
	countOnly struct {
		set
		inCount
	}
	// estimateOnly: WithSample.
	estimateOnly struct {
		set
		inEstimate
	}
)

// config is what a call's options resolve to, in three parts that each
// hold their own methods: boardSpec, what is counted (its rules and
// model); resources, where it runs (workers, memory, devices: opening
// them and sizing their side); journalling, what it records (opening,
// locking and reading back the journal and shard file). config's own
// methods are those that join them: planning, estimating, running.
type config struct {
	boardSpec
	resources
	journalling
	sample time.Duration // Estimate's
	given  opt           // the options given
}

// boardSpec is what a count counts: the method, the queens placed, the
// piece and the torus.
type boardSpec struct {
	method Method
	placed []Square
	piece  Piece
	torus  bool
}

// resources are where a count runs and what it may take: the CPU
// workers, the memory limit, the devices and their tuning, and the join's
// buffers and cache kept from shard to shard (CountShards').
type resources struct {
	workers    int
	memory     int64
	device     string        // WithDevice's spec; "" for the CPU
	tuning     string        // WithDeviceTuning's spec
	joinTuning backend.Knobs // and what it says
	keep       *engine.KeptBuffers
	shared     *sharedDevices // CountShards': the devices its shards share
}

// journalling is how a count records and reports its progress and stops:
// its journal, its shard and shard file, the progress callback (after
// each finished task), the grace and stop channel of a stop, and the
// second count of WithCheck.
type journalling struct {
	progress func(Progress)
	journal  journal
	jname    string
	jpath    string // WithJournalFile
	outPath  string // WithShardFile
	shard    int
	shards   int
	out      io.Writer
	grace    time.Duration
	now      <-chan struct{}
	check    bool
}

// opt names an option given, for the rules that depend on whether it
// was.
type opt uint32

const (
	optWorkers opt = 1 << iota
	optJournalFile
	optShard
	optShardFile
)

// WithMethod sets the counting method (default [Auto]).
//
// [Count], [CountShards], [Table], [Estimate], [Solve] and [List] take it.
func WithMethod(m Method) MethodOption {
	return MethodOption{set: set{"WithMethod", func(c *config) { c.method = m }}}
}

// WithWorkers sets how many tasks run at once (default: the CPUs the
// process may run on, GOMAXPROCS, capped by the logical cores cpuid
// detects: [engine.DefaultWorkers]).
//
// [Count], [CountShards], [Table], [Estimate] and [Audit] take it.
func WithWorkers(n int) ResourceOption {
	return ResourceOption{set: set{"WithWorkers", func(c *config) { c.workers, c.given = n, c.given|optWorkers }}}
}

// WithMemory bounds, in bytes, what a count may take, its plan included
// (default: half of the memory the process may use: physical memory, or
// its cgroup's limit where lower, as in a container or a Slurm job with
// --mem, or the address-space limit; a limit above what the process may
// use is capped to it, engine.UsableMemory). A limit below what the count needs
// is an error wrapping ErrInvalid before anything large is made (an
// [*MemoryError] says what would do); the join sizes its buffers
// and cache to it. What a count does to the process: while join counts
// run, the Go runtime's soft memory limit (debug.SetMemoryLimit) is the
// sum of their limits, never above the caller's, and the caller's is
// restored when the last one ends; nothing else is changed.
//
// [Count], [CountShards], [Table], [Estimate] and [Audit] take it.
func WithMemory(bytes int64) ResourceOption {
	return ResourceOption{set: set{"WithMemory", func(c *config) { c.memory = bytes }}}
}

// WithPiece counts n pieces of kind p (default [Queen]): one per row and
// column, no two attacking. Pieces other than the queen are counted with
// the mirror method, so [WithCheck], which needs a second method, is for
// queens; placed pieces, [Solve], [List] and [Verify] take every piece.
//
// Every call but [Audit] takes it.
func WithPiece(p Piece) PieceOption {
	return PieceOption{set: set{"WithPiece", func(c *config) { c.piece = p }}}
}

// WithTorus counts queens on the torus: diagonals wrap around the board
// (the modular n-queens problem, OEIS A051906), with the mirror method.
//
// Every call but [Audit] takes it.
func WithTorus() PieceOption {
	return PieceOption{set: set{"WithTorus", func(c *config) { c.torus = true }}}
}

// WithPlaced counts only the solutions that hold these pieces (queens, or
// [WithPiece]'s; mirror method, halved only when the placement is its own
// mirror image). Their order does not matter.
//
// [Count], [CountShards], [Estimate], [Solve] and [List] take it.
func WithPlaced(queens ...Square) PlacedOption {
	return PlacedOption{set: set{"WithPlaced", func(c *config) { c.placed = append([]Square(nil), queens...) }}}
}

// Progress says how much of a run is done. Work is measured by the
// planner's cost estimates of finished tasks, not their number, since task
// sizes vary a lot; Done/Planned is the fraction done, on which an ETA can
// be based.
type Progress struct {
	Done, Planned    float64 // estimated work
	TasksDone, Tasks int
	N                int    // the board being counted (a table's current row)
	Method           Method // its method
	// Stopping is set on one last call when the context is cancelled
	// while tasks still run: how long they may still finish ([WithGrace]).
	Stopping time.Duration
}

// WithProgress calls f after each finished task (never concurrently with
// itself), once before the first with the work a journal already holds,
// and once with [Progress].Stopping set when a cancelled run waits for its
// running tasks. It should return quickly. A panic in f ends the run with
// an error that holds it (a journal keeps the tasks done), and f is not
// called again.
//
// [Count], [CountShards] and [Table] take it.
func WithProgress(f func(Progress)) RunOption {
	return RunOption{set: set{"WithProgress", func(c *config) { c.progress = f }}}
}

// journal is where a run keeps its finished tasks, so that a later run of
// the same count resumes from it after a stop, a crash or kill -9: an
// *os.File opened for reading and writing is one. A run reads it from the
// start, drops a torn last record, appends each finished task, and syncs
// every few seconds and at the end.
type journal interface {
	io.ReadWriteSeeker
	Truncate(size int64) error
	Sync() error
}

// WithShard counts only shard i (0-based) of m, balanced by estimated cost
// ([partition.Plan.Shards]), and writes its per-task counts to out as a
// shard file for [Merge] (out may be nil with a journal, which merges
// too). The counts of a shard are partial: [Counts.Unique] of a join shard
// is absent.
//
// [Count] and [Estimate] take it.
func WithShard(i, m int, out io.Writer) ShardOption {
	return ShardOption{set: set{"WithShard", func(c *config) { c.shard, c.shards, c.out, c.given = i, m, out, c.given|optShard }}}
}

// WithCheck counts the board a second time with an independent method
// (sym for join and mirror, mirror for sym) and fails with [ErrMismatch]
// unless both give the same total and, where both have them, the same
// class counts. The counts say which method checked them
// ([Counts].CheckedBy). It does not work with placed queens or shards.
//
// [Count] and [Table] take it.
func WithCheck() CheckOption {
	return CheckOption{set: set{"WithCheck", func(c *config) { c.check = true }}}
}

// WithGrace sets how long tasks still running when the context is
// cancelled may finish (default [DefaultGrace]); tasks still running after it are
// abandoned (a journal counts them again on resume).
//
// [Count], [CountShards] and [Table] take it.
func WithGrace(d time.Duration) RunOption {
	return RunOption{set: set{"WithGrace", func(c *config) { c.grace = d }}}
}

// WithStopNow abandons the running tasks at once, without waiting out the
// grace period, when now is closed after the context was cancelled (a
// second Ctrl-C). The journal still holds every finished task.
//
// [Count], [CountShards] and [Table] take it.
func WithStopNow(now <-chan struct{}) RunOption {
	return RunOption{set: set{"WithStopNow", func(c *config) { c.now = now }}}
}

// newConfig applies opts, the options of call, over the defaults and
// checks them.
func newConfig[O option](call string, opts []O) (*config, error) {
	c := &config{boardSpec: boardSpec{method: Auto}, journalling: journalling{shards: 1, grace: DefaultGrace}}
	given := make(map[string]int, len(opts))
	for k, o := range opts {
		if any(o) == nil {
			return nil, invalidf("%s: option %d of %d is nil (leave out an option not wanted)", call, k+1, len(opts))
		}
		name := o.name()
		if j, ok := given[name]; ok {
			return nil, invalidf("%s: %s is given twice (options %d and %d of %d): give each option once", call, name, j+1, k+1, len(opts))
		}
		given[name] = k
		o.apply(c)
	}
	if err := c.rules(); err != nil {
		return nil, err
	}
	return c, nil
}

// rules applies the rules on the options that do not depend on the board
// (those that do are the planner's: [partition.JobError]), each in this
// one place, and sets the default workers.
func (c *config) rules() error {
	shardOpt := "WithShard"
	if c.given&optShardFile != 0 {
		shardOpt = "WithShardFile"
	}
	say := optionError
	type named = msg.Name
	switch {
	case c.given&optWorkers == 0:
		c.workers = engine.DefaultWorkers()
	case c.workers < 1 || c.workers > engine.MaxWorkers:
		return say("WithWorkers", "", "%s is out of range (accepted: 1..%d)", named{Of: "WithWorkers", Value: fmt.Sprint(c.workers)}, engine.MaxWorkers)
	}
	switch {
	case c.given&optShard != 0 && c.given&optShardFile != 0:
		return say("WithShard", "WithShardFile", "%s and %s both name where the counts go: give one", named{Of: "WithShard", Value: ""}, named{Of: "WithShardFile", Value: ""})
	case c.memory < 0:
		return say("WithMemory", "", "%s is negative (accepted: a number of bytes)", named{Of: "WithMemory", Value: fmt.Sprint(c.memory)})
	case c.grace < 0:
		return say("WithGrace", "", "%s is negative (accepted: 0 or more)", named{Of: "WithGrace", Value: c.grace.String()})
	case c.sample < 0:
		return say("WithSample", "", "%s is negative (accepted: 0 or more)", named{Of: "WithSample", Value: c.sample.String()})
	case !partition.IsShards(c.shard, c.shard, c.shards):
		return say(shardOpt, "", "%s is not a shard (accepted: %s)", named{Of: shardOpt, Value: fmt.Sprintf("%d/%d", c.shard, c.shards)}, partition.ShardAccepted)
	case c.check && !c.queens():
		other, value := "WithPiece", string(c.piece)
		if c.torus {
			other, value = "WithTorus", ""
		}
		return say("WithCheck", other, "%s counts the board again by another method: %s has one method only", named{Of: "WithCheck", Value: ""}, named{Of: other, Value: value})
	case c.check && len(c.placed) > 0:
		return say("WithCheck", "WithPlaced", "%s counts the whole board twice: it does not work with %s", named{Of: "WithCheck", Value: ""}, named{Of: "WithPlaced", Value: ""})
	case c.check && c.shards > 1:
		return say("WithCheck", shardOpt, "%s counts the whole board twice: it does not work with %s", named{Of: "WithCheck", Value: ""}, named{Of: shardOpt, Value: ""})
	case c.given&optJournalFile != 0 && c.jpath == "":
		return say("WithJournalFile", "", "%s names no file (accepted: a path)", named{Of: "WithJournalFile", Value: `""`})
	case c.given&optShardFile != 0 && c.outPath == "":
		return say("WithShardFile", "", "%s names no file (accepted: a path)", named{Of: "WithShardFile", Value: `""`})
	case c.jpath != "" && c.outPath != "" && (samePath(c.jpath, c.outPath) || samePath(c.jpath, resultfile.LockName(c.outPath))):
		return say("WithJournalFile", "WithShardFile", "%s and %s name one file: the journal and the shard file are two (accepted: two paths)", named{Of: "WithJournalFile", Value: c.jpath}, named{Of: "WithShardFile", Value: c.outPath})
	}
	if err := c.checkTuning(); err != nil {
		return err
	}
	if err := c.checkDevice(); err != nil {
		return err
	}
	if c.tuning != "" && c.device == "" {
		return say("WithDeviceTuning", "WithDevice", "%s tunes a device's join, and the count runs on the CPU: give %s (or leave the tuning out)",
			named{Of: "WithDeviceTuning", Value: c.tuning}, named{Of: "WithDevice", Value: "opencl"})
	}
	// The board's rules (method, pieces, torus, placed queens) are the
	// planner's; asked here so that every call refuses them before it
	// starts, with the options' names.
	if _, err := partition.ParseMethod(string(c.method)); err != nil && c.method != "" {
		return jobOption(err)
	}
	if _, err := partition.ParsePiece(string(c.piece)); err != nil {
		return jobOption(err)
	}
	return nil
}

// named is an option in a message, with the value it was given.

// jobOptions are the options that set a [partition.Job]'s fields.
var jobOptions = map[string]string{"Method": "WithMethod", "Piece": "WithPiece", "Torus": "WithTorus", "Placed": "WithPlaced"}

// jobOption turns the planner's [*partition.JobError] into the
// [*OptionError] that names the options the caller gave; other errors it
// marks as the caller's input.
func jobOption(err error) error {
	var je *partition.JobError
	if !errors.As(err, &je) {
		return invalid(err)
	}
	return &OptionError{Option: jobOptions[je.Field], Other: jobOptions[je.Other], Words: je.Words.Rename(func(f string) string { return jobOptions[f] })}
}

// job is the planner's job for the n×n board under c, by method.
func (c *config) job(n int, method partition.Method, every bool) partition.Job {
	return partition.Job{N: n, Method: method, Placed: boardSquares(c.placed), Every: every, Piece: board.Piece(c.piece), Torus: c.torus}
}

// plan makes the plan of c's shard of the n×n board, refusing before it
// holds more tasks than c's memory limit allows.
func (c *config) plan(ctx context.Context, n int) (*partition.Plan, error) {
	pl, err := c.planner(ctx, n)
	if err != nil {
		return nil, err
	}
	return c.planWith(ctx, pl, n)
}

// newPlanner is partition.NewPlanner, through which the plans of counts,
// estimates, merges and statuses start: the tests' seam to count the
// plans a call makes ("refused before planning" is no call).
var newPlanner = partition.NewPlanner

// planner checks the n×n board's job under c and returns its planner.
// A board the device kernels cannot count is refused first, before the
// plan is walked (seconds at n = 33).
func (c *config) planner(ctx context.Context, n int) (*partition.Planner, error) {
	if err := c.devicePlan(&partition.Plan{N: n, Piece: board.Piece(c.piece), Torus: c.torus, Placed: boardSquares(c.placed)}); err != nil {
		return nil, err
	}
	pl, err := newPlanner(ctx, c.job(n, partition.Method(c.method), false))
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, fmt.Errorf("planning n = %d stopped: %w", n, context.Cause(ctx))
	case err != nil:
		return nil, jobOption(err)
	}
	return pl, nil
}

// planWith makes c's shard of the plan, within c's memory limit.
func (c *config) planWith(ctx context.Context, pl *partition.Planner, n int) (*partition.Plan, error) {
	method := pl.Size().Method
	p, err := pl.Plan(c.shard, c.shards, c.maxTasks(n, method))
	var te *partition.TasksError
	switch {
	case errors.As(err, &te):
		if err := c.fits(n, method, te.Tasks, c.shards); err != nil {
			return nil, err
		}
		return nil, invalid(te)
	case err != nil && ctx.Err() != nil:
		return nil, fmt.Errorf("planning n = %d stopped: %w", n, context.Cause(ctx))
	case err != nil:
		return nil, invalid(err)
	}
	return p, nil
}

// memoryLimit is r's memory limit, the default if none was set.
func (r *resources) memoryLimit() int64 { return engine.MemoryLimit(r.memory) }

// fits returns the [*MemoryError] of a plan of tasks tasks of the n×n
// board by method, one of shards shards, when its run needs more than
// c's memory limit on the goroutines that list its tasks and the
// devices' batches ([resources.side], [engine.MemoryNeed]), and nil when it fits:
// the one place the library decides it before planning and builds the
// error, by the rule the engine's run applies.
func (c *config) fits(n int, method partition.Method, tasks, shards int) error {
	sd := c.side(method)
	err := engine.FitMemory(n, method, sd.listers, tasks, shards, c.memoryLimit(), engine.MemoryNeed(n, method, tasks, sd.listers)+sd.batches)
	var me *engine.MemoryError
	if errors.As(err, &me) {
		me.Hosts = sd.hosts
	}
	return invalid(err)
}

// maxTasks is how many tasks a plan of the n×n board by method may hold
// within c's memory limit ([config.fits]' rule), at least 1.
func (c *config) maxTasks(n int, method partition.Method) int {
	sd := c.side(method)
	return max(1, engine.MaxTasks(n, method, sd.listers, c.memoryLimit()-sd.batches))
}

// queens reports whether c counts the plain n-queens problem.
func (b *boardSpec) queens() bool { return b.boardName() == string(Queen) }

// boardName names b's pieces for messages ("superqueen", "queen torus").
func (b *boardSpec) boardName() string { return board.BoardName(board.Piece(b.piece), b.torus) }

// samePath reports whether a and b name one file: the same path once
// cleaned and made absolute, or two names of one existing file.
func samePath(a, b string) bool {
	if x, err := filepath.Abs(a); err == nil {
		if y, err := filepath.Abs(b); err == nil && x == y {
			return true
		}
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}
