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
// time, in arrays indexed like the collection's interned values; a title
// counts once in each subject, type, package and menu entry it has.
type facetCounter struct {
	c        *collection
	q        kb.PubQuery
	inSchema []bool // by interned subject: kept by the scheme filter
	subjects []int
	types    []int
	packages []int
	menus    []int
	peer     [2]int // not peer reviewed, peer reviewed
}

func newFacetCounter(c *collection, q kb.PubQuery) *facetCounter {
	fc := &facetCounter{
		c:        c,
		q:        q,
		inSchema: make([]bool, len(c.subjects)),
		subjects: make([]int, len(c.subjects)),
		types:    make([]int, len(kb.ResourceTypeNames())),
		packages: make([]int, len(c.packages)),
		menus:    make([]int, len(alpha.TopEntries())),
	}
	for i, s := range c.subjects {
		fc.inSchema[i] = q.SubjectSchema == "" || strings.EqualFold(s.Type, q.SubjectSchema)
	}
	return fc
}

func (fc *facetCounter) add(i int, v *localeView) {
	c := fc.c
	for _, j := range c.subjectsOf(i) {
		if fc.inSchema[j] {
			fc.subjects[j]++
		}
	}
	if t := int(c.typ(i)); t >= 0 && t < len(fc.types) {
		fc.types[t]++
	}
	for _, j := range c.packagesOf(i) {
		fc.packages[j]++
	}
	fc.menus[v.top[i]]++
	if c.peer[i] {
		fc.peer[1]++
	} else {
		fc.peer[0]++
	}
}

// limit is a facet's entry limit: the request's, or the default.
func limit(n int) int {
	if n <= 0 {
		return kb.FacetDefaultCount
	}
	return n
}

// biggest returns the indexes of the non-zero counts, biggest first, then
// by tie, at most n.
func biggest(counts []int, n int, tie func(a, b int) int) []int {
	var idx []int
	for i, c := range counts {
		if c > 0 {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return tie(a, b)
	})
	return idx[:min(n, len(idx))]
}

func (fc *facetCounter) result(ctx context.Context, st kb.PublicationStore, custID string) (*kb.PubFacets, error) {
	c := fc.c
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
	var names []string
	for j, n := range fc.subjects {
		if n == 0 {
			continue
		}
		name := c.subjects[j].Name
		if _, ok := byName[name]; !ok {
			names = append(names, name)
		}
		byName[name] += n
	}
	counts := make([]int, len(names))
	for i, name := range names {
		counts[i] = byName[name]
	}
	for _, i := range biggest(counts, limit(fc.q.SubjectFacetCount), func(a, b int) int { return strings.Compare(names[a], names[b]) }) {
		f.Subjects = append(f.Subjects, kb.SubjectFacet{ID: names[i], Name: names[i], ParentID: parentSubject(names[i]), Count: counts[i]})
	}
	for _, t := range biggest(fc.types, limit(fc.q.ResourceTypeFacetCount), cmp.Compare[int]) {
		f.ResourceTypes = append(f.ResourceTypes, kb.ResourceTypeFacet{Type: kb.ResourceType(t), Count: fc.types[t]})
	}
	if slices.ContainsFunc(fc.packages, func(n int) bool { return n > 0 }) {
		names := map[int64]string{}
		all, err := st.CollectionPackages(ctx, custID, kb.CollectionPackageQuery{})
		if err != nil {
			return nil, err
		}
		for _, p := range all.Packages {
			names[p.ID] = p.Name
		}
		for _, j := range biggest(fc.packages, limit(fc.q.PackageFacetCount), func(a, b int) int {
			if r := strings.Compare(names[c.packages[a]], names[c.packages[b]]); r != 0 {
				return r
			}
			return cmp.Compare(c.packages[a], c.packages[b])
		}) {
			id := c.packages[j]
			f.Packages = append(f.Packages, kb.PackageFacet{ID: id, Name: names[id], Count: fc.packages[j]})
		}
	}
	// The alpha menu facet keeps the menu's order: it reads as an A–Z bar.
	n := fc.q.AlphaMenuFacetCount
	if n <= 0 {
		n = len(fc.menus)
	}
	keep := make([]bool, len(fc.menus))
	for _, i := range biggest(fc.menus, n, cmp.Compare[int]) {
		keep[i] = true
	}
	for i, m := range alpha.TopEntries() {
		if keep[i] {
			f.AlphaMenus = append(f.AlphaMenus, kb.AlphaMenuFacet{Menu: m, Count: fc.menus[i]})
		}
	}
	for _, v := range []bool{true, false} {
		if n := fc.peer[boolIndex(v)]; n > 0 {
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
