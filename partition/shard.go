package partition

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/msg"
)

// Fingerprint identifies the plan: a hash of the planning rules' version,
// n, method, placed queens, the pieces and every task's ID, kind, weight
// and cost estimate (which decides its shard), over the whole plan even
// when the plan holds one shard. Checkpoints, shard files and merges
// compare fingerprints so that pieces of different plans are never mixed.
func (p *Plan) Fingerprint() string {
	if p.fingerprint == "" {
		// A plan made by hand: its tasks are the whole plan.
		f := newFingerprinter(p)
		for i := range p.Tasks {
			f.add(&p.Tasks[i], "")
		}
		p.fingerprint = f.sum()
	}
	return p.fingerprint
}

// IsShards reports whether shards first to last of m exist: 0 ≤ first ≤
// last < m. It is the one rule every caller checks a shard or a range of
// shards by (a shard I is the range I to I), and [ShardsAccepted] and
// [ShardAccepted] say it in messages.
func IsShards(first, last, m int) bool {
	return m >= 1 && first >= 0 && first <= last && last < m
}

// ShardAccepted, RangeAccepted and ShardsAccepted are what a message says
// is accepted as a shard, a range of shards, and either (as --shard takes
// them): the rule of [IsShards].
const (
	ShardAccepted  = "I/M with 0 ≤ I < M"
	RangeAccepted  = "A-B/M with 0 ≤ A ≤ B < M"
	ShardsAccepted = ShardAccepted + ", e.g. 0/8, or a range A-B/M with A ≤ B, e.g. 0-99/1000"
)

// ParseShards parses "I/M" (shard I, 0-based, of M) or "A-B/M" (shards
// A to B of M, inclusive): the first and last shard, and M.
func ParseShards(s string) (first, last, m int, err error) {
	a, b, ok := strings.Cut(s, "/")
	lo, hi, isRange := strings.Cut(a, "-")
	first, err1 := strconv.Atoi(lo)
	last, err2 := first, error(nil)
	if isRange {
		last, err2 = strconv.Atoi(hi)
	}
	m, err3 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || err3 != nil || lo == "" || !IsShards(first, last, m) {
		return 0, 0, 0, fmt.Errorf("%w: %s (accepted: %s)", ErrShard, msg.Quote(s), ShardsAccepted)
	}
	return first, last, m, nil
}

// parseShard parses "I/M": shard I (0-based) of M.
func parseShard(s string) (i, m int, err error) {
	first, last, m, err := ParseShards(s)
	if err != nil || first != last {
		return 0, 0, fmt.Errorf("%w: %s (accepted: %s, e.g. 0/8)", ErrShard, msg.Quote(s), ShardAccepted)
	}
	return first, m, nil
}

// Split returns, for each of the whole plan's tasks, its shard of m: the
// split [MakeShard] makes, contiguous ranges of the plan order of about
// equal estimated cost (each task goes to the shard whose share of the
// total holds its midpoint). It depends only on the plan and m, so every
// machine computes the same one; shards may be empty when m is near or
// above the number of tasks. m below 1, or a plan holding one shard, is
// [ErrShard].
func (p *Plan) Split(m int) ([]int, error) {
	if err := checkShards(m, len(p.Tasks)); err != nil {
		return nil, err
	}
	if p.Shards > 1 {
		return nil, fmt.Errorf("%w: the plan holds shard %d of %d only", ErrShard, p.Shard, p.Shards)
	}
	total := p.Cost()
	shard := make([]int, len(p.Tasks))
	var before uint64
	for i := range p.Tasks {
		shard[i] = shardOf(before, p.Tasks[i].Cost, total, m)
		before += p.Tasks[i].Cost
	}
	return shard, nil
}
