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
)

// RepeatableParams are the service's list parameters, which a request may
// give several times; any other given twice is refused (400).
var RepeatableParams = []string{"packagefacet", "resourcetypefacet", "subjectfacet"}

// Routes returns every route of the publication search service, which
// searches with s. Each admitted request takes a token of its profile's
// bucket from throttle.
func Routes(s *Searcher, throttle web.Throttle) []web.Route {
	h := &handlers{Searcher: s}
	store := s.store
	routes := []web.Route{
		{Pattern: "GET /pf/pfaccount/{profile}/alphabrowser/menu/{localeid}", Handler: h.alphaMenu},
		{Pattern: "GET /pf/pfaccount/{profile}/allpackages", Handler: h.allPackages},
		{Pattern: "GET /pf/pfaccount/{profile}/packages", Handler: h.packages},
		{Pattern: "GET /pf/pfaccount/{profile}/packages/{packageid}/titles/{kbid}", Handler: h.publication},
		{Pattern: "GET /pf/pfaccount/{profile}/publications", Handler: h.publications},
	}
	auth := web.RequireProfile(store, throttle)
	once := web.OneValueEach(RepeatableParams...)
	for i := range routes {
		routes[i].HeaderErrors = true
		routes[i].Handler = auth(once(routes[i].Handler))
	}
	return append(routes, LinkOutRoute(store))
}
