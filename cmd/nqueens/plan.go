package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/partition"
)

func planCmd() *cobra.Command {
	var (
		counting cli.Counting
		place    string
		shards   int
		asJSON   bool
		sample   time.Duration
		device   string
		tuning   string
	)
	cmd := &cobra.Command{
		Use:     "plan N",
		Short:   "Say what counting the N×N board will cost, before it starts",
		Long:    longHelp("plan"),
		Example: "  nqueens plan 27 --shards 100000\n  nqueens plan 21 --sample 10s\n  nqueens plan 25 --shards 4096 --sample 30s --json\n  nqueens plan 30 --method sym -j 64\n  nqueens plan 28 --device opencl --sample 30s",
		Args:    cli.ExactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cli.CheckEmpty(cmd, "place", "memory", "piece"); err != nil {
				return err
			}
			n, placed, err := cli.Board(args[0], place, false, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			common, err := counting.Options(cmd.Flags(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			// The tuning is checked with or without a device, as count
			// checks it.
			opts := append(common.Estimate(placed), nqueens.WithShard(0, shards, nil), nqueens.WithSample(sample), nqueens.WithDeviceTuning(tuning))
			if cli.OnDevice(device) {
				opts = append(opts, nqueens.WithDevice(device))
			}
			e, err := cli.Patiently(cmd.Context(), cmd.ErrOrStderr(), n, opts, "planning", func() (nqueens.Cost, error) {
				return nqueens.Estimate(cmd.Context(), n, opts...)
			})
			write := func() error {
				if asJSON {
					return report.WriteJSON(cmd.OutOrStdout(), report.PlanOf(e))
				}
				return report.WritePlan(cmd.OutOrStdout(), e, sample)
			}
			if err != nil {
				if cmd.Context().Err() == nil {
					if errors.Is(err, partition.ErrShard) {
						return cli.Usagef("--shards %d: %w", shards, err)
					}
					return cli.Rename(cli.Word(err, true), map[string]string{cli.OptionName(nqueens.WithShard): fmt.Sprintf("--shards %d", shards)})
				}
				if e.Tasks == 0 {
					return fmt.Errorf("%w; no plan printed", cli.Interrupted(cmd.Context(), fmt.Sprintf("stopped while planning n = %d", n)))
				}
				if werr := write(); werr != nil {
					return werr
				}
				return fmt.Errorf("%w; the plan is printed without its time", cli.Interrupted(cmd.Context(), fmt.Sprintf("stopped while sampling n = %d", n)))
			}
			return write()
		},
	}
	fs := cmd.Flags()
	counting.Register(fs, "counting method: auto, join, sym or mirror")
	fs.IntVar(&shards, "shards", 1, "describe the split into this many shards")
	fs.DurationVar(&sample, "sample", 2*time.Second, "count a random sample of tasks for about this long on one worker and estimate the core-hours (2s: a calibration; 5m: a closer figure; 0: none)")
	fs.BoolVar(&asJSON, "json", false, "print one JSON object")
	cli.PlaceFlag(fs, &place)
	cli.DeviceFlag(fs, &device)
	cli.DeviceTuningFlag(fs, &tuning)
	return cmd
}
