package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/progress"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/internal/msg"
)

type countFlags struct {
	cli.Counting
	place      string
	json       bool
	verify     bool
	checkpoint string
	shard      string
	shards     int
	out        string
	dir        string
	grace      time.Duration
	device     string
	tuning     string
	progress   cli.Progress
}

func countCmd() *cobra.Command {
	var f countFlags
	cmd := &cobra.Command{
		Use:     "count N",
		Short:   "Count the solutions of the N×N board",
		Long:    longHelp("count"),
		Example: "  nqueens count 8\n  nqueens count 16 --json -j 4\n  nqueens count 14 --verify\n  nqueens count 16 --method sym --json\n  nqueens count 19 --memory 2GiB\n  nqueens count 10 --place 0:1,3:2\n  nqueens count 14 --piece superqueen\n  nqueens count 13 --torus\n  nqueens count 18 --device opencl\n  nqueens count 20 --checkpoint n20.journal\n  nqueens count 20 --shard 3/8 --out shard3.result",
		Args:    cli.ExactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cli.CheckEmpty(cmd, "place", "shard", "memory", "checkpoint", "out", "dir", "piece"); err != nil {
				return err
			}
			if cmd.Flags().Changed("shards") && f.shards < 1 {
				// 0 is the flag's "not given"; given, it must name a split.
				return cli.Usagef("--shards must be at least 1, got %d (accepted: the Job's completions, 1 or more)", f.shards)
			}
			n, placed, err := cli.Board(args[0], f.place, f.Pieces.Queens(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			opts, err := f.Options(cmd.Flags(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			return runCount(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), n, opts, placed, f)
		},
	}
	fs := cmd.Flags()
	f.Register(fs, "counting method: auto, join, sym or mirror")
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of the total alone")
	fs.BoolVar(&f.verify, "verify", false, "count again with a second, independent method and fail (exit 1) if they disagree")
	cli.PlaceFlag(fs, &f.place)
	fs.StringVar(&f.checkpoint, "checkpoint", "", "journal finished tasks to this file and resume from it")
	fs.StringVar(&f.shard, "shard", "", "count only shard I of M (I/M, 0-based)")
	fs.IntVar(&f.shards, "shards", 0, "number of shards when JOB_COMPLETION_INDEX (Kubernetes Indexed Job) selects the shard")
	fs.StringVar(&f.out, "out", "", "write this run's per-task counts to a shard result file for 'nqueens merge'")
	fs.StringVar(&f.dir, "dir", "", "keep each shard's shard file and journal in this directory (DIR/DDD/shardI.result), skipping shards counted before; with --shard A-B/M, count that range")
	cli.DeviceFlag(fs, &f.device)
	cli.DeviceTuningFlag(fs, &f.tuning)
	fs.DurationVar(&f.grace, "grace", nqueens.DefaultGrace, "after a stop signal, how long running tasks may finish before they are abandoned")
	f.progress.Register(fs)
	return cmd
}

func runCount(ctx context.Context, stdout, stderr io.Writer, n int, common cli.Opts, placed []nqueens.Square, f countFlags) error {
	shard, last, shards, from, err := cli.Shard(f.shard, f.shards, os.Getenv)
	if err != nil {
		return err
	}
	if f.dir != "" {
		switch {
		case f.out != "" || f.checkpoint != "":
			return cli.Usagef("--dir names each shard's files (DIR/DDD/shardI.result and its journal): leave out --out and --checkpoint")
		case f.verify:
			return cli.Usagef("--verify counts the whole board twice: it does not work with --dir (count the board without it)")
		}
		if st, err := os.Stat(f.dir); err == nil && !st.IsDir() {
			return cli.Usagef("--dir %s is not a directory (accepted: a directory, made where missing)", msg.Quote(f.dir))
		}
	} else if last > shard {
		return cli.Usagef("--shard %s names %d shards: a range counts each into its own files, in --dir DIR", f.shard, last-shard+1)
	}
	if from != "" {
		fmt.Fprintf(stderr, "nqueens: shard %d/%d from %s\n", shard, shards, from)
	}
	if !f.progress.Quiet && !cli.OnDevice(f.device) {
		cli.SayIfLong(ctx, stderr, n, common.Estimate(placed), shard, last, shards)
	}
	grace, stopNow, device, tuning := nqueens.WithGrace(f.grace), nqueens.WithStopNow(cli.StopNow(ctx)), nqueens.WithDevice(f.device), nqueens.WithDeviceTuning(f.tuning)
	if f.dir != "" {
		return countShards(ctx, stdout, stderr, n, append(common.Shards(placed), grace, stopNow, device, tuning), f, shard, last, shards)
	}
	opts := append(common.Count(placed), grace, stopNow, device, tuning)
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
	prog := f.progress.Start(stderr, func(p nqueens.Progress) string {
		if shards > 1 {
			return fmt.Sprintf("count %d%s (%s) shard %d/%d", p.N, f.Pieces.Label(), p.Method, shard, shards)
		}
		return fmt.Sprintf("count %d%s (%s)", p.N, f.Pieces.Label(), p.Method)
	})
	c, err := nqueens.Count(ctx, n, append(opts, nqueens.WithProgress(prog.Count(stderr, f.checkpoint)))...)
	prog.Stop()
	if err != nil {
		return countError(ctx, err, n, false)
	}

	return printCount(stdout, stderr, c, f, cmp.Or(f.out, f.checkpoint))
}

// countError words a count's error for the command: its files by --dir
// where dir is set, else by --checkpoint and --out.
func countError(ctx context.Context, err error, n int, dir bool) error {
	var stopped *nqueens.StoppedError
	switch {
	case ctx.Err() != nil && !errors.As(err, &stopped):
		return fmt.Errorf("%w; no count printed", cli.Interrupted(ctx, fmt.Sprintf("stopped while planning n = %d", n)))
	case dir:
		return cli.WordDir(err, true)
	}
	return cli.StopHint(cli.Word(err, true), "--checkpoint FILE keeps the tasks done across stops")
}

// printCount prints a count's notes and counts: the total on stdout (a
// JSON object with --json), or for a shard, whose total is not the
// answer, where its counts went (to saved) on stderr, and whether they
// were counted now or read back from a shard file counted before.
func printCount(stdout, stderr io.Writer, c nqueens.Counts, f countFlags, saved string) error {
	for _, note := range c.Notes {
		fmt.Fprintf(stderr, "nqueens: note: %s\n", note)
	}
	if c.CheckedBy != "" && !f.json && !f.progress.Quiet {
		fmt.Fprintf(stderr, "nqueens: verified: counted again by %s, with the same counts\n", c.CheckedBy)
	}
	if f.json {
		return report.WriteJSON(stdout, report.Of(c))
	}
	if c.Partial() {
		how := "counted"
		if c.ReadBack {
			how = "counted before"
		}
		fmt.Fprintf(stderr, "nqueens: shard %d/%d of n = %d %s (%d tasks, partial total %s) and saved in %s; merge all shards with 'nqueens merge'\n",
			c.Shard, c.Shards, c.N, how, c.Tasks, c.Total, saved)
		return nil
	}
	return writeLine(stdout, c.Total.String())
}

// countShards counts shards first..last of shards into --dir, one after
// another, each with its own progress display, and prints each as it is
// done.
func countShards(ctx context.Context, stdout, stderr io.Writer, n int, opts []nqueens.ShardsOption, f countFlags, first, last, shards int) error {
	var prog *progress.Display
	var update func(nqueens.Progress)
	start := func(i int) {
		prog = f.progress.Start(stderr, func(p nqueens.Progress) string {
			return fmt.Sprintf("count %d%s (%s) shard %d/%d", p.N, f.Pieces.Label(), p.Method, i, shards)
		})
		_, journal, _ := nqueens.ShardPaths(f.dir, i, shards) // a shard of the range, which the library checked
		update = prog.Count(stderr, journal)
	}
	start(first)
	opts = append(opts, nqueens.WithProgress(func(p nqueens.Progress) { update(p) }))
	for c, err := range nqueens.CountShards(ctx, n, f.dir, first, last, shards, opts...) {
		prog.Stop()
		if err != nil {
			return countError(ctx, err, n, true)
		}
		result, _, _ := nqueens.ShardPaths(f.dir, c.Shard, shards) // the shard just counted
		if err := printCount(stdout, stderr, c, f, result); err != nil {
			return err
		}
		if c.Shard < last {
			start(c.Shard + 1)
		}
	}
	return nil
}

// writeLine writes s and a newline.
func writeLine(w io.Writer, s string) error {
	if _, err := fmt.Fprintln(w, s); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	return nil
}
