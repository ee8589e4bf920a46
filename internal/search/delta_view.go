package search

import (
	"bytes"
	"cmp"
	"context"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
)

// deltaView places a delta's titles in a base view's order (a locale's
// collation, then id): view orders them among themselves and holds
// their alpha menu paths, and at[o] is the number of the base view's
// titles before the delta's ordinal o.
type deltaView struct {
	base *View // the view placed in
	view *View
	at   []uint32
}

// namesOf reads the names of titles by id (kb.TitleFeed.NamesOf).
type namesOf func(ctx context.Context, ids []int64, fn func(id int64, name string)) error

// newDeltaView places d's titles in vb, base's view under loc: their
// names are read with names, and so are the names of the base's titles
// that a binary search (all of d's titles in step, a read a step)
// compares them with. A retired title's place in vb tells nothing (its
// name may have changed): the search steps over it, and over a title
// deleted since the delta was made (the next catch-up retires it).
func (d *delta) newDeltaView(ctx context.Context, base *Index, vb *View, loc *alpha.Locale, names namesOf) (*deltaView, error) {
	n := d.x.Len()
	dname := make([]string, n)
	err := names(ctx, d.x.ids, func(id int64, name string) {
		if o, ok := d.x.Ordinal(id); ok {
			dname[o] = name
		}
	})
	if err != nil {
		return nil, err
	}
	ord := loc.Order(n, func(i int) string { return dname[i] }, func(a, b uint32) int { return cmp.Compare(d.x.ids[a], d.x.ids[b]) })
	dv := &deltaView{base: vb, view: newView(loc.Tag(), ord.Rank, ord.Path), at: make([]uint32, n)}
	keys := make([][]byte, n)
	for o := range keys {
		keys[o] = loc.Key(dname[o])
	}
	// byPos returns the base ordinal at a position of vb.
	sorted := map[int][]uint32{} // by block: its ordinals in vb's order
	byPos := func(p int) uint32 {
		b := p / vb.block
		s := sorted[b]
		if s == nil {
			s = vb.blocks[b].ToArray()
			slices.SortFunc(s, func(a, b uint32) int { return cmp.Compare(vb.rank[a], vb.rank[b]) })
			sorted[b] = s
		}
		return s[p%vb.block]
	}
	gone := map[uint32]bool{} // base titles deleted since d was made
	skip := func(o uint32) bool { return d.retired.Contains(o) || gone[o] }
	lo, hi := make([]int, n), make([]int, n)
	for o := range hi {
		hi[o] = base.Len()
	}
	for {
		// Each search's probe: the middle of its range, or the first
		// title after it that is not retired.
		probe := make([]int, n)
		var ids []int64
		for o := range n {
			probe[o] = -1
			for lo[o] < hi[o] {
				mid := lo[o] + (hi[o]-lo[o])/2
				p := mid
				for p < hi[o] && skip(byPos(p)) {
					p++
				}
				if p < hi[o] {
					probe[o] = p
					ids = append(ids, base.ids[byPos(p)])
					break
				}
				hi[o] = mid // the upper half holds only retired titles
			}
		}
		if len(ids) == 0 {
			break
		}
		name := make(map[int64]string, len(ids))
		if err := names(ctx, ids, func(id int64, s string) { name[id] = s }); err != nil {
			return nil, err
		}
		for o, p := range probe {
			if p < 0 {
				continue
			}
			bo := byPos(p)
			s, ok := name[base.ids[bo]]
			if !ok {
				gone[bo] = true // probed again next step
				continue
			}
			if cmp.Or(bytes.Compare(loc.Key(s), keys[o]), cmp.Compare(base.ids[bo], d.x.ids[o])) < 0 {
				lo[o] = p + 1
			} else {
				hi[o] = p
			}
		}
	}
	for o := range dv.at {
		dv.at[o] = uint32(lo[o])
	}
	return dv, nil
}

// countBefore returns the number of members of match before position pos
// of the view.
func (v *View) countBefore(match *roaring.Bitmap, pos uint32) int {
	n, b := 0, int(pos)/v.block
	for _, bm := range v.blocks[:min(b, len(v.blocks))] {
		n += int(match.AndCardinality(bm))
	}
	if b < len(v.blocks) {
		for it := roaring.And(match, v.blocks[b]).Iterator(); it.HasNext(); {
			if v.rank[it.Next()] < pos {
				n++
			}
		}
	}
	return n
}

// searchCollection answers the publication search q as
// Index.SearchCollection does over an index built anew: cb is the
// customer's collection in base (the retired titles out), vb base's view,
// cd and dv the collection and view of d. ok is false when the two
// cannot be merged.
func (d *delta) searchCollection(base *Index, custID string, cb, cd *Collection, vb *View, dv *deltaView, q kb.PubQuery) (res kb.CollectionPage, ok bool, err error) {
	res = kb.CollectionPage{IDs: []int64{}}
	eb, fb, mb, plain, err := base.pubMatch(custID, cb, vb, q)
	if err != nil {
		return res, true, err
	}
	ed, fd, md, _, err := d.x.pubMatch(custID, cd, dv.view, q)
	if err != nil {
		return res, true, err
	}
	if (eb == nil) != (ed == nil) {
		return res, false, nil
	}
	res.Total = int(mb.GetCardinality() + md.GetCardinality())
	if q.Facets {
		res.Counts = d.facetCounts(base, cb, cd, vb, dv, q, mb, md, plain)
	}
	off, end := q.Page.Offset(), min(q.Page.Offset()+q.Page.Count, res.Total)
	if off >= end {
		return res, true, nil
	}
	baseFirst := func(o, od uint32) bool { return vb.rank[o] < dv.at[od] }
	var refs []ref
	if eb != nil && pubRanked(q) {
		wt, ok := d.weights(base, eb, fb, ed, fd)
		if !ok {
			return res, false, nil
		}
		refs = d.mergeRanked(base, eb, fb, mb, ed, fd, md, end, vb, dv.view, wt, baseFirst)[off:]
	} else {
		dm := dv.view.page(md, 0, int(md.GetCardinality()))
		before := func(od uint32) int { return vb.countBefore(mb, dv.at[od]) }
		refs = mergePage(dm, before, func(i, n int) []uint32 { return vb.page(mb, i, n) }, baseFirst, off, end-off)
	}
	res.IDs = make([]int64, len(refs))
	for i, r := range refs {
		res.IDs[i] = d.id(base, r)
	}
	return res, true, nil
}

// facetCounts counts the facets of a result made of mb (in base) and md
// (in d), as Index.facetCounts counts those of the same result in an
// index built anew; plain tells that the result is the whole collection.
func (d *delta) facetCounts(base *Index, cb, cd *Collection, vb *View, dv *deltaView, q kb.PubQuery, mb, md *roaring.Bitmap, plain bool) *kb.FacetCounts {
	fb := base.facetCounts(cb, vb, q, mb, plain)
	all := q
	all.PackageFacetCount = len(d.x.pkgIDs) + 1 // every package the delta's titles are in
	fd := d.x.facetCounts(cd, dv.view, all, md, false)
	fc := &kb.FacetCounts{Subjects: map[kb.Subject]int{}, Types: map[kb.ResourceType]int{}, Packages: map[int64]int{}, Menus: map[string]int{}}
	add := func(dst, src *kb.FacetCounts) {
		for k, n := range src.Subjects {
			dst.Subjects[k] += n
		}
		for k, n := range src.Types {
			dst.Types[k] += n
		}
		for k, n := range src.Menus {
			dst.Menus[k] += n
		}
		for k, n := range src.Packages {
			dst.Packages[k] += n
		}
		dst.PeerReviewed[0] += src.PeerReviewed[0]
		dst.PeerReviewed[1] += src.PeerReviewed[1]
	}
	add(fc, fb)
	add(fc, fd)
	// The base's count leaves out a package that cannot enter the facet
	// (it holds fewer titles than the facet's last count): with the
	// delta's titles it may, so the base's titles of the result in each
	// package of the delta's result are counted (one intersection each).
	// A package of neither still cannot enter: every count of the merged
	// result is at least the base's.
	for p := range fd.Packages {
		if _, ok := fb.Packages[p]; !ok {
			if bm := cb.pkgs[p]; bm != nil {
				fc.Packages[p] += int(mb.AndCardinality(bm))
			}
		}
	}
	return fc
}

// countMenu counts the names of the collection's titles (cb in base, cd
// in d; of type rt unless kb.ResourceAll) into m.
func (d *delta) countMenu(base *Index, cb, cd *Collection, vb *View, dv *deltaView, rt kb.ResourceType, m *alpha.Menu) {
	base.CountMenu(cb, vb, rt, m)
	d.x.CountMenu(cd, dv.view, rt, m)
}
