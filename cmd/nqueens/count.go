package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/partition"

	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/progress"
	"github.com/nqueens/nqueens/internal/report"
)

type countFlags struct {
	place      string
	method     string
	workers    int
	workersSet bool // -j given
	json       bool
	verify     bool
	checkpoint string
	shard      string
	shards     int
	out        string
	grace      time.Duration
	memory     string
	device     string
	pieces     pieceFlags
	progress   progressFlags
}

func countCmd() *cobra.Command {
	var f countFlags
	cmd := &cobra.Command{
		Use:   "count N",
		Short: "Count the solutions of the N×N board",
		Long: fmt.Sprintf(`count prints the number of solutions of the N×N board (N = 0..%d) alone on
stdout; --json prints a JSON object with the total, the unique and
symmetric counts (sym and join), nodes, timing and workers (counts as exact
decimal strings).

Methods (the default, auto, picks join for N = %d..%d and sym otherwise):
  join    meet in the middle: lists the west and east half-boards of every
          split of the rows and counts the pairs that share no diagonal;
          the fastest from N = %d on; the symmetric solutions are counted
          apart and give unique by Burnside's lemma (memory: --memory)
  sym     full symmetry of the square: one representative per class of
          solutions, each classified, half the nodes of mirror; the unique,
          point-symmetric and rot90-symmetric counts come from the search
  mirror  left-right mirror only: half the search; the total alone
Nodes measure work within a method: queens placed for sym and mirror,
pairs of quarter placements tried for join.

--piece superqueen|king|knight|rook counts n of those pieces instead of
queens (one per row and column, no two attacking: superqueens move as
queens and knights, kings take their 8 neighbours and are counted in
closed form by the recurrence of A002464, exact on every board to N = 64;
rooks give n!, exact to N = 64 too), --torus queens whose diagonals wrap around the board; both
with the mirror method (the total alone).

--place counts the solutions that hold the given queens (mirror method;
halved only when the placement is its own mirror image). Queens that attack
each other along a diagonal give 0, with a note on stderr.

--device opencl counts on an OpenCL device (a GPU of any vendor, or a CPU
runtime such as pocl), --device all on every device beside the CPU
workers: the same plan, journal, shards and results as on the CPU, with
the sym method (auto's choice there) or mirror; the join, other pieces and
placed queens count on the CPU. 'nqueens devices' lists the devices.

Long runs and clusters:
  --checkpoint FILE  journal finished tasks to FILE (fsynced every 2 s and at
                     exit); run the same command again to resume after a
                     stop, a crash or kill -9 (only tasks in flight are lost)
  --shard I/M        count only shard I (0-based) of M, balanced by estimated
                     cost; without it SLURM_ARRAY_TASK_ID/_COUNT/_MIN or
                     JOB_COMPLETION_INDEX with --shards M select the shard
  --out FILE         write the shard's per-task counts to FILE for
                     'nqueens merge' (required when sharding)
  --memory SIZE      what the count may take, its plan included (default:
                     half of RAM); a board whose tasks do not fit is refused
                     at once, naming what would (shards: a shard plans and
                     holds its own tasks alone)
'nqueens plan N' shows the tasks, the split into shards, the memory and,
with --sample, the core-seconds, before counting.
SIGINT, SIGTERM and SIGUSR1 stop handing out tasks, let running ones finish
(abandoning those still running after --grace), save the journal and exit
130, 143 or 138.`, partition.MaxN, partition.JoinFrom, partition.JoinMaxN, partition.JoinFrom),
		Example: "  nqueens count 8\n  nqueens count 16 --json -j 4\n  nqueens count 14 --verify\n  nqueens count 16 --method sym --json\n  nqueens count 19 --memory 2GiB\n  nqueens count 10 --place 0:1,3:2\n  nqueens count 14 --piece superqueen\n  nqueens count 13 --torus\n  nqueens count 18 --device opencl\n  nqueens count 20 --checkpoint n20.journal\n  nqueens count 20 --shard 3/8 --out shard3.result",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkEmpty(cmd, "place", "shard", "memory", "checkpoint", "out", "piece"); err != nil {
				return err
			}
			n, placed, err := boardArgs(args[0], f.place)
			if err != nil {
				return err
			}
			if placed != nil && f.pieces.queens() {
				noteConflict(cmd.ErrOrStderr(), placed)
			}
			f.workersSet = cmd.Flags().Changed("workers")
			return runCount(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), n, placed, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.method, "method", "m", "auto", "counting method: auto, join, sym or mirror")
	workersFlag(fs, &f.workers)
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of the total alone")
	fs.BoolVar(&f.verify, "verify", false, "count again with a second, independent method and fail (exit 1) if they disagree")
	placeFlag(fs, &f.place)
	fs.StringVar(&f.checkpoint, "checkpoint", "", "journal finished tasks to this file and resume from it")
	fs.StringVar(&f.shard, "shard", "", "count only shard I of M (I/M, 0-based)")
	fs.IntVar(&f.shards, "shards", 0, "number of shards when JOB_COMPLETION_INDEX (Kubernetes Indexed Job) selects the shard")
	fs.StringVar(&f.out, "out", "", "write this run's per-task counts to a shard result file for 'nqueens merge'")
	memoryFlag(fs, &f.memory)
	deviceFlag(fs, &f.device)
	fs.DurationVar(&f.grace, "grace", 30*time.Second, "after a stop signal, how long running tasks may finish before they are abandoned")
	f.pieces.register(fs)
	f.progress.register(fs)
	return cmd
}

// checkEmpty refuses flags given an empty value: "--shard ”" is a
// mistake, not a request for the default.
func checkEmpty(cmd *cobra.Command, names ...string) error {
	for _, name := range names {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed && fl.Value.String() == "" {
			return usagef("--%s needs a value (see --help)", name)
		}
	}
	return nil
}

// countOptions turns the flags every count-like command shares (--method,
// --piece, --torus, -j when given, --memory, --place) into the library's
// options. Their rules are the library's: it refuses what does not fit
// with an [nqueens.OptionError] that [message] words with these flags.
func countOptions(method string, pieces pieceFlags, workers int, workersSet bool, memory string, placed []nqueens.Square) ([]nqueens.Option, error) {
	limit, err := memoryLimit(memory)
	if err != nil {
		return nil, err
	}
	opts := append([]nqueens.Option{nqueens.WithMethod(nqueens.Method(method)), nqueens.WithMemory(limit)}, pieces.options()...)
	if workersSet {
		opts = append(opts, nqueens.WithWorkers(workers))
	}
	if len(placed) > 0 {
		opts = append(opts, nqueens.WithPlaced(placed...))
	}
	return opts, nil
}

func runCount(ctx context.Context, stdout, stderr io.Writer, n int, placed []nqueens.Square, f countFlags) error {
	opts, err := countOptions(f.method, f.pieces, f.workers, f.workersSet, f.memory, placed)
	if err != nil {
		return err
	}
	shard, shards, err := selectShard(f, stderr)
	if err != nil {
		return err
	}
	var prog *progress.Display // the bar: messages go above it, and it goes when a stop begins
	opts = append(opts, nqueens.WithGrace(f.grace), nqueens.WithStopNow(stopNow(ctx)), nqueens.WithDevice(f.device))
	if f.verify {
		opts = append(opts, nqueens.WithCheck())
	}
	switch {
	case f.out != "":
		opts = append(opts, nqueens.WithShardFile(shard, shards, f.out))
	case shards > 1:
		opts = append(opts, nqueens.WithShard(shard, shards, nil))
	}
	if f.checkpoint != "" {
		opts = append(opts, nqueens.WithJournalFile(f.checkpoint))
	}
	label := func(p nqueens.Progress) string {
		if shards > 1 {
			return fmt.Sprintf("count %d%s (%s) shard %d/%d", p.N, f.pieces.label(), p.Method, shard, shards)
		}
		return fmt.Sprintf("count %d%s (%s)", p.N, f.pieces.label(), p.Method)
	}
	prog = f.progress.start(stderr, label)
	first := true
	c, err := nqueens.Count(ctx, n, append(opts, nqueens.WithProgress(func(p nqueens.Progress) {
		if p.Stopping > 0 {
			// The bar goes first: a stopped count has no progress to
			// show, and the terminal's echoed ^C would garble its last
			// line.
			prog.Stop()
			if p.Stopping >= time.Second { // a shorter wait needs no word
				fmt.Fprintf(stderr, "%snqueens: stopping: waiting up to %s for the running tasks to finish; Ctrl-C again to stop now\n", prog.LineStart(), p.Stopping)
			}
			return
		}
		if first && p.TasksDone > 0 {
			fmt.Fprintf(prog.Messages(stderr), "nqueens: resuming from %s: %d of %d tasks already counted\n", f.checkpoint, p.TasksDone, p.Tasks)
		}
		first = false
		prog.Update(p)
	}))...)
	prog.Stop()
	var stopped *nqueens.StoppedError
	if err != nil && ctx.Err() != nil && !errors.As(err, &stopped) {
		return fmt.Errorf("%w; no count printed", interrupted(ctx, fmt.Sprintf("stopped while planning n = %d", n)))
	} else if err != nil {
		return countError(err)
	}
	for _, note := range c.Notes {
		fmt.Fprintf(stderr, "nqueens: note: %s\n", note)
	}
	rep := report.Of(c)
	if f.json {
		return report.WriteJSON(stdout, rep)
	}
	if c.Partial() {
		// A shard's total is not the answer: say where it went instead.
		fmt.Fprintf(stderr, "nqueens: shard %d/%d of n = %d counted (%d tasks, partial total %s) and saved in %s; merge all shards with 'nqueens merge'\n",
			shard, shards, n, c.Tasks, c.Total, firstNonEmpty(f.out, f.checkpoint))
		return nil
	}
	return writeLine(stdout, c.Total.String())
}

// countError words the library's errors with the command's flags.
func countError(err error) error { return wordError(err, true) }

// wordError is countError, for a command whose counts can be sharded or
// not (a table's rows cannot).
func wordError(err error, shardable bool) error {
	var me *nqueens.MemoryError
	var fe *nqueens.FileError
	if errors.As(err, &fe) {
		flag := map[string]string{"journal": "--checkpoint", "shard file": "--out"}[fe.Role]
		switch {
		case errors.Is(err, nqueens.ErrInvalid): // no regular file
			return usagef("%s %w", flag, fe.Err)
		case errors.Is(err, nqueens.ErrLocked):
			return fmt.Errorf("%s: %w (wait for it to finish, or use another file)", flag, fe.Err)
		}
		return fmt.Errorf("%s: %w", flag, fe.Err)
	}
	if errors.As(err, &me) {
		return usagef("%s", memoryMessage(me, shardable))
	}
	return err
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// selectShard returns the shard to count: --shard, else the scheduler's
// environment (Slurm's job arrays, or JOB_COMPLETION_INDEX with --shards);
// 0 of 1 otherwise.
func selectShard(f countFlags, stderr io.Writer) (int, int, error) {
	if f.shard != "" {
		i, m, err := partition.ParseShard(f.shard)
		if err != nil {
			return 0, 0, usagef("bad --shard %s (accepted: I/M with 0 ≤ I < M, e.g. 0/8)", msg.Quote(f.shard))
		}
		return i, m, nil
	}
	i, m, from, err := shardFromEnv(os.Getenv, f.shards)
	if err != nil {
		return 0, 0, fmt.Errorf("%w; or use --shard I/M", err)
	}
	if from != "" {
		fmt.Fprintf(stderr, "nqueens: shard %d/%d from %s\n", i, m, from)
	}
	return i, m, nil
}

// deviceFlag registers --device.
func deviceFlag(fs *pflag.FlagSet, p *string) {
	fs.StringVar(p, "device", "cpu", "where to count: cpu, opencl (the first OpenCL device, a GPU if any), opencl:N, opencl:all, or all (every OpenCL device beside the CPU workers); devices count with sym (the default there) or mirror")
}

// memoryFlag registers --memory, the join method's memory limit.
func memoryFlag(fs *pflag.FlagSet, p *string) {
	fs.StringVar(p, "memory", "", "memory the count may use, planning included, e.g. 8GiB or 500MB (default: half of physical memory)")
}

// memoryLimit parses --memory; empty means the library's default (0).
func memoryLimit(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	b, err := humanize.ParseBytes(s)
	if err != nil || b == 0 || b > 1<<62 {
		return 0, usagef("invalid --memory %s (accepted: a size such as 8GiB, 500MB or 1073741824)", msg.Quote(s))
	}
	return int64(b), nil
}

// writeLine writes s and a newline.
func writeLine(w io.Writer, s string) error {
	if _, err := fmt.Fprintln(w, s); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	return nil
}

// memoryMessage words a memory refusal with the flags that would fit it.
func memoryMessage(me *nqueens.MemoryError, shardable bool) string {
	ways := []string{"raise --memory"}
	if !shardable && me.MostlyTasks {
		ways = append(ways, fmt.Sprintf("end the table before n = %d", me.N))
	}
	if m := me.ShardsToFit; shardable && m > 0 {
		ways = append(ways, fmt.Sprintf("count it in %d or more shards (--shard I/M, then nqueens merge)", m))
	}
	if me.Method == nqueens.Join && me.Workers > 1 {
		ways = append(ways, "use fewer workers with -j")
	}
	if me.Method == nqueens.Join {
		ways = append(ways, "--method sym")
	}
	if len(ways) > 1 {
		ways[len(ways)-1] = "or " + ways[len(ways)-1]
	}
	what := "the whole board"
	if me.Shards > 1 {
		what = fmt.Sprintf("a shard of %d", me.Shards)
	}
	on := fmt.Sprintf("%d workers", me.Workers)
	if me.Workers == 0 {
		on = "devices alone"
	}
	return fmt.Sprintf("--memory %s is too small for n = %d by %s (%s: %s tasks) with %s: it needs at least %s (%s)",
		humanize.IBytes(uint64(me.Limit)), me.N, me.Method, what, humanize.Comma(int64(me.Tasks)), on, humanize.IBytes(uint64(me.Need)), strings.Join(ways, ", "))
}
