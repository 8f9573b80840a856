package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/benchmark"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/machine"
	"github.com/nqueens/nqueens/internal/regular"
)

type benchFlags struct {
	quick    bool
	cell     time.Duration
	compare  string
	format   string
	csvFile  string
	plot     string
	workers  int
	device   string
	tuning   string
	progress cli.Progress
}

func benchCmd() *cobra.Command {
	var f benchFlags
	cmd := &cobra.Command{
		Use:     "bench",
		Short:   "Benchmark this machine with a standard, versioned workload",
		Long:    longHelp("bench"),
		Example: "  nqueens bench --quick\n  nqueens bench --format gobench > $(hostname).txt && benchstat a.txt b.txt\n  nqueens bench --csv results-bench.csv --plot speedup.svg",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("workers") {
				// The library's rule on workers, asked without a count.
				if _, err := nqueens.Estimate(cmd.Context(), 0, nqueens.WithWorkers(f.workers)); err != nil {
					return err
				}
			}
			if cmd.Flags().Changed("cell") && f.cell <= 0 {
				return cli.Usagef("invalid --cell %s (accepted: a positive duration, e.g. 500ms or 2s)", f.cell)
			}
			if err := cli.CheckChoice("format", f.format, benchmark.Formats); err != nil {
				return err
			}
			if f.plot != "" {
				if err := benchmark.CheckPlot(f.plot); err != nil {
					return cli.Usage(err)
				}
				if cli.OnDevice(f.device) {
					return cli.Usagef("--plot charts the speedup over CPU workers, and --device %s counts on the device alone: leave out one of them (the table, --csv and --format json hold the device's rows)", f.device)
				}
			}
			// Fail now, not after the benchmark, if the files cannot be
			// written: each must be a regular file (or none yet), and the
			// CSV file bench's own.
			if f.csvFile != "" {
				if err := benchmark.CheckCSV(f.csvFile); err != nil {
					return cli.FileFlag("csv", err)
				}
			}
			if f.plot != "" {
				fh, _, err := regular.OpenFile(f.plot, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
				if err != nil {
					return cli.FileFlag("plot", err)
				}
				fh.Close()
			}
			return runBench(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), f)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.quick, "quick", false, "run the quick workload (about 11 s on 2 cores) instead of the default (about 80 s)")
	fs.DurationVar(&f.cell, "cell", 0, "least time of a cell, each (n, method, workers) timing repeated until it lasts that long (default 0.5s with --quick, 2s)")
	fs.StringVar(&f.compare, "compare", "", "compare the scores with the rows of this bench --csv file (default: the reference rows built in)")
	fs.StringVarP(&f.format, "format", "f", "text", "output format: "+strings.Join(benchmark.Formats, ", "))
	fs.StringVar(&f.csvFile, "csv", "", "also append the rows to this CSV file (with a header if it is new)")
	fs.StringVar(&f.plot, "plot", "", "draw speedup and efficiency against workers to this .svg file (.png with a binary built with -tags plot)")
	cli.DeviceFlag(fs, &f.device)
	cli.DeviceTuningFlag(fs, &f.tuning)
	fs.IntVarP(&f.workers, "workers", "j", 0, "largest worker count to try (default: the CPUs this process may use, at most the logical cores cpuid detects)")
	f.progress.Register(fs)
	return cmd
}

func runBench(ctx context.Context, stdout, stderr io.Writer, f benchFlags) error {
	wl := benchmark.Default
	if f.quick {
		wl = benchmark.Quick
	}
	if f.cell > 0 {
		wl.MinCell = f.cell
	}
	refs, err := benchmark.References()
	if err != nil {
		return err
	}
	if f.compare != "" {
		b, err := regular.ReadAll(f.compare, maxCompare)
		if err != nil {
			return cli.FileFlag("compare", err)
		}
		if refs, err = benchmark.ReadReferences(bytes.NewReader(b)); err != nil {
			return fmt.Errorf("--compare %s: %w", f.compare, err) // a damaged file: exit 1
		}
	}
	load, loadKnown := benchmark.Load() // before bench's own work adds to it
	prog := f.progress.Start(stderr, func(p nqueens.Progress) string {
		return fmt.Sprintf("bench %s: n = %d %s", wl.Name, p.N, p.Method)
	})
	var rows []benchmark.Row
	if cli.OnDevice(f.device) {
		rows, err = benchmark.RunDevice(ctx, wl, f.device, f.tuning, prog.Update)
	} else {
		rows, err = benchmark.Run(ctx, wl, cmp.Or(f.workers, engine.DefaultWorkers()), prog.Update)
	}
	prog.Stop()
	var stopped *nqueens.StoppedError
	if errors.As(err, &stopped) {
		return cli.Interrupted(ctx, "bench stopped")
	} else if err != nil {
		return err
	}
	m := machine.Detect()
	warnings := benchmark.Warnings(rows, load, loadKnown, m.CPUs)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "nqueens: warning: %s\n", w)
	}
	if f.csvFile != "" {
		if err := benchmark.AppendCSV(f.csvFile, m, wl, rows); err != nil {
			return cli.FileFlag("csv", err)
		}
	}
	if f.plot != "" {
		if err := benchmark.Plot(f.plot, m, wl, rows, warnings); err != nil {
			return cli.FileFlag("plot", err)
		}
	}
	if err := benchmark.Write(stdout, f.format, m, wl, rows, refs); err != nil {
		return fmt.Errorf("writing the benchmark: %w", err)
	}
	return nil
}

// maxCompare bounds a --compare file: bench --csv writes about 150 bytes a
// row, so 16 MiB is a hundred thousand rows.
const maxCompare = 16 << 20
