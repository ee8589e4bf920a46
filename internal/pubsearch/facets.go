package pubsearch

import (
	"cmp"
	"context"
	"maps"
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
	fc.menus[v.path[i].TopIndex()]++
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

// biggest returns the indexes in [0, n) of the non-zero counts, biggest
// first, then by tie, at most max.
func biggest(n int, count func(i int) int, max int, tie func(a, b int) int) []int {
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

// counts returns the counts in the form a title index gives them.
func (fc *facetCounter) counts() *kb.FacetCounts {
	c := fc.c
	out := &kb.FacetCounts{Subjects: map[kb.Subject]int{}, Types: map[kb.ResourceType]int{}, Packages: map[int64]int{}, Menus: map[string]int{}, PeerReviewed: fc.peer}
	for j, n := range fc.subjects {
		if n > 0 {
			out.Subjects[c.subjects[j]] = n
		}
	}
	for t, n := range fc.types {
		if n > 0 {
			out.Types[kb.ResourceType(t)] = n
		}
	}
	for j, n := range fc.packages {
		if n > 0 {
			out.Packages[c.packages[j]] = n
		}
	}
	tops := alpha.TopEntries()
	for i, n := range fc.menus {
		if n > 0 {
			out.Menus[tops[i]] = n
		}
	}
	return out
}

// facets turns the raw counts of q's facets into the answer's: each facet
// its biggest counts, at most its limit, ties in a stable order.
func facets(ctx context.Context, st kb.PublicationStore, custID string, q kb.PubQuery, counts *kb.FacetCounts) (*kb.PubFacets, error) {
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
	for _, i := range biggest(len(names), func(i int) int { return byName[names[i]] }, limit(q.SubjectFacetCount), cmp.Compare[int]) {
		f.Subjects = append(f.Subjects, kb.SubjectFacet{ID: names[i], Name: names[i], ParentID: parentSubject(names[i]), Count: byName[names[i]]})
	}
	types := slices.Sorted(maps.Keys(counts.Types))
	for _, i := range biggest(len(types), func(i int) int { return counts.Types[types[i]] }, limit(q.ResourceTypeFacetCount), cmp.Compare[int]) {
		f.ResourceTypes = append(f.ResourceTypes, kb.ResourceTypeFacet{Type: types[i], Count: counts.Types[types[i]]})
	}
	if len(counts.Packages) > 0 {
		// Names are read only for the packages that may enter: those
		// counting at least as many titles as the last that enters (ties
		// go by name).
		max := limit(q.PackageFacetCount)
		ids := slices.SortedFunc(maps.Keys(counts.Packages), func(a, b int64) int { return cmp.Compare(counts.Packages[b], counts.Packages[a]) })
		if len(ids) > max {
			last := counts.Packages[ids[max-1]]
			ids = slices.DeleteFunc(ids, func(id int64) bool { return counts.Packages[id] < last })
		}
		names, err := st.PackageNames(ctx, custID, ids)
		if err != nil {
			return nil, err
		}
		for _, j := range biggest(len(ids), func(i int) int { return counts.Packages[ids[i]] }, max, func(a, b int) int {
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
	for _, i := range biggest(len(tops), func(i int) int { return counts.Menus[tops[i]] }, n, cmp.Compare[int]) {
		keep[i] = true
	}
	for i, m := range tops {
		if keep[i] {
			f.AlphaMenus = append(f.AlphaMenus, kb.AlphaMenuFacet{Menu: m, Count: counts.Menus[m]})
		}
	}
	for _, v := range []bool{true, false} {
		if n := counts.PeerReviewed[boolIndex(v)]; n > 0 {
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
