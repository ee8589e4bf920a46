// Package pubsearch runs a publication search of the publication search
// service over a store: the store finds the titles of a customer's
// collection that match the search words; this package applies the facet
// filters, counts the facets over the whole filtered result, orders the
// result (by relevance, or by title name under a locale's collation with
// its leading articles ignored) and loads the requested page. It holds no
// state and does no I/O of its own, so every store shares it.
package pubsearch

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
)

// hit is a title of the filtered result: what ordering needs.
type hit struct {
	id       int64
	rank     float64
	name     string
	sortName string
	key      []byte // collation key, when ordering by name
}

// Search runs q over the customer's collection in st. loc orders titles
// by name and places them in the AlphaMenus facet and filter.
func Search(ctx context.Context, st kb.PublicationStore, custID string, loc *alpha.Locale, q kb.PubQuery) (kb.PubResult, error) {
	res := kb.PubResult{Titles: []kb.Title{}}
	f := newFilter(q)
	var fc *facetCounter
	if q.Facets {
		fc = newFacetCounter(q)
	}
	var hits []hit
	needTop := q.Facets || q.AlphaMenu != ""
	err := st.PublicationHits(ctx, custID, q, q.Facets || len(q.Subjects) > 0, func(h kb.PubHit) {
		if !f.keep(h) {
			return
		}
		var top string
		if needTop {
			top = loc.Top(h.Name)
			if q.AlphaMenu != "" && top != q.AlphaMenu {
				return
			}
		}
		if fc != nil {
			fc.add(h, top)
		}
		hits = append(hits, hit{id: h.ID, rank: h.Rank, name: h.Name, sortName: h.SortName})
	})
	if err != nil {
		return res, err
	}
	res.Total = len(hits)
	if fc != nil {
		if res.Facets, err = fc.result(ctx, st, custID); err != nil {
			return res, err
		}
	}
	page := pageOf(hits, q, loc)
	if len(page) == 0 {
		return res, nil
	}
	ids := make([]int64, len(page))
	for i, h := range page {
		ids[i] = h.id
	}
	if res.Titles, err = st.CollectionTitles(ctx, custID, ids); err != nil {
		return res, err
	}
	return res, nil
}

// pageOf orders the hits and returns the page q asks for. Relevance
// orders by rank, then folded name and id; by name (or relevance without
// a search, which has no rank) orders by the locale's collation key, then
// id. Only the hits up to the end of the page are fully ordered.
func pageOf(hits []hit, q kb.PubQuery, loc *alpha.Locale) []hit {
	start := q.Page.Offset()
	if start >= len(hits) {
		return nil
	}
	end := min(start+q.Page.Count, len(hits))
	var less func(a, b *hit) int
	if q.ByName || strings.TrimSpace(q.Search) == "" {
		for i := range hits {
			hits[i].key = loc.Key(hits[i].name)
		}
		less = func(a, b *hit) int {
			if c := strings.Compare(string(a.key), string(b.key)); c != 0 {
				return c
			}
			return cmp.Compare(a.id, b.id)
		}
	} else {
		less = func(a, b *hit) int {
			if c := cmp.Compare(a.rank, b.rank); c != 0 {
				return c
			}
			if c := strings.Compare(a.sortName, b.sortName); c != 0 {
				return c
			}
			return cmp.Compare(a.id, b.id)
		}
	}
	ptrs := make([]*hit, len(hits))
	for i := range hits {
		ptrs[i] = &hits[i]
	}
	partialSort(ptrs, end, less)
	out := make([]hit, 0, end-start)
	for _, p := range ptrs[start:end] {
		out = append(out, *p)
	}
	return out
}

// partialSort leaves the k smallest elements of s, in order, at its
// start: a full sort when k is a large part of s, else a quickselect of
// the k smallest followed by a sort of those.
func partialSort[T any](s []T, k int, cmpf func(a, b T) int) {
	if k >= len(s)/4 {
		slices.SortFunc(s, cmpf)
		return
	}
	lo, hi := 0, len(s)-1
	for lo < hi {
		p := partition(s, lo, hi, cmpf)
		switch {
		case p == k:
			lo = hi
		case p < k:
			lo = p + 1
		default:
			hi = p - 1
		}
	}
	slices.SortFunc(s[:k], cmpf)
}

// partition is Lomuto's partition of s[lo..hi] around its middle element;
// it returns the pivot's final index.
func partition[T any](s []T, lo, hi int, cmpf func(a, b T) int) int {
	mid := lo + (hi-lo)/2
	s[mid], s[hi] = s[hi], s[mid]
	i := lo
	for j := lo; j < hi; j++ {
		if cmpf(s[j], s[hi]) < 0 {
			s[i], s[j] = s[j], s[i]
			i++
		}
	}
	s[i], s[hi] = s[hi], s[i]
	return i
}
