// Package feedapi serves a library's own holdings feeds (NISO RP-26),
// kbserver's extension of the holdings service under
// /rm/rmaccounts/{custid}/holdingsfeeds: the addresses of the
// institution's KBART files that its publishers serve, each of which keeps
// the customer's selection of one package of the knowledge base exactly
// the file's titles; their runs, a held run's review and its approval.
// Every route requires the x-api-key header of the customer in its path,
// sees that customer's holdings feeds only, and answers errors as the
// holdings service does.
package feedapi

import (
	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/httpapi/web"
)

// Store is what the routes need of a store beyond the feeds' service:
// the API-key lookup.
type Store interface {
	web.KeyLookup
}

// Routes returns the routes over lib, each wrapped in auth (normally
// web.RequireCustomerKey), here, once, so that no route can miss it.
func Routes(lib *feeds.Library, auth web.Middleware) []web.Route {
	h := handlers{lib: lib}
	const base = "/rm/rmaccounts/{custid}/holdingsfeeds"
	routes := []web.Route{
		{Pattern: "GET " + base, Handler: h.list},
		{Pattern: "POST " + base, Handler: h.add},
		{Pattern: "GET " + base + "/{feedid}", Handler: h.show},
		{Pattern: "DELETE " + base + "/{feedid}", Handler: h.remove},
		{Pattern: "POST " + base + "/{feedid}/run", Handler: h.run},
		{Pattern: "GET " + base + "/{feedid}/runs/{runid}/review", Handler: h.review},
		{Pattern: "POST " + base + "/{feedid}/runs/{runid}/approve", Handler: h.approve},
	}
	for i := range routes {
		routes[i].Handler = auth(routes[i].Handler)
	}
	return routes
}
