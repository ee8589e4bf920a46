package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi"
)

// wildcard matches a ServeMux path wildcard.
var wildcard = regexp.MustCompile(`\{[^}]*\}`)

// concretePath fills the wildcards of a ServeMux path with values of the
// test server's customer "lib".
func concretePath(path string) string {
	path = strings.TrimSuffix(path, "{$}")
	return wildcard.ReplaceAllStringFunc(path, func(w string) string {
		switch w {
		case "{custid}":
			return "lib"
		case "{profile}":
			return "lib.main.pf"
		}
		return "1"
	})
}

// sendKey sends a bodyless request with the given API key (none when empty).
func sendKey(t *testing.T, srv *httptest.Server, method, path, key string) (*http.Response, []byte) {
	t.Helper()
	return sendBody(t, srv, method, path, key, nil)
}

// TestServedRoutesDoNotAnswer501 sends every served route a request with
// the customer's key and the profile's password (and no body): whatever
// the route answers (an error for the made-up ids and the missing bodies,
// mostly), it is not 501.
func TestServedRoutesDoNotAnswer501(t *testing.T) {
	srv := newServer(t, httpapi.Deps{})
	client := *srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	n := 0
	for _, r := range httpapi.Routes() {
		n++
		method, pattern, _ := strings.Cut(r.Pattern, " ")
		req, err := http.NewRequest(method, srv.URL+concretePath(pattern), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("x-api-key", "lib-key")
		req.Header.Set("password", "pf-pass")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusNotImplemented {
			t.Errorf("%s: 501 (%s)", r.Pattern, res.Header.Get("X-Error-Message"))
		}
	}
	if n < 50 {
		t.Errorf("only %d routes served; expected every operation of the three services", n)
	}
}
