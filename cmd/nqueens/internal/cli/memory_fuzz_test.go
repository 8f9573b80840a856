package cli

import "testing"

// FuzzMemoryLimit: any --memory value is a positive size or a usage error.
func FuzzMemoryLimit(f *testing.F) {
	for _, s := range []string{"8GiB", "500MB", "1073741824", "12x", "", "0", "-5MB", "1e30", "lots", "9999999999999 EiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := MemoryLimit(s)
		if err != nil {
			if len(err.Error()) > 300 {
				t.Fatalf("message of %d bytes", len(err.Error()))
			}
			return
		}
		if s != "" && b <= 0 {
			t.Fatalf("%q: %d bytes", s, b)
		}
	})
}
