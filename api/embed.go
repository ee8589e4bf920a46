// Package api holds kbserver's OpenAPI 3.1 description of its three HTTP
// services (openapi.yaml in this directory), embedded in the binary. The
// server serves it at GET /openapi.yaml and GET /openapi.json, and the
// tests validate every request and response of the HTTP test suites
// against it.
package api

import (
	_ "embed"
	"sync"
)

//go:embed openapi.yaml
var description []byte

// YAML returns the description as written, in YAML. Callers must not
// modify the slice.
func YAML() []byte { return description }

// jsonOnce converts the description to JSON once per process.
var jsonOnce = sync.OnceValues(func() ([]byte, error) { return yamlToJSON(description) })

// JSON returns the description converted to JSON, with the keys in the
// order the YAML file has them, so that renderers list the operations in
// the written order. The conversion runs once; callers must not modify the
// slice.
func JSON() ([]byte, error) { return jsonOnce() }
