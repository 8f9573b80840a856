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
		Use:   "plan N",
		Short: "Say what counting the N×N board will cost, before it starts",
		Long: `plan describes the count that 'nqueens count N' with the same flags would
run, without counting: the plan's tasks and fingerprint, how the tasks
fall into --shards M shards (the split --shard I/M counts), the memory the
largest shard (or the whole board) needs on -j workers, and the time it
will take on this machine: core-hours with a 95% interval, and the wall
time on -j workers (and per shard). It walks the plan twice and holds none
of it (n = 27 by join, 70 million tasks: about 13 s and 11 MB here).

The time comes from a sample: --sample DURATION (default 2s, a
calibration) counts a random sample of the tasks on one worker for about
that long (at least one task) and estimates the core-seconds of the
whole board on this machine, with a 95% interval from the sample's
spread (a 2 s calibration is rough from n = 24 on, its interval says how
rough: --sample 5m gives a closer figure; --sample 0 skips it); the sample depends only on the plan, so every machine counts the
same tasks. Tasks too long to sample a few hundred of (the join's from n =
24 on) are counted in parts: every k-th placement of the east half's north
quarter (from n = 28, every k-th way of a task's two middle queens
first), k picked so that a part takes about 1/800 of the sample, and the
whole task's time estimated from the part's; the interval then also holds
the parts' model error (±15%) and the host's own speed (±10%). Measured against real counts and whole tasks
in docs/performance.md. On Linux the sample is timed by its thread's CPU
time, so other work on the machine does not inflate it (n = 21 beside a
count on every core: 885 core-seconds, 8,100 by the wall clock, 768
counted); elsewhere by the wall clock: take it on an idle machine there.
A slow or shared host still slows the sample's own work.

--json prints one object: n, method, tasks, estimated_work (a decimal
string, in the planner's units), plan (the fingerprint), shards,
tasks_per_shard_min/_mean/_max, empty_shards, workers, memory_per_shard
and memory_per_worker (bytes), and with a sample sampled_tasks,
sampled_in_parts and max_thinning (the k above; absent when every task was
whole), sample_seconds, estimated_core_seconds, its _low and _high bounds
and estimated_core_seconds_per_shard.

--device opencl (or opencl:N, opencl:all, all) also estimates the time on
the device, fed by this machine's cores: after the sample, tasks of the
same sample (of n = 21 for larger boards) are counted on one worker and on
the device in turn, in chunks that double, for about --sample each; the
largest chunk's ratio scales the core-seconds (device_seconds, its _low and _high bounds,
device_sampled_tasks, device_board, devices in --json). The ratio of n =
21 stands in for larger boards: a device's advantage over a core grows
with n where matching takes a larger share, so the figure leans high.`,
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
			if device != "" && device != "cpu" {
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
					return cli.Rename(cli.Word(err, true), map[string]string{"WithShard": fmt.Sprintf("--shards %d", shards)})
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
