package pubsearch

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
)

// facetCounter counts the facets of the filtered result, a title at a
// time; a title counts once in each subject, type, package and menu entry
// it has.
type facetCounter struct {
	q        kb.PubQuery
	schema   string // lower-cased subject scheme kept, "" for all
	subjects map[string]int
	types    map[kb.ResourceType]int
	packages map[int64]int
	menus    map[string]int
	peer     [2]int // not peer reviewed, peer reviewed
	seen     map[string]bool
}

func newFacetCounter(q kb.PubQuery) *facetCounter {
	return &facetCounter{
		q:        q,
		schema:   strings.ToLower(q.SubjectSchema),
		subjects: map[string]int{},
		types:    map[kb.ResourceType]int{},
		packages: map[int64]int{},
		menus:    map[string]int{},
		seen:     map[string]bool{},
	}
}

func (c *facetCounter) add(h kb.PubHit, top string) {
	clear(c.seen)
	for _, s := range h.Subjects {
		if c.schema != "" && strings.ToLower(s.Type) != c.schema {
			continue
		}
		if !c.seen[s.Name] {
			c.seen[s.Name] = true
			c.subjects[s.Name]++
		}
	}
	c.types[h.PubType]++
	for i, id := range h.PackageIDs {
		if !slices.Contains(h.PackageIDs[:i], id) {
			c.packages[id]++
		}
	}
	c.menus[top]++
	if h.PeerReviewed {
		c.peer[1]++
	} else {
		c.peer[0]++
	}
}

// limit is a facet's entry limit: the request's, or the default.
func limit(n int) int {
	if n <= 0 {
		return kb.FacetDefaultCount
	}
	return n
}

// biggest returns the keys of m, biggest count first, then by tie, at most n.
func biggest[K comparable](m map[K]int, n int, tie func(a, b K) int) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b K) int {
		if c := cmp.Compare(m[b], m[a]); c != 0 {
			return c
		}
		return tie(a, b)
	})
	return keys[:min(n, len(keys))]
}

func (c *facetCounter) result(ctx context.Context, st kb.PublicationStore, custID string) (*kb.PubFacets, error) {
	f := &kb.PubFacets{
		Subjects:      []kb.SubjectFacet{},
		ResourceTypes: []kb.ResourceTypeFacet{},
		Packages:      []kb.PackageFacet{},
		AlphaMenus:    []kb.AlphaMenuFacet{},
		PeerReviewed:  []kb.PeerReviewedFacet{},
	}
	for _, name := range biggest(c.subjects, limit(c.q.SubjectFacetCount), strings.Compare) {
		f.Subjects = append(f.Subjects, kb.SubjectFacet{ID: name, Name: name, ParentID: parentSubject(name), Count: c.subjects[name]})
	}
	for _, t := range biggest(c.types, limit(c.q.ResourceTypeFacetCount), cmp.Compare[kb.ResourceType]) {
		f.ResourceTypes = append(f.ResourceTypes, kb.ResourceTypeFacet{Type: t, Count: c.types[t]})
	}
	if len(c.packages) > 0 {
		names := map[int64]string{}
		all, err := st.CollectionPackages(ctx, custID, kb.CollectionPackageQuery{})
		if err != nil {
			return nil, err
		}
		for _, p := range all.Packages {
			names[p.ID] = p.Name
		}
		for _, id := range biggest(c.packages, limit(c.q.PackageFacetCount), func(a, b int64) int {
			if c := strings.Compare(names[a], names[b]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		}) {
			f.Packages = append(f.Packages, kb.PackageFacet{ID: id, Name: names[id], Count: c.packages[id]})
		}
	}
	// The alpha menu facet keeps the menu's order: it reads as an A–Z bar.
	n := c.q.AlphaMenuFacetCount
	if n <= 0 {
		n = len(alpha.TopEntries())
	}
	keep := map[string]bool{}
	for _, m := range biggest(c.menus, n, strings.Compare) {
		keep[m] = true
	}
	for _, m := range alpha.TopEntries() {
		if keep[m] {
			f.AlphaMenus = append(f.AlphaMenus, kb.AlphaMenuFacet{Menu: m, Count: c.menus[m]})
		}
	}
	for _, v := range []bool{true, false} {
		if n := c.peer[boolIndex(v)]; n > 0 {
			f.PeerReviewed = append(f.PeerReviewed, kb.PeerReviewedFacet{PeerReviewed: v, Count: n})
		}
	}
	return f, nil
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
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
