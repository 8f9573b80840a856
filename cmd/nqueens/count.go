package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/partition"
)

type countFlags struct {
	place    string
	method   string
	workers  int
	json     bool
	verify   bool
	progress progressFlags
	placed   []partition.Square
}

func countCmd() *cobra.Command {
	var f countFlags
	cmd := &cobra.Command{
		Use:   "count N",
		Short: "Count the solutions of the N×N board",
		Long: fmt.Sprintf(`count prints the number of solutions of the N×N board (N = 0..%d) alone on
stdout; --json prints a JSON object with the unique and symmetric counts,
nodes, timing and workers as well (counts as exact decimal strings).

Methods:
  sym     full symmetry of the square (default): one representative per
          class of solutions, half the nodes of mirror; also gives the unique,
          point-symmetric and rot90-symmetric counts
  mirror  left-right mirror only: half the search; the total alone

--place counts the solutions that hold the given queens (mirror method;
halved only when the placement is its own mirror image). Queens that attack
each other along a diagonal give 0, with a note on stderr.`, partition.MaxN),
		Example: "  nqueens count 8\n  nqueens count 16 --json -j 4\n  nqueens count 14 --verify\n  nqueens count 10 --place 0:1,3:2",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseN(args[0])
			if err != nil {
				return err
			}
			if err := checkWorkers(cmd, f.workers); err != nil {
				return err
			}
			placed, err := parsePlacement(f.place, n)
			if err != nil {
				return err
			}
			if placed != nil {
				if cmd.Flags().Changed("method") && f.method != string(partition.Mirror) {
					return fmt.Errorf("--place works with --method mirror only (the default with --place)")
				}
				f.method = string(partition.Mirror)
				noteConflict(cmd.ErrOrStderr(), placed)
			}
			f.placed = placed
			return runCount(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), n, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.method, "method", "m", string(partition.Methods[0]), "counting method: sym or mirror")
	workersFlag(fs, &f.workers)
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of the total alone")
	fs.BoolVar(&f.verify, "verify", false, "count again with a second, independent method and fail (exit 1) if they disagree")
	placeFlag(fs, &f.place)
	f.progress.register(fs)
	return cmd
}

// countReport is the --json output of count.
type countReport struct {
	N          int      `json:"n"`
	Method     string   `json:"method"`
	Workers    int      `json:"workers"`
	Total      string   `json:"total"`
	Unique     string   `json:"unique,omitempty"`
	PointSym   string   `json:"point_symmetric,omitempty"`
	Rot90Sym   string   `json:"rot90_symmetric,omitempty"`
	Nodes      string   `json:"nodes"`
	Tasks      int      `json:"tasks"`
	Placed     []string `json:"placed,omitempty"`
	Seconds    float64  `json:"seconds"`
	VerifiedBy string   `json:"verified_by,omitempty"`
}

func runCount(ctx context.Context, stdout, stderr io.Writer, n int, f countFlags) error {
	method, err := partition.ParseMethod(f.method)
	if err != nil {
		return err
	}
	workers := f.workers
	if workers == 0 {
		workers = engine.DefaultWorkers()
	}
	start := time.Now()
	plan, c, err := count(ctx, n, method, f.placed, workers, f.progress, stderr)
	if err != nil {
		return err
	}
	seconds := time.Since(start).Seconds()
	rep := countReport{
		N: n, Method: string(method), Workers: workers,
		Total: c.Total.String(), Nodes: c.Nodes.String(), Tasks: len(plan.Tasks), Seconds: seconds,
	}
	for _, q := range f.placed {
		rep.Placed = append(rep.Placed, q.String())
	}
	if plan.Classes() {
		rep.Unique, rep.PointSym, rep.Rot90Sym = c.Unique.String(), c.PointSym.String(), c.Rot90Sym.String()
	}
	if f.verify {
		other := partition.Mirror
		if method == partition.Mirror {
			other = partition.Sym
		}
		if f.placed != nil {
			return fmt.Errorf("--verify does not work with --place: sym cannot take placed queens")
		}
		_, c2, err := count(ctx, n, other, nil, workers, f.progress, stderr)
		if err != nil {
			return err
		}
		if c2.Total != c.Total {
			return failf("verification failed for n = %d: %s counted %s, %s counted %s", n, method, c.Total, other, c2.Total)
		}
		rep.VerifiedBy = string(other)
		rep.Seconds = time.Since(start).Seconds()
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		return enc.Encode(rep)
	}
	_, err = fmt.Fprintln(stdout, rep.Total)
	return err
}

// count plans and runs one count, showing progress on stderr as pf asks.
func count(ctx context.Context, n int, method partition.Method, placed []partition.Square, workers int, pf progressFlags, stderr io.Writer) (*partition.Plan, engine.Counts, error) {
	plan, err := partition.Make(partition.Job{N: n, Method: method, Placed: placed})
	if err != nil {
		return nil, engine.Counts{}, err
	}
	prog := pf.start(stderr, fmt.Sprintf("count %d (%s)", n, method), totalCost(plan))
	c, err := engine.Run(ctx, n, plan.Tasks, engine.Options{Workers: workers, OnResult: prog.taskDone(plan)})
	prog.stop()
	if err != nil {
		if ctx.Err() != nil {
			return nil, c, interrupted(ctx, fmt.Sprintf("stopped after %d of %d tasks", c.Tasks, len(plan.Tasks)))
		}
		return nil, c, &failure{err: err}
	}
	return plan, c, nil
}
