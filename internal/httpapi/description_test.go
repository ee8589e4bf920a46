package httpapi_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
)

// remainder matches a ServeMux wildcard that takes the rest of the path.
var remainder = regexp.MustCompile(`\{(\w+)\.\.\.\}`)

// describedForm turns a ServeMux pattern into the "METHOD /path" form of
// the description: {$} (exactly this path, with its trailing slash) is
// dropped and {name...} becomes {name}.
func describedForm(pattern string) string {
	method, path, _ := strings.Cut(pattern, " ")
	path = strings.TrimSuffix(path, "{$}")
	path = remainder.ReplaceAllString(path, "{$1}")
	return method + " " + path
}

// TestRoutesMatchDescription fails when a route is registered but not
// described, or described but not registered. HEAD, which ServeMux answers
// for every GET route, is not described.
func TestRoutesMatchDescription(t *testing.T) {
	doc := apitest.Document(t)
	described := map[string]bool{} // "METHOD /path"
	for _, path := range doc.Paths.InMatchingOrder() {
		for method := range doc.Paths.Value(path).Operations() {
			described[method+" "+path] = true
		}
	}
	registered := map[string]bool{}
	for _, r := range httpapi.Routes() {
		key := describedForm(r.Pattern)
		if _, dup := registered[key]; dup {
			t.Errorf("route %s is registered twice", key)
		}
		registered[key] = true
	}

	var missing, extra []string
	for key := range registered {
		if _, ok := described[key]; !ok {
			missing = append(missing, key)
		}
	}
	for key := range described {
		if _, ok := registered[key]; !ok {
			extra = append(extra, key)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	if len(missing) > 0 {
		t.Errorf("registered but not in api/openapi.yaml:\n  %s", strings.Join(missing, "\n  "))
	}
	if len(extra) > 0 {
		t.Errorf("in api/openapi.yaml but not registered:\n  %s", strings.Join(extra, "\n  "))
	}
	if len(registered) < 50 {
		t.Errorf("only %d routes registered; expected every operation of the three services", len(registered))
	}
}

func TestDescribedForm(t *testing.T) {
	for pattern, want := range map[string]string{
		"GET /rm/rmaccounts/{custid}/{$}":    "GET /rm/rmaccounts/{custid}/",
		"GET /rm/rmaccounts/{custid}":        "GET /rm/rmaccounts/{custid}",
		"GET /docs/assets/{file...}":         "GET /docs/assets/{file}",
		"PUT /rm/rmaccounts/{custid}/x/{id}": "PUT /rm/rmaccounts/{custid}/x/{id}",
	} {
		if got := describedForm(pattern); got != want {
			t.Errorf("describedForm(%q) = %q, want %q", pattern, got, want)
		}
	}
}
