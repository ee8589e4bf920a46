package search

import (
	"cmp"
	"sort"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

// delta is what an index answers with between two builds from the store:
// the titles changed since its base index was built, indexed anew by the
// same Builder in a small index of their own, and the base's ordinals
// those titles retire. A search runs in both and merges the answers so
// that totals, pages and relevance are those of an index built anew
// (TestDeltaLikeRebuild).
type delta struct {
	x       *Index          // the changed titles that exist, as they now are
	retired *roaring.Bitmap // the base's ordinals of the changed titles
	// at[o] is the number of the base's titles before the delta's
	// ordinal o in name order (sort name, then id).
	at []uint32
	// retiredTokens are the tokens of the retired titles' name,
	// publisher and subject fields (for the fields' mean lengths).
	retiredTokens [3]uint64
}

// newDelta returns the delta of x, the index of the titles changed since
// base was built (those of changed that still exist), over base.
func newDelta(base, x *Index, changed []int64) *delta {
	d := &delta{x: x, retired: roaring.New(), at: make([]uint32, x.Len())}
	for _, id := range changed {
		if o, ok := base.Ordinal(id); ok {
			d.retired.Add(o)
		}
	}
	bf := base.fields()
	var buf []uint32
	for it := d.retired.Iterator(); it.HasNext(); {
		o := it.Next()
		for i, f := range bf {
			buf = f.tokens(o, buf)
			d.retiredTokens[i] += uint64(len(buf))
		}
	}
	for o := range d.at {
		name, id := x.sortName(uint32(o)), x.ids[o]
		d.at[o] = uint32(sort.Search(base.Len(), func(b int) bool {
			return cmp.Or(strings.Compare(base.sortName(uint32(b)), name), cmp.Compare(base.ids[b], id)) >= 0
		}))
	}
	return d
}

// fields returns the index's name, publisher and subject fields.
func (x *Index) fields() [3]*field { return [3]*field{x.name, x.publisher, x.subject} }

// Len returns the number of titles base and d hold together.
func (d *delta) Len(base *Index) int {
	return base.Len() - int(d.retired.GetCardinality()) + d.x.Len()
}

// ref is a title of a base index or of its delta.
type ref struct {
	ord   uint32
	delta bool
}

// baseFirst reports whether the base's ordinal o comes before the
// delta's ordinal od in name order (they are never equal: a base title of
// od's name and id is retired).
func (d *delta) baseFirst(o, od uint32) bool { return o < d.at[od] }

// id returns the id of title r.
func (d *delta) id(base *Index, r ref) int64 {
	if r.delta {
		return d.x.ids[r.ord]
	}
	return base.ids[r.ord]
}

// titles answers q as Index.Titles does over an index of base's titles,
// the retired ones out, and d's: selBase and selDelta are the customer's
// selected sets in each. ok is false when the two cannot be merged (a
// search compiled into different shapes, which compile does not do).
func (d *delta) titles(base *Index, custID string, q kb.TitleQuery, selBase, selDelta *roaring.Bitmap) (res Result, ok bool, err error) {
	res = Result{IDs: []int64{}}
	eb, fb, mb, err := base.matchOf(custID, q, selBase, d.retired)
	if err != nil {
		return res, true, err
	}
	ed, fd, md, err := d.x.matchOf(custID, q, selDelta, nil)
	if err != nil {
		return res, true, err
	}
	res.Total = int(mb.GetCardinality() + md.GetCardinality())
	off, count := q.Page.Offset(), q.Page.Count
	if res.Total <= off || count <= 0 {
		return res, true, nil
	}
	if (eb == nil) != (ed == nil) {
		return res, false, nil
	}
	var refs []ref
	if eb != nil && q.OrderBy != kb.OrderName && ranked(q) {
		wt, ok := d.weights(base, eb, fb, ed, fd)
		if !ok {
			return res, false, nil
		}
		refs = d.mergeRanked(base, eb, fb, mb, ed, fd, md, off+count, nil, nil, wt, d.baseFirst)
		refs = refs[min(off, len(refs)):]
	} else {
		refs = d.page(mb, md, off, count)
	}
	res.IDs = make([]int64, len(refs))
	for i, r := range refs {
		res.IDs[i] = d.id(base, r)
	}
	return res, true, nil
}

// page returns up to count titles of the merged name order of mb (base
// ordinals) and md (delta ordinals) from the off-th on.
func (d *delta) page(mb, md *roaring.Bitmap, off, count int) []ref {
	before := func(od uint32) int { // the base matches before delta ordinal od
		if d.at[od] == 0 {
			return 0
		}
		return int(mb.Rank(d.at[od] - 1))
	}
	return mergePage(md.ToArray(), before, func(i, n int) []uint32 { return page(mb, i, n) }, d.baseFirst, off, count)
}

// mergePage returns up to count titles of the merged order of a base's
// matches and its delta's, from the off-th on: dm are the delta's matches
// in that order, before(od) is the number of the base's matches before
// the delta's ordinal od, basePage(i, n) returns up to n of the base's
// matches from the i-th on, and baseFirst(o, od) tells whether the base's
// ordinal o comes before the delta's od.
func mergePage(dm []uint32, before func(od uint32) int, basePage func(i, n int) []uint32, baseFirst func(o, od uint32) bool, off, count int) []ref {
	// The delta's matches before the page: j+before(dm[j]) grows with j,
	// so a binary search finds them (one before call a step, not one a
	// delta match: a view's before intersects every block).
	j := sort.Search(len(dm), func(j int) bool { return j+before(dm[j]) >= off })
	bs := basePage(off-j, count)
	out := make([]ref, 0, count)
	for len(out) < count && (len(bs) > 0 || j < len(dm)) {
		if len(bs) > 0 && (j == len(dm) || baseFirst(bs[0], dm[j])) {
			out, bs = append(out, ref{ord: bs[0]}), bs[1:]
			continue
		}
		out, j = append(out, ref{ord: dm[j], delta: true}), j+1
	}
	return out
}

// mergeRanked returns the best k titles of mb (in base, search eb) and md
// (in d, search ed) with weights wt, best first, ties in the views'
// order (vb in base, vd in d; baseFirst tells which of a base and a delta
// title comes first).
func (d *delta) mergeRanked(base *Index, eb *expr, fb *field, mb *roaring.Bitmap, ed *expr, fd *field, md *roaring.Bitmap, k int, vb, vd *View, wt weights, baseFirst func(o, od uint32) bool) []ref {
	type cand struct {
		ord   uint32
		score float64
	}
	var bs, ds []cand
	if !mb.IsEmpty() {
		score := base.scorer(eb, fb, wt)
		for _, o := range base.topRanked(eb, fb, mb, k, vb, wt) {
			bs = append(bs, cand{o, score(o)})
		}
	}
	if !md.IsEmpty() {
		score := d.x.scorer(ed, fd, wt)
		for _, o := range d.x.topRanked(ed, fd, md, k, vd, wt) {
			ds = append(ds, cand{o, score(o)})
		}
	}
	out := make([]ref, 0, min(k, len(bs)+len(ds)))
	for len(out) < k && (len(bs) > 0 || len(ds) > 0) {
		if len(ds) == 0 || len(bs) > 0 && (bs[0].score > ds[0].score || bs[0].score == ds[0].score && baseFirst(bs[0].ord, ds[0].ord)) {
			out, bs = append(out, ref{ord: bs[0].ord}), bs[1:]
			continue
		}
		out, ds = append(out, ref{ord: ds[0].ord, delta: true}), ds[1:]
	}
	return out
}

// weights returns the weights of a search's positive words over base and
// d together: eb and ed are the search compiled in each. ok is false when
// the two have different words.
func (d *delta) weights(base *Index, eb *expr, fb *field, ed *expr, fd *field) (weights, bool) {
	var wb, wd []*termSet
	eb.positive(&wb)
	ed.positive(&wd)
	i := 0
	for i < 3 && base.fields()[i] != fb {
		i++
	}
	if len(wb) != len(wd) || i == 3 {
		return weights{}, false
	}
	n := d.Len(base)
	wt := weights{idf: make([]float64, len(wb)), avgLen: meanLen(fb.total-d.retiredTokens[i]+fd.total, n)}
	for k := range wb {
		df := wb[k].post.GetCardinality() - wb[k].post.AndCardinality(d.retired) + wd[k].post.GetCardinality()
		wt.idf[k] = idf(n, int(df))
	}
	return wt, true
}

// matches calls fn with the titles q's search matches that the customer
// may see in base (the retired ones out) and d, in name order, as
// Index.Matches does over an index built anew. ok is false when the two
// cannot be merged.
func (d *delta) matches(base *Index, custID string, q kb.TitleQuery, byName bool, fn func(id int64, rank float64)) (ok bool, err error) {
	eb, fb, mb, err := base.searchMatch(custID, q, d.retired)
	if err != nil || eb == nil {
		return true, err
	}
	ed, fd, md, err := d.x.searchMatch(custID, q, nil)
	if err != nil || ed == nil {
		return ed != nil, err
	}
	var sb, sd func(uint32) float64
	if !byName && ranked(q) {
		wt, ok := d.weights(base, eb, fb, ed, fd)
		if !ok {
			return false, nil
		}
		sb, sd = base.scorer(eb, fb, wt), d.x.scorer(ed, fd, wt)
	}
	rank := func(score func(uint32) float64, o uint32) float64 {
		if score == nil {
			return 0
		}
		return -score(o)
	}
	dm := md.ToArray()
	it := mb.Iterator()
	for it.HasNext() || len(dm) > 0 {
		if it.HasNext() && (len(dm) == 0 || d.baseFirst(it.PeekNext(), dm[0])) {
			o := it.Next()
			fn(base.ids[o], rank(sb, o))
			continue
		}
		fn(d.x.ids[dm[0]], rank(sd, dm[0]))
		dm = dm[1:]
	}
	return true, nil
}
