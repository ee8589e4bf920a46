package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
)

// recordingObserver records what Serve tells observers.
type recordingObserver struct {
	started  int
	finished []string
}

func (o *recordingObserver) Started() { o.started++ }
func (o *recordingObserver) Finished(service, route string, status int, d time.Duration) {
	o.finished = append(o.finished, fmt.Sprintf("%s %s %d", service, route, status))
}

// TestRequestLogLine checks the one log line of a request: what it says,
// and that neither the API key, the password nor the query is in it.
func TestRequestLogLine(t *testing.T) {
	keys := envKeys{"secret-key-123": {ID: 1, CustomerID: "custA", Environment: kb.Production}}
	ok := func(w http.ResponseWriter, r *http.Request) error { return WriteJSON(w, 200, "ok") }
	h, logs := testServer(t, 1<<20, Route{
		Pattern: "GET /c/{custid}/things", Service: "holdings",
		Handler: RequireCustomerKey(KeyAuth{Keys: keys})(ok),
	})
	res, body := apitest.Do(t, apitest.Local(h), "GET", "/c/custA/things?search=private-words", nil,
		APIKeyHeader, "secret-key-123", PasswordHeader, "hunter2", "X-Request-Id", "req-42")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	line := strings.TrimSpace(logs.String())
	var got map[string]any
	if err := json.Unmarshal([]byte(line), &got); err != nil || strings.Contains(line, "\n") {
		t.Fatalf("want one JSON line, got %q (%v)", line, err)
	}
	want := map[string]any{
		"msg": "request", "method": "GET", "path": "/c/custA/things", "route": "GET /c/{custid}/things",
		"service": "holdings", "status": float64(200), "custid": "custA", "request_id": "req-42",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("log %s = %v, want %v", k, got[k], v)
		}
	}
	if _, ok := got["duration"]; !ok {
		t.Error("log line has no duration")
	}
	for _, secret := range []string{"secret-key-123", "hunter2", "private-words"} {
		if strings.Contains(line, secret) {
			t.Errorf("log line contains %q: %s", secret, line)
		}
	}
}

// TestQuietRoutes: a quiet route's successes log at debug level, its
// failures at info.
func TestQuietRoutes(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	status := 200
	mux := http.NewServeMux()
	Mount(mux, logger, []Route{{Pattern: "GET /healthz", Quiet: true, Handler: func(w http.ResponseWriter, r *http.Request) error {
		return WriteJSON(w, status, "x")
	}}})
	h := Serve(Fallback(mux), logger, 1<<20)
	apitest.Do(t, apitest.Local(h), "GET", "/healthz", nil)
	status = 503
	apitest.Do(t, apitest.Local(h), "GET", "/healthz", nil)
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"level":"DEBUG"`) || !strings.Contains(lines[1], `"level":"INFO"`) {
		t.Errorf("log lines of a quiet route's 200 and 503:\n%s", logs.String())
	}
}

func TestServeTellsObservers(t *testing.T) {
	var o recordingObserver
	mux := http.NewServeMux()
	Mount(mux, nil, []Route{{Pattern: "GET /x", Service: "svc", Handler: func(w http.ResponseWriter, r *http.Request) error {
		return kb.NotFound("Thing")
	}}})
	h := Serve(Fallback(mux), nil, 1<<20, &o)
	apitest.Do(t, apitest.Local(h), "GET", "/x", nil)
	apitest.Do(t, apitest.Local(h), "GET", "/nowhere", nil)
	want := []string{"svc GET /x 404", "  404"}
	if o.started != 2 || strings.Join(o.finished, "|") != strings.Join(want, "|") {
		t.Errorf("started %d, finished %q; want 2 and %q", o.started, o.finished, want)
	}
}

// TestAbortedRequestCounted: a handler that aborts with
// http.ErrAbortHandler is still finished for the observers (the in-flight
// gauge goes down) before the panic goes on to net/http.
func TestAbortedRequestCounted(t *testing.T) {
	var o recordingObserver
	mux := http.NewServeMux()
	Mount(mux, nil, []Route{{Pattern: "GET /x", Service: "svc", Handler: func(w http.ResponseWriter, r *http.Request) error {
		panic(http.ErrAbortHandler)
	}}})
	h := Serve(Fallback(mux), slog.New(slog.NewTextHandler(io.Discard, nil)), 1<<20, &o)
	func() {
		defer func() {
			if p := recover(); p != http.ErrAbortHandler {
				t.Errorf("panic %v, want http.ErrAbortHandler passed on", p)
			}
		}()
		apitest.Do(t, apitest.Local(h), "GET", "/x", nil)
	}()
	if o.started != 1 || len(o.finished) != 1 || o.finished[0] != fmt.Sprintf("svc GET /x %d", statusAborted) {
		t.Errorf("started %d, finished %q; want 1 and one with status %d", o.started, o.finished, statusAborted)
	}
}
