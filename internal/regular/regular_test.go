//go:build unix

package regular

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFIFORefusedAtOnce: a FIFO is refused without waiting for a writer or
// reader, to read or to write (bench hung on one,
// deaf to SIGINT and SIGTERM).
func TestFIFORefusedAtOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pf.svg")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, flag := range []int{os.O_RDONLY, os.O_WRONLY | os.O_CREATE | os.O_TRUNC, os.O_WRONLY | os.O_APPEND} {
		f, _, err := OpenFile(fifo, flag, 0o644) // never waits for a writer or reader: a wait would outlast the test
		if err == nil {
			f.Close()
			t.Fatalf("OpenFile(FIFO, %#x) opened it", flag)
		}
		if !errors.Is(err, ErrNotRegular) || err.Error() != fifo+" is not a regular file (it is a FIFO)" {
			t.Errorf("OpenFile(FIFO, %#x) = %v, want ErrNotRegular naming a FIFO", flag, err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	_, _, err := Open(filepath.Join(dir, "nope.csv"))
	if !errors.Is(err, fs.ErrNotExist) || err.Error() != filepath.Join(dir, "nope.csv")+": no such file or directory" {
		t.Errorf("Open(missing) = %v", err)
	}
	_, _, err = Open(dir)
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("Open(directory) = %v, want ErrNotRegular", err)
	}
	_, err = ReadAll("/dev/zero", 1<<20)
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadAll(/dev/zero) = %v, want ErrNotRegular", err)
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 100), 0o644)
	if _, err := ReadAll(big, 99); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadAll(100 bytes, limit 99) = %v, want ErrTooLarge", err)
	}
	if b, err := ReadAll(big, 100); err != nil || len(b) != 100 {
		t.Errorf("ReadAll(100 bytes, limit 100) = %d bytes, %v", len(b), err)
	}
}
