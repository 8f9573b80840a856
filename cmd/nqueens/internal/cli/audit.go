package cli

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
)

// AuditFlags are --audit FRACTION (merge and status) with -j and
// --memory for its recounts.
type AuditFlags struct {
	fraction float64
	seed     uint64
	workers  int
	memory   string
}

// usage refuses the audit's flags without --audit, and a --memory that
// is no size, before any file is read.
func (a AuditFlags) usage(cmd *cobra.Command) error {
	if !cmd.Flags().Changed("audit") {
		if cmd.Flags().Changed("audit-seed") {
			return Usagef("--audit-seed repeats an audit: give --audit FRACTION too")
		}
		if cmd.Flags().Changed("memory") {
			return Usagef("--memory bounds an audit's recount: give --audit FRACTION too")
		}
		return nil
	}
	_, err := MemoryLimit(a.memory)
	return err
}

// Register adds the audit's flags to fs.
func (a *AuditFlags) Register(fs *pflag.FlagSet) {
	fs.Float64Var(&a.fraction, "audit", 0, "recount this fraction of the tasks found (0 to 1, e.g. 0.01), a sample drawn afresh, and refuse on any difference")
	fs.Uint64Var(&a.seed, "audit-seed", 0, "repeat the audit of this seed (printed by every audit) instead of drawing a fresh sample")
	WorkersFlag(fs, &a.workers)
	fs.StringVar(&a.memory, "memory", "", "memory the audit's recount may use, e.g. 1GiB (default: half of physical memory or of the cgroup's limit; the join's cache fills what it is given)")
}

// run audits the files if asked (reading them once for it), noting on
// stderr what was recounted.
func (a AuditFlags) run(cmd *cobra.Command, fs []nqueens.File) error {
	if !cmd.Flags().Changed("audit") {
		return nil
	}
	limit, err := MemoryLimit(a.memory)
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
			return Interrupted(cmd.Context(), "stopped while auditing")
		}
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "nqueens: audit: %d tasks recounted (--audit %v --audit-seed %d), all agree with the files\n", k, a.fraction, seed)
	return nil
}

// ReadFiles names the files at paths for the library, which opens them
// (a directory: the shard files and journals under it, ShardFiles),
// audits them as the flags ask, and reads them with read (nqueens.Merge
// or nqueens.Status), wording an interrupt.
func ReadFiles[T any](cmd *cobra.Command, paths []string, audit AuditFlags, read func(context.Context, ...nqueens.File) (T, error)) (T, error) {
	var zero T
	fs, err := ShardFiles(paths)
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
			return zero, Interrupted(cmd.Context(), "stopped while checking the files")
		}
		return zero, err
	}
	if err := audit.run(cmd, fs); err != nil {
		return zero, err
	}
	return v, nil
}
