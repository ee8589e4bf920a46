// Package analysisapi serves the collection analysis (issue 38),
// kbserver's own extension of the holdings service under
// /rm/rmaccounts/{custid}/overlap: how the packages a customer names
// overlap (titles unique to each, shared by all, with the same effective
// coverage), and what one package would add to the customer's holdings,
// as counts or as the titles behind a count, a page at a time; and the
// titles the customer selects in two packages or more
// (/rm/rmaccounts/{custid}/duplicates), as JSON or CSV. Every
// route requires the x-api-key header of the customer in its path, and
// answers errors as the holdings service does.
package analysisapi

import (
	"context"

	"github.com/kbserver/kbserver/internal/analysis"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// Store is what the routes read of the store beyond the service's: the
// rows of a list's page and their link-out clicks.
type Store interface {
	TitlesAt(ctx context.Context, custID string, at kb.CustomerAt, ids []int64, packageID int64) ([]kb.Title, error)
	kb.LinkUseReader
	// ResourceKBART and HeldCoverages give a KBART file's rows.
	ResourceKBART(ctx context.Context, keys []kb.ResourceKey) (map[kb.ResourceKey]string, error)
	kb.HeldCoverageReader
}

// Routes returns the routes over svc and store, each wrapped in auth
// (normally web.RequireCustomerKey), here, once, so that no route can
// miss it.
func Routes(svc *analysis.Service, store Store, auth web.Middleware) []web.Route {
	h := handlers{svc: svc, store: store}
	routes := []web.Route{
		{Pattern: "GET /rm/rmaccounts/{custid}/overlap", Handler: h.overlap},
		{Pattern: "GET /rm/rmaccounts/{custid}/duplicates", Handler: h.duplicates},
	}
	for i := range routes {
		routes[i].Handler = auth(routes[i].Handler)
	}
	return routes
}
