package pfapi

import (
	"context"
	"net/http"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/pubsearch"
)

// A Searcher is the publication search service's searching over a store:
// its collections kept in memory (or the store's title index), its
// request locale, its parameters and its signed link-outs. The service's
// routes and the patron A–Z page (package pages) share one, so that the
// page answers exactly what the API answers.
type Searcher struct {
	store Store
	index *pubsearch.Index
}

// NewSearcher returns a searcher over store that keeps searched
// collections of up to cacheTitles titles in all in memory
// (pubsearch.DefaultMaxTitles when 0 or less); with consistent, a search
// after a change of the collection waits for its rebuild instead of
// being answered from the previous version meanwhile (pubsearch.Index).
func NewSearcher(store Store, cacheTitles int, consistent bool) *Searcher {
	return &Searcher{store: store, index: pubsearch.NewIndex(cacheTitles, consistent)}
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
	return s.index.Search(r.Context(), s.store, custID, RequestLocale(r), q)
}

// Menu counts the customer's collection (titles of type rt, or all) into
// the alpha browser menu m.
func (s *Searcher) Menu(ctx context.Context, custID string, rt kb.ResourceType, m *alpha.Menu) error {
	return s.index.Menu(ctx, s.store, custID, rt, m)
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
