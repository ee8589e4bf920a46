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
	whole := make(map[int64]bool, len(sel.Packages))
	for _, p := range sel.Packages {
		if packageID == 0 || p == packageID {
			whole[p] = true
		}
	}
	deselected := map[int64]*roaring.Bitmap{} // in packages selected whole
	chosen := roaring.New()                   // resources selected one by one
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
			chosen.Add(o)
		case whole[c.PackageID]:
			d := deselected[c.PackageID]
			if d == nil {
				d = roaring.New()
				deselected[c.PackageID] = d
			}
			d.Add(o)
		}
	}
	parts := []*roaring.Bitmap{chosen}
	for p := range whole {
		bm := x.packages[p]
		if bm == nil {
			continue
		}
		if d := deselected[p]; d != nil {
			bm = roaring.AndNot(bm, d)
		}
		parts = append(parts, bm)
	}
	return roaring.FastOr(parts...)
}
