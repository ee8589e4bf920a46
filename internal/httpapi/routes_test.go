package httpapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
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
		res, _ := apitest.Do(t, &client, method, srv.URL+concretePath(pattern), nil, "x-api-key", "lib-key", "password", "pf-pass")
		if res.StatusCode == http.StatusNotImplemented {
			t.Errorf("%s: 501 (%s)", r.Pattern, res.Header.Get("X-Error-Message"))
		}
	}
	if n < 50 {
		t.Errorf("only %d routes served; expected every operation of the three services", n)
	}
}
