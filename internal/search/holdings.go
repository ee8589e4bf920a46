package search

import (
	"context"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

// The sets of the collection analysis (issue 38): a package's titles and a
// customer's selected titles as bitmaps of one state of the live index,
// its delta included, for the overlap of packages and a package against
// the holdings. They are counted and combined here; their rows are the
// store's.

// TitleSet is a set of titles in one state of a live index: ordinals of
// its base index (the delta's retired titles left out) and of its delta.
// A title is in one half at most. Its methods do not change it.
type TitleSet struct {
	x        *Index
	d        *delta // nil without a delta
	base, dl *roaring.Bitmap
}

// Len is the number of titles in the set.
func (s TitleSet) Len() int {
	n := int(s.base.GetCardinality())
	if s.dl != nil {
		n += int(s.dl.GetCardinality())
	}
	return n
}

// IDs returns the titles' ids, ascending.
func (s TitleSet) IDs() []int64 {
	ids := make([]int64, 0, s.Len())
	buf := make([]uint32, 4096)
	each := func(bm *roaring.Bitmap, x *Index) {
		it := bm.ManyIterator()
		for n := it.NextMany(buf); n > 0; n = it.NextMany(buf) {
			for _, o := range buf[:n] {
				ids = append(ids, x.ID(o))
			}
		}
	}
	each(s.base, s.x)
	if s.dl != nil {
		each(s.dl, s.d.x)
	}
	slices.Sort(ids)
	return ids
}

// Page returns up to count of the set's titles in name order (folded
// name, then id), from the off-th on.
func (s TitleSet) Page(off, count int) []int64 {
	if off < 0 || count <= 0 {
		return []int64{}
	}
	ids := make([]int64, 0, count)
	if s.d == nil {
		for _, o := range page(s.base, off, count) {
			ids = append(ids, s.x.ID(o))
		}
		return ids
	}
	for _, r := range s.d.page(s.base, s.dl, off, count) {
		if r.delta {
			ids = append(ids, s.d.x.ID(r.ord))
		} else {
			ids = append(ids, s.x.ID(r.ord))
		}
	}
	return ids
}

// And returns the titles in s and o, sets of one Holdings.
func (s TitleSet) And(o TitleSet) TitleSet { return s.combine(o, roaring.And) }

// AndNot returns the titles in s and not in o, sets of one Holdings.
func (s TitleSet) AndNot(o TitleSet) TitleSet { return s.combine(o, roaring.AndNot) }

// Or returns the titles in s or o, sets of one Holdings.
func (s TitleSet) Or(o TitleSet) TitleSet { return s.combine(o, roaring.Or) }

func (s TitleSet) combine(o TitleSet, op func(a, b *roaring.Bitmap) *roaring.Bitmap) TitleSet {
	out := TitleSet{x: s.x, d: s.d, base: op(s.base, o.base)}
	if s.dl != nil {
		out.dl = op(s.dl, o.dl)
	}
	return out
}

// Holdings is one customer's knowledge base in one state of the live
// index: the titles of each package and the titles the customer selects,
// in all packages or in one. It lives for one request.
type Holdings struct {
	b *built
	e *selEntry
}

// Holdings returns the customer's holdings at the versions at, waiting
// for the index as a search does.
func (l *Live) Holdings(ctx context.Context, custID string, at kb.CustomerAt) (*Holdings, error) {
	b, customerV, err := l.current(ctx, at)
	if err != nil {
		return nil, err
	}
	e, err := l.selection(ctx, b, custID, customerV)
	if err != nil {
		return nil, err
	}
	return &Holdings{b: b, e: e}, nil
}

// set is the TitleSet of base ordinals bm (the delta's retired ones are
// taken out) and delta ordinals dm.
func (h *Holdings) set(bm, dm *roaring.Bitmap) TitleSet {
	if bm == nil {
		bm = roaring.New()
	}
	s := TitleSet{x: h.b.x, d: h.b.d, base: bm}
	if h.b.d != nil {
		s.base = roaring.AndNot(bm, h.b.d.retired)
		if dm == nil {
			dm = roaring.New()
		}
		s.dl = dm
	}
	return s
}

// PackageTitles returns the titles of package packageID (none when the
// index has no such package). Whether the customer may see it is the
// caller's to check.
func (h *Holdings) PackageTitles(packageID int64) TitleSet {
	var dm *roaring.Bitmap
	if h.b.d != nil {
		dm = h.b.d.x.packages[packageID]
	}
	return h.set(h.b.x.packages[packageID], dm)
}

// Selected returns the titles the customer selects in package packageID,
// or in any package when packageID is 0 (hidden ones included: they are
// held).
func (h *Holdings) Selected(packageID int64) TitleSet {
	var dm *roaring.Bitmap
	if h.b.d != nil {
		dm = h.b.d.x.Selected(h.e.sel, packageID)
	}
	return h.set(h.b.x.Selected(h.e.sel, packageID), dm)
}

// SelectedByPackage returns, for each package the customer selects titles
// in, the titles it selects there: Selected(p) for every such p, derived
// in one pass over the customer's selection state (a pass each for the
// index and its delta) rather than one a package.
func (h *Holdings) SelectedByPackage() map[int64]TitleSet {
	return h.analysisSets().byPackage
}

// SelectedTwice returns the titles the customer selects in two packages
// or more.
func (h *Holdings) SelectedTwice() TitleSet {
	return h.analysisSets().twice
}

// SelectedElsewhere returns the titles the customer selects in a package
// other than packageID: those selected anywhere but there, and those
// selected there and somewhere else.
func (h *Holdings) SelectedElsewhere(packageID int64) TitleSet {
	a := h.analysisSets()
	here, ok := a.byPackage[packageID]
	if !ok {
		return a.all
	}
	return a.all.AndNot(here).Or(here.And(a.twice))
}

// analysisSets returns the selection entry's sets for the analysis,
// derived the first time.
func (h *Holdings) analysisSets() *analysisSets {
	a := h.e.analysis
	if a == nil {
		a = &analysisSets{}
	}
	a.once.Do(func() {
		byPkg := h.selectedByPackage()
		sets := make([]TitleSet, 0, len(byPkg))
		for _, s := range byPkg {
			sets = append(sets, s)
		}
		a.byPackage, a.all, a.twice = byPkg, h.Union(sets...), h.Twice(sets...)
	})
	return a
}

// analysisSets are the sets of a customer's selection the collection
// analysis reads, derived once for a selection entry (one version of the
// customer's selection in one state of the index) and read by many
// requests: a staff member pages through them.
type analysisSets struct {
	once       sync.Once
	byPackage  map[int64]TitleSet // not to be changed
	all, twice TitleSet
}

// selectedByPackage is SelectedByPackage, derived anew.
func (h *Holdings) selectedByPackage() map[int64]TitleSet {
	base := h.b.x.SelectedByPackage(h.e.sel)
	var dl map[int64]*roaring.Bitmap
	if h.b.d != nil {
		dl = h.b.d.x.SelectedByPackage(h.e.sel)
	}
	out := make(map[int64]TitleSet, len(base)+len(dl))
	for p, bm := range base {
		out[p] = h.set(bm, dl[p])
	}
	for p, dm := range dl {
		if _, ok := base[p]; !ok {
			out[p] = h.set(nil, dm)
		}
	}
	return out
}

// SetOf returns the set of the titles ids that the index has.
func (h *Holdings) SetOf(ids []int64) TitleSet {
	bm := roaring.New()
	var dm *roaring.Bitmap
	if h.b.d != nil {
		dm = roaring.New()
	}
	for _, id := range ids {
		if h.b.d != nil {
			if o, ok := h.b.d.x.Ordinal(id); ok {
				dm.Add(o)
				continue
			}
		}
		if o, ok := h.b.x.Ordinal(id); ok {
			bm.Add(o)
		}
	}
	return h.set(bm, dm)
}

// SelectedPackages returns the packages in which the customer selects
// titles: those selected as a whole and those with titles selected one
// by one, ascending.
func (h *Holdings) SelectedPackages() []int64 {
	ps := slices.Clone(h.e.sel.Packages)
	for _, c := range h.e.sel.Titles {
		if c.Selected {
			ps = append(ps, c.PackageID)
		}
	}
	slices.Sort(ps)
	return slices.Compact(ps)
}

// Union returns the titles in any of sets, sets of h: one pass over them
// all, not a new set a pair.
func (h *Holdings) Union(sets ...TitleSet) TitleSet {
	return h.combineAll(sets, func(bms []*roaring.Bitmap) *roaring.Bitmap { return roaring.FastOr(bms...) })
}

// Twice returns the titles in two of sets or more, sets of h, combined in
// place: one pass over them, not a new set a pair.
func (h *Holdings) Twice(sets ...TitleSet) TitleSet {
	return h.combineAll(sets, func(bms []*roaring.Bitmap) *roaring.Bitmap {
		once, twice := roaring.New(), roaring.New()
		for _, bm := range bms {
			twice.Or(roaring.And(once, bm))
			once.Or(bm)
		}
		return twice
	})
}

// combineAll combines sets, sets of h, half by half: the bases' bitmaps
// by op, and the deltas' by op.
func (h *Holdings) combineAll(sets []TitleSet, op func([]*roaring.Bitmap) *roaring.Bitmap) TitleSet {
	bases := make([]*roaring.Bitmap, len(sets))
	dls := make([]*roaring.Bitmap, 0, len(sets))
	for i, s := range sets {
		bases[i] = s.base
		if s.dl != nil {
			dls = append(dls, s.dl)
		}
	}
	out := TitleSet{x: h.b.x, d: h.b.d, base: op(bases)}
	if h.b.d != nil {
		out.dl = op(dls)
	}
	return out
}
