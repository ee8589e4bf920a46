package httpapi_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/storetest"
)

// TestClientGone: a request whose client has gone before the answer (its
// context is done, so the store's work fails with "context canceled") is
// logged and counted as a client abort, 499, never as a 500, on every
// service; no internal error is logged.
func TestClientGone(t *testing.T) {
	st, res := opsStore(t)
	var logs apitest.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	h := httpapi.NewServer(storetest.SearchOf(t.Context(), st), httpapi.Deps{Store: storetest.Raw(st), Logger: logger})
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	pkg := fmt.Sprintf("/rm/rmaccounts/lib/vendors/%d/packages/%d", res.VendorID, res.PackageID)
	for _, c := range []struct{ method, path, body, route string }{
		{"GET", "/rm/rmaccounts/lib/vendors?count=10&offset=1", "", "GET /rm/rmaccounts/{custid}/vendors"},
		{"PUT", pkg, `{"isSelected":true}`, "PUT /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}"},
		{"GET", "/pf/pfaccount/lib.main.az/publications?search=journal", "", "GET /pf/pfaccount/{profile}/publications"},
		{"GET", "/rm/rmaccounts/lib/license?count=10&offset=1", "", "GET /rm/rmaccounts/{custid}/license"},
	} {
		req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body)).WithContext(gone)
		req.Header.Set("x-api-key", "prod-key")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Errorf("%s %s with the client gone: %d %s", c.method, c.path, rec.Code, rec.Body)
		}
	}
	srv := apitest.NewServer(t, h)
	resp, body := apitest.Do(t, http.DefaultClient, "GET", srv.URL+"/metrics", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("GET /metrics: %d", resp.StatusCode)
	}
	scrape := string(body)
	for _, route := range []string{"GET /rm/rmaccounts/{custid}/vendors", "PUT /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}",
		"GET /pf/pfaccount/{profile}/publications", "GET /rm/rmaccounts/{custid}/license"} {
		service := "holdings"
		switch {
		case strings.HasPrefix(route, "GET /pf/"):
			service = "publication-search"
		case strings.HasSuffix(route, "/license"):
			service = "resource-management"
		}
		if got, ok := metricValue(scrape, `kbserver_http_requests_total{code="499",route="`+route+`",service="`+service+`"}`); !ok || got != 1 {
			t.Errorf("%s counted as 499: %v (present %v)", route, got, ok)
		}
	}
	if strings.Contains(scrape, `code="500"`) {
		t.Error("a client abort was counted as a 500")
	}
	log := logs.String()
	if strings.Contains(log, "level=ERROR") || strings.Contains(log, "internal error") {
		t.Errorf("a client abort was logged as an error:\n%s", log)
	}
	if n := strings.Count(log, "status=499"); n != 4 {
		t.Errorf("%d request lines with status 499, want 4:\n%s", n, log)
	}
}

// TestLogLinesCutValues: an error that quotes a request's values (here a
// 600-byte path) reaches the log cut to a short prefix.
func TestLogLinesCutValues(t *testing.T) {
	st, _ := opsStore(t)
	var logs apitest.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	srv := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), st), httpapi.Deps{Store: storetest.Raw(st), Logger: logger}))
	long := strings.Repeat("x", 600)
	apitest.Do(t, http.DefaultClient, "GET", srv.URL+"/rm/rmaccounts/"+long+"/vendors?count=10&offset=1", nil, "x-api-key", "prod-key")
	if strings.Contains(logs.String(), long) {
		t.Errorf("the log carries the whole 600-byte value:\n%.400s", logs.String())
	}
}
