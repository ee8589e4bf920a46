package httpapi_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/testbrowser"
)

// runChromium runs headless Chromium on url with the extra arguments and
// returns its standard output.
func runChromium(t *testing.T, bin, url string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	base := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir(),
		"--virtual-time-budget=10000", "--window-size=1400,3000",
	}
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), url)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	return out
}

// TestDocsPageRenders renders /docs in headless Chromium: the rendered page
// must show the three services (the tag groups of the description), and
// the screenshot must be a real picture. Every request Chromium makes goes
// through the validating server, which proves the page needs nothing from
// outside.
func TestDocsPageRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a page in Chromium; skipped with -short")
	}
	bin := testbrowser.Path(t, "render /docs")
	srv := newServer(t, httpapi.Deps{})
	url := srv.URL + "/docs"

	dom := string(runChromium(t, bin, url, "--dump-dom"))
	for _, want := range []string{"Holdings and knowledge base", "Publication search", "Resource management", "List vendors", "Search titles across all packages"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered /docs does not show %q (%d bytes of DOM)", want, len(dom))
		}
	}
	if t.Failed() {
		t.Logf("DOM begins: %.2000s", dom)
	}

	shot := filepath.Join(t.TempDir(), "docs.png")
	if dir := os.Getenv("KBSERVER_DOCS_SCREENSHOT_DIR"); dir != "" {
		shot = filepath.Join(dir, "docs.png") // to look at it
	}
	runChromium(t, bin, url, "--screenshot="+shot)
	b, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if len(b) < 50_000 || !strings.HasPrefix(string(b), "\x89PNG") {
		t.Errorf("screenshot %s is %d bytes; want a PNG of a rendered page", shot, len(b))
	}
}
