// Package scholarapi serves Google Scholar's library links for a
// publication search profile: /scholar/{profile}/institutional_links.xml,
// which names the customer, the profile's link resolver
// (/openurl/{profile}) and the holdings files, and the holdings files
// themselves, /scholar/{profile}/holdings-N.xml, written by package
// scholar from the customer's collection. A library registers the first
// address with Google; Google's crawler fetches the rest.
//
// A request is admitted as the publication search's are
// (web.RequireProfile): a guest profile answers anyone, a password
// profile needs its password in the password header. The holdings files
// are written once per collection version and kept on disk (Files).
// Errors are JSON error arrays, as everywhere outside the publication
// search and resource management services.
package scholarapi

import (
	"context"
	"log/slog"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// Store is what the library links need of a store.
type Store interface {
	web.ProfileLookup
	kb.ScholarStore
	Customer(ctx context.Context, id string) (kb.Customer, error)
	CollectionVersion(ctx context.Context, custID string) (string, error)
}

// Routes returns the library links' routes over store, keeping the
// holdings files in files. Each admitted request takes a token of its
// profile's bucket from throttle.
func Routes(store Store, files *Files, throttle web.Throttle, logger *slog.Logger) []web.Route {
	if logger == nil {
		logger = slog.Default()
	}
	h := &handlers{store: store, files: files, write: writeSet(store, logger)}
	routes := []web.Route{
		{Pattern: "GET /scholar/{profile}/institutional_links.xml", Handler: h.links},
		{Pattern: "GET /scholar/{profile}/{file}", Handler: h.holdings},
	}
	auth := web.RequireProfile(store, throttle)
	for i := range routes {
		routes[i].Handler = auth(routes[i].Handler)
	}
	return routes
}
