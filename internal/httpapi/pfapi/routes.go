// Package pfapi serves the publication search service under
// /pf/pfaccount/{profile}: alpha browser menus, package lists, publication
// records and publication searches over the collection of the profile's
// customer (its selected, not hidden resources), and the signed link-outs
// the records carry (/pf/linkout/{token}). Every route under the profile
// first authenticates it (web.RequireProfile). Errors have no body: the
// status, and a message in the X-Error-Message header.
package pfapi

import (
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/pubsearch"
)

// Routes returns every route of the publication search service. It keeps
// searched collections of up to cacheTitles titles in all in memory
// (pubsearch.DefaultMaxTitles when 0 or less); with consistent, a search
// after a change of the collection waits for its rebuild instead of being
// answered from the previous version meanwhile (pubsearch.Index). Each
// admitted request takes a token of its profile's bucket from throttle.
func Routes(store Store, throttle web.Throttle, cacheTitles int, consistent bool) []web.Route {
	h := &handlers{store: store, index: pubsearch.NewIndex(cacheTitles, consistent)}
	routes := []web.Route{
		{Pattern: "GET /pf/pfaccount/{profile}/alphabrowser/menu/{localeid}", Handler: h.alphaMenu},
		{Pattern: "GET /pf/pfaccount/{profile}/allpackages", Handler: h.allPackages},
		{Pattern: "GET /pf/pfaccount/{profile}/packages", Handler: h.packages},
		{Pattern: "GET /pf/pfaccount/{profile}/packages/{packageid}/titles/{kbid}", Handler: h.publication},
		{Pattern: "GET /pf/pfaccount/{profile}/publications", Handler: h.publications},
	}
	auth := web.RequireProfile(store, throttle)
	for i := range routes {
		routes[i].HeaderErrors = true
		routes[i].Handler = auth(routes[i].Handler)
	}
	return append(routes, LinkOutRoute(store))
}
