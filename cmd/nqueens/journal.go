package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/partition"
)

// syncEvery is how often a journal is flushed and fsynced while a count
// runs; it is also flushed and fsynced at exit.
const syncEvery = 2 * time.Second

// journal is an append-only checkpoint of finished tasks.
type journal struct {
	path   string
	file   *os.File
	mu     sync.Mutex
	w      *bufio.Writer
	err    error
	stop   chan struct{}
	wg     sync.WaitGroup
	once   sync.Once
	closed bool
	done   []doneTask
}

type doneTask struct {
	index int
	rec   resultfile.Record
}

// errCheckpoint marks a journal that belongs to another count.
var errCheckpoint = errors.New("checkpoint")

// openJournal opens or creates the journal at path for the plan's shard
// described by h, loading the tasks it already holds.
func openJournal(path string, h resultfile.Header, plan *partition.Plan, stderr io.Writer) (*journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, &failure{err: fmt.Errorf("--checkpoint: %w", err)}
	}
	j := &journal{path: path, file: f, stop: make(chan struct{})}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &failure{err: fmt.Errorf("--checkpoint: %w", err)}
	}
	h.Kind = resultfile.Journal
	if st.Size() > 0 {
		old, err := resultfile.Read(f)
		if err != nil {
			f.Close()
			return nil, &failure{err: fmt.Errorf("--checkpoint %s: %w", path, err)}
		}
		got := old.Header
		if got.Kind != resultfile.Journal || got.N != h.N || got.Method != h.Method || got.Placed != h.Placed ||
			got.Plan != h.Plan || got.Shard != h.Shard || got.Shards != h.Shards {
			f.Close()
			return nil, fmt.Errorf("%w %s belongs to another count (%s n=%d method=%s placed=%s plan=%s shard=%d/%d), not this one (n=%d method=%s placed=%s plan=%s shard=%d/%d): use another file",
				errCheckpoint, path, got.Kind, got.N, got.Method, got.Placed, got.Plan, got.Shard, got.Shards, h.N, h.Method, h.Placed, h.Plan, h.Shard, h.Shards)
		}
		index := make(map[string]int, len(plan.Tasks))
		for i, t := range plan.Tasks {
			index[t.ID] = i
		}
		for k, r := range old.Records {
			i, ok := index[r.ID]
			if !ok {
				f.Close()
				return nil, &failure{err: fmt.Errorf("--checkpoint %s: line %d: task %q is not in the plan", path, k+2, r.ID)}
			}
			j.done = append(j.done, doneTask{index: i, rec: r})
		}
		if old.Torn {
			fmt.Fprintf(stderr, "nqueens: note: the last record of %s was incomplete (a crash while writing) and is ignored; its task is counted again\n", path)
		}
		if err := f.Truncate(old.Valid); err != nil {
			f.Close()
			return nil, &failure{err: fmt.Errorf("--checkpoint: %w", err)}
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, &failure{err: fmt.Errorf("--checkpoint: %w", err)}
	}
	j.w = bufio.NewWriter(f)
	if st.Size() == 0 {
		j.w.Write(resultfile.AppendHeader(nil, h))
		j.syncLocked()
	}
	j.wg.Add(1)
	go j.syncLoop()
	return j, nil
}

// add appends a finished task; it is on disk within syncEvery.
func (j *journal) add(r resultfile.Record) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err == nil && !j.closed {
		_, j.err = j.w.Write(resultfile.AppendRecord(nil, r))
	}
}

func (j *journal) syncLoop() {
	defer j.wg.Done()
	t := time.NewTicker(syncEvery)
	defer t.Stop()
	for {
		select {
		case <-j.stop:
			return
		case <-t.C:
			j.mu.Lock()
			j.syncLocked()
			j.mu.Unlock()
		}
	}
}

func (j *journal) syncLocked() {
	if j.err == nil {
		j.err = j.w.Flush()
	}
	if j.err == nil {
		j.err = j.file.Sync()
	}
}

// close flushes, fsyncs and closes the journal; it is safe to call twice.
func (j *journal) close() error {
	var err error
	j.once.Do(func() {
		close(j.stop)
		j.wg.Wait()
		j.mu.Lock()
		j.syncLocked()
		err = j.err
		j.closed = true
		j.mu.Unlock()
		if cerr := j.file.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			err = &failure{err: fmt.Errorf("--checkpoint %s: %w", j.path, err)}
		}
	})
	return err
}
