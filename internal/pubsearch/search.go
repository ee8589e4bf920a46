// Package pubsearch runs the publication searches and alpha menus of the
// publication search service over a store. It keeps recently searched
// customers' collections in memory (Index), keyed by the store's
// collection version, which moves with every change of the collection.
// The store finds the titles a search's words match (its indexes); this
// package keeps those
// in the collection, applies the facet filters, counts the facets over the
// whole filtered result, orders the result (by relevance, or by title
// name under a locale's collation with its leading articles ignored) and
// loads the requested page from the store, which checks each of its titles
// against the customer's current state once more.
package pubsearch

import (
	"cmp"
	"context"
	"strings"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
)

// hit is a title of the filtered result: its index in the collection and
// its relevance rank.
type hit struct {
	i    uint32
	rank float64
}

// Search runs q over the customer's collection. loc orders titles by name
// and places them in the AlphaMenus facet and filter.
func (x *Index) Search(ctx context.Context, st kb.PublicationStore, custID string, loc *alpha.Locale, q kb.PubQuery) (kb.PubResult, error) {
	res := kb.PubResult{Titles: []kb.Title{}}
	if page, ok, err := st.SearchCollection(ctx, custID, loc, q); err != nil || ok {
		if err != nil {
			return res, err
		}
		return fromIndex(ctx, st, custID, q, page)
	}
	c, err := x.collection(ctx, st, custID)
	if err != nil {
		return res, err
	}
	view := c.view(loc)
	f := newFilter(c, q)
	var fc *facetCounter
	if q.Facets {
		fc = newFacetCounter(c, q)
	}
	var hits []hit
	consider := func(i int, rank float64) {
		if !f.keep(i, view) {
			return
		}
		if fc != nil {
			fc.add(i, view)
		}
		hits = append(hits, hit{i: uint32(i), rank: rank})
	}
	words := strings.TrimSpace(q.Search) != ""
	if words {
		err = st.TitleMatches(ctx, custID, q, func(id int64, rank float64) {
			if i := c.find(id); i >= 0 {
				consider(i, rank)
			}
		})
		if err != nil {
			return res, err
		}
	} else {
		for i := range c.ids {
			consider(i, 0)
		}
	}
	res.Total = len(hits)
	if fc != nil {
		if res.Facets, err = facets(ctx, st, custID, q, fc.counts()); err != nil {
			return res, err
		}
	}
	ids := pageOf(c, view, hits, q.Page, q.ByName || !words)
	if len(ids) == 0 {
		return res, nil
	}
	if res.Titles, err = st.CollectionTitles(ctx, custID, ids); err != nil {
		return res, err
	}
	return res, nil
}

// fromIndex completes a search that a title index answered: the facets
// from its counts and the page's titles from the store.
func fromIndex(ctx context.Context, st kb.PublicationStore, custID string, q kb.PubQuery, page kb.CollectionPage) (kb.PubResult, error) {
	res := kb.PubResult{Titles: []kb.Title{}, Total: page.Total}
	var err error
	if page.Counts != nil {
		if res.Facets, err = facets(ctx, st, custID, q, page.Counts); err != nil {
			return res, err
		}
	}
	if len(page.IDs) > 0 {
		if res.Titles, err = st.CollectionTitles(ctx, custID, page.IDs); err != nil {
			return res, err
		}
	}
	return res, nil
}

// Menu counts the customer's collection (of type rt unless
// kb.ResourceAll) into m.
func (x *Index) Menu(ctx context.Context, st kb.PublicationStore, custID string, rt kb.ResourceType, m *alpha.Menu) error {
	if ok, err := st.CollectionMenu(ctx, custID, rt, m); ok || err != nil {
		return err
	}
	c, err := x.collection(ctx, st, custID)
	if err != nil {
		return err
	}
	for i := range c.ids {
		if rt == kb.ResourceAll || c.typ(i) == rt {
			m.Add(c.name(i))
		}
	}
	return nil
}

// pageOf orders the hits and returns the title ids of the page. By name
// orders by the locale's collation (ties by title id); relevance by rank,
// then by name. Only the hits up to the end of the page are ordered.
func pageOf(c *collection, view *localeView, hits []hit, page kb.Page, byName bool) []int64 {
	start := page.Offset()
	if start >= len(hits) {
		return nil
	}
	end := min(start+page.Count, len(hits))
	cmpf := func(a, b hit) int {
		if !byName {
			if r := cmp.Compare(a.rank, b.rank); r != 0 {
				return r
			}
		}
		return cmp.Compare(view.rank[a.i], view.rank[b.i])
	}
	search.PartialSort(hits, end, cmpf)
	ids := make([]int64, 0, end-start)
	for _, h := range hits[start:end] {
		ids = append(ids, c.ids[h.i])
	}
	return ids
}
