package search

import (
	"cmp"
	"maps"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

// Collection is a customer's collection in one index: the titles of
// which it has a resource selected and not hidden, all of them and per
// package of the collection. Its bitmaps are read only; those of whole
// packages are the index's own.
type Collection struct {
	all  *roaring.Bitmap
	pkgs map[int64]*roaring.Bitmap
	// resources is the number of (title, package) pairs in pkgs;
	// bySize lists pkgs' packages, largest first (then by id), and size
	// holds their titles' numbers.
	resources uint64
	bySize    []int64
	size      map[int64]uint64
	// at holds pkgs by the index's package index (nil: not in the
	// collection); own tells where that bitmap is the package's own (all
	// its titles are in the collection).
	at  []*roaring.Bitmap
	own []bool
	// browse keeps the facet counts of the whole collection (a search
	// without words or filters, an A-Z page's first view) by locale,
	// subject scheme and package facet limit: they cost a pass over
	// every title.
	browse sync.Map // browseKey → *kb.FacetCounts
}

// browseKey names the facet counts of the whole collection under a
// locale, a subject scheme and a package facet limit.
type browseKey struct {
	locale, schema string
	packages       int
}

// Len returns the number of titles in the collection.
func (c *Collection) Len() int { return int(c.all.GetCardinality()) }

// Collection derives the collection of a customer with selection state
// sel, as the stores' SQLCollection lists it: the resources of its
// selected packages that are not hidden, less their title-level
// deselections and hidden resources, and the resources it selected one
// by one in other packages that are not hidden. A choice whose resource
// is not in the index counts for nothing. The cost is a bitmap operation
// per package of the collection.
func (x *Index) Collection(sel kb.SelectionState) *Collection {
	hidden := make(map[int64]bool, len(sel.HiddenPackages))
	for _, p := range sel.HiddenPackages {
		hidden[p] = true
	}
	whole := make(map[int64]bool, len(sel.Packages))
	for _, p := range sel.Packages {
		if !hidden[p] && x.packages[p] != nil {
			whole[p] = true
		}
	}
	// ordinal returns the ordinal of a resource's title, ok only when
	// its package is in the collection's reach and holds it.
	ordinal := func(k kb.ResourceKey) (uint32, bool) {
		p := x.packages[k.PackageID]
		if p == nil || hidden[k.PackageID] {
			return 0, false
		}
		o, ok := x.Ordinal(k.TitleID)
		return o, ok && p.Contains(o)
	}
	except := map[int64]*roaring.Bitmap{} // by package selected whole: deselected or hidden
	chosen := map[int64]*roaring.Bitmap{} // by other package: selected one by one
	addTo := func(m map[int64]*roaring.Bitmap, p int64, o uint32) {
		bm := m[p]
		if bm == nil {
			bm = roaring.New()
			m[p] = bm
		}
		bm.Add(o)
	}
	for _, c := range sel.Titles {
		k := kb.ResourceKey{PackageID: c.PackageID, TitleID: c.TitleID}
		o, ok := ordinal(k)
		switch {
		case !ok:
		case whole[c.PackageID] && !c.Selected:
			addTo(except, c.PackageID, o)
		case !whole[c.PackageID] && c.Selected:
			addTo(chosen, c.PackageID, o)
		}
	}
	for _, k := range sel.HiddenTitles {
		if o, ok := ordinal(k); ok && whole[k.PackageID] {
			addTo(except, k.PackageID, o)
		} else if ok && chosen[k.PackageID] != nil {
			chosen[k.PackageID].Remove(o)
		}
	}
	pkgs := make(map[int64]*roaring.Bitmap, len(whole)+len(chosen))
	for p := range whole {
		bm := x.packages[p]
		if e := except[p]; e != nil {
			bm = roaring.AndNot(bm, e)
		}
		pkgs[p] = bm
	}
	for p, bm := range chosen {
		pkgs[p] = bm
	}
	return x.newCollection(pkgs)
}

// without returns the collection c of x without the titles retired
// (those a delta holds as they now are): c itself when it has none.
//
// Only the packages holding a retired title change: the cost is theirs
// and a copy of c's per-package tables, not a union of every package.
func (x *Index) without(c *Collection, retired *roaring.Bitmap) *Collection {
	if !c.all.Intersects(retired) {
		return c
	}
	n := &Collection{all: roaring.AndNot(c.all, retired), pkgs: maps.Clone(c.pkgs), resources: c.resources,
		size: maps.Clone(c.size), at: slices.Clone(c.at), own: slices.Clone(c.own)}
	for p, bm := range c.pkgs {
		if !bm.Intersects(retired) {
			continue
		}
		bm = roaring.AndNot(bm, retired)
		n.resources -= c.size[p] - bm.GetCardinality()
		if bm.IsEmpty() {
			delete(n.pkgs, p)
			delete(n.size, p)
		} else {
			n.pkgs[p], n.size[p] = bm, bm.GetCardinality()
		}
		if i, ok := slices.BinarySearch(x.pkgIDs, p); ok {
			n.at[i], n.own[i] = n.pkgs[p], false
		}
	}
	n.bySize = n.sortBySize()
	return n
}

// newCollection returns the collection of the titles pkgs holds by
// package (empty bitmaps are left out).
func (x *Index) newCollection(pkgs map[int64]*roaring.Bitmap) *Collection {
	c := &Collection{pkgs: make(map[int64]*roaring.Bitmap, len(pkgs))}
	for p, bm := range pkgs {
		if !bm.IsEmpty() {
			c.pkgs[p] = bm
		}
	}
	parts := make([]*roaring.Bitmap, 0, len(c.pkgs))
	c.size = make(map[int64]uint64, len(c.pkgs))
	for p, bm := range c.pkgs {
		parts = append(parts, bm)
		c.size[p] = bm.GetCardinality()
		c.resources += c.size[p]
	}
	c.at, c.own = make([]*roaring.Bitmap, len(x.pkgIDs)), make([]bool, len(x.pkgIDs))
	for p, bm := range c.pkgs {
		if i, ok := slices.BinarySearch(x.pkgIDs, p); ok {
			c.at[i], c.own[i] = bm, bm == x.packages[p]
		}
	}
	c.bySize = c.sortBySize()
	c.all = roaring.FastOr(parts...)
	return c
}

// sortBySize returns the collection's packages, largest first (then by
// id).
func (c *Collection) sortBySize() []int64 {
	ids := slices.Collect(maps.Keys(c.pkgs))
	slices.SortFunc(ids, func(a, b int64) int { return cmp.Or(cmp.Compare(c.size[b], c.size[a]), cmp.Compare(a, b)) })
	return ids
}
