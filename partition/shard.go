package partition

import (
	"container/heap"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/msg"
)

// Fingerprint identifies the plan: a hash of the planning rules' version, n,
// method, placed queens, the pieces (other than queens) and every task's
// ID, kind and weight. Checkpoints,
// shard files and merges compare fingerprints so that pieces of different
// plans are never mixed.
func (p *Plan) Fingerprint() string {
	h := sha256.New()
	var buf [8]byte
	put := func(x uint64) {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	put(Version)
	put(uint64(p.N))
	h.Write([]byte(p.Method))
	h.Write([]byte{0})
	h.Write([]byte(PlacedString(p.Placed)))
	h.Write([]byte{0})
	if !p.Rules().Queen() {
		// Other pieces (queen plans keep the fingerprints they had).
		h.Write([]byte(BoardName(p.Piece, p.Torus)))
		h.Write([]byte{0})
	}
	put(uint64(len(p.Tasks)))
	for _, t := range p.Tasks {
		h.Write([]byte(t.ID))
		h.Write([]byte{0, byte(t.Kind)})
		put(t.Weight)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// PlacedString writes placed queens as ParseSquares reads them, or "-" for
// none.
func PlacedString(placed []Square) string {
	if len(placed) == 0 {
		return "-"
	}
	parts := make([]string, len(placed))
	for i, q := range placed {
		parts[i] = q.String()
	}
	return strings.Join(parts, ",")
}

// ErrShard is returned for a shard outside 0..M-1 or a count M below 1.
var ErrShard = errors.New("partition: bad shard")

// ParseShard parses "I/M": shard I (0-based) of M.
func ParseShard(s string) (i, m int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	m, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%w: %s (accepted: I/M with 0 ≤ I < M, e.g. 0/8)", ErrShard, msg.Quote(s))
	}
	if m < 1 || i < 0 || i >= m {
		return 0, 0, fmt.Errorf("%w: %s (accepted: I/M with 0 ≤ I < M, e.g. 0/8)", ErrShard, msg.Quote(s))
	}
	return i, m, nil
}

// Shards splits the plan's tasks into m shards of about equal estimated
// cost: tasks are taken from the most to the least costly (ties by index)
// and each goes to the shard with the least cost so far (ties to the lower
// shard). It returns, for each task, its shard. The split depends only on
// the plan and m, so every machine computes the same one; shards may be
// empty when m exceeds the number of tasks. m below 1 is [ErrShard].
func (p *Plan) Shards(m int) ([]int, error) {
	if m < 1 {
		return nil, fmt.Errorf("%w: %d shards (accepted: at least 1)", ErrShard, m)
	}
	order := make([]int, len(p.Tasks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return p.Tasks[order[a]].Cost > p.Tasks[order[b]].Cost })
	h := make(shardHeap, m)
	for s := range h {
		h[s].index = s
	}
	shard := make([]int, len(p.Tasks))
	for _, i := range order {
		shard[i] = h[0].index
		h[0].load += p.Tasks[i].Cost
		heap.Fix(&h, 0)
	}
	return shard, nil
}

// shardHeap orders shards by load, then index: its top takes the next task.
type shardHeap []struct {
	load  uint64
	index int
}

func (h shardHeap) Len() int { return len(h) }
func (h shardHeap) Less(a, b int) bool {
	return h[a].load < h[b].load || h[a].load == h[b].load && h[a].index < h[b].index
}
func (h shardHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *shardHeap) Push(any)     { panic("unused") }
func (h *shardHeap) Pop() any     { panic("unused") }
