package nqueens

import (
	"testing"
)

// FuzzParseBoard: any text is a board or an error, never a panic; a board
// has a column (or -1, -2) per row, and Verify judges it.
func FuzzParseBoard(f *testing.F) {
	for _, s := range []string{"1 3 0 2", "1,3,0,2", ". Q . .\n. . . Q\nQ . . .\n. . Q .", "Q.\n.Q", "", "\r\n", "1 3 x", "Q Q\n. .", "0 0", "-1", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		cols, err := ParseBoard(text)
		if err != nil {
			if len(err.Error()) > 300 {
				t.Fatalf("message of %d bytes", len(err.Error()))
			}
			return
		}
		for _, c := range cols {
			if c < -2 || c >= len(cols) {
				t.Fatalf("column %d of a %d-row board", c, len(cols))
			}
		}
		_ = Verify(cols)
	})
}

// FuzzShardFromEnv: any environment names a shard in range or is an error.
func FuzzShardFromEnv(f *testing.F) {
	f.Add("5", "8", "1", "", 0)
	f.Add("", "", "", "6", 7)
	f.Add("9", "8", "", "", 0)
	f.Add("", "", "", "x", 3)
	f.Add("-1", "-1", "-1", "-1", -1)
	f.Fuzz(func(t *testing.T, id, count, lo, index string, shards int) {
		env := map[string]string{"SLURM_ARRAY_TASK_ID": id, "SLURM_ARRAY_TASK_COUNT": count, "SLURM_ARRAY_TASK_MIN": lo, "JOB_COMPLETION_INDEX": index}
		i, m, _, err := ShardFromEnv(func(k string) string { return env[k] }, shards)
		if err != nil {
			if len(err.Error()) > 600 {
				t.Fatalf("message of %d bytes", len(err.Error()))
			}
			return
		}
		if m < 1 || i < 0 || i >= m {
			t.Fatalf("shard %d/%d", i, m)
		}
	})
}
