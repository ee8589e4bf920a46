package pages

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed assets/*
var assets embed.FS

// templates are the pages, each the layout with its content.
var templates = func() map[string]*template.Template {
	out := map[string]*template.Template{}
	for _, name := range []string{"home", "az", "signin", "embed", "error", "openurl",
		"console_signin", "console_home", "console_search", "console_package", "console_resource", "console_history", "console_settings", "console_snapshot", "console_erm", "console_erm_object", "console_resolver", "console_resolver_setup",
		"console_feeds", "console_feed", "console_feed_review",
		"console_analysis", "console_analysis_against", "console_analysis_list", "console_analysis_use"} {
		t := template.New(name).Funcs(template.FuncMap{"number": kb.Thousands, "add": func(a, b int) int { return a + b }, "consoleLink": consoleLink})
		files := []string{"templates/layout.html", "templates/" + name + ".html"}
		if strings.HasPrefix(name, "console_analysis") {
			// The analysis pages' menu and words, and the charts.
			files = append(files, "templates/analysis_parts.html", "templates/chart.html")
		}
		out[name] = template.Must(t.ParseFS(templateFiles, files...))
	}
	return out
}()

// frame is what the layout shows around every page.
type frame struct {
	Title string // the document's title
	Brand string // the name at the top, linking to Home
	Home  string
	Staff *staff // the console's signed-in session, for its menu; nil elsewhere
}

// pagePolicy is the Content-Security-Policy of every page: styles and
// images from this server, no script at all, forms posting only here.
const pagePolicy = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// render writes the page name with data and status. It renders into a
// buffer first, so that a template error is an error, not half a page.
func render(w http.ResponseWriter, status int, name string, data any) error {
	var buf bytes.Buffer
	if err := templates[name].ExecuteTemplate(&buf, "layout", data); err != nil {
		return fmt.Errorf("render page %s: %w", name, err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pagePolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	// A patron's search terms stay on this server: the link-outs and
	// other sites learn only this server's origin.
	h.Set("Referrer-Policy", "same-origin")
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	_, err := w.Write(buf.Bytes())
	return err
}

// ErrorPage renders an error as a page (web.Route.ErrorPage): the pages'
// errors, and the server's answers for unknown paths among them.
func ErrorPage(w http.ResponseWriter, _ *http.Request, status int, message string) {
	data := struct {
		frame
		Heading, Message string
	}{frame{Title: http.StatusText(status), Brand: "kbserver", Home: "/"}, http.StatusText(status), message}
	// A page that cannot be written means the client went away.
	_ = render(w, status, "error", data)
}

// Paths reports whether a request path is the pages': the landing page,
// their assets, the A–Z pages and the console.
func Paths(path string) bool {
	return path == "/" || strings.HasPrefix(path, "/assets/") || path == "/az" || strings.HasPrefix(path, "/az/") ||
		path == "/console" || strings.HasPrefix(path, consolePath)
}

// serveAsset serves an embedded file under /assets/.
func serveAsset(w http.ResponseWriter, r *http.Request) error {
	name := path.Clean(r.PathValue("file"))
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		return kb.Errorf(kb.CodeNotFound, "There is no asset %q.", name)
	}
	w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, err = w.Write(b)
	return err
}
