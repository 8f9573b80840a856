package backend

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseKnobs reads tunings and refuses knobs out of bounds,
// unknown ones and malformed pairs with a *TuningError naming the knob
// and what is accepted.
func TestParseKnobs(t *testing.T) {
	tn, err := ParseKnobs("group=256,block=64,hosts=3")
	require.NoError(t, err)
	assert.Equal(t, Knobs{Group: 256, Block: 64, Hosts: 3}, tn, "the knobs given; the rest zero, their defaults")
	assert.Equal(t, Knobs{Group: 256, Block: 64, Items: DefaultKnobs.Items, Batch: DefaultKnobs.Batch, Hosts: 3}, tn.WithDefaults())
	tn, err = ParseKnobs("list=2")
	require.NoError(t, err)
	assert.Equal(t, ByDevice, tn.List)
	tn, err = ParseKnobs("list=2,sort=1")
	require.NoError(t, err)
	assert.Equal(t, ByHost, tn.Sort)
	_, err = ParseKnobs("sort=3")
	assert.ErrorContains(t, err, "sort=3 is out of bounds (accepted: 0..2)")
	_, err = ParseKnobs("list=3")
	assert.ErrorContains(t, err, "list=3 is out of bounds (accepted: 0..2)")
	back, err := ParseKnobs(tn.String())
	require.NoError(t, err)
	assert.Equal(t, tn, back)
	def, err := ParseKnobs("")
	require.NoError(t, err)
	assert.Equal(t, DefaultKnobs, def.WithDefaults())
	for in, want := range map[string]string{
		"block=96":    "block=96 is out of bounds (accepted: 32..512, a power of two)",
		"group=16":    "group=16 is out of bounds (accepted: 32..1024, a multiple of 32)",
		"items=0":     "items=0 is out of bounds (accepted: 1..8)",
		"popcount=16": "popcount=16 is out of bounds (accepted: 0..64, a multiple of 32)",
		"chunk=8":     "chunk=8 is out of bounds (accepted: 5..7)",
		"chunk=4":     "chunk=4 is out of bounds (accepted: 5..7)",
		"layout=3":    "layout=3 is out of bounds (accepted: 0..2)",
		"warp=32":     `"warp=32" is not a tuning (accepted: group=, block=, items=, batch=, hosts=, list=, sort=, cut=, popcount=, chunk=, layout=, each once, separated by commas)`,
		"block":       `"block" is not a tuning`,
		"block=big":   `"block=big" is not a tuning: block= takes a number in digits alone (accepted: block=32..512, a power of two)`,
		"batch=1000":  "batch=1000 is out of bounds (accepted: 65536..268435456)",
		// Loose input is refused: a knob twice, an empty pair, spaces, a
		// sign, control characters (written escaped).
		"group=64,group=128":   "group= is given twice",
		"group=64,,block=64":   `"group=64,,block=64" has an empty pair`,
		",group=64":            "has an empty pair",
		"group=64,":            "has an empty pair",
		" group=64":            `" group=64" is not a tuning: a pair takes no spaces around it`,
		"group=256, block=128": `" block=128" is not a tuning: a pair takes no spaces around it (accepted: group=, block=, items=, batch=, hosts=, list=, sort=, cut=, popcount=, chunk=, layout=, each once, separated by commas, with no spaces)`,
		"group= 64":            `"group= 64" is not a tuning: group= takes a number in digits alone`,
		"group=+64":            `"group=+64" is not a tuning: group= takes a number in digits alone (accepted: group=32..1024, a multiple of 32)`,
		"group=64;id":          `"group=64;id" is not a tuning: group= takes a number in digits alone`,
		"block=64\x1b[2J":      `"block=64\x1b[2J" is not a tuning`,
	} {
		_, err := ParseKnobs(in)
		var te *TuningError
		require.ErrorAs(t, err, &te, in)
		assert.Contains(t, te.Reason, want, in)
		if knob, _, _ := strings.Cut(in, "="); strings.HasPrefix(want, knob+"=") {
			assert.Equal(t, knob, te.Knob, in)
		}
	}
}
