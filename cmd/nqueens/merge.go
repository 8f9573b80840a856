package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
)

func mergeCmd() *cobra.Command {
	var asJSON bool
	var audit auditFlag
	cmd := &cobra.Command{
		Use:   "merge FILE|DIR...",
		Short: "Combine shard result files and journals into the final count",
		Long: `merge reads shard result files (count --out) and checkpoint journals
(count --checkpoint) of one count, in any order (a directory: every
*.result and *.journal file under it, at any depth), and prints the total
as count does (--json too). It first checks that every file belongs to the
same plan (n, method, placed queens and the plan's fingerprint), that every
line's checksum is right, that no task is counted twice with different
counts (identical duplicates are reported and accepted), and that every
task of the plan is present (it lists the shards that are missing).
Any failed check is exit 1 and no count is printed.

--audit FRACTION recounts a random sample of the tasks the files hold
(each with chance FRACTION, 0 to 1: 1 recounts every task, 0.01 about one
in a hundred) and refuses, naming the task and its file, if any recount
differs. The sample is drawn afresh at every audit from the system's
randomness, so whoever wrote the files cannot know which tasks it will
skip: a forged or miscounted line survives it only if the sample misses it
(chance 1 - FRACTION per line). The seed is printed; --audit-seed SEED
repeats that audit exactly (the same tasks on every machine).`,
		Example: "  nqueens merge shard*.result\n  nqueens merge n28-join/\n  nqueens merge --json n20-*.result n20-7.journal\n  nqueens merge --audit 0.01 n22-*.result",
		Args:    cli.MinArgs("merge takes one or more shard files or journals (see --help)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := readFiles(cmd, args, audit, nqueens.Merge)
			if err != nil {
				return err
			}
			for _, note := range c.Notes {
				fmt.Fprintf(cmd.ErrOrStderr(), "nqueens: note: %s\n", note)
			}
			if asJSON {
				rep := report.Of(c)
				rep.Files = args
				return report.WriteJSON(cmd.OutOrStdout(), rep)
			}
			return writeLine(cmd.OutOrStdout(), c.Total.String())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the total alone")
	audit.register(cmd.Flags())
	return cmd
}

// auditFlag is --audit FRACTION (merge and status) with -j for its
// recounts.
type auditFlag struct {
	fraction float64
	seed     uint64
	workers  int
	memory   string
}

// usage refuses the audit's flags without --audit, and a --memory that
// is no size, before any file is read.
func (a auditFlag) usage(cmd *cobra.Command) error {
	if !cmd.Flags().Changed("audit") {
		if cmd.Flags().Changed("audit-seed") {
			return cli.Usagef("--audit-seed repeats an audit: give --audit FRACTION too")
		}
		if cmd.Flags().Changed("memory") {
			return cli.Usagef("--memory bounds an audit's recount: give --audit FRACTION too")
		}
		return nil
	}
	_, err := cli.MemoryLimit(a.memory)
	return err
}

func (a *auditFlag) register(fs *pflag.FlagSet) {
	fs.Float64Var(&a.fraction, "audit", 0, "recount this fraction of the tasks found (0 to 1, e.g. 0.01), a sample drawn afresh, and refuse on any difference")
	fs.Uint64Var(&a.seed, "audit-seed", 0, "repeat the audit of this seed (printed by every audit) instead of drawing a fresh sample")
	cli.WorkersFlag(fs, &a.workers)
	fs.StringVar(&a.memory, "memory", "", "memory the audit's recount may use, e.g. 1GiB (default: half of physical memory or of the cgroup's limit; the join's cache fills what it is given)")
}

// run audits the files if asked (reading them once for it), noting on
// stderr what was recounted.
func (a auditFlag) run(cmd *cobra.Command, fs []nqueens.File) error {
	if !cmd.Flags().Changed("audit") {
		return nil
	}
	limit, err := cli.MemoryLimit(a.memory)
	if err != nil {
		return err
	}
	opts := []nqueens.AuditOption{nqueens.WithMemory(limit)}
	if cmd.Flags().Changed("workers") {
		opts = append(opts, nqueens.WithWorkers(a.workers))
	}
	seed := a.seed
	if !cmd.Flags().Changed("audit-seed") {
		var b [8]byte
		rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	k, err := nqueens.Audit(cmd.Context(), a.fraction, seed, fs, opts...)
	if err != nil {
		if cmd.Context().Err() != nil {
			return cli.Interrupted(cmd.Context(), "stopped while auditing")
		}
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "nqueens: audit: %d tasks recounted (--audit %v --audit-seed %d), all agree with the files\n", k, a.fraction, seed)
	return nil
}

// readFiles names the files at paths for the library, which opens them
// (a directory: the shard files and journals under it, cli.ShardFiles),
// audits them as the flags ask, and reads them with read (nqueens.Merge
// or nqueens.Status), wording an interrupt.
func readFiles[T any](cmd *cobra.Command, paths []string, audit auditFlag, read func(context.Context, ...nqueens.File) (T, error)) (T, error) {
	var zero T
	fs, err := cli.ShardFiles(paths)
	if err != nil {
		return zero, err
	}
	if err := audit.usage(cmd); err != nil {
		return zero, err
	}
	// The files are checked (every shard there, for merge) before any
	// task is recounted: a missing shard is named at once, not after the
	// audit's hours.
	v, err := read(cmd.Context(), fs...)
	if err != nil {
		if cmd.Context().Err() != nil {
			return zero, cli.Interrupted(cmd.Context(), "stopped while checking the files")
		}
		return zero, err
	}
	if err := audit.run(cmd, fs); err != nil {
		return zero, err
	}
	return v, nil
}
