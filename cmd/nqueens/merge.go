package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/partition"
)

func mergeCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Combine shard result files and journals into the final count",
		Long: `merge reads shard result files (count --out) and checkpoint journals
(count --checkpoint) of one count, in any order, and prints the total as
count does (--json too). It first checks that every file belongs to the
same plan (n, method, placed queens and the plan's fingerprint), that every
line's checksum is right, that no task is counted twice with different
counts (identical duplicates are reported and accepted), and that every
task of the plan is present (it lists the shards that are missing).
Any failed check is exit 1 and no count is printed.`,
		Example: "  nqueens merge shard*.result\n  nqueens merge --json n20-*.result n20-7.journal",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("merge takes one or more shard files or journals (see --help)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd.OutOrStdout(), cmd.ErrOrStderr(), args, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the total alone")
	return cmd
}

type mergeSource struct {
	path string
	file *resultfile.File
}

func runMerge(stdout, stderr io.Writer, paths []string, asJSON bool) error {
	var srcs []mergeSource
	for _, p := range paths {
		fh, err := os.Open(p)
		if err != nil {
			return failf("%v", err)
		}
		f, err := resultfile.Read(fh)
		fh.Close()
		if err != nil {
			return failf("%s: %v", p, err)
		}
		if f.Torn {
			fmt.Fprintf(stderr, "nqueens: note: %s: the journal's last record was incomplete and is ignored\n", p)
		}
		srcs = append(srcs, mergeSource{p, f})
	}
	first := srcs[0].file.Header
	for _, s := range srcs[1:] {
		h := s.file.Header
		if h.N != first.N || h.Method != first.Method || h.Placed != first.Placed || h.Plan != first.Plan {
			return failf("%s is for n=%d method=%s placed=%s plan=%s, but %s is for n=%d method=%s placed=%s plan=%s: they are not pieces of one count",
				s.path, h.N, h.Method, h.Placed, h.Plan, srcs[0].path, first.N, first.Method, first.Placed, first.Plan)
		}
	}
	// Rebuild the plan, so that every task is known and the fingerprint
	// proves the files were made by the same planning rules.
	method, err := partition.ParseMethod(first.Method)
	if err != nil {
		return failf("%s: %v", srcs[0].path, err)
	}
	var placed []partition.Square
	if first.Placed != "-" {
		if placed, err = partition.ParseSquares(first.Placed); err != nil {
			return failf("%s: %v", srcs[0].path, err)
		}
	}
	plan, err := partition.Make(partition.Job{N: first.N, Method: method, Placed: placed})
	if err != nil {
		return failf("%s: %v", srcs[0].path, err)
	}
	if fp := plan.Fingerprint(); fp != first.Plan {
		return failf("the files' plan %s is not this version's plan %s for n=%d method=%s (made by nqueens %s; merge with that version)",
			first.Plan, fp, first.N, first.Method, first.Tool)
	}
	index := make(map[string]int, len(plan.Tasks))
	for i, t := range plan.Tasks {
		index[t.ID] = i
	}
	got := make([]*resultfile.Record, len(plan.Tasks))
	from := make([]string, len(plan.Tasks))
	dups := 0
	for _, s := range srcs {
		for _, r := range s.file.Records {
			i, ok := index[r.ID]
			if !ok {
				return failf("%s: task %q is not in the plan", s.path, r.ID)
			}
			if got[i] != nil {
				if *got[i] != r {
					return failf("task %s has different counts in %s (total %d) and %s (total %d)", r.ID, from[i], got[i].Total, s.path, r.Total)
				}
				dups++
				if dups <= 3 {
					fmt.Fprintf(stderr, "nqueens: note: task %s appears in %s and %s with identical counts\n", r.ID, from[i], s.path)
				}
				continue
			}
			rec := r
			got[i], from[i] = &rec, s.path
		}
	}
	if dups > 3 {
		fmt.Fprintf(stderr, "nqueens: note: %d duplicate tasks in all, all identical\n", dups)
	}
	var missing []int
	for i, r := range got {
		if r == nil {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return failf("%s", describeMissing(plan, srcs, missing))
	}
	var c engine.Counts
	for _, r := range got {
		c.Add(resultOf(*r))
	}
	if err := finishCounts(plan, &c); err != nil {
		return err
	}
	rep := countReportOf(plan, c)
	rep.Files = paths
	if asJSON {
		return json.NewEncoder(stdout).Encode(rep)
	}
	_, err = fmt.Fprintln(stdout, rep.Total)
	return err
}

// describeMissing says which tasks, and which shards, are missing.
func describeMissing(plan *partition.Plan, srcs []mergeSource, missing []int) string {
	var ids []string
	for _, i := range missing[:min(3, len(missing))] {
		ids = append(ids, plan.Tasks[i].ID)
	}
	msg := fmt.Sprintf("%d of %d tasks are missing (e.g. %s)", len(missing), len(plan.Tasks), strings.Join(ids, ", "))
	m := srcs[0].file.Header.Shards
	if m > 1 {
		shardOf := plan.Shards(m)
		var gone []int
		for _, i := range missing {
			if !slices.Contains(gone, shardOf[i]) {
				gone = append(gone, shardOf[i])
			}
		}
		slices.Sort(gone)
		names := make([]string, len(gone))
		for k, s := range gone {
			names[k] = strconv.Itoa(s)
		}
		msg += fmt.Sprintf("; missing or incomplete shards of %d: %s", m, strings.Join(names, ", "))
	}
	return msg
}
