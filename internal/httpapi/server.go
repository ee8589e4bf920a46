// Package httpapi assembles kbserver's HTTP server: it mounts the routes of
// every API family on one ServeMux and wraps it with the shared middleware
// of package web (request log, panic recovery, body limit, JSON answers for
// unknown routes and wrong methods).
package httpapi

import (
	"log/slog"
	"net/http"

	"github.com/kbserver/kbserver/internal/httpapi/docs"
	"github.com/kbserver/kbserver/internal/httpapi/ermapi"
	"github.com/kbserver/kbserver/internal/httpapi/pfapi"
	"github.com/kbserver/kbserver/internal/httpapi/rmapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// DefaultMaxBodyBytes is the request body limit when Deps names none.
const DefaultMaxBodyBytes int64 = 1 << 20

// Deps are the server's dependencies.
type Deps struct {
	// Store holds the knowledge base, customers and their keys.
	Store kb.Store
	// Logger receives one line per request and every internal error;
	// nil means slog.Default().
	Logger *slog.Logger
	// MaxBodyBytes limits request bodies; 0 or less means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// PublicationCacheTitles bounds the titles of the collections the
	// publication search service keeps in memory; 0 or less means
	// pubsearch.DefaultMaxTitles.
	PublicationCacheTitles int
	// PublicationServeStale answers a publication search that follows a
	// change of the customer's holdings from the previous collection while
	// the changed one rebuilds, instead of waiting for the rebuild: its
	// records are checked live, but its counts and facets lag the change.
	PublicationServeStale bool
}

// NewServer returns the HTTP handler of all of kbserver's APIs.
func NewServer(deps Deps) http.Handler {
	logger := deps.Logger
	if logger == nil {
		logger = slog.Default()
	}
	maxBody := deps.MaxBodyBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	mux := http.NewServeMux()
	web.Mount(mux, logger, routes(deps))
	return web.Serve(web.Fallback(mux), logger, maxBody)
}

// routes returns the routes of every API family over deps: the holdings
// service, the resource management service, the publication search service
// and the API description with its docs page.
func routes(deps Deps) []web.Route {
	store := deps.Store
	var all []web.Route
	all = append(all, rmapi.Routes(store)...)
	all = append(all, ermapi.Routes(store)...)
	all = append(all, pfapi.Routes(store, deps.PublicationCacheTitles, !deps.PublicationServeStale)...)
	all = append(all, docs.Routes()...)
	return all
}

// RouteInfo describes one route that NewServer registers.
type RouteInfo struct {
	// Pattern is the ServeMux pattern, e.g. "GET /rm/rmaccounts/{custid}/vendors".
	Pattern string
	// Implemented is false for a route that answers 501 Not Implemented.
	Implemented bool
}

// Routes lists every route NewServer registers, in registration order. The
// tests compare it with the API description in package api.
func Routes() []RouteInfo {
	rs := routes(Deps{})
	out := make([]RouteInfo, len(rs))
	for i, r := range rs {
		out[i] = RouteInfo{Pattern: r.Pattern, Implemented: !r.NotImplemented}
	}
	return out
}
