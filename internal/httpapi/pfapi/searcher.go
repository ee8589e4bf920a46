package pfapi

import (
	"context"
	"net/http"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// A Searcher is the publication search service's searching: the search
// service's (Finder) in the request's locale, with the service's
// parameters and its signed link-outs. The service's routes and the
// patron A–Z page (package pages) share one, so that the page answers
// exactly what the API answers.
type Searcher struct {
	store  Store
	finder Finder
}

// Finder is what publication search asks the search service (package
// search's Service): the collection's searches, alpha menus and packages.
type Finder interface {
	Publications(ctx context.Context, custID string, loc *alpha.Locale, q kb.PubQuery) (kb.PubResult, error)
	Menu(ctx context.Context, custID string, rt kb.ResourceType, m *alpha.Menu) error
	CollectionPackages(ctx context.Context, custID string, q kb.CollectionPackageQuery) (kb.PackageList, error)
}

// NewSearcher returns a searcher that searches through finder and reads
// the rest from store.
func NewSearcher(store Store, finder Finder) *Searcher {
	return &Searcher{store: store, finder: finder}
}

// ParseQuery reads the query parameters of GET publications, with the
// service's defaults and error messages.
func ParseQuery(q web.Query) (kb.PubQuery, error) {
	p, _, err := pubQuery(q)
	return p, err
}

// Search answers the publication search q over the customer's collection,
// in the collation of the request's language (Accept-Language).
func (s *Searcher) Search(r *http.Request, custID string, q kb.PubQuery) (kb.PubResult, error) {
	return s.finder.Publications(r.Context(), custID, RequestLocale(r), q)
}

// Menu counts the customer's collection (titles of type rt, or all) into
// the alpha browser menu m.
func (s *Searcher) Menu(ctx context.Context, custID string, rt kb.ResourceType, m *alpha.Menu) error {
	return s.finder.Menu(ctx, custID, rt, m)
}

// LinkOuts returns the signed link-out address of each of the customer's
// resources, on the host the request came to, and the customer's labels
// of user-defined fields.
func (s *Searcher) LinkOuts(r *http.Request, custID string) (func(kb.ResourceKey) string, [5]kb.Label, error) {
	rc, err := s.recordContext(r, custID)
	if err != nil {
		return nil, [5]kb.Label{}, err
	}
	return rc.linkOut, rc.labels, nil
}
