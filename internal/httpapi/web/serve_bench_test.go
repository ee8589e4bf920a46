package web

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kbserver/kbserver/internal/metrics"
)

// BenchmarkServeMetrics measures what the request metrics add to a
// request through Serve (log line, routing, adapter), against the same
// without an observer.
func BenchmarkServeMetrics(b *testing.B) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	mux := http.NewServeMux()
	Mount(mux, logger, []Route{{Pattern: "GET /rm/rmaccounts/{custid}/vendors", Service: "holdings",
		Handler: func(w http.ResponseWriter, r *http.Request) error { return WriteJSON(w, 200, "ok") }}})
	for _, bc := range []struct {
		name      string
		observers []Observer
	}{
		{"none", nil},
		{"metrics", []Observer{metrics.New(nil, logger)}},
	} {
		h := Serve(Fallback(mux), logger, 1<<20, bc.observers...)
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, "/rm/rmaccounts/lib/vendors", nil)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
			}
		})
	}
}
