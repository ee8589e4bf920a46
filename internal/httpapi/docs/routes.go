// Package docs serves kbserver's API description and the page that renders
// it: GET /openapi.yaml, GET /openapi.json, GET /docs and the page's static
// files under GET /docs/assets/. None of them needs an API key, and the page
// loads nothing from outside the server.
package docs

import (
	"embed"
	"fmt"
	"net/http"
	"path"

	"github.com/kbserver/kbserver/api"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// assets are the page's static files: the vendored renderer, kbserver's
// start script and the licenses.
//
//go:embed assets/*.js assets/*.txt
var assets embed.FS

// page is the HTML page at GET /docs.
//
//go:embed page.html
var page []byte

// pagePolicy is the Content-Security-Policy of the page: scripts, styles
// and fetches from this server only (the renderer injects its styles and
// starts its search worker from a blob), so the page cannot load anything
// from the network.
const pagePolicy = "default-src 'none'; script-src 'self' blob:; worker-src 'self' blob:; " +
	"style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Routes returns the routes of the description and its page. It converts
// the description to JSON now, so that the first request does not pay for
// it; a failed conversion is reported by GET /openapi.json.
func Routes() []web.Route {
	_, _ = api.JSON()
	return []web.Route{
		{Pattern: "GET /openapi.yaml", Handler: serveYAML},
		{Pattern: "GET /openapi.json", Handler: serveJSON},
		{Pattern: "GET /docs", Handler: servePage},
		{Pattern: "GET /docs/assets/{file}", Handler: serveAsset},
	}
}

func serveYAML(w http.ResponseWriter, _ *http.Request) error {
	return write(w, "application/yaml; charset=utf-8", "no-cache", api.YAML())
}

func serveJSON(w http.ResponseWriter, _ *http.Request) error {
	b, err := api.JSON()
	if err != nil {
		return fmt.Errorf("convert the API description to JSON: %w", err)
	}
	return write(w, web.ContentTypeJSON, "no-cache", b)
}

func servePage(w http.ResponseWriter, _ *http.Request) error {
	w.Header().Set("Content-Security-Policy", pagePolicy)
	return write(w, "text/html; charset=utf-8", "no-cache", page)
}

// serveAsset answers one of the embedded static files; any other name is
// a 404 error.
func serveAsset(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("file")
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		return kb.Errorf(kb.CodeNotFound, "No such docs asset: %s", name)
	}
	ctype := "text/plain; charset=utf-8"
	if path.Ext(name) == ".js" {
		ctype = "text/javascript; charset=utf-8"
	}
	return write(w, ctype, "public, max-age=86400", b)
}

// write answers 200 with body b.
func write(w http.ResponseWriter, ctype, cache string, b []byte) error {
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Cache-Control", cache)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(b); err != nil {
		// The client went away; the answer has started, so the adapter
		// only logs this.
		return fmt.Errorf("write %s: %w", ctype, err)
	}
	return nil
}
