package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocExamples runs every command of the README's and docs/'s
// ```console blocks ("$ nqueens ARGS", its output on the lines after) and
// checks that the command prints what the block shows, so that no example
// drifts from the binary; -update rewrites the blocks from it. Each runs
// on 2 workers (GOMAXPROCS=2, the machines the figures name); what
// depends on the machine and not on the command is compared loosely: a
// count's seconds, its memory limit, the default --memory in a refusal,
// and the line a plan prints when it passes a few seconds.
func TestDocExamples(t *testing.T) {
	bin := nqueensBinary(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	require.NoError(t, err)
	files = append([]string{filepath.Join("..", "..", "README.md")}, files...)
	examples := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		lines := strings.SplitAfter(string(b), "\n")
		var out []string
		for i := 0; i < len(lines); i++ {
			out = append(out, lines[i])
			if strings.TrimSpace(lines[i]) != "```console" {
				continue
			}
			// The block: commands and what each printed, to its fence.
			for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "```" {
				i++
				cmdLine := lines[i]
				args, ok := strings.CutPrefix(strings.TrimSpace(cmdLine), "$ nqueens ")
				require.True(t, ok, "%s: a console block's line %q is not a command ($ nqueens ...)", path, cmdLine)
				var want []string
				for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") && strings.TrimSpace(lines[i+1]) != "```" {
					i++
					want = append(want, lines[i])
				}
				got := docRun(t, bin, args)
				examples++
				if !*update {
					assert.Equal(t, docLoose(strings.Join(want, ""), args), docLoose(got, args), "%s: $ nqueens %s (go test ./cmd/nqueens -run TestDocExamples -update rewrites it)", path, args)
				}
				out = append(out, cmdLine, got)
			}
		}
		if *update {
			require.NoError(t, os.WriteFile(path, []byte(strings.Join(out, "")), 0o644))
		}
	}
	assert.Positive(t, examples)
}

// docRun runs the documented command's arguments (words split at spaces:
// the examples quote nothing) and returns what it printed, stdout and
// stderr as one terminal shows them: as the binary prints it, so that
// -update writes the real output, seconds to the nanosecond included.
func docRun(t *testing.T, bin, args string) string {
	t.Helper()
	cmd := exec.Command(bin, strings.Fields(args)...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOMAXPROCS=2", "TERM=dumb")
	b, _ := cmd.CombinedOutput() // refusals are examples too
	return string(b)
}

var (
	docSeconds = regexp.MustCompile(`"seconds":[0-9.e+-]+`)
	docLimit   = regexp.MustCompile(`"memory_limit":"[^"]*"`)
	docMemory  = regexp.MustCompile(`--memory [0-9.]+ [KMGT]?i?B is too small`)
	docStill   = regexp.MustCompile(`(?m)^nqueens: still planning .*\n`)
)

// docLoose is an example's output with what depends on the machine
// blanked: seconds, the memory limit, and the default --memory where the
// command gives none.
func docLoose(s, args string) string {
	s = docStill.ReplaceAllString(s, "") // said only where planning passes a few seconds
	s = docSeconds.ReplaceAllString(s, `"seconds":…`)
	s = docLimit.ReplaceAllString(s, `"memory_limit":…`)
	if !strings.Contains(args, "--memory") {
		s = docMemory.ReplaceAllString(s, "--memory … is too small")
	}
	return s
}

// TestDeviceCheckSample: scripts/device-check.sh checks its sweep against
// the CPU's count of a shard of n = 22, and its pocl run against another,
// both written into it, which hold for the plan it names; a planner that
// changed the plan must count them again (nqueens count 22 -m join
// --shard I/M --json) and write their totals, nodes and plan there.
func TestDeviceCheckSample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "scripts", "device-check.sh"))
	require.NoError(t, err)
	m := regexp.MustCompile(`SAMPLE, SAMPLE_PLAN, SAMPLE_TOTAL, SAMPLE_NODES = "[0-9]+/([0-9]+)", "([0-9a-f]+)", [1-9][0-9]*, [1-9][0-9]*`).FindSubmatch(b)
	require.NotNil(t, m, "device-check.sh's sample line")
	require.Regexp(t, `PIECE, PIECE_TOTAL, PIECE_NODES = "[0-9]+/[0-9]+", [1-9][0-9]*, [1-9][0-9]*`, string(b), "device-check.sh's piece line")
	out, _ := runOK(t, "plan", "22", "--method", "join", "--shards", string(m[1]), "--sample", "0", "--json")
	var plan struct {
		Plan string `json:"plan"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &plan))
	assert.Equal(t, string(m[2]), plan.Plan, "n = 22's plan changed: count the sample and the piece again and write their counts and the plan into scripts/device-check.sh")
}

// TestDeviceCheckLeavesNothing: scripts/device-check.sh writes under the
// folder it is given alone, and removes its scratch folder there however
// it ends: normally, or by SIGTERM while a count runs (the count stopped
// too). A budget too short to time any count exits 3 and says so.
func TestDeviceCheckLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs scripts/device-check.sh")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 here: device-check.sh needs it")
	}
	requireOpenCL(t)
	bin := nqueensBinary(t)
	script := filepath.Join("..", "..", "scripts", "device-check.sh")
	tmp := t.TempDir()
	start := func(out, seconds string) (*exec.Cmd, *bytes.Buffer) {
		cmd := exec.Command("bash", script, out)
		cmd.Env = append(os.Environ(), "NQUEENS="+bin, "TMPDIR="+tmp, "DEVICE_CHECK_SECONDS="+seconds)
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		require.NoError(t, cmd.Start())
		return cmd, &log
	}
	leftNothing := func(out string) {
		t.Helper()
		_, err := os.Stat(filepath.Join(out, ".work"))
		assert.ErrorIs(t, err, fs.ErrNotExist, "its scratch folder is removed")
		left, err := os.ReadDir(tmp)
		require.NoError(t, err)
		assert.Empty(t, left, "nothing in the system's temporary folder")
	}

	out := filepath.Join(t.TempDir(), "short")
	cmd, log := start(out, "5")
	err := cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "log: %s", log)
	assert.Equal(t, 3, exit.ExitCode(), "log: %s", log)
	assert.Contains(t, log.String(), "device-check: nothing was timed: a budget of 5 s (DEVICE_CHECK_SECONDS) is too short for any count here")
	assert.NotContains(t, log.String(), "None")
	leftNothing(out)

	// A mode it does not have: exit 2, and nothing left either.
	out = filepath.Join(t.TempDir(), "mode")
	t.Setenv("DEVICE_CHECK_MODE", "quick")
	cmd, log = start(out, "5")
	err = cmd.Wait()
	require.ErrorAs(t, err, &exit, "log: %s", log)
	assert.Equal(t, 2, exit.ExitCode(), "log: %s", log)
	assert.Contains(t, log.String(), "device-check: DEVICE_CHECK_MODE=quick is not a mode (accepted: full, short)")
	leftNothing(out)
	t.Setenv("DEVICE_CHECK_MODE", "")

	out = filepath.Join(t.TempDir(), "stopped")
	cmd, log = start(out, "300")
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) { // until a count runs, its shard files in the scratch folder
		if b, _ := os.ReadFile(filepath.Join(out, "log.txt")); bytes.Contains(b, []byte("device-check: check n = 16")) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 143, exitAfterSignal(t, cmd, time.Minute, log))
	assert.Contains(t, log.String(), "device-check: stopped by SIGTERM")
	leftNothing(out)
}

// TestDocComments: a command in the README's and docs/'s ```sh blocks
// whose comment gives its output ("# 202900: ...", "# the main job:
// prints 14772512") prints that number.
func TestDocComments(t *testing.T) {
	bin := nqueensBinary(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	require.NoError(t, err)
	files = append([]string{filepath.Join("..", "..", "README.md")}, files...)
	said := regexp.MustCompile(`^(?:go run \./cmd/nqueens|nqueens) ([^#|>]*?)\s+#\s*(?:[^#]*: prints )?([0-9]+)(?:[:,]|$)`)
	checked := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		inSh := false
		for _, line := range strings.Split(string(b), "\n") {
			switch strings.TrimSpace(line) {
			case "```sh":
				inSh = true
				continue
			case "```":
				inSh = false
				continue
			}
			m := said.FindStringSubmatch(line)
			if !inSh || m == nil {
				continue
			}
			out, err := exec.Command(bin, strings.Fields(m[1])...).Output()
			require.NoError(t, err, "%s: nqueens %s", path, m[1])
			assert.Equal(t, m[2], strings.TrimSpace(string(out)), "%s: nqueens %s prints what its comment says", path, m[1])
			checked++
		}
	}
	assert.GreaterOrEqual(t, checked, 4)
}
