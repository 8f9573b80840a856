package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/progress"
	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/partition"
)

// Counting are the flags every count-like command (count, plan, table)
// shares: --method, -j, --memory and --piece/--torus.
type Counting struct {
	Method  string
	Workers int
	Memory  string
	Pieces  Pieces
}

// Register adds the flags to fs; method is --method's help.
func (c *Counting) Register(fs *pflag.FlagSet, method string) {
	fs.StringVarP(&c.Method, "method", "m", "auto", method)
	WorkersFlag(fs, &c.Workers)
	fs.StringVar(&c.Memory, "memory", "", "memory the count may use, planning included, e.g. 8GiB or 500MB (default: half of physical memory, or of the cgroup's limit where lower); an OpenCL runtime's own memory (about 100 MB for pocl, more for a GPU's driver) comes on top")
	c.Pieces.Register(fs)
}

// Options are the library's options for the flags (-j only when given,
// as fs records). Their rules are the library's: it refuses what does not
// fit with an [nqueens.OptionError] that [ExitCode] words with these
// flags. A --memory above what the process may use, which the library
// caps, is noted on stderr.
func (c Counting) Options(fs *pflag.FlagSet, stderr io.Writer) (Opts, error) {
	limit, err := MemoryLimit(c.Memory)
	if err != nil {
		return nil, err
	}
	if u, what := engine.UsableMemory(); u > 0 && limit > u {
		fmt.Fprintf(stderr, "nqueens: --memory %s is more than this process may use: %s (%s); the count takes at most that\n",
			c.Memory, humanize.IBytes(uint64(u)), what)
	}
	opts := Opts{nqueens.WithMethod(nqueens.Method(c.Method)), nqueens.WithMemory(limit), nqueens.WithPiece(nqueens.Piece(c.Pieces.Piece))}
	if c.Pieces.Torus {
		opts = append(opts, nqueens.WithTorus())
	}
	if fs.Changed("workers") {
		opts = append(opts, nqueens.WithWorkers(c.Workers))
	}
	return opts, nil
}

// CountLike is an option of the flags every count-like call takes.
type CountLike interface {
	nqueens.CountOption
	nqueens.ShardsOption
	nqueens.TableOption
	nqueens.EstimateOption
}

// Opts are the options of the flags count, plan and table share
// ([Counting]), as each call takes them: with the placed queens, but for
// Table, which takes none.
type Opts []CountLike

// Count lists them for [nqueens.Count].
func (o Opts) Count(placed []nqueens.Square) []nqueens.CountOption {
	return as[nqueens.CountOption](o, func(x CountLike) nqueens.CountOption { return x }, nqueens.WithPlaced(placed...))
}

// Shards lists them for [nqueens.CountShards].
func (o Opts) Shards(placed []nqueens.Square) []nqueens.ShardsOption {
	return as[nqueens.ShardsOption](o, func(x CountLike) nqueens.ShardsOption { return x }, nqueens.WithPlaced(placed...))
}

// Estimate lists them for [nqueens.Estimate].
func (o Opts) Estimate(placed []nqueens.Square) []nqueens.EstimateOption {
	return as[nqueens.EstimateOption](o, func(x CountLike) nqueens.EstimateOption { return x }, nqueens.WithPlaced(placed...))
}

// Table lists them for [nqueens.Table].
func (o Opts) Table() []nqueens.TableOption {
	return as(o, func(x CountLike) nqueens.TableOption { return x })
}

// as lists opts as options of type O (conv is the conversion, checked by
// the compiler), then more.
func as[O any](opts Opts, conv func(CountLike) O, more ...O) []O {
	out := make([]O, 0, len(opts)+len(more))
	for _, o := range opts {
		out = append(out, conv(o))
	}
	return append(out, more...)
}

// MemoryLimit parses --memory; empty means the library's default (0).
func MemoryLimit(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	b, err := humanize.ParseBytes(s)
	if err != nil || b == 0 || b > 1<<62 {
		return 0, Usagef("invalid --memory %s (accepted: a size such as 8GiB, 500MB or 1073741824)", msg.Quote(s))
	}
	return int64(b), nil
}

// WorkersFlag adds -j/--workers to fs.
func WorkersFlag(fs *pflag.FlagSet, p *int) {
	fs.IntVarP(p, "workers", "j", 0, "tasks run at once (default: the CPUs this process may use: affinity and cgroup quota, at most the logical cores cpuid detects)")
}

// DeviceFlag adds --device to fs.
func DeviceFlag(fs *pflag.FlagSet, p *string) {
	fs.StringVar(p, "device", "cpu", "where to count: cpu, opencl (the first OpenCL device, a GPU if any), opencl:N, opencl:all, or all (every OpenCL device beside the CPU workers); devices count queens by join (auto's choice from n = 12), sym or mirror")
}

// OnDevice reports whether --device's value spec counts on a device
// (anything but cpu, the default).
func OnDevice(spec string) bool { return spec != "" && spec != "cpu" }

// DeviceTuningFlag adds --device-tuning to fs.
func DeviceTuningFlag(fs *pflag.FlagSet, p *string) {
	fs.StringVar(p, "device-tuning", "", "how a device runs the join: key=value pairs, comma-separated, of group (work-group size), block (patterns a work-group's table holds: 32..512, a power of two), items (items a work-item takes a step), batch (patterns a launch holds), hosts (host goroutines listing tasks per device), list and sort (who lists the halves and who sorts those the host lists: 1 the host, 2 the device, 0 the host on a CPU device), cut (cut a launch's large jobs into pieces: 1 never, 2 always, 0 except on a CPU device), popcount (the matching's counts: 32 or 64 bits, 0 64 on a CPU device), chunk (the table's chunks: 5, 6 or 7 bits, 0 6 on a CPU device and 5 on a GPU), layout (the table in local memory: 1 vectors, 2 planes, 0 vectors on a CPU device); e.g. group=256,block=128")
}

// PlaceFlag adds --place to fs.
func PlaceFlag(fs *pflag.FlagSet, p *string) {
	fs.StringVar(p, "place", "", `queens that must be on the board: 0-based row:col pairs or chess squares (a1 = row 0, column 0, the top-left corner as printed), comma-separated, e.g. "0:1,3:2" or "b1,c4"`)
}

// Pieces are --piece and --torus: what stands on the board.
type Pieces struct {
	Piece string
	Torus bool
}

// Register adds the flags to fs.
func (p *Pieces) Register(fs *pflag.FlagSet) {
	fs.StringVar(&p.Piece, "piece", "queen", "what stands on the board, one per row and column, no two attacking: queen, superqueen (queen and knight moves), king, knight or rook")
	fs.BoolVar(&p.Torus, "torus", false, "queens on the torus: the diagonals wrap around the board")
}

// Options are the library's options for the flags, for [nqueens.Solve]
// and [nqueens.List]; the library checks them.
func (p Pieces) Options() []nqueens.BoardOption {
	opts := []nqueens.BoardOption{nqueens.WithPiece(nqueens.Piece(p.Piece))}
	if p.Torus {
		opts = append(opts, nqueens.WithTorus())
	}
	return opts
}

// VerifyOptions are the same for [nqueens.Verify].
func (p Pieces) VerifyOptions() []nqueens.VerifyOption {
	opts := []nqueens.VerifyOption{nqueens.WithPiece(nqueens.Piece(p.Piece))}
	if p.Torus {
		opts = append(opts, nqueens.WithTorus())
	}
	return opts
}

// Board names the flags' pieces ("queen", "king", "queen torus").
func (p Pieces) Board() string { return board.BoardName(board.Piece(p.Piece), p.Torus) }

// Queens reports whether the flags ask for the plain n-queens problem.
func (p Pieces) Queens() bool { return p.Board() == string(nqueens.Queen) }

// Label is the board's name for progress lines: "" for queens.
func (p Pieces) Label() string {
	if p.Queens() {
		return ""
	}
	return " " + p.Board()
}

// Progress are --progress and --quiet, shared by count, table and bench.
type Progress struct {
	Plain    bool
	Quiet    bool
	Interval time.Duration
}

// Register adds the flags to fs.
func (f *Progress) Register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.Plain, "progress", false, "when stderr is not a terminal, print a status line every few seconds")
	fs.BoolVarP(&f.Quiet, "quiet", "q", false, "print nothing but the result (no progress bar)")
	fs.DurationVar(&f.Interval, "progress-interval", 5*time.Second, "time between --progress status lines")
	_ = fs.MarkHidden("progress-interval")
}

// Start begins showing progress on stderr as the flags ask.
func (f Progress) Start(stderr io.Writer, label func(nqueens.Progress) string) *progress.Display {
	return progress.Start(stderr, progress.Options{Plain: f.Plain, Quiet: f.Quiet, Interval: f.Interval}, label)
}

// Board parses a board size argument (0..nqueens.MaxN) and --place, the
// queens placed on that board (nil when place is empty). A placement that
// does not fit the board names the squares as they were typed ("z9",
// not "8:25"). Queens that share a diagonal are accepted (no solution
// holds them): when queens is set, a note on stderr says so.
func Board(arg, place string, queens bool, stderr io.Writer) (int, []nqueens.Square, error) {
	n, err := ParseN(arg, nqueens.MaxN)
	if err != nil {
		return 0, nil, err
	}
	placed, err := Placement(place, n, queens, stderr)
	return n, placed, err
}

// Placement parses and checks --place for an n×n board, as [Board] does.
func Placement(s string, n int, queens bool, stderr io.Writer) ([]nqueens.Square, error) {
	if s == "" {
		return nil, nil
	}
	placed, err := board.ParseSquares(s)
	if err != nil {
		return nil, Usagef("--place: %w", err)
	}
	typed, chess := map[board.Square]string{}, false
	for i, tok := range strings.Split(s, ",") {
		tok = strings.TrimSpace(tok)
		typed[placed[i]] = tok
		chess = chess || !strings.Contains(tok, ":")
	}
	var je *partition.JobError
	if err := partition.CheckPlacement(n, placed); errors.As(err, &je) {
		return nil, Usagef("%s", je.Words.Say(func(msg.Name) string { return "--place" }, func(x any) (string, bool) {
			switch v := x.(type) {
			case board.Square:
				return typed[v], true
			case board.Span:
				v.Chess = chess
				return v.String(), true
			}
			return "", false
		}))
	}
	if a, b, ok := board.DiagonalConflict(placed); ok && queens {
		fmt.Fprintf(stderr, "nqueens: note: placed queens %s and %s share a diagonal, so no solution contains both\n", typed[a], typed[b])
	}
	out := make([]nqueens.Square, len(placed))
	for i, q := range placed {
		out[i] = nqueens.Square(q)
	}
	return out, nil
}
