package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// newServer runs the server with the given deps over a new store of the
// test run's kind (package testdb) holding one customer, "lib", with key "lib-key". Every exchange is checked
// against the API description (package apitest).
func newServer(t *testing.T, deps httpapi.Deps) *httptest.Server {
	t.Helper()
	ctx := t.Context()
	st := storetest.Searched(t.Context(), testdb.Open(t))
	if _, err := st.AddCustomer(ctx, "lib", "A Library"); err != nil {
		t.Fatal(err)
	}
	if err := st.AddAPIKey(ctx, "lib", kb.HashAPIKey("lib-key"), kb.Production); err != nil {
		t.Fatal(err)
	}
	// Publication search profiles: lib.main.pf (password pf-pass) and
	// lib.main.guest (guest access, password guest-pass).
	for _, p := range []struct {
		id, password string
		guest        bool
	}{{"pf", "pf-pass", false}, {"guest", "guest-pass", true}} {
		hash, err := kb.HashPassword(p.password)
		if err != nil {
			t.Fatal(err)
		}
		id := kb.ProfileID{CustomerID: "lib", GroupID: "main", ProfileID: p.id}
		if err := st.SaveProfile(ctx, kb.Profile{ID: id, PasswordHash: hash, Guest: p.guest}); err != nil {
			t.Fatal(err)
		}
	}
	deps.Store = storetest.Raw(st)
	return apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), st), deps))
}

func TestDefaults(t *testing.T) {
	srv := newServer(t, httpapi.Deps{}) // no logger, default body limit
	res, body := apitest.Do(t, srv.Client(), "GET", srv.URL+"/rm/rmaccounts/lib/vendors", nil, "x-api-key", "lib-key")
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	var list struct {
		TotalResults int               `json:"totalResults"`
		Vendors      []json.RawMessage `json:"vendors"`
	}
	if err := json.Unmarshal(body, &list); err != nil || list.TotalResults != 1 {
		t.Errorf("vendor list %s: %v", body, err)
	}

	// A body within the default limit reaches the router (405 here: the
	// route only reads); one over it is refused.
	res, _ = apitest.Do(t, srv.Client(), "POST", srv.URL+"/rm/rmaccounts/lib/vendors", strings.NewReader(strings.Repeat("x", 1000)), "x-api-key", "lib-key")
	if res.StatusCode != 405 {
		t.Errorf("small body: status %d, want 405", res.StatusCode)
	}
	res, body = apitest.Do(t, srv.Client(), "POST", srv.URL+"/rm/rmaccounts/lib/vendors", strings.NewReader(strings.Repeat("x", int(httpapi.DefaultMaxBodyBytes)+1)), "x-api-key", "lib-key")
	if res.StatusCode != 413 {
		t.Errorf("large body: status %d, want 413", res.StatusCode)
	}
	if !strings.Contains(string(body), `"code":1008`) {
		t.Errorf("large body: %s", body)
	}

	res, body = apitest.Do(t, srv.Client(), "HEAD", srv.URL+"/rm/rmaccounts/lib/", nil, "x-api-key", "lib-key")
	if res.StatusCode != 200 || len(body) != 0 {
		t.Errorf("HEAD: status %d, body %q", res.StatusCode, body)
	}
}

func TestMaxBodyBytes(t *testing.T) {
	srv := newServer(t, httpapi.Deps{MaxBodyBytes: 10})
	res, body := apitest.Do(t, srv.Client(), "PUT", srv.URL+"/rm/rmaccounts/lib/", strings.NewReader(`{"proxy":{"id":"<n>"}}`), "x-api-key", "lib-key")
	if res.StatusCode != 413 || res.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("status %d, Content-Type %q, body %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
}

// TestUnknownRoutesInTheirServiceStyle: a path or method a service does
// not have is answered as that service answers errors: the publication
// search and resource management services with no body and the message
// in X-Error-Message, the pages with a page, the rest with a JSON array.
func TestUnknownRoutesInTheirServiceStyle(t *testing.T) {
	srv := newServer(t, httpapi.Deps{})
	for _, tt := range []struct {
		method, path string
		status       int
		style        string // header, page or json
	}{
		{"GET", "/pf/pfaccount/lib.main.guest/nothing", 404, "header"},
		{"DELETE", "/pf/pfaccount/lib.main.guest/publications", 405, "header"},
		{"GET", "/pf/nothing", 404, "header"},
		{"GET", "/rm/rmaccounts/lib/license/a/b/c", 404, "header"},
		{"PATCH", "/rm/rmaccounts/lib/license", 405, "header"},
		{"GET", "/rm/rmaccounts/lib/assignment/x/y", 404, "header"},
		{"GET", "/rm/rmaccounts/lib/nothing", 404, "json"},
		{"PATCH", "/rm/rmaccounts/lib/vendors", 405, "json"},
		{"GET", "/rm/rmaccounts/lib/licenses", 404, "json"}, // not a kind of the service
		{"GET", "/nothing", 404, "json"},
		{"GET", "/console/nothing", 404, "page"},
		{"DELETE", "/console/", 405, "page"},
		{"GET", "/az/lib.main.guest/nothing", 404, "page"},
		{"GET", "/assets/x/y", 404, "page"},
		{"GET", "/pf", 404, "header"},
		{"GET", "/az", 404, "page"},
		{"GET", "/rm/rmaccounts/v2/license/x/y", 404, "json"}, // under the v2 lists' prefix
	} {
		req, err := http.NewRequestWithContext(t.Context(), tt.method, srv.URL+tt.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		ct, msg := resp.Header.Get("Content-Type"), resp.Header.Get("X-Error-Message")
		var style string
		switch {
		case len(body) == 0 && msg != "":
			style = "header"
		case strings.HasPrefix(ct, "text/html"):
			style = "page"
		case strings.HasPrefix(ct, "application/json") && strings.HasPrefix(string(body), "["):
			style = "json"
		}
		if resp.StatusCode != tt.status || style != tt.style {
			t.Errorf("%s %s: %d %s (Content-Type %q, X-Error-Message %q, %d bytes); want %d %s",
				tt.method, tt.path, resp.StatusCode, style, ct, msg, len(body), tt.status, tt.style)
		}
	}
}
