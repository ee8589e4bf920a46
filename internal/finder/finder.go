// Package finder is the one way every service of kbserver searches: the
// search service (Service), which the holdings service, publication search
// and the pages ask. It asks the search index (package search) for ids,
// totals, facets and ranks, then the store for those rows by id; the store
// never holds the index.
package finder

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
)

// Service is the one way every service searches: the holdings service's
// vendor, package and title lists, publication search and its alpha menus,
// and the pages. It asks its index (search.Live) for the matching ids, totals,
// facets and ranks, then the store for those rows by id, at the customer's
// versions read once per request: with the API key when the request has
// one (kb.CustomerAtFrom), else by the service itself. The store never
// holds the index.
type Service struct {
	live  *search.Live
	store Store

	nameSet atomic.Pointer[nameSet] // the vendors' and packages' names (names.go)
	namesMu sync.Mutex              // one read of the names at a time
}

// Store is what the search service reads from the store: what its index
// is built from, the rows of what a search found, and the lists it
// completes with the names it matched.
type Store interface {
	kb.SearchedStore
	kb.NameFeed
	// Titles lists titles without a search.
	Titles(ctx context.Context, custID string, q kb.TitleQuery) (kb.TitleList, error)
	Vendors(ctx context.Context, custID string, q kb.VendorQuery) (kb.VendorList, error)
	Packages(ctx context.Context, custID string, q kb.PackageQuery) (kb.PackageList, error)
	CollectionPackages(ctx context.Context, custID string, q kb.CollectionPackageQuery) (kb.PackageList, error)
	PackageNames(ctx context.Context, custID string, ids []int64) (map[int64]string, error)
}

// New returns a search service over st with a new index
// (search.NewLive); ctx ends the index's background builds. The index is
// built on the first search, or by Index().Start.
func New(ctx context.Context, st Store, opts search.Options) *Service {
	return &Service{live: search.NewLive(ctx, st, opts), store: st}
}

// Index returns the service's index: to start its build, wait for its
// background work, or read its state.
func (s *Service) Index() *search.Live { return s.live }

// Ready returns an error while the index has not been built once since
// the server started: the server is not ready for traffic (its /readyz),
// as every search would wait.
func (s *Service) Ready() error {
	if !s.live.Ready() {
		return errIndexBuilding
	}
	return nil
}

// errIndexBuilding is why a server whose index is not built yet is not
// ready.
var errIndexBuilding = errors.New("the search index is being built (title and publication searches wait for it)")

// customerAt returns the customer's root proxy and versions: those read
// with the request's API key, or read now.
func (s *Service) customerAt(ctx context.Context, custID string) (kb.CustomerAt, error) {
	if at, ok := kb.CustomerAtFrom(ctx); ok {
		return at, nil
	}
	return s.store.CustomerVersions(ctx, custID)
}

// Titles lists titles in the customer's context: a search from the
// index, then its page's titles from the store by id; a list without a
// search from the store.
func (s *Service) Titles(ctx context.Context, custID string, q kb.TitleQuery) (kb.TitleList, error) {
	if strings.TrimSpace(q.Search) == "" {
		return s.store.Titles(ctx, custID, q)
	}
	list := kb.TitleList{Titles: []kb.Title{}}
	at, err := s.customerAt(ctx, custID)
	if err != nil {
		return list, err
	}
	if q.PackageID != 0 {
		// The package must be one the customer may see.
		if _, err := s.store.PackageAt(ctx, custID, at, q.VendorID, q.PackageID); err != nil {
			return list, err
		}
	}
	if err := kb.CheckSearch("Search", q.Search); err != nil {
		return list, err
	}
	ids, total, err := s.live.SearchTitles(ctx, custID, at, q)
	if err != nil || len(ids) == 0 {
		list.Total = total
		return list, err
	}
	// A title deleted since the index's version is left out (the next
	// search sees a new version).
	if list.Titles, err = s.store.TitlesAt(ctx, custID, at, ids, q.PackageID); err != nil {
		return kb.TitleList{Titles: []kb.Title{}}, err
	}
	list.Total = total
	return list, nil
}

// TitleMatches calls fn with every title, in or out of the customer's
// collection, that q.Search matches with q.Field and q.Type, and its
// relevance rank (lower is better; 0 when q.ByName). A search with no
// words matches nothing.
func (s *Service) TitleMatches(ctx context.Context, custID string, q kb.PubQuery, fn func(id int64, rank float64)) error {
	if strings.TrimSpace(q.Search) == "" {
		return nil
	}
	if err := kb.CheckSearch("Search", q.Search); err != nil {
		return err
	}
	at, err := s.customerAt(ctx, custID)
	if err != nil {
		return err
	}
	return s.live.MatchTitles(ctx, custID, at, q, fn)
}

// Vendors lists vendors in the customer's context, the names matched by
// the index.
func (s *Service) Vendors(ctx context.Context, custID string, q kb.VendorQuery) (kb.VendorList, error) {
	names, err := s.names(ctx, kb.NameSearch{Kind: kb.NameVendors, Search: q.Search})
	if err != nil {
		return kb.VendorList{}, err
	}
	q.Names = names
	return s.store.Vendors(ctx, custID, q)
}

// Packages lists packages in the customer's context, the names matched by
// the index.
func (s *Service) Packages(ctx context.Context, custID string, q kb.PackageQuery) (kb.PackageList, error) {
	names, err := s.names(ctx, kb.NameSearch{Kind: kb.NamePackages, Search: q.Search, Match: q.Match, Keyword: q.Keyword})
	if err != nil {
		return kb.PackageList{}, err
	}
	q.Names = names
	return s.store.Packages(ctx, custID, q)
}

// CollectionPackages lists the packages of the customer's collection, the
// names matched by the index.
func (s *Service) CollectionPackages(ctx context.Context, custID string, q kb.CollectionPackageQuery) (kb.PackageList, error) {
	names, err := s.names(ctx, kb.NameSearch{Kind: kb.NamePackages, Search: q.Search})
	if err != nil {
		return kb.PackageList{}, err
	}
	q.Names = names
	return s.store.CollectionPackages(ctx, custID, q)
}

// names returns the vendors or packages whose names q matches, from the
// index; nil when q has no search, or one the store refuses (it says why,
// after the checks it makes first) or that matches nothing by its words.
func (s *Service) names(ctx context.Context, q kb.NameSearch) (*kb.NameMatches, error) {
	if strings.TrimSpace(q.Search) == "" || kb.CheckSearch("Search", q.Search) != nil {
		return nil, nil
	}
	if _, none := kb.CompileNameSearch(q); none {
		return &kb.NameMatches{}, nil
	}
	match, others, err := s.matchNames(ctx, q)
	if err != nil {
		return nil, err
	}
	return &kb.NameMatches{Match: match, Others: others}, nil
}
