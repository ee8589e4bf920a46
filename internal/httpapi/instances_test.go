package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestTwoServersOneDatabase runs two servers over one PostgreSQL database,
// as instances behind a load balancer: a change made through one is served
// by the other, and a snapshot started on one is built once and served
// alike by both. (That exactly one build runs, whichever server claims it,
// is checked at the store level by internal/postgres's
// TestSnapshotInstances, which can count builds.)
func TestTwoServersOneDatabase(t *testing.T) {
	if testdb.Kind() != "postgres" {
		t.Skip("several instances over one database is the PostgreSQL store's set-up; this run is on SQLite")
	}
	ctx := t.Context()
	dsn := testdb.NewDSN(t)
	stA, stB := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn)), storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	var rows []storetest.Row
	for i := range 300 {
		rows = append(rows, storetest.Row{Title: fmt.Sprintf("Title %03d", i), First: "2001-01-01",
			URL: fmt.Sprintf("https://x.example/%d", i), Publisher: "P", Type: "serial"})
	}
	res := storetest.Import(t, stA, "Vendor", "Package", kb.ContentEJournal, rows)
	if _, err := stA.AddCustomer(ctx, "lib", "A Library"); err != nil {
		t.Fatal(err)
	}
	if err := stA.AddAPIKey(ctx, "lib", kb.HashAPIKey("lib-key"), kb.Production); err != nil {
		t.Fatal(err)
	}
	for _, st := range []kb.Store{stA, stB} { // as kbserver serve does at its start
		if err := st.ResumeSnapshots(ctx); err != nil {
			t.Fatal(err)
		}
	}
	a := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), stA), httpapi.Deps{Store: storetest.Raw(stA)}))
	b := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), stB), httpapi.Deps{Store: storetest.Raw(stB)}))
	pkg := fmt.Sprintf("/rm/rmaccounts/lib/vendors/%d/packages/%d", res.VendorID, res.PackageID)

	// A change through A is what B serves.
	if r, _ := apitest.Do(t, a.Client(), http.MethodPut, a.URL+pkg, strings.NewReader(`{"isSelected":true}`),
		"x-api-key", "lib-key", "Content-Type", "application/json"); r.StatusCode != http.StatusNoContent {
		t.Fatalf("PUT package on A: %d", r.StatusCode)
	}
	var p struct {
		IsSelected    bool `json:"isSelected"`
		SelectedCount int  `json:"selectedCount"`
	}
	if r, body := apitest.Do(t, b.Client(), http.MethodGet, b.URL+pkg, nil, "x-api-key", "lib-key"); r.StatusCode != http.StatusOK || json.Unmarshal(body, &p) != nil ||
		!p.IsSelected || p.SelectedCount != len(rows) {
		t.Fatalf("GET package on B after A selected it: %d %s", r.StatusCode, body)
	}

	// A snapshot started on A: both report the same status and serve the
	// same pages.
	if r, body := apitest.Do(t, a.Client(), http.MethodPost, a.URL+"/rm/rmaccounts/lib/holdings", nil, "x-api-key", "lib-key"); r.StatusCode != http.StatusAccepted {
		t.Fatalf("POST holdings on A: %d %s", r.StatusCode, body)
	}
	if r, _ := apitest.Do(t, b.Client(), http.MethodPost, b.URL+"/rm/rmaccounts/lib/holdings", nil, "x-api-key", "lib-key"); r.StatusCode != http.StatusConflict &&
		r.StatusCode != http.StatusAccepted {
		t.Fatalf("POST holdings on B while A's is in progress or done: %d", r.StatusCode)
	}
	type snapshotStatus struct {
		Status     string `json:"status"`
		Created    string `json:"created"`
		TotalCount int    `json:"totalCount"`
	}
	status := func(name string, srv *httptest.Server, s *snapshotStatus) {
		t.Helper()
		r, body := apitest.Do(t, srv.Client(), http.MethodGet, srv.URL+"/rm/rmaccounts/lib/holdings/status", nil, "x-api-key", "lib-key")
		if r.StatusCode != http.StatusOK || json.Unmarshal(body, s) != nil {
			t.Fatalf("GET holdings/status on %s: %d %s", name, r.StatusCode, body)
		}
	}
	var sa, sb snapshotStatus
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		status("B", b, &sb)
		if sb.Status == "Completed" {
			break
		}
		if sb.Status != "In Progress" || time.Now().After(deadline) {
			t.Fatalf("status on B = %+v, want In Progress then Completed", sb)
		}
	}
	status("A", a, &sa)
	if sa != sb || sb.TotalCount != len(rows) {
		t.Fatalf("status on A %+v, on B %+v; want the same, with %d rows", sa, sb, len(rows))
	}
	for _, page := range []string{"format=kbart2&count=100&offset=1", "format=kbart2&count=100&offset=201"} {
		_, fromA := apitest.Do(t, a.Client(), http.MethodGet, a.URL+"/rm/rmaccounts/lib/holdings?"+page, nil, "x-api-key", "lib-key")
		_, fromB := apitest.Do(t, b.Client(), http.MethodGet, b.URL+"/rm/rmaccounts/lib/holdings?"+page, nil, "x-api-key", "lib-key")
		if string(fromA) != string(fromB) || !strings.Contains(string(fromA), `"holdings":[{`) {
			t.Fatalf("page %s: A serves %.200s, B %.200s; want the same rows", page, fromA, fromB)
		}
	}
}
