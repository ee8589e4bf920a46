package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestMountSplit checks that the v2 routes and the routes they would
// conflict with in one ServeMux are served side by side, and which answers
// a path both could claim.
func TestMountSplit(t *testing.T) {
	named := func(name string) HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) error {
			_, err := io.WriteString(w, name+" "+r.PathValue("custid"))
			return err
		}
	}
	h := MountSplit(V2Prefix, nil, []Route{
		{Pattern: "GET /rm/rmaccounts/{custid}/titles/{kbid}", Handler: named("title")},
		{Pattern: "GET /rm/rmaccounts/{custid}/vendors", Handler: named("vendors")},
		{Pattern: "GET /rm/rmaccounts/v2/{custid}/lists", Handler: named("lists")},
		{Pattern: "PUT /rm/rmaccounts/v2/{custid}/lists/{packageid}", Handler: named("put list")},
	})
	for _, tc := range []struct {
		method, path string
		status       int
		body         string
	}{
		{"GET", "/rm/rmaccounts/c1/titles/7", 200, "title c1"},
		{"GET", "/rm/rmaccounts/v2/c1/lists", 200, "lists c1"},
		{"PUT", "/rm/rmaccounts/v2/c1/lists/3", 200, "put list c1"},
		// Both could claim it; the v2 route is the more specific reading.
		{"GET", "/rm/rmaccounts/v2/titles/lists", 200, "lists titles"},
		// No v2 route has the path: a customer named v2 keeps the others.
		{"GET", "/rm/rmaccounts/v2/titles/7", 200, "title v2"},
		{"GET", "/rm/rmaccounts/v2/vendors", 200, "vendors v2"},
		// Neither has it: the v2 side answers, 405 for a known path.
		{"POST", "/rm/rmaccounts/v2/c1/lists", 405, ""},
		{"GET", "/rm/rmaccounts/v2/c1/nothing", 404, ""},
		{"GET", "/rm/rmaccounts/c1/nothing", 404, ""},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != tc.status || (tc.body != "" && rec.Body.String() != tc.body) {
			t.Errorf("%s %s: %d %q, want %d %q", tc.method, tc.path, rec.Code, rec.Body.String(), tc.status, tc.body)
		}
	}
}

func TestRoutePath(t *testing.T) {
	for in, want := range map[string]string{"GET /a/{b}": "/a/{b}", "/a/": "/a/", "PUT  /x": "/x"} {
		if got := routePath(in); got != want {
			t.Errorf("routePath(%q) = %q, want %q", in, got, want)
		}
	}
}
