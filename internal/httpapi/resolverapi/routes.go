// Package resolverapi serves what the link resolver saw, kbserver's own
// extension of the holdings service under /rm/rmaccounts/{custid}/resolver:
// the statistics of its requests (full text found or not) and of the
// link-outs' clicks, grouped by month, package, title or citing source,
// and the unmet demand (what patrons sought that the library lacks), as
// JSON or CSV. Every route requires the x-api-key header of the customer
// in its path, and answers errors as the holdings service does.
//
// The staff console's page of the same data (package pages) reads its
// parameters and writes its CSV files with this package's functions.
package resolverapi

import (
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// Store is what the routes need from a store: the statistics, and the
// API-key lookup. kb.Store implements it.
type Store interface {
	kb.ResolverStatsReader
	web.KeyLookup
}

// Routes returns the routes over store, each wrapped in auth (normally
// web.RequireCustomerKey), here, once, so that no route can miss it.
func Routes(store Store, auth web.Middleware) []web.Route {
	h := handlers{store: store}
	routes := []web.Route{
		{Pattern: "GET /rm/rmaccounts/{custid}/resolver/statistics", Handler: h.statistics},
		{Pattern: "GET /rm/rmaccounts/{custid}/resolver/unmet", Handler: h.unmet},
	}
	for i := range routes {
		routes[i].Handler = auth(routes[i].Handler)
	}
	return routes
}
