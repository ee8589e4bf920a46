package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/apitest"
)

// How long the tests wait for serve: long enough for a loaded machine (the
// waits end as soon as their condition holds: only a failing test waits
// them out).
const (
	// startWait is for serve's listening line, after it has opened (and
	// on PostgreSQL migrated) the store, and for its readiness.
	startWait = 2 * time.Minute
	// stopWait is for serve to stop: it gives requests in flight up to
	// shutdownTimeout, and closing the store may wait up to 15 s for pgx
	// to close a connection whose query was cancelled.
	stopWait = shutdownTimeout + time.Minute
)

// server is a kbserver serve running in the test.
type server struct {
	stdout, stderr *apitest.Buffer
	cancel         context.CancelFunc
	done           chan error
}

func startServe(t *testing.T, args ...string) *server {
	t.Helper()
	return startServeEnv(t, nil, args...)
}

// startServeEnv starts kbserver with args and the environment variables
// env.
func startServeEnv(t *testing.T, env map[string]string, args ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	s := &server{stdout: &apitest.Buffer{}, stderr: &apitest.Buffer{}, cancel: cancel, done: make(chan error, 1)}
	go func() {
		s.done <- run(ctx, args, func(k string) string { return env[k] }, strings.NewReader(""), s.stdout, s.stderr)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-s.done:
		case <-time.After(stopWait):
			t.Errorf("serve did not stop within %s", stopWait)
		}
	})
	return s
}

// stop cancels the context (as SIGINT would) and returns run's error.
func (s *server) stop(t *testing.T) error {
	t.Helper()
	s.cancel()
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		return err
	case <-time.After(stopWait):
		// What shutdown waits for: every goroutine's stack (serve runs in
		// this process).
		buf := make([]byte, 4<<20)
		t.Fatalf("serve did not stop within %s; goroutines:\n%s", stopWait, buf[:runtime.Stack(buf, true)])
		return nil
	}
}

// waitCurl waits for the curl line of serve --demo and returns its key and
// URL.
func (s *server) waitCurl(t *testing.T) (key, url string) {
	t.Helper()
	curlLine := regexp.MustCompile(`curl -H 'x-api-key: ([^']+)' '([^']+)'`)
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		if m := curlLine.FindStringSubmatch(s.stdout.String()); m != nil {
			return m[1], m[2]
		}
		select {
		case err := <-s.done:
			t.Fatalf("serve ended: %v\nstderr:\n%s", err, s.stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("no curl line after 3 minutes\nstdout:\n%s\nstderr:\n%s", s.stdout.String(), s.stderr.String())
	return "", ""
}

func TestServeDemo(t *testing.T) {
	db := tempDB(t)
	args := []string{"serve", "--demo", "--demo-titles", "2000", "--addr", "127.0.0.1:0", "--db", db}
	s := startServe(t, args...)
	key, url := s.waitCurl(t)
	if !strings.Contains(s.stdout.String(), "API key for the sandbox environment") {
		t.Errorf("the demo key is not said to be a sandbox key:\n%s", s.stdout.String())
	}
	if !strings.Contains(s.stdout.String(), "/az/demo.main.az/  the A–Z page of profile demo.main.az (guest access)") {
		t.Errorf("the banner does not name the demo's A–Z page:\n%s", s.stdout.String())
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || strings.HasSuffix(strings.SplitN(url, "/rm/", 2)[0], ":0") {
		t.Fatalf("curl URL %q does not name the actual port", url)
	}
	if !strings.Contains(url, "/rm/rmaccounts/demo/vendors?count=10&offset=1") {
		t.Errorf("curl URL %q", url)
	}
	res, body := apitest.Do(t, http.DefaultClient, "GET", url, nil, "x-api-key", key)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, body)
	}
	var vendors struct {
		TotalResults int `json:"totalResults"`
		Vendors      []struct {
			VendorName       string `json:"vendorName"`
			PackagesSelected int    `json:"packagesSelected"`
		} `json:"vendors"`
	}
	if err := json.Unmarshal([]byte(body), &vendors); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	selected := 0
	for _, v := range vendors.Vendors {
		selected += v.PackagesSelected
	}
	if vendors.TotalResults < 6 || selected == 0 { // 5 generated vendors and the customer's own
		t.Errorf("demo vendors: %s", body)
	}
	if res, _ := apitest.Do(t, http.DefaultClient, "GET", url, nil, "x-api-key", "wrong-key"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong key: %d", res.StatusCode)
	}
	if res, _ := apitest.Do(t, http.DefaultClient, "GET", strings.Replace(url, "/vendors?", "/proxies?", 1), nil, "x-api-key", key); res.StatusCode != http.StatusOK {
		t.Errorf("proxies: %d", res.StatusCode)
	}
	// The demo's guest profile searches the demo collection without a password.
	// It searches the search index, which serve builds in the background:
	// the test waits for readiness rather than count on the search's own
	// wait (--search-wait) to outlast the build on a loaded machine.
	base := strings.SplitN(url, "/rm/", 2)[0]
	s.waitReady(t, base)
	pf := base + "/pf/pfaccount/demo.main.az/publications?includefacets=true&count=5"
	res, body = apitest.Do(t, http.DefaultClient, "GET", pf, nil)
	var found struct {
		SearchResult struct{ Statistics struct{ TotalHits int } }
	}
	if err := json.Unmarshal(body, &found); res.StatusCode != http.StatusOK || err != nil || found.SearchResult.Statistics.TotalHits == 0 {
		t.Errorf("GET %s: %d %.300s", pf, res.StatusCode, body)
	}
	stderr := s.stderr.String()
	for _, w := range []string{"msg=listening addr=127.0.0.1:", "generating demo knowledge base: 100%", "demo customer created"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("log lacks %q:\n%s", w, stderr)
		}
	}
	if err := s.stop(t); err != nil {
		t.Fatalf("serve after cancel: %v", err)
	}
	if !strings.Contains(s.stderr.String(), "msg=stopped") {
		t.Errorf("no graceful stop in log:\n%s", s.stderr.String())
	}

	// A second start keeps the demo and prints a fresh key; the old one
	// still works.
	s2 := startServe(t, args...)
	key2, url2 := s2.waitCurl(t)
	if key2 == key {
		t.Error("second start printed the same key")
	}
	if strings.Contains(s2.stderr.String(), "generating") || !strings.Contains(s2.stderr.String(), "demo customer exists") {
		t.Errorf("second start regenerated the demo:\n%s", s2.stderr.String())
	}
	for _, k := range []string{key, key2} {
		if res, body := apitest.Do(t, http.DefaultClient, "GET", url2, nil, "x-api-key", k); res.StatusCode != http.StatusOK {
			t.Errorf("key after restart: %d %s", res.StatusCode, body)
		}
	}
	if err := s2.stop(t); err != nil {
		t.Fatalf("second serve after cancel: %v", err)
	}
}

func TestServePlain(t *testing.T) {
	s := startServe(t, "--db", tempDB(t), "serve", "--addr", "127.0.0.1:0")
	re := regexp.MustCompile(`msg=listening addr=(127\.0\.0\.1:\d+)`)
	var addr string
	for deadline := time.Now().Add(startWait); addr == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(s.stderr.String()); m != nil {
			addr = m[1]
		}
	}
	if addr == "" {
		t.Fatalf("no listening line:\n%s", s.stderr.String())
	}
	if res, _ := apitest.Do(t, http.DefaultClient, "GET", "http://"+addr+"/rm/rmaccounts/x/vendors", nil); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("request without a key: %d", res.StatusCode)
	}
	for _, want := range []string{"kbserver is serving at http://" + addr + " (it keeps this terminal", "http://" + addr + "/  the landing page",
		"http://" + addr + "/docs  the API documentation", "http://" + addr + "/console/  the staff console"} {
		if !strings.Contains(s.stdout.String(), want) {
			t.Errorf("serve's banner lacks %q:\n%s", want, s.stdout.String())
		}
	}
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
}

func TestServeListenError(t *testing.T) {
	r := kbs(t, "serve", "--db", tempDB(t), "--addr", "256.0.0.1:http-nope")
	if r.code != 1 || !strings.Contains(r.stderr, "listen") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestServeDemoGrows checks a demo in two parts: the first start serves
// the first part, generates the second in the background, and a start
// after a stop (whether or not the second part was done) ends with the
// whole demo: every package of the plan, one in eight selected.
func TestServeDemoGrows(t *testing.T) {
	const titles = 12_000
	d, err := newDemo(titles)
	if err != nil {
		t.Fatal(err)
	}
	if d.stride < 2 {
		t.Fatalf("a demo of %d titles has one part: the test needs two", titles)
	}
	db := tempDB(t)
	args := []string{"serve", "--demo", "--demo-titles", fmt.Sprint(titles), "--addr", "127.0.0.1:0", "--db", db}
	s := startServe(t, args...)
	s.waitCurl(t)
	if err := s.stop(t); err != nil {
		t.Fatalf("serve after cancel: %v", err)
	}
	if !strings.Contains(s.stderr.String(), "part=first") {
		t.Fatalf("the first start did not generate the first part:\n%s", s.stderr.String())
	}
	s2 := startServe(t, args...)
	key, url := s2.waitCurl(t)
	base := strings.SplitN(url, "/rm/", 2)[0]
	for deadline := time.Now().Add(startWait); !strings.Contains(s.stderr.String()+s2.stderr.String(), "demo knowledge base complete"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the demo's second part was not generated:\n%s\n%s", s.stderr.String(), s2.stderr.String())
		}
	}
	s2.waitReady(t, base)
	for _, c := range []struct {
		filter string
		want   int
	}{
		{"", d.packages},
		{"&selection=selected", (d.packages + 7) / 8},
	} {
		u := base + "/rm/rmaccounts/demo/packages?count=1" + c.filter
		res, body := apitest.Do(t, http.DefaultClient, "GET", u, nil, "x-api-key", key)
		var got struct {
			TotalResults int `json:"totalResults"`
		}
		if err := json.Unmarshal(body, &got); res.StatusCode != http.StatusOK || err != nil || got.TotalResults != c.want {
			t.Errorf("GET %s: %d, %d packages, want %d: %.300s", u, res.StatusCode, got.TotalResults, c.want, body)
		}
	}
	if err := s2.stop(t); err != nil {
		t.Fatalf("second serve after cancel: %v", err)
	}
}
