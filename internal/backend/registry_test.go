package backend

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRegistry: a back end registered is found by its name, its specs
// are accepted and select its devices, and a name taken or not a name
// panics at registration.
func TestRegistry(t *testing.T) {
	devices := func(n int) func() ([]Info, error) {
		return func() ([]Info, error) {
			infos := make([]Info, n)
			for i := range infos {
				infos[i] = Info{Kind: "zzfake", Index: i, Name: "fake", Type: []string{"cpu", "gpu"}[i%2]}
			}
			return infos, nil
		}
	}
	open := func(Info) (Opened, error) { return nil, errors.New("not opened") }
	Register(Kind{Name: "zzfake", Devices: devices(3), Open: open, NoDevice: "install it"})
	t.Cleanup(func() { Unregister("zzfake") })
	_, ok := Lookup("zzfake")
	assert.True(t, ok)
	assert.Contains(t, Specs(), "zzfake, zzfake:N, zzfake:all")
	for spec, want := range map[string]bool{"zzfake": true, "zzfake:0": true, "zzfake:12": true, "zzfake:all": true, "all": true,
		"zzfake:": false, "zzfake:+1": false, "zzfake:12345": false, "zz": false, "cpu": false, "zzfake:0,zzfake:1": false} {
		assert.Equal(t, want, ValidSpec(spec), "%q", spec)
	}
	got, err := Select("zzfake")
	require.NoError(t, err)
	assert.Equal(t, 1, got[0].Index, "the first GPU")
	assert.Equal(t, "zzfake:1", got[0].Spec())
	got, err = Select("zzfake:all")
	require.NoError(t, err)
	assert.Len(t, got, 3)
	_, err = Select("zzfake:3")
	assert.EqualError(t, err, "no zzfake device 3: there are 3, zzfake:0 to zzfake:2 ('nqueens devices' lists them)")
	assert.Panics(t, func() { Register(Kind{Name: "zzfake", Devices: devices(1), Open: open}) }, "a name taken")
	for _, bad := range []string{"", "cpu", "all", "Fake", "9x", "a:b"} {
		assert.Panics(t, func() { Register(Kind{Name: bad, Devices: devices(1), Open: open}) }, "%q", bad)
	}
	Register(Kind{Name: "zzempty", Devices: devices(0), Open: open, NoDevice: "install it"})
	t.Cleanup(func() { Unregister("zzempty") })
	_, err = Select("zzempty")
	assert.EqualError(t, err, "zzempty has no device (install it)")
}
