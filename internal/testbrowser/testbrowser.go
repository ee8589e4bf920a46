// Package testbrowser finds the Chromium that page tests drive. Without one
// a test is skipped, saying how to install it, except on CI (CI=true),
// where .ci/run installs Debian's chromium and a missing one fails.
package testbrowser

import (
	"os"
	"os/exec"
	"testing"
)

// Path returns the path of chromium or chromium-browser in PATH, skipping
// (or on CI failing) t when there is neither; what says what the test
// would have done with it.
func Path(t testing.TB, what string) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium or chromium-browser in PATH; .ci/run installs Debian's chromium")
	}
	t.Skip("no chromium or chromium-browser in PATH: install it (apt-get install chromium) to " + what)
	return ""
}
