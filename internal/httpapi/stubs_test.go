package httpapi_test

import (
	"encoding/json"
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

// TestNotImplementedRoutes checks every route that is not served yet (none
// in this version of kbserver): the holdings and resource management ones
// check the API key first and then answer 501 with code 1012 as an error
// array; the publication search ones authenticate the profile and then
// answer 501 with no body and the message in X-Error-Message.
func TestNotImplementedRoutes(t *testing.T) {
	srv := newServer(t, httpapi.Deps{})
	for _, r := range httpapi.Routes() {
		if r.Implemented {
			continue
		}
		method, pattern, _ := strings.Cut(r.Pattern, " ")
		path := concretePath(pattern)
		wantMessage := "Not implemented yet: " + r.Pattern
		t.Run(r.Pattern, func(t *testing.T) {
			if strings.HasPrefix(pattern, "/pf/") {
				if res, body := sendPassword(t, srv, path, ""); res.StatusCode != 401 || len(body) != 0 {
					t.Errorf("without a password: status %d, body %q; want 401, no body", res.StatusCode, body)
				}
				res, body := sendPassword(t, srv, path, "pf-pass")
				if res.StatusCode != 501 || len(body) != 0 || res.Header.Get("X-Error-Message") != wantMessage {
					t.Errorf("status %d, X-Error-Message %q, body %q; want 501, %q, no body",
						res.StatusCode, res.Header.Get("X-Error-Message"), body, wantMessage)
				}
				return
			}
			if res, body := sendKey(t, srv, method, path, ""); res.StatusCode != 401 {
				t.Errorf("without a key: status %d, body %s; want 401", res.StatusCode, body)
			}
			if res, body := sendKey(t, srv, method, path, "wrong-key"); res.StatusCode != 401 {
				t.Errorf("with a wrong key: status %d, body %s; want 401", res.StatusCode, body)
			}
			res, body := sendKey(t, srv, method, path, "lib-key")
			var errs []struct {
				Code    int    `json:"code"`
				Subcode int    `json:"subcode"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal(body, &errs); err != nil || res.StatusCode != 501 || len(errs) != 1 ||
				errs[0].Code != 1012 || errs[0].Message != wantMessage {
				t.Errorf("status %d, body %s; want 501 with [{code 1012, %q}]", res.StatusCode, body, wantMessage)
			}
		})
	}
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
		if !r.Implemented {
			continue
		}
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
