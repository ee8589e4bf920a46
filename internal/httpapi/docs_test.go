package httpapi_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/api"
	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
)

// TestDescriptionRoutes checks the description and its page, which need
// no API key.
func TestDescriptionRoutes(t *testing.T) {
	srv := newServer(t, httpapi.Deps{})

	res, body := apitest.Do(t, srv.Client(), "GET", srv.URL+"/openapi.yaml", nil)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/yaml") || !bytes.Equal(body, api.YAML()) {
		t.Errorf("GET /openapi.yaml: %d %q, %d bytes", res.StatusCode, res.Header.Get("Content-Type"), len(body))
	}

	res, body = apitest.Do(t, srv.Client(), "GET", srv.URL+"/openapi.json", nil)
	var doc struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(body, &doc); err != nil || res.StatusCode != 200 || doc.OpenAPI != "3.1.0" || len(doc.Paths) < 30 {
		t.Errorf("GET /openapi.json: %d, openapi %q, %d paths, %v", res.StatusCode, doc.OpenAPI, len(doc.Paths), err)
	}

	res, body = apitest.Do(t, srv.Client(), "GET", srv.URL+"/docs", nil)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("GET /docs: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, part := range []string{`src="docs/assets/redoc.standalone.js"`, `src="docs/assets/init.js"`, `href="openapi.yaml"`} {
		if !bytes.Contains(body, []byte(part)) {
			t.Errorf("GET /docs: page lacks %s", part)
		}
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "connect-src 'self'") {
		t.Errorf("GET /docs: Content-Security-Policy %q does not keep the page on this server", csp)
	}

	for file, want := range map[string]struct{ ctype, part string }{
		"redoc.standalone.js":             {"text/javascript; charset=utf-8", "Redoc"},
		"init.js":                         {"text/javascript; charset=utf-8", `"openapi.json"`},
		"redoc.LICENSE.txt":               {"text/plain; charset=utf-8", "The MIT License"},
		"redoc.standalone.js.LICENSE.txt": {"text/plain; charset=utf-8", "DOMPurify"},
	} {
		res, body := apitest.Do(t, srv.Client(), "GET", srv.URL+"/docs/assets/"+file, nil)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != want.ctype || !bytes.Contains(body, []byte(want.part)) {
			t.Errorf("GET /docs/assets/%s: %d %q, %d bytes", file, res.StatusCode, res.Header.Get("Content-Type"), len(body))
		}
	}
	for _, file := range []string{"README.md", "nothing.js", "..%2fpage.html"} {
		if res, body := apitest.Do(t, srv.Client(), "GET", srv.URL+"/docs/assets/"+file, nil); res.StatusCode != 404 {
			t.Errorf("GET /docs/assets/%s: %d %s, want 404", file, res.StatusCode, body)
		}
	}
}
