package finder

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
)

// Publications answers the publication search q over the customer's
// collection, ordered under loc: the index finds the page's titles and
// counts the facets, the store reads the page's titles by id and the
// names of the packages that enter the package facet.
func (s *Service) Publications(ctx context.Context, custID string, loc *alpha.Locale, q kb.PubQuery) (kb.PubResult, error) {
	res := kb.PubResult{Titles: []kb.Title{}}
	at, err := s.customerAt(ctx, custID)
	if err != nil {
		return res, err
	}
	if err := kb.CheckSearch("Search", q.Search); err != nil {
		return res, err
	}
	page, err := s.live.SearchCollection(ctx, custID, at, loc, q)
	if err != nil {
		return res, err
	}
	res.Total = page.Total
	if page.Counts != nil {
		if res.Facets, err = s.facets(ctx, custID, q, page.Counts); err != nil {
			return res, err
		}
	}
	if len(page.IDs) > 0 {
		if res.Titles, err = s.store.CollectionTitlesAt(ctx, custID, at, page.IDs); err != nil {
			return res, err
		}
	}
	return res, nil
}

// Menu counts the customer's collection (titles of type rt, or all) into
// the alpha browser menu m.
func (s *Service) Menu(ctx context.Context, custID string, rt kb.ResourceType, m *alpha.Menu) error {
	at, err := s.customerAt(ctx, custID)
	if err != nil {
		return err
	}
	return s.live.CollectionMenu(ctx, custID, at, rt, m)
}

// facets turns the raw counts of q's facets into the answer's: each facet
// its biggest counts, at most its limit, ties in a stable order.
func (s *Service) facets(ctx context.Context, custID string, q kb.PubQuery, counts *kb.FacetCounts) (*kb.PubFacets, error) {
	f := &kb.PubFacets{
		Subjects:      []kb.SubjectFacet{},
		ResourceTypes: []kb.ResourceTypeFacet{},
		Packages:      []kb.PackageFacet{},
		AlphaMenus:    []kb.AlphaMenuFacet{},
		PeerReviewed:  []kb.PeerReviewedFacet{},
	}
	// A subject name may come in several schemes: the facet counts
	// titles per name.
	byName := map[string]int{}
	for s, n := range counts.Subjects {
		byName[s.Name] += n
	}
	names := slices.Sorted(maps.Keys(byName))
	for _, i := range biggestCounts(len(names), func(i int) int { return byName[names[i]] }, facetLimit(q.SubjectFacetCount), cmp.Compare[int]) {
		f.Subjects = append(f.Subjects, kb.SubjectFacet{ID: names[i], Name: names[i], ParentID: parentSubject(names[i]), Count: byName[names[i]]})
	}
	types := slices.Sorted(maps.Keys(counts.Types))
	for _, i := range biggestCounts(len(types), func(i int) int { return counts.Types[types[i]] }, facetLimit(q.ResourceTypeFacetCount), cmp.Compare[int]) {
		f.ResourceTypes = append(f.ResourceTypes, kb.ResourceTypeFacet{Type: types[i], Count: counts.Types[types[i]]})
	}
	if len(counts.Packages) > 0 {
		// Names are read only for the packages that may enter: those
		// counting at least as many titles as the last that enters (ties
		// go by name).
		max := facetLimit(q.PackageFacetCount)
		ids := slices.SortedFunc(maps.Keys(counts.Packages), func(a, b int64) int { return cmp.Compare(counts.Packages[b], counts.Packages[a]) })
		if len(ids) > max {
			last := counts.Packages[ids[max-1]]
			ids = slices.DeleteFunc(ids, func(id int64) bool { return counts.Packages[id] < last })
		}
		names, err := s.store.PackageNames(ctx, custID, ids)
		if err != nil {
			return nil, err
		}
		for _, j := range biggestCounts(len(ids), func(i int) int { return counts.Packages[ids[i]] }, max, func(a, b int) int {
			return cmp.Or(strings.Compare(names[ids[a]], names[ids[b]]), cmp.Compare(ids[a], ids[b]))
		}) {
			id := ids[j]
			f.Packages = append(f.Packages, kb.PackageFacet{ID: id, Name: names[id], Count: counts.Packages[id]})
		}
	}
	// The alpha menu facet keeps the menu's order: it reads as an A–Z bar.
	tops := alpha.TopEntries()
	n := q.AlphaMenuFacetCount
	if n <= 0 {
		n = len(tops)
	}
	keep := make([]bool, len(tops))
	for _, i := range biggestCounts(len(tops), func(i int) int { return counts.Menus[tops[i]] }, n, cmp.Compare[int]) {
		keep[i] = true
	}
	for i, m := range tops {
		if keep[i] {
			f.AlphaMenus = append(f.AlphaMenus, kb.AlphaMenuFacet{Menu: m, Count: counts.Menus[m]})
		}
	}
	for i, v := range []bool{true, false} {
		if n := counts.PeerReviewed[1-i]; n > 0 {
			f.PeerReviewed = append(f.PeerReviewed, kb.PeerReviewedFacet{PeerReviewed: v, Count: n})
		}
	}
	return f, nil
}

// facetLimit is a facet's entry limit: the request's, or the default.
func facetLimit(n int) int {
	if n <= 0 {
		return kb.FacetDefaultCount
	}
	return n
}

// biggestCounts returns the indexes in [0, n) of the non-zero counts,
// biggest first, then by tie, at most max.
func biggestCounts(n int, count func(i int) int, max int, tie func(a, b int) int) []int {
	var idx []int
	for i := range n {
		if count(i) > 0 {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(count(b), count(a)); c != 0 {
			return c
		}
		return tie(a, b)
	})
	return idx[:min(max, len(idx))]
}

// parentSubject is the subject one level up in a hierarchical subject
// name such as "MEDICAL / Nursing / General": "MEDICAL / Nursing"; "" for
// a name without levels.
func parentSubject(name string) string {
	if i := strings.LastIndex(name, " / "); i > 0 {
		return name[:i]
	}
	return ""
}
