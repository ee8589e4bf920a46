package web

import (
	"fmt"
	"net/http"

	"github.com/kbserver/kbserver/internal/kb"
)

// An ErrorStyle says how the answers ServeMux makes itself under some
// paths (an unknown route, a wrong method) are written: in the style of
// the service those paths belong to, as the service's own errors are.
type ErrorStyle struct {
	// Match reports whether a request path is the style's.
	Match func(path string) bool
	// HeaderErrors answers with no body, the message in X-Error-Message
	// (Route.HeaderErrors); else Page, when set, renders a page
	// (Route.ErrorPage).
	HeaderErrors bool
	Page         func(w http.ResponseWriter, r *http.Request, status int, message string)
}

// Fallback wraps mux so that the answers ServeMux makes itself for an
// unknown route (404) and for a known path with the wrong method (405, with
// its Allow header) are errors of the service the path belongs to: the
// first of styles that matches it, else JSON error bodies (code 1001 and
// 1007, as an array of one error object). Matched routes and ServeMux's
// redirects pass through untouched.
func Fallback(mux *http.ServeMux, styles ...ErrorStyle) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		fw := &fallbackWriter{ResponseWriter: w, r: r}
		for _, s := range styles {
			if s.Match(r.URL.Path) {
				fw.style = &s
				break
			}
		}
		mux.ServeHTTP(fw, r)
	})
}

// fallbackWriter replaces the plain-text 404 and 405 bodies of ServeMux by
// errors in the path's style and lets any other answer through.
type fallbackWriter struct {
	http.ResponseWriter
	r        *http.Request
	style    *ErrorStyle // nil: JSON
	replaced bool
}

// WriteHeader implements http.ResponseWriter.
func (f *fallbackWriter) WriteHeader(status int) {
	var model ErrorModel
	switch status {
	case http.StatusNotFound:
		model = ErrorModel{Code: kb.CodeNotFound, Message: fmt.Sprintf("No route for %s %s", kb.Abbrev(f.r.Method, 20), kb.Abbrev(f.r.URL.Path, 200))}
	case http.StatusMethodNotAllowed:
		model = ErrorModel{Code: kb.CodeMethodNotAllowed, Message: fmt.Sprintf("Method %s is not allowed for %s; allowed: %s.",
			f.r.Method, f.r.URL.Path, f.Header().Get("Allow"))}
	default:
		f.ResponseWriter.WriteHeader(status)
		return
	}
	f.replaced = true
	h := f.Header()
	h.Del("Content-Length")
	h.Del("Content-Type")
	switch {
	case f.style != nil && f.style.HeaderErrors:
		h.Set(ErrorMessageHeader, model.Message)
		f.ResponseWriter.WriteHeader(status)
	case f.style != nil && f.style.Page != nil:
		f.style.Page(f.ResponseWriter, f.r, status, model.Message)
	default:
		WriteErrorModel(f.ResponseWriter, f.r, status, model, false)
	}
}

// Write implements http.ResponseWriter; after a replaced header it drops
// ServeMux's plain-text body.
func (f *fallbackWriter) Write(b []byte) (int, error) {
	if f.replaced {
		return len(b), nil
	}
	return f.ResponseWriter.Write(b)
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (f *fallbackWriter) Unwrap() http.ResponseWriter { return f.ResponseWriter }
