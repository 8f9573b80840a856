package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nqueens/nqueens/internal/backend/backendtest"
)

// TestRegisteredBackend: a back end that registers itself in its own
// folder (internal/backend/backendtest, "host") is listed by devices and
// version, counted on by --device with its specs, exactly, and named in
// the specs a wrong --device is told; nothing in the command names it.
func TestRegisteredBackend(t *testing.T) {
	backendtest.Register(t, 2)
	out, _ := runOK(t, "count", "11", "--device", "host", "-m", "mirror")
	assert.Equal(t, "2680\n", out)
	out, _ = runOK(t, "count", "10", "--device", "host:all", "-m", "mirror", "--json")
	assert.Contains(t, out, `"devices":["host device 0 (Go, a test back end)","host device 1 (Go, a test back end)"],"total":"724"`)
	out, _ = runOK(t, "devices")
	assert.Regexp(t, `(?m)^host:0 +host device 0 \(Go, a test back end\) +nqueens tests +cpu +1 `, out)
	assert.Regexp(t, `(?m)^host:1 `, out)
	out, _ = runOK(t, "devices", "--json")
	assert.Contains(t, out, `"kind":"host","index":1,"name":"host device 1 (Go, a test back end)"`)
	out, _ = runOK(t, "version")
	assert.Contains(t, out, "host:0 host device 0 (Go, a test back end); host:1 ")
	_, stderr, code := runErr(t, "count", "10", "--device", "gpu")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--device gpu is not a device (accepted: cpu, host, host:N, host:all, opencl, opencl:N, opencl:all or all)")
}
