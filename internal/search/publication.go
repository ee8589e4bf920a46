package search

import (
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
)

// SearchCollection answers the publication search q over the collection
// c under the view v (the request's locale), as the publication search
// service answers it over a collection read from the store: the filters
// (values of one filter are alternatives, filters all apply), the search's
// matches, the facets counted over the whole result, and the page in
// relevance order (rank, then name) or in v's name order. Every count is
// a bitmap cardinality; only a relevance-ordered search scores its
// matches.
func (x *Index) SearchCollection(custID string, c *Collection, v *View, q kb.PubQuery) (kb.CollectionPage, error) {
	res := kb.CollectionPage{IDs: []int64{}}
	e, f, match, plain, err := x.pubMatch(custID, c, v, q)
	if err != nil {
		return res, err
	}
	res.Total = int(match.GetCardinality())
	if q.Facets {
		res.Counts = x.facetCounts(c, v, q, match, plain)
	}
	off, end := q.Page.Offset(), min(q.Page.Offset()+q.Page.Count, res.Total)
	if off >= end {
		return res, nil
	}
	var ords []uint32
	if e != nil && pubRanked(q) {
		ords = x.topRanked(e, f, match, end, v, x.weights(e, f))[off:]
	} else {
		ords = v.page(match, off, end-off)
	}
	res.IDs = make([]int64, len(ords))
	for i, o := range ords {
		res.IDs[i] = x.ids[o]
	}
	return res, nil
}

// pubRanked reports whether the publication search q's page is in
// relevance order (when its search has words).
func pubRanked(q kb.PubQuery) bool {
	return !q.ByName && ranked(kb.TitleQuery{Search: q.Search, Field: q.Field, Type: q.Type})
}

// pubMatch returns the publication search q's search compiled in x (nil
// without words, or when they can match nothing) and the titles of the
// collection c that pass its filters and match it. plain is true when q
// has neither words nor filters: the match is the whole collection.
func (x *Index) pubMatch(custID string, c *Collection, v *View, q kb.PubQuery) (e *expr, f *field, match *roaring.Bitmap, plain bool, err error) {
	u := x.pubFilters(c, v, q)
	e, f, words, err := x.compileSearch(kb.TitleQuery{Search: q.Search, Field: q.Field, Type: q.Type})
	switch {
	case err != nil:
		return nil, nil, nil, false, err
	case e != nil:
		match = x.visible(roaring.And(e.eval(f, u), u), custID)
	case words:
		match = roaring.New()
	default:
		match = u
	}
	return e, f, underEntry(v, q, match), !words && !filtered(q), nil
}

// filtered reports whether q has a filter.
func filtered(q kb.PubQuery) bool {
	return q.ResourceType != kb.ResourceAll || len(q.ResourceTypes) > 0 || q.PeerReviewed != nil ||
		q.AlphaMenu != "" || len(q.PackageIDs) > 0 || len(q.Subjects) > 0
}

// underEntry returns the titles of match under q's alpha menu entry when
// it is below the first level (pubFilters kept its first-level entry):
// they are read from the view title by title, so this runs on the match,
// after the words.
func underEntry(v *View, q kb.PubQuery, match *roaring.Bitmap) *roaring.Bitmap {
	if q.AlphaMenu == "" {
		return match
	}
	e, err := alpha.ParseEntry(q.AlphaMenu)
	if err != nil || e.Level() == 1 {
		return match
	}
	under := make([]uint32, 0, min(match.GetCardinality(), 1<<16))
	for it := match.Iterator(); it.HasNext(); {
		if o := it.Next(); e.Match(v.path[o]) {
			under = append(under, o)
		}
	}
	return roaring.BitmapOf(under...)
}

// pubFilters returns the titles of the collection that pass q's filters
// (of an alpha menu entry, its first level: underEntry does the rest);
// read only (it may be the collection's own bitmap).
func (x *Index) pubFilters(c *Collection, v *View, q kb.PubQuery) *roaring.Bitmap {
	u := c.all
	and := func(b *roaring.Bitmap) {
		if b == nil {
			b = roaring.New()
		}
		u = roaring.And(u, b)
	}
	anyOf := func(bms []*roaring.Bitmap) {
		and(roaring.FastOr(bms...))
	}
	if q.ResourceType != kb.ResourceAll {
		and(x.byType[q.ResourceType])
	}
	if len(q.ResourceTypes) > 0 {
		anyOf(bitmapsOf(q.ResourceTypes, x.byType))
	}
	if q.PeerReviewed != nil {
		if *q.PeerReviewed {
			and(x.peer)
		} else {
			u = roaring.AndNot(u, x.peer)
		}
	}
	if q.AlphaMenu != "" {
		e, err := alpha.ParseEntry(q.AlphaMenu)
		if err != nil {
			and(nil) // not an entry: nothing is under it
		} else {
			// Below the first level, underEntry narrows the match to the
			// entry, title by title, once the words have narrowed it.
			and(v.tops[e.TopIndex()])
		}
	}
	if len(q.PackageIDs) > 0 {
		anyOf(bitmapsOf(q.PackageIDs, c.pkgs))
	}
	if len(q.Subjects) > 0 {
		want := map[string]bool{}
		for _, s := range q.Subjects {
			want[strings.ToLower(strings.TrimSpace(s))] = true
		}
		var bms []*roaring.Bitmap
		for i, s := range x.subjects {
			if want[strings.ToLower(s.Name)] {
				bms = append(bms, x.subjPosts[i])
			}
		}
		anyOf(bms)
	}
	return u
}

// bitmapsOf returns the bitmaps of m under keys, leaving out the keys m
// does not hold.
func bitmapsOf[K comparable](keys []K, m map[K]*roaring.Bitmap) []*roaring.Bitmap {
	var bms []*roaring.Bitmap
	for _, k := range keys {
		if b := m[k]; b != nil {
			bms = append(bms, b)
		}
	}
	return bms
}

// facetCounts counts the facets of the result match. When whole, match
// is the whole collection, whose counts are kept with it.
func (x *Index) facetCounts(c *Collection, v *View, q kb.PubQuery, match *roaring.Bitmap, whole bool) *kb.FacetCounts {
	if whole {
		key := browseKey{v.locale, q.SubjectSchema, q.PackageFacetCount}
		if fc, ok := c.browse.Load(key); ok {
			return fc.(*kb.FacetCounts)
		}
		fc := x.facetCounts(c, v, q, match, false)
		c.browse.Store(key, fc)
		return fc
	}
	fc := &kb.FacetCounts{Subjects: map[kb.Subject]int{}, Types: map[kb.ResourceType]int{}, Packages: map[int64]int{}, Menus: map[string]int{}}
	if match.IsEmpty() {
		return fc
	}
	// Subjects title by title: a result holds each title once, and most
	// titles have a few subjects, where a bitmap a subject would cost an
	// intersection each. Alpha menu entries as cardinalities: each
	// entry's titles are mostly runs of ordinals (name order), cheap to
	// intersect.
	subj := make([]int, len(x.subjects))
	buf := make([]uint32, 256)
	for it := match.ManyIterator(); ; {
		n := it.NextMany(buf)
		if n == 0 {
			break
		}
		for _, o := range buf[:n] {
			for _, s := range x.subjOf[x.subjOff[o]:x.subjOff[o+1]] {
				subj[s]++
			}
		}
	}
	for i, n := range subj {
		if s := x.subjects[i]; n > 0 && (q.SubjectSchema == "" || strings.EqualFold(s.Type, q.SubjectSchema)) {
			fc.Subjects[s] = n
		}
	}
	entries := alpha.TopEntries()
	for i, b := range v.tops {
		if n := match.AndCardinality(b); n > 0 {
			fc.Menus[entries[i]] = int(n)
		}
	}
	for t, b := range x.byType {
		if n := match.AndCardinality(b); n > 0 {
			fc.Types[t] = int(n)
		}
	}
	limit := q.PackageFacetCount
	if limit <= 0 {
		limit = kb.FacetDefaultCount
	}
	x.packageCounts(c, match, limit, fc.Packages)
	peer := int(match.AndCardinality(x.peer))
	fc.PeerReviewed = [2]int{int(match.GetCardinality()) - peer, peer}
	return fc
}

// packageCounts counts the titles of match in the packages of the
// collection that can enter a package facet of limit entries, into
// counts: packages are taken largest first, and once a package holds
// fewer titles than the limit-th biggest count so far, neither it nor a
// smaller one can enter (a package holding exactly as many may tie and
// is counted). Each count is an intersection with the result, or, for
// a large result, a look-up of the package's titles in a bit set of it
// (an intersection reads a large result's arrays once per package); the
// bit set pays when the result times the packages counted exceeds the
// titles looked up by denseFactor.
func (x *Index) packageCounts(c *Collection, match *roaring.Bitmap, limit int, counts map[int64]int) {
	m := match.GetCardinality()
	if m == 0 {
		return
	}
	if n := uint64(len(x.ids)); n > 0 && m*uint64(len(x.pkgOf))/n*titleFactor < c.resources {
		x.packageCountsByTitle(c, match, limit, counts)
		return
	}
	best := biggest(limit)
	var bits []uint64
	buf := make([]uint32, 256)
	for k, p := range c.bySize {
		if len(best.s) == limit && c.size[p] < uint64(best.s[0]) {
			break
		}
		b := c.pkgs[p]
		var n int
		if bits == nil && m*uint64(len(c.bySize)-k) > denseFactor*c.resources {
			bits = denseSets.get((x.Len() + 63) / 64) // to the last ordinal
			defer denseSets.put(bits)
			match.WriteDenseTo(bits)
		}
		if bits == nil {
			n = int(match.AndCardinality(b))
		} else {
			for it := b.ManyIterator(); ; {
				k := it.NextMany(buf)
				if k == 0 {
					break
				}
				for _, o := range buf[:k] {
					n += int(bits[o>>6] >> (o & 63) & 1)
				}
			}
		}
		if n == 0 {
			continue
		}
		counts[p] = n
		best.offer(n, limit)
	}
}

// titleFactor weighs counting a result title by title against counting
// the collection's packages in packageCounts (a variable for tests): the
// packages cost about the same whatever the result (BENCHMARKS.md,
// "Figures from code comments").
var titleFactor uint64 = 2

// packageCountsByTitle counts the titles of match in the packages of the
// collection title by title (each title's packages, those of the
// collection, and whether the collection holds the title there), then
// keeps the counts that can enter a facet of limit entries.
func (x *Index) packageCountsByTitle(c *Collection, match *roaring.Bitmap, limit int, counts map[int64]int) {
	n := make([]int, len(x.pkgIDs))
	buf := make([]uint32, 256)
	for it := match.ManyIterator(); ; {
		k := it.NextMany(buf)
		if k == 0 {
			break
		}
		for _, o := range buf[:k] {
			for _, i := range x.pkgOf[x.pkgOff[o]:x.pkgOff[o+1]] {
				if b := c.at[i]; b != nil && (c.own[i] || b.Contains(o)) {
					n[i]++
				}
			}
		}
	}
	best := biggest(limit)
	for _, k := range n {
		if k > 0 {
			best.offer(k, limit)
		}
	}
	for i, k := range n {
		if k > 0 && (len(best.s) < limit || k >= best.s[0]) {
			counts[x.pkgIDs[i]] = k
		}
	}
}

// biggest returns a heap that keeps the limit biggest counts offered,
// the smallest of them first.
func biggest(limit int) *heapOf[int] {
	return &heapOf[int]{make([]int, 0, limit), func(a, b int) bool { return a < b }}
}

// denseFactor weighs intersections' cost against a bit set's in
// packageCounts (a variable for tests).
var denseFactor uint64 = 16

// CountMenu counts the names of the collection's titles (of type rt
// unless kb.ResourceAll) into m, whose locale is v's.
func (x *Index) CountMenu(c *Collection, v *View, rt kb.ResourceType, m *alpha.Menu) {
	u := c.all
	if rt != kb.ResourceAll {
		b := x.byType[rt]
		if b == nil {
			return
		}
		u = roaring.And(u, b)
	}
	it := u.Iterator()
	for it.HasNext() {
		m.AddPath(v.path[it.Next()])
	}
}
