// Package ermapi serves the resource management service under
// /rm/rmaccounts/{custid}: administrative access details, contacts,
// external document references and licenses (each a kb.ERMObject of one
// customer, identified by a UUID) and assignments, which map those objects
// to other references. Every route requires the x-api-key header of the
// customer in its path. Errors have no body: the status, and a message in
// the X-Error-Message header.
//
// Every object operation works the same way for every kind; kind.go holds
// what differs (names, list search fields and sort keys), payload.go the
// request and answer bodies and their rules.
package ermapi

import (
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// Store is what the resource management service needs from a store: the
// customers' objects and assignments, and the API-key lookup. kb.Store
// implements it.
type Store interface {
	kb.ERMStore
	web.KeyLookup
}

// Routes returns every route of the resource management service. Each
// route answers errors in the X-Error-Message header with no body, and
// requires the x-api-key header of the customer in its path: the check
// wraps each handler here, once, so that no route can miss it (auth is
// normally web.RequireCustomerKey).
//
// The specification does not show the path that deletes an assignment;
// kbserver uses DELETE .../assignment/{id}, the path that creates one, so
// the wildcard names the object on POST and the assignment on DELETE.
func Routes(store Store, auth web.Middleware) []web.Route {
	const base = "/rm/rmaccounts/{custid}/"
	var routes []web.Route
	for _, k := range kinds {
		p := base + k.path
		id := p + "/{" + k.idParam + "}"
		routes = append(routes,
			web.Route{Pattern: "POST " + p, Handler: createObject(store, k)},
			web.Route{Pattern: "GET " + p, Handler: listObjects(store, k)},
		)
		if k.kind == kb.KindLicense {
			routes = append(routes, web.Route{Pattern: "GET " + p + "/assignment", Handler: listAssigned(store, k)})
		}
		routes = append(routes,
			web.Route{Pattern: "GET " + id, Handler: getObject(store, k)},
			web.Route{Pattern: "PUT " + id, Handler: updateObject(store, k)},
			web.Route{Pattern: "DELETE " + id, Handler: deleteObject(store, k)},
		)
	}
	routes = append(routes,
		web.Route{Pattern: "GET " + base + "assignment", Handler: listAssignments(store)},
		web.Route{Pattern: "POST " + base + "assignment/{id}", Handler: createAssignment(store)},
		web.Route{Pattern: "DELETE " + base + "assignment/{id}", Handler: deleteAssignment(store)},
	)
	for i := range routes {
		routes[i].HeaderErrors = true
		routes[i].Handler = auth(routes[i].Handler)
	}
	return routes
}
