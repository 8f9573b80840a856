package nqueens

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/resultfile"
)

// syncEvery is how often a journal is flushed and synced while a count
// runs; it is also flushed and synced at the end.
const syncEvery = JournalSync

// journalWriter appends finished tasks to a journal.
type journalWriter struct {
	j      journal
	name   string
	h      resultfile.Header // the file's, whose identity seals each line
	mu     sync.Mutex
	w      *bufio.Writer
	err    error
	stop   chan struct{}
	wg     sync.WaitGroup
	once   sync.Once
	closed bool
	// onError, if set before the first sync, is called once with the
	// first error of a periodic sync.
	onError func(error)
}

// openJournal reads the journal j for the count that h describes into the
// ledger, and returns a writer that appends to it, with notes for the
// caller. mine reports whether a task index belongs to this run's shard.
func openJournal(j journal, name string, h resultfile.Header, l *ledger) (*journalWriter, []string, error) {
	name = msg.Path(name) // for messages
	size, err := j.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, nil, fmt.Errorf("journal %s: %w", name, err)
	}
	h.Kind = resultfile.Journal
	var notes []string
	if size > 0 {
		if _, err := j.Seek(0, io.SeekStart); err != nil {
			return nil, nil, fmt.Errorf("journal %s: %w", name, err)
		}
		// The header is checked before any record is read, and the
		// records go straight into the ledger (which holds one result a
		// task of the plan): reading a journal costs what the plan's tasks
		// do, however many lines it has.
		check := func(got resultfile.Header) error { return journalHeader(name, got, h) }
		var lineErr error
		old, err := resultfile.Scan(j, check, func(r resultfile.Record, line int) error {
			if _, err := l.add(r, name); err != nil {
				lineErr = fmt.Errorf("journal %s: line %d: %w", name, line, err)
				return lineErr
			}
			return nil
		})
		switch {
		case lineErr != nil:
			return nil, nil, lineErr
		case errors.Is(err, ErrInvalid):
			return nil, nil, err
		case err != nil:
			return nil, nil, fmt.Errorf("journal %s: %w", name, err)
		}
		if old.End != nil {
			return nil, nil, invalidf("journal %s has an end line, which journals never have: it was edited or is not a journal", name)
		}
		if l.dups > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s", name, duplicatesNote(l.dups)))
		}
		if old.Torn {
			notes = append(notes, tornNote(name, len(l.missing(nil))))
		}
		if err := j.Truncate(old.Valid); err != nil {
			return nil, nil, fmt.Errorf("journal %s: %w", name, err)
		}
		if _, err := j.Seek(old.Valid, io.SeekStart); err != nil {
			return nil, nil, fmt.Errorf("journal %s: %w", name, err)
		}
	}
	jw := &journalWriter{j: j, name: name, h: h, w: bufio.NewWriter(j), stop: make(chan struct{})}
	if size == 0 {
		h.Started = time.Now().Unix()
		jw.w.Write(resultfile.AppendHeader(nil, h))
		jw.syncLocked()
		if jw.err != nil {
			return nil, nil, fmt.Errorf("journal %s: %w", name, jw.err)
		}
	}
	return jw, notes, nil
}

// journalHeader checks the header got of journal name against h, the
// count's: a journal of this count, not one of another plan's rules,
// count or a finished shard's file.
func journalHeader(name string, got, h resultfile.Header) error {
	if got.Kind == resultfile.Journal && got.N == h.N && got.Method == h.Method && got.Placed == h.Placed && got.Board() == h.Board() &&
		got.Shard == h.Shard && got.Shards == h.Shards && got.Plan != h.Plan && got.Tool != h.Tool {
		return invalidf("journal %s was written by nqueens %s for plan %s, whose planning rules differ from this version's (plan %s): finish it with nqueens %s, or count again with another journal",
			name, got.Tool, got.Plan, h.Plan, got.Tool)
	}
	if got.Kind == resultfile.Shard {
		return invalidf("%s is the shard file of a finished count (%s), not a journal: merge it with the other shards' files, or give --checkpoint another file",
			name, got.Describe())
	}
	if got.Kind != resultfile.Journal || got.N != h.N || got.Method != h.Method || got.Placed != h.Placed ||
		got.Board() != h.Board() || got.Plan != h.Plan || got.Shard != h.Shard || got.Shards != h.Shards {
		return invalidf("journal %s belongs to another count (%s n=%d method=%s placed=%s plan=%s shard=%d/%d), not this one (n=%d method=%s placed=%s plan=%s shard=%d/%d): use another file",
			name, got.Kind, got.N, got.Method, got.Placed, got.Plan, got.Shard, got.Shards, h.N, h.Method, h.Placed, h.Plan, h.Shard, h.Shards)
	}
	return nil
}

// tornNote is the note on journal name whose last record was torn, with
// lack tasks missing from it.
func tornNote(name string, lack int) string {
	note := fmt.Sprintf("the last record of %s was incomplete (a crash while writing) and is ignored", name)
	switch lack {
	case 0:
		return note + "; every task is in the journal, so none is counted again"
	case 1:
		return note + "; the 1 task the journal lacks is counted, the one it was recording among them"
	}
	return note + fmt.Sprintf("; the %d tasks the journal lacks are counted, the one it was recording among them", lack)
}

// start begins syncing every syncEvery.
func (jw *journalWriter) start() {
	jw.wg.Add(1)
	go jw.syncLoop()
}

// add appends a finished task; it is on disk within syncEvery. It returns
// the journal's first write error, after which nothing more is written.
func (jw *journalWriter) add(r resultfile.Record) error {
	jw.mu.Lock()
	defer jw.mu.Unlock()
	if jw.err == nil && !jw.closed {
		_, jw.err = jw.w.Write(resultfile.AppendRecord(nil, jw.h, r))
	}
	return jw.err
}

func (jw *journalWriter) syncLoop() {
	defer jw.wg.Done()
	t := time.NewTicker(syncEvery)
	defer t.Stop()
	for {
		select {
		case <-jw.stop:
			return
		case <-t.C:
			jw.mu.Lock()
			jw.syncLocked()
			err := jw.err
			jw.mu.Unlock()
			if err != nil {
				if jw.onError != nil {
					jw.onError(fmt.Errorf("journal %s: %w", jw.name, err))
				}
				return
			}
		}
	}
}

func (jw *journalWriter) syncLocked() {
	if jw.err == nil {
		jw.err = jw.w.Flush()
	}
	if jw.err == nil {
		jw.err = jw.j.Sync()
	}
}

// close flushes and syncs the journal and stops writing to it; it is safe
// to call twice. Closing the file is the caller's.
func (jw *journalWriter) close() error {
	var err error
	jw.once.Do(func() {
		close(jw.stop)
		jw.wg.Wait()
		jw.mu.Lock()
		jw.syncLocked()
		err = jw.err
		jw.closed = true
		jw.mu.Unlock()
		if err != nil {
			err = fmt.Errorf("journal %s: %w", jw.name, err)
		}
	})
	return err
}
