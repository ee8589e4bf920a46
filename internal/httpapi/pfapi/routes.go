// Package pfapi serves the publication search service under
// /pf/pfaccount/{profile}: alpha browser menus, package lists, publication
// records and publication searches in the context of a customer profile.
// Every route first authenticates the profile (web.RequireProfile). None of
// its operations is served yet: after authentication each answers 501 Not
// Implemented with no body and the message in the X-Error-Message header,
// as the service answers every error.
package pfapi

import "github.com/kbserver/kbserver/internal/httpapi/web"

// Routes returns every route of the publication search service. A route
// with no Handler in the table answers 501 until it is given one. Every
// route answers errors with no body (web.Route.HeaderErrors).
func Routes(profiles web.ProfileLookup) []web.Route {
	routes := []web.Route{
		{Pattern: "GET /pf/pfaccount/{profile}/alphabrowser/menu/{localeid}"},
		{Pattern: "GET /pf/pfaccount/{profile}/allpackages"},
		{Pattern: "GET /pf/pfaccount/{profile}/packages"},
		{Pattern: "GET /pf/pfaccount/{profile}/packages/{packageid}/titles/{kbid}"},
		{Pattern: "GET /pf/pfaccount/{profile}/publications"},
	}
	web.FillNotImplemented(routes)
	auth := web.RequireProfile(profiles)
	for i := range routes {
		routes[i].HeaderErrors = true
		routes[i].Handler = auth(routes[i].Handler)
	}
	return routes
}
