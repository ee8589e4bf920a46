package search

import (
	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

// Selected derives the titles (ordinals) of which a customer with
// selection state sel has a resource selected: in every package when
// packageID is 0, else in that package only. A resource is selected by
// its title-level choice, or without one by its package's selection, as
// the stores' SQLSelectedTitleIDs says; a choice whose resource is not in
// the index counts for nothing. The cost is a bitmap operation per
// selected package, not a read of the customer's holdings.
func (x *Index) Selected(sel kb.SelectionState, packageID int64) *roaring.Bitmap {
	whole, chosen, deselected := x.selectionParts(sel, packageID)
	parts := make([]*roaring.Bitmap, 0, len(chosen)+len(whole))
	for _, c := range chosen {
		parts = append(parts, c)
	}
	for p := range whole {
		if bm := x.packages[p]; bm != nil {
			if d := deselected[p]; d != nil {
				bm = roaring.AndNot(bm, d)
			}
			parts = append(parts, bm)
		}
	}
	return roaring.FastOr(parts...)
}

// SelectedByPackage derives, in one pass over sel, the titles (ordinals)
// a customer with selection state sel has selected in each package it
// selects titles in, as Selected(sel, p) gives them one package at a
// time. The bitmaps are new: the caller may change them.
func (x *Index) SelectedByPackage(sel kb.SelectionState) map[int64]*roaring.Bitmap {
	whole, out, deselected := x.selectionParts(sel, 0)
	for p := range whole {
		bm := x.packages[p]
		if bm == nil {
			continue
		}
		bm = bm.Clone()
		if d := deselected[p]; d != nil {
			bm.AndNot(d)
		}
		if c := out[p]; c != nil {
			bm.Or(c)
		}
		out[p] = bm
	}
	return out
}

// selectionParts applies the rules of Selected to sel, in package
// packageID only when not 0: the packages selected whole, and by package
// the titles selected one by one and, in a package selected whole, those
// deselected. A choice of a resource the index does not have counts for
// nothing. The bitmaps are new.
func (x *Index) selectionParts(sel kb.SelectionState, packageID int64) (whole map[int64]bool, chosen, deselected map[int64]*roaring.Bitmap) {
	whole = make(map[int64]bool, len(sel.Packages))
	for _, p := range sel.Packages {
		if packageID == 0 || p == packageID {
			whole[p] = true
		}
	}
	chosen, deselected = map[int64]*roaring.Bitmap{}, map[int64]*roaring.Bitmap{}
	add := func(m map[int64]*roaring.Bitmap, p int64, o uint32) {
		bm := m[p]
		if bm == nil {
			bm = roaring.New()
			m[p] = bm
		}
		bm.Add(o)
	}
	for _, c := range sel.Titles {
		if packageID != 0 && c.PackageID != packageID {
			continue
		}
		p := x.packages[c.PackageID]
		o, ok := x.Ordinal(c.TitleID)
		if p == nil || !ok || !p.Contains(o) {
			continue
		}
		switch {
		case c.Selected:
			add(chosen, c.PackageID, o)
		case whole[c.PackageID]:
			add(deselected, c.PackageID, o)
		}
	}
	return whole, chosen, deselected
}
