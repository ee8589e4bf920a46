package httpapi_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// BenchmarkKeyRateLimit measures what the API key's rate limit adds to a
// small authenticated request (GET {custid}/proxies), served in process:
// "off" without a limit, "on" with a limit too large to refuse anything,
// so that every request takes a token (in memory on SQLite, one statement
// in the database on PostgreSQL). Run with KBSERVER_TEST_STORE=postgres
// for the shared buckets.
func BenchmarkKeyRateLimit(b *testing.B) {
	st := storetest.Searched(b.Context(), testdb.Open(b))
	ctx := b.Context()
	if _, err := st.AddCustomer(ctx, "lib", "A Library"); err != nil {
		b.Fatal(err)
	}
	if err := st.AddAPIKey(ctx, "lib", kb.HashAPIKey("bench-key"), kb.Production); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		limit web.Limit
	}{
		{"off", web.Limit{}},
		{"on", web.Limit{Rate: 1e9, Burst: 1e9}},
	} {
		h := httpapi.NewServer(storetest.SearchOf(b.Context(), st), httpapi.Deps{Store: storetest.Raw(st), KeyLimit: bc.limit, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, "/rm/rmaccounts/lib/proxies", nil)
				req.Header.Set("x-api-key", "bench-key")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
