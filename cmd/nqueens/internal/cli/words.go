package cli

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/internal/msg"
)

// optionFlags are the flags that set the library's options: the one place
// where the command words the library's rules. They are keyed by the
// option's function (the library's messages name an option by it), so
// that an option renamed in the library fails to compile here.
var optionFlags = byOption(map[string]any{
	"--method": nqueens.WithMethod, "-j": nqueens.WithWorkers, "--memory": nqueens.WithMemory, "--piece": nqueens.WithPiece,
	"--torus": nqueens.WithTorus, "--place": nqueens.WithPlaced, "--verify": nqueens.WithCheck, "--grace": nqueens.WithGrace,
	"--sample": nqueens.WithSample, "--shard": nqueens.WithShard, "--device": nqueens.WithDevice, "--device-tuning": nqueens.WithDeviceTuning,
	"--out": nqueens.WithShardFile, "--checkpoint": nqueens.WithJournalFile, "--progress": nqueens.WithProgress,
})

// byOption keys flags by their option's name ("WithMethod").
func byOption(flags map[string]any) map[string]string {
	m := make(map[string]string, len(flags))
	for flag, option := range flags {
		m[OptionName(option)] = flag
	}
	return m
}

// OptionName is the name of the library's option function option, as its
// messages give it ("WithShard").
func OptionName(option any) string {
	name := runtime.FuncForPC(reflect.ValueOf(option).Pointer()).Name()
	return name[strings.LastIndexByte(name, '.')+1:]
}

// message is err's message, with the library's options named by the
// flags that set them when it is about options.
func message(err error) string {
	var oe *nqueens.OptionError
	if !errors.As(err, &oe) {
		return err.Error()
	}
	name := flagOf
	var r *renamed
	if errors.As(err, &r) {
		name = func(n msg.Name) string {
			if s, ok := r.names[n.Of]; ok {
				return s
			}
			return flagOf(n)
		}
	}
	return oe.Words.Say(name, nil)
}

// flagOf names an option by its flag, with the value given ("-j 0").
func flagOf(n msg.Name) string {
	name, ok := optionFlags[n.Of]
	if !ok {
		name = n.Of
	}
	if n.Value == "" {
		return name
	}
	return name + " " + n.Value
}

// renamed is an error of a command that sets an option by another flag
// than the usual one: names maps the option to its words.
type renamed struct {
	error
	names map[string]string
}

func (r *renamed) Unwrap() error { return r.error }

// Rename has [ExitCode] word the options of err (the library's Go names,
// "WithShard") as names says ("--shards 4"), the others by their usual
// flags.
func Rename(err error, names map[string]string) error { return &renamed{err, names} }

// Word words the library's errors of a count with the command's flags: a
// journal's or shard file's error names --checkpoint or --out (a file that
// is no regular file is a usage error, a locked one says what to do), a
// memory refusal names the flags that would fit the count (shardable: the
// count can be split in shards, as a table's rows cannot). Other errors
// are returned as they are.
func Word(err error, shardable bool) error {
	return word(err, shardable, map[string]string{"journal": "--checkpoint", "shard file": "--out"})
}

// WordDir is [Word] for a count whose files --dir names: a journal's or
// shard file's error names --dir.
func WordDir(err error, shardable bool) error {
	return word(err, shardable, map[string]string{"journal": "--dir's journal", "shard file": "--dir's shard file"})
}

// word is [Word] with the files' flags by their role.
func word(err error, shardable bool, flags map[string]string) error {
	var me *nqueens.MemoryError
	var fe *nqueens.FileError
	if errors.As(err, &fe) {
		flag := flags[fe.Role]
		switch {
		case errors.Is(err, nqueens.ErrInvalid): // no regular file
			return Usagef("%s %w", flag, fe.Err)
		case errors.Is(err, nqueens.ErrLocked):
			return fmt.Errorf("%s: %w (wait for it to finish, or use another file)", flag, fe.Err)
		}
		return fmt.Errorf("%s: %w", flag, fe.Err)
	}
	if errors.As(err, &me) {
		return Usagef("%s", memoryMessage(me, shardable))
	}
	return err
}

// memoryMessage words a memory refusal with the flags that would fit it.
func memoryMessage(me *nqueens.MemoryError, shardable bool) string {
	ways := []string{"raise --memory"}
	if !shardable && me.MostlyTasks() {
		ways = append(ways, fmt.Sprintf("end the table before n = %d", me.N))
	}
	if m := me.ShardsToFit(); shardable && m > 0 {
		ways = append(ways, fmt.Sprintf("count it in %d or more shards (--shard I/M, then nqueens merge)", m))
	}
	if me.Hosts > 0 {
		ways = append(ways, "fewer host goroutines or a smaller batch with --device-tuning hosts=, batch=")
	}
	if me.Method == nqueens.Join && me.Workers-me.Hosts > 1 {
		ways = append(ways, "use fewer workers with -j")
	}
	if me.Method == nqueens.Join {
		ways = append(ways, "--method sym")
	}
	if len(ways) > 1 {
		ways[len(ways)-1] = "or " + ways[len(ways)-1]
	}
	what := "the whole board"
	if me.Shards > 1 {
		what = fmt.Sprintf("a shard of %d", me.Shards)
	}
	on := report.Plural(me.Workers, "worker")
	switch cpu := me.Workers - me.Hosts; {
	case me.Workers == 0:
		on = "devices alone"
	case me.Hosts > 0 && cpu > 0:
		on = fmt.Sprintf("%s and %s feeding devices", report.Plural(cpu, "worker"), report.Plural(me.Hosts, "host goroutine"))
	case me.Hosts > 0:
		on = report.Plural(me.Hosts, "host goroutine") + " feeding devices"
	}
	limit, need := humanize.IBytes(uint64(me.Limit)), humanize.IBytes(uint64(me.Need))
	if limit == need { // rounded alike: the bytes tell them apart
		limit, need = fmt.Sprintf("%s (%d bytes)", limit, me.Limit), fmt.Sprintf("%s (%d bytes)", need, me.Need)
	}
	return fmt.Sprintf("--memory %s is too small for n = %d by %s (%s: %s tasks) with %s: it needs at least %s (%s)",
		limit, me.N, me.Method, what, humanize.Comma(int64(me.Tasks)), on, need, strings.Join(ways, ", "))
}
