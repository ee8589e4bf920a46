package web

import (
	"log/slog"
	"net/http"
	"strings"
)

// V2Prefix begins the paths of the hosted service's v2 operations
// (/rm/rmaccounts/v2/{custid}/lists…). One ServeMux cannot hold them beside
// the v1 routes: "GET /rm/rmaccounts/v2/{custid}/lists" and
// "GET /rm/rmaccounts/{custid}/titles/{kbid}" both match
// /rm/rmaccounts/v2/titles/lists, and neither is more specific, which
// ServeMux refuses. They get a ServeMux of their own (MountSplit).
const V2Prefix = "/rm/rmaccounts/v2/"

// MountSplit mounts routes (Mount) on two ServeMuxes, those whose path
// begins with prefix on one and the others on another, and returns the
// handler that serves both, each wrapped in Fallback with styles. A request under
// prefix goes to the prefix's routes; when none of them has its path but
// another route has (a customer whose id is the prefix's last segment), it
// goes to that route; otherwise the prefix's Fallback answers 404 or 405.
func MountSplit(prefix string, logger *slog.Logger, routes []Route, styles ...ErrorStyle) http.Handler {
	sub, main := http.NewServeMux(), http.NewServeMux()
	var subRoutes, mainRoutes []Route
	for _, rt := range routes {
		if strings.HasPrefix(routePath(rt.Pattern), prefix) {
			subRoutes = append(subRoutes, rt)
		} else {
			mainRoutes = append(mainRoutes, rt)
		}
	}
	Mount(sub, logger, subRoutes)
	Mount(main, logger, mainRoutes)
	subH, mainH := Fallback(sub, styles...), Fallback(main, styles...)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, prefix) {
			mainH.ServeHTTP(w, r)
			return
		}
		if _, p := sub.Handler(r); p == "" {
			if _, p := main.Handler(r); p != "" {
				mainH.ServeHTTP(w, r)
				return
			}
		}
		subH.ServeHTTP(w, r)
	})
}

// routePath returns the path of a ServeMux pattern ("GET /a/{b}" → "/a/{b}").
func routePath(pattern string) string {
	if i := strings.IndexByte(pattern, ' '); i >= 0 {
		return strings.TrimSpace(pattern[i+1:])
	}
	return pattern
}
