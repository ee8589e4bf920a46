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
	"github.com/kbserver/kbserver/internal/testdb"
)

// newServer runs the server with the given deps over a new store of the
// test run's kind (package testdb) holding one customer, "lib", with key "lib-key". Every exchange is checked
// against the API description (package apitest).
func newServer(t *testing.T, deps httpapi.Deps) *httptest.Server {
	t.Helper()
	ctx := t.Context()
	st := testdb.Open(t)
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
	deps.Store = st
	return apitest.NewServer(t, httpapi.NewServer(deps))
}

// send sends a request with the fixture customer's key.
func send(t *testing.T, srv *httptest.Server, method, path string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	return sendBody(t, srv, method, path, "lib-key", body)
}

// sendBody sends a request with the given API key (none when empty) and
// returns the response and its body.
func sendBody(t *testing.T, srv *httptest.Server, method, path, key string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("x-api-key", key)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

func TestDefaults(t *testing.T) {
	srv := newServer(t, httpapi.Deps{}) // no logger, default body limit
	res, body := send(t, srv, "GET", "/rm/rmaccounts/lib/vendors", nil)
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
	res, _ = send(t, srv, "POST", "/rm/rmaccounts/lib/vendors", strings.NewReader(strings.Repeat("x", 1000)))
	if res.StatusCode != 405 {
		t.Errorf("small body: status %d, want 405", res.StatusCode)
	}
	res, body = send(t, srv, "POST", "/rm/rmaccounts/lib/vendors", strings.NewReader(strings.Repeat("x", int(httpapi.DefaultMaxBodyBytes)+1)))
	if res.StatusCode != 413 {
		t.Errorf("large body: status %d, want 413", res.StatusCode)
	}
	if !strings.Contains(string(body), `"code":1008`) {
		t.Errorf("large body: %s", body)
	}

	res, body = send(t, srv, "HEAD", "/rm/rmaccounts/lib/", nil)
	if res.StatusCode != 200 || len(body) != 0 {
		t.Errorf("HEAD: status %d, body %q", res.StatusCode, body)
	}
}

func TestMaxBodyBytes(t *testing.T) {
	srv := newServer(t, httpapi.Deps{MaxBodyBytes: 10})
	res, body := send(t, srv, "PUT", "/rm/rmaccounts/lib/", strings.NewReader(`{"proxy":{"id":"<n>"}}`))
	if res.StatusCode != 413 || res.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("status %d, Content-Type %q, body %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
}
