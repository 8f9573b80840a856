// Package backend is what a device back end implements and the batches
// it is handed: the engine (engine.Run) cuts a count's tasks into these
// batches and a back end runs them on its device. internal/opencl is one
// back end; another (CUDA, say) implements the same interfaces in a
// folder of its own and registers itself ([Register], registry.go), and
// the library finds it there.
//
// Everything here is the wire format between the two. The batches'
// layouts are written here alone and handed to the kernels as compiler
// defines ([LayoutDefines], [Tuning.Defines]), so that the Go side and
// the kernels cannot disagree.
package backend

import (
	"context"
	"fmt"
	"time"
)

// Device is a back end's device: a [Searcher], a [Joiner] or both.
type Device interface {
	// Name names the device for messages and reports ("NVIDIA H200
	// (OpenCL 3.0 CUDA)").
	Name() string
}

// Searcher runs the backtracking kernels (the sym and mirror methods):
// it counts the completions of every start of a batch into its Out. It
// may be called again once it returns, never concurrently.
type Searcher interface {
	Device
	Search(ctx context.Context, b *SearchBatch) error
}

// Joiner runs the join's kernels: ListHalves lists the sides (half-boards) of a batch the
// device lists itself (b.OnDevice) and fills b.Listed; Join sorts the
// sides (unless the host sorted them) and counts the disjoint pairs of
// every job into b.Out. Unless it is a [ConcurrentJoiner], one call at a
// time.
type Joiner interface {
	Device
	ListHalves(ctx context.Context, b *JoinBatch) error
	Join(ctx context.Context, b *JoinBatch) error
}

// A ConcurrentJoiner is a [Joiner] whose ListHalves and Join several host
// goroutines may call at once, each with a batch of its own: it keeps
// each batch's buffers apart and runs their commands in turn, so that
// one goroutine's launch overlaps the others' listing and planning. The
// engine's goroutines then launch without the lock that otherwise lets
// one launch at a time, and each releases its batch's buffers when it is
// done (ReleaseBatch).
type ConcurrentJoiner interface {
	JoinsConcurrently() bool
	ReleaseBatch(b *JoinBatch)
}

// Traits are what a device tells of itself that the join's tuning is
// fitted to where the user leaves a knob unset: a zero field tells
// nothing.
type Traits struct {
	// OnCPU is set for a device that runs on the host's CPU (pocl): the
	// host then lists and sorts the join's sides and does not cut jobs.
	OnCPU bool
	// MaxGroup is its largest work-group: the join's group takes at most
	// it (a multiple of [MinGroup]).
	MaxGroup int
	// ComputeUnits, Memory and MaxAlloc (its largest buffer, in bytes)
	// size its batches.
	ComputeUnits     int
	Memory, MaxAlloc uint64
}

// A Describer is a [Device] that tells its [Traits].
type Describer interface {
	Traits() Traits
}

// A Starter is a [Device] that tells how long it took to start: its
// context and queues, and the programs it built (or loaded) so far.
type Starter interface {
	Startup() time.Duration
}

// Stages are a device's own times for the commands of a join's
// launches, from its runtime's profiling events (the OpenCL device gives
// them with NQUEENS_OPENCL_PROFILE=1), zero where it gives
// none: the copies to it, the list, sort and join kernels, and the
// copies back.
type Stages struct {
	CopyIn, List, Sort, Join, CopyOut time.Duration
}

// Add adds t's times to s.
func (s *Stages) Add(t Stages) {
	s.CopyIn += t.CopyIn
	s.List += t.List
	s.Sort += t.Sort
	s.Join += t.Join
	s.CopyOut += t.CopyOut
}

// MaxN is the largest board the device kernels count: their stacks and
// paths hold 32 rows.
const MaxN = 32

// MinGroup is the smallest work-group the join kernel takes, and every
// join work-group is a multiple of it.
const MinGroup = 32

// Mode is a start's mode in a [SearchBatch]: how its completions count.
type Mode uint32

// The start modes.
const (
	ModeWalk     Mode = 0 // walk: no bans, each completion counts 1
	ModeBanned   Mode = 1 // the banned search: each completion counts 1
	ModeClassify Mode = 2 // the banned search: each completion is classified
)

// deviceRows is how many rows a start leaves to the device at least.
const deviceRows = 4

// CutRow is the row at which tasks of the n×n board are cut into starts
// (a [SearchBatch]'s Row): deep enough for millions of starts (n = 20
// by sym: about 30 million at row 7), shallow enough that a start is
// worth a work-item and its path fits a word (rows below 8), and leaving
// at least four rows; a task with fewer left is counted on the host.
func CutRow(n int) int {
	r := 7
	if n <= 17 {
		r = 6
	}
	return min(r, n-deviceRows)
}

// Levels is how many rows a start of the n×n board can leave below it,
// the depth of a search kernel's stack.
func Levels(n int) int { return max(0, n-CutRow(n)) }

// SearchBatch is one launch of a [Searcher], in arrays of one entry per
// start (a device copies them as they are). Start k is the state after a
// push of the kernels' loop at row Row, the row every task is cut at
// (CutRow): the columns taken (Cols, bits n..63 set), the diagonals
// aligned to that row (LD, RD), the untried squares of its first level
// (Posib), and in Mode its mode (ModeWalk, ModeBanned, ModeClassify), bit
// 2 set for a flipped Classify task, and above bit 8 the index of its
// bans in Bans (64 words each: row r's banned squares). Path holds, a
// byte per row, the columns of the queens of rows 0..Row-1 (one word a
// start: starts lie above row 8). Out receives 5 words a start:
// completions (the total, for a Classify start the classified total),
// unique, point-symmetric, rot90-symmetric and nodes.
type SearchBatch struct {
	N                   int
	Bans                []uint64
	Cols, LD, RD, Posib []uint64
	Row                 int
	Mode                []uint32
	Path                []uint64
	Out                 []uint64
}

// Len is the number of starts.
func (b *SearchBatch) Len() int { return len(b.Cols) }

// Tuning is how a [JoinBatch]'s kernels are built and launched: the
// engine's tuning resolved for the device.
type Tuning struct {
	// Group is the matching's work-group size, Block the patterns of a
	// block's table (32..512, a power of two), Items the items a
	// work-item takes per step, Batch the most patterns a batch holds.
	Group, Block, Items, Batch int
	// HostSorts is set where the host sorts the sides it lists.
	HostSorts bool
	// Cut is set where the engine cuts large jobs into ranges of their
	// items and splits large sides' buckets by extra bits: the kernel
	// then matches each job's range alone.
	Cut bool
	// Popcount is the width of the matching's counts: 32 or 64.
	Popcount int
	// ChunkBits is the bits of a table chunk: 5, 6 or 7.
	ChunkBits int
	// Planar is set where the table's words lie in planes
	// (Knobs.Layout).
	Planar bool
}

// Defines are the kernel's compiler defines that t sets beside its
// sizes: CUT=1 where jobs may be cut and buckets split by extra bits (the
// kernel then walks each job's range of its items as one concatenation
// of sub-buckets; 0: every job whole and no bucket split, each bucket a
// loop of its own), POPCOUNT its
// counts' width, CHUNKBITS its table chunks' bits, PLANAR=1 where its
// table lies in planes.
func (t Tuning) Defines() string {
	bit := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	return fmt.Sprintf("-DCUT=%d -DPOPCOUNT=%d -DCHUNKBITS=%d -DPLANAR=%d", bit(t.Cut), t.Popcount, t.ChunkBits, bit(t.Planar))
}

// The words of each record of a [JoinBatch], written here alone.
const (
	// PartWords is the words of a part in Parts.
	PartWords = 8
	// SplitBits is the most extra bits a part's buckets are split by on
	// a device (where Tuning.Cut is set; none elsewhere): its sort's and
	// its listing's counts by sub-bucket, 256 << SplitBits of them, are
	// held in a work-group's local memory (16 KiB).
	SplitBits = 4
	// SlotWords is the words of a slot in Slots, ListingWords of a
	// listing in Listings.
	SlotWords, ListingWords = 5, 6
	// SortWords is the words of a sort job in Sorts, JobWords of a join
	// job in Jobs.
	SortWords, JobWords = 4, 8
	// SortChunk is the most patterns one sort job takes.
	SortChunk = 4096
)

// Bounds is how many bounds a part stores per side in Bounds, its
// buckets split by shift extra bits (0 or up to [SplitBits]): where each
// of its 256<<shift sub-buckets begins, and the end.
func Bounds(shift uint) int { return 256<<shift + 1 }

// LayoutDefines are a [JoinBatch]'s layout as the device's kernels take
// it, compiler defines: the words of a part, of a side the device lists
// (a slot) and of a listing, the patterns of a sort job, and the most
// extra bits a part's buckets are split by.
func LayoutDefines() string {
	return fmt.Sprintf("-DPARTWORDS=%d -DSLOTWORDS=%d -DLISTINGWORDS=%d -DSORTCHUNK=%d -DSPLITBITS=%d",
		PartWords, SlotWords, ListingWords, SortChunk, SplitBits)
}

// JoinBatch is one launch of a [Joiner]: the sides of many join tasks as
// the host listed them (or, with OnDevice, the quarter lists the device
// lists them from), how to sort each into the sieve's buckets, and the
// blocks to match. A part is one pair of sides (a way of a task, or a
// piece of one whose sides did not fit the host's buffers): the side
// whose blocks are transposed into tables (T) and the other (the items,
// I).
//
// The device runs two kernels (three with OnDevice: ListHalves lists the sides
// first). The first sorts each side by sub-bucket: each sort job (Sorts)
// takes up to [SortChunk] patterns of one side of a part and moves each,
// squeezed (the cut's bits taken out), to the next free place of its
// sub-bucket (the bucket of pattern x is its four main cut bits from m0
// and four anti cut bits from a0, within the cut; its sub-bucket, where
// the part's buckets are split by shift extra bits, is bucket<<shift |
// the shift lowest of the extra bits below and above those runs, as the
// CPU's sieve orders them; a sub-bucket's places start at its bound and
// are taken in any order). The second matches: each job (Jobs) is a
// block of at most Tuning.Block sorted T patterns of one bucket v,
// counted against its range of the sorted items of the buckets u ⊆ cut
// &^ v of its part, less the sub-buckets that hold an extra bit every
// pattern of the block holds (the job's and), each pair weighted by the
// long diagonals' weight of (v, u) where the part says so, else 1.
type JoinBatch struct {
	// N is the board's size; Tuning how the kernels are built and
	// launched; Chunks the most table chunks (of Tuning.ChunkBits) a
	// pattern of the board has, Squeezed those of one squeezed by the
	// widest cut. A part's chunks in Parts are of 6 bits, the host's.
	N                int
	Tuning           Tuning
	Chunks, Squeezed int
	// Pats holds each part's two sides as listed, part after part; the
	// sorted sides (on the device) take the same places.
	Pats []uint64
	// Parts holds PartWords words a part: the first pattern of its T
	// side and of its I side in Pats, the first index of its T side's
	// bounds in Bounds, the cut | 1<<8 with long weights | the table
	// chunks of a squeezed pattern<<16 | the extra bits its buckets are
	// split by (shift)<<24, the squeeze (each run's first bit and the
	// first bit above it: lo1 | hi1<<8 | lo2<<16 | hi2<<24), the key's
	// shifts m0 | a0<<8, the first index of its I side's bounds, a word
	// of padding.
	Parts []uint32
	// Bounds holds [Bounds](shift) indices a side of a part: where each
	// of its sub-buckets (bucket<<shift | extra bits) begins in Pats, and
	// the end.
	Bounds []uint32
	// Sorts holds SortWords words a sort job: its part, its side (0 T, 1
	// I), its first pattern and how many it takes.
	Sorts []uint32
	// Jobs holds JobWords words a job: its first sorted pattern in Pats,
	// how many patterns its block holds, its part, its bucket v, the
	// range of its block's items it matches (from, to, counted over the
	// sub-buckets it matches, in order), the extra bits every pattern of
	// its block holds (and), a word of padding (the kernel reads a
	// uint8).
	Jobs []uint32
	// Out receives a word a job: its weighted count of disjoint pairs.
	Out []uint64

	// OnDevice is set when the device lists the sides itself (ListHalves, then
	// Join): Pats is then the device's alone, Room patterns long, and
	// Lists, Listings and Slots say what to list. Lists holds quarter
	// placements. Slots holds SlotWords words a side: its first place in
	// Pats | its room<<32, the frames (north b1 | b2<<8 | south b1<<16 |
	// b2<<24 | the window's lo<<32 | width<<40 | the key's m0<<48 |
	// a0<<56), the middle queens' diagonals ban1 and ban2, and its first
	// word in Listed | the extra bits its patterns are counted by
	// (shift)<<32. Listings holds ListingWords words a group of north
	// placements: its first in Lists and how many, the first of the south
	// placements they pair with and how many, and the slot. ListHalves
	// fills Listed, [Bounds](shift) words a slot: how many patterns it
	// holds, then how many of them fall in each of its 256<<shift
	// sub-buckets (before a cut).
	OnDevice bool
	Room     int
	Lists    []uint64
	Listings []uint32
	Slots    []uint64
	Listed   []uint32
	// ListsSent is how many words at the head of Lists the device holds
	// already, from this batch's earlier launches: a back end that keeps
	// a batch's buffers between launches copies only the words after
	// them (all of them where its buffer had to grow) and sets it to
	// len(Lists) once it has queued the copy; one that does not may
	// ignore it. The host leaves those words unchanged between launches
	// (it appends the lists it ships next), and sets it to 0 when it
	// empties Lists.
	ListsSent int

	// Write and Kernel are what the device's ListHalves and Join took to copy
	// the batch to the device, and to run the kernels and read their
	// results back (each adds its own; a device that cannot tell them
	// apart leaves Write zero).
	Write, Kernel time.Duration
	// Stages are the device's own times for the batch's commands, where
	// its runtime reports them (each ListHalves and Join adds its own); Copied
	// the bytes they copied to the device and back.
	Stages Stages
	Copied int64
}

// NumSorts is how many sort jobs b holds; NumSlots how many sides the
// device lists, NumListings how many listings; ListedWords the words
// ListHalves returns for them; Blocks how many jobs.
func (b *JoinBatch) NumSorts() int    { return len(b.Sorts) / SortWords }
func (b *JoinBatch) NumSlots() int    { return len(b.Slots) / SlotWords }
func (b *JoinBatch) NumListings() int { return len(b.Listings) / ListingWords }
func (b *JoinBatch) ListedWords() int {
	if len(b.Slots) == 0 {
		return 0
	}
	last := b.Slots[len(b.Slots)-1]
	return int(uint32(last)) + Bounds(uint(last>>32))
}
func (b *JoinBatch) Blocks() int { return len(b.Jobs) / JobWords }

// Sorted reports whether the host sorted the sides (Tuning.HostSorts,
// where the host lists): each part's sides are then in Pats as the sort
// leaves them, in their buckets and squeezed, and Sorts is empty.
func (b *JoinBatch) Sorted() bool { return !b.OnDevice && b.Tuning.HostSorts }
