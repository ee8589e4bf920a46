// Package holdingsapi serves the holdings and knowledge-base service under
// /rm/rmaccounts/{custid}: vendors, packages, titles, resources, the root
// proxy with the custom labels, the customer's proxies, the write side
// (selections and customisations, custom packages and custom titles) and
// holdings snapshots, as KBART2 JSON records or a KBART file.
package holdingsapi

import (
	"context"
	"net/http"

	"github.com/kbserver/kbserver/internal/answercache"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// Store is what the holdings service needs from a store: the knowledge base
// in a customer's context, the writer of the customer's holdings, its
// holdings snapshots and the API-key lookup. kb.Store implements it.
type Store interface {
	kb.KBReader
	kb.HoldingsWriter
	kb.SnapshotStore
	kb.ReportStore
	web.KeyLookup
	// CollectionVersion keys the cache of answers (cached.go).
	CollectionVersion(ctx context.Context, custID string) (string, error)
}

// Finder is what the holdings service asks the search service (package
// search's Service): the vendor, package and title lists, whose searches
// the search index answers.
type Finder interface {
	Vendors(ctx context.Context, custID string, q kb.VendorQuery) (kb.VendorList, error)
	Packages(ctx context.Context, custID string, q kb.PackageQuery) (kb.PackageList, error)
	Titles(ctx context.Context, custID string, q kb.TitleQuery) (kb.TitleList, error)
}

// Routes returns every route of the holdings service. Every route requires
// the x-api-key header of the customer in its path: the check wraps each
// handler here, once, so that no route can miss it: auth is normally
// web.RequireCustomerKey. The answers of one vendor, package (v1 or v2),
// title or resource are kept in answers (nil keeps none: cached.go). The
// lists ask finder.
func Routes(store Store, finder Finder, auth web.Middleware, answers *answercache.Cache) []web.Route {
	h := &handlers{store: store, finder: finder, answers: answers}
	routes := []web.Route{
		// Root proxy and custom labels. The hosted service needs the
		// trailing slash on one address and refuses it on another: both
		// forms are served.
		{Pattern: "GET /rm/rmaccounts/{custid}/{$}", Handler: h.root, ObjectErrors: []int{http.StatusForbidden}},
		{Pattern: "GET /rm/rmaccounts/{custid}", Handler: h.root, ObjectErrors: []int{http.StatusForbidden}},
		{Pattern: "PUT /rm/rmaccounts/{custid}/{$}", Handler: h.putRoot, ObjectErrors: []int{http.StatusNotFound}},
		{Pattern: "PUT /rm/rmaccounts/{custid}", Handler: h.putRoot, ObjectErrors: []int{http.StatusNotFound}},
		{Pattern: "GET /rm/rmaccounts/{custid}/proxies", Handler: h.proxies, ObjectErrors: []int{http.StatusNotFound}},

		// Holdings snapshots.
		{Pattern: "POST /rm/rmaccounts/{custid}/holdings", Handler: h.startSnapshot, ObjectErrors: []int{http.StatusConflict}},
		{Pattern: "GET /rm/rmaccounts/{custid}/holdings", Handler: h.holdings},
		{Pattern: "GET /rm/rmaccounts/{custid}/holdings/status", Handler: h.snapshotStatus},

		// Holdings reports (transactions and deltas): the hosted service's
		// operations that FOLIO's transaction loader calls, which the spec
		// does not describe.
		{Pattern: "POST /rm/rmaccounts/{custid}/reports/holdings", Handler: h.startTransaction},
		{Pattern: "GET /rm/rmaccounts/{custid}/reports/holdings/transactions", Handler: h.transactions},
		{Pattern: "GET /rm/rmaccounts/{custid}/reports/holdings/transactions/{txid}", Handler: h.transactionPage},
		{Pattern: "GET /rm/rmaccounts/{custid}/reports/holdings/transactions/{txid}/status", Handler: h.transactionStatus},
		{Pattern: "POST /rm/rmaccounts/{custid}/reports/holdings/deltas", Handler: h.startDelta},
		{Pattern: "GET /rm/rmaccounts/{custid}/reports/holdings/deltas/{deltaid}", Handler: h.deltaPage},
		{Pattern: "GET /rm/rmaccounts/{custid}/reports/holdings/deltas/{deltaid}/status", Handler: h.deltaStatus},

		// Vendors.
		{Pattern: "GET /rm/rmaccounts/{custid}/vendors", Handler: h.vendors},
		{Pattern: "GET /rm/rmaccounts/{custid}/vendors/{vendorid}", Handler: h.cached(h.vendor)},
		{Pattern: "PUT /rm/rmaccounts/{custid}/vendors/{vendorid}", Handler: h.updateVendor},

		// Packages.
		{Pattern: "GET /rm/rmaccounts/{custid}/packages", Handler: h.packages},
		{Pattern: "GET /rm/rmaccounts/{custid}/vendors/{vendorid}/packages", Handler: h.vendorPackages},
		// Clients of the hosted service send this POST with a trailing
		// slash: both forms are served.
		{Pattern: "POST /rm/rmaccounts/{custid}/vendors/{vendorid}/packages", Handler: h.createCustomPackage},
		{Pattern: "POST /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{$}", Handler: h.createCustomPackage},
		{Pattern: "GET /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}", Handler: h.cached(h.pkg)},
		{Pattern: "PUT /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}", Handler: h.updatePackage},
		{Pattern: "DELETE /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}", Handler: h.deleteCustomPackage},

		// Packages, v2 lists: the hosted service's package operations,
		// which its clients use instead of the v1 ones (lists.go).
		{Pattern: "GET /rm/rmaccounts/v2/{custid}/lists", Handler: h.lists},
		{Pattern: "GET /rm/rmaccounts/v2/{custid}/vendors/{vendorid}/lists", Handler: h.vendorLists},
		{Pattern: "GET /rm/rmaccounts/v2/{custid}/lists/{packageid}", Handler: h.cached(h.list)},
		{Pattern: "PUT /rm/rmaccounts/v2/{custid}/lists/{packageid}", Handler: h.updateList},

		// Titles and resources.
		{Pattern: "GET /rm/rmaccounts/{custid}/titles", Handler: h.titles, HostedErrors: titleSearchErrors},
		{Pattern: "GET /rm/rmaccounts/{custid}/titles/{kbid}", Handler: h.cached(h.title), HostedErrors: titleErrors},
		{Pattern: "GET /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}/titles", Handler: h.packageTitles, HostedErrors: titleErrors},
		{Pattern: "POST /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}/titles", Handler: h.createCustomTitle},
		{Pattern: "GET /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}/titles/{kbid}", Handler: h.cached(h.resource), HostedErrors: titleErrors},
		{Pattern: "PUT /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}/titles/{kbid}", Handler: h.updateResource, HostedErrors: titleErrors},
	}
	for i := range routes {
		routes[i].Handler = auth(routes[i].Handler)
	}
	return routes
}

// titleErrors are the hosted service's envelopes of the title operations'
// errors (web.Route.HostedErrors). What its recordings show: the title
// operations answer not found (404) and invalid input (400) capitalised:
// GET titles/{kbid} and GET …/titles/{kbid} (a resource) 404, PUT
// …/titles/{kbid} 400. A package's title list is answered by the same part
// of the service (its answers, like those of the other three, carry the
// Content-Type "application/json; charset=utf-8" where every other
// operation's carry "application/json;charset=UTF-8"), so its 400 and 404
// are capitalised too, as are the 400 and 404 the recordings do not show
// of the other three. Every other status of these operations, and every
// other operation, answers web.EnvelopeErrors.
var titleErrors = map[int]web.HostedEnvelope{
	http.StatusBadRequest: web.EnvelopeCapitalised,
	http.StatusNotFound:   web.EnvelopeCapitalised,
}

// titleSearchErrors are the hosted service's envelopes of the title
// search's errors: invalid parameters (400, e.g. count out of range) with
// string codes, where the vendor and package lists answer the same error
// in web.EnvelopeErrors.
var titleSearchErrors = map[int]web.HostedEnvelope{http.StatusBadRequest: web.EnvelopeStringCodes}
