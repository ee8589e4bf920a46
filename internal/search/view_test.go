package search

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
)

// TestViewPage checks a view's pages of random sets, small ones sorted
// whole and large ones found through the blocks (made small here), against
// sorting the set's names by collation key, equal keys by title id.
func TestViewPage(t *testing.T) {
	defer func(b int) { viewBlock = b }(viewBlock)
	viewBlock = 16
	r := rand.New(rand.NewPCG(1, 7))
	stems := []string{"The Journal of ", "Journal of ", "Annals of ", "Revue d'", "", "10 ", "Éthique ", "journal of "}
	tails := []string{"Nursing", "nursing", "Nürsing", "Physics", "", "a", "Z", "Économie"}
	var titles []Title
	names := map[int64]string{}
	for i := range 900 {
		id := int64(1 + r.IntN(5000))
		if names[id] != "" {
			continue
		}
		name := stems[r.IntN(len(stems))] + tails[r.IntN(len(tails))] + fmt.Sprint(" ", r.IntN(30))
		names[id] = name
		titles = append(titles, Title{ID: id, Name: name, Type: kb.ResourceJournal, Packages: []int64{int64(1 + i%3)}})
	}
	x := buildIndex(titles, nil)
	loc, err := alpha.ParseLocale("fr")
	if err != nil {
		t.Fatal(err)
	}
	v, err := x.NewView(context.Background(), loc, func(_ context.Context, fn func(int64, string)) error {
		for id, name := range names {
			fn(id, name)
		}
		fn(999_999, "not in the index")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 300 {
		set := roaring.New()
		for o := range uint32(x.Len()) {
			if r.IntN(100) < []int{2, 30, 90}[r.IntN(3)] {
				set.Add(o)
			}
		}
		want := set.ToArray()
		slices.SortFunc(want, func(a, b uint32) int {
			return cmp.Or(bytes.Compare(loc.Key(names[x.ID(a)]), loc.Key(names[x.ID(b)])), cmp.Compare(x.ID(a), x.ID(b)))
		})
		off, count := r.IntN(len(want)+3), 1+r.IntN(50)
		got := v.page(set, off, count)
		w := want[min(off, len(want)):min(off+count, len(want))]
		if !slices.Equal(got, w) && len(got)+len(w) > 0 {
			t.Fatalf("page(%d of %d, off %d, count %d) = %v, want %v", len(want), x.Len(), off, count, got, w)
		}
	}
}

// TestPackageCounts checks the package facet's counts of random results
// in a random collection, counted through the bit set (as large results
// are) and by intersections (small ones), against counting title by
// title: the counts given are exact, and no package that can enter the
// facet's limit is left out.
func TestPackageCounts(t *testing.T) {
	defer func(d, t uint64) { denseFactor, titleFactor = d, t }(denseFactor, titleFactor)
	r := rand.New(rand.NewPCG(2, 9))
	var titles []Title
	for id := int64(1); id <= 3000; id++ {
		t := Title{ID: id, Name: fmt.Sprint("T ", id), Type: kb.ResourceBook}
		for range 1 + r.IntN(3) {
			t.Packages = append(t.Packages, int64(1+r.IntN(40)))
		}
		titles = append(titles, t)
	}
	x := buildIndex(titles, nil)
	for round := range 50 {
		var sel kb.SelectionState
		for p := int64(1); p <= 40; p++ {
			switch r.IntN(4) {
			case 0:
				sel.Packages = append(sel.Packages, p)
			case 1:
				sel.HiddenPackages = append(sel.HiddenPackages, p)
			}
		}
		for range 300 {
			tt := titles[r.IntN(len(titles))]
			k := kb.ResourceKey{PackageID: tt.Packages[0], TitleID: tt.ID}
			if r.IntN(3) == 0 {
				sel.HiddenTitles = append(sel.HiddenTitles, k)
			} else {
				sel.Titles = append(sel.Titles, kb.TitleChoice{PackageID: k.PackageID, TitleID: k.TitleID, Selected: r.IntN(2) == 0})
			}
		}
		c := x.Collection(sel)
		match := roaring.New()
		for o := range uint32(x.Len()) {
			if r.IntN(3) == 0 {
				match.Add(o)
			}
		}
		match.And(c.all)
		want := map[int64]int{}
		for p, b := range c.pkgs {
			for it := b.Iterator(); it.HasNext(); {
				if match.Contains(it.Next()) {
					want[p]++
				}
			}
		}
		for _, d := range []uint64{0, 1 << 30, 2} {
			// By intersections, through the bit set, title by title.
			denseFactor, titleFactor = d, 1<<30
			if d == 2 {
				titleFactor = 0
			}
			limit := 1 + r.IntN(12)
			got := map[int64]int{}
			x.packageCounts(c, match, limit, got)
			// Every count given is exact, and every package that can
			// enter the facet (ties with the limit-th count included)
			// is given.
			kth := slices.Sorted(maps.Values(want))
			slices.Reverse(kth)
			floor := 1
			if len(kth) >= limit {
				floor = kth[limit-1]
			}
			for p, n := range got {
				if want[p] != n {
					t.Fatalf("round %d, denseFactor %d: package %d counted %d, want %d", round, d, p, n, want[p])
				}
			}
			for p, n := range want {
				if _, ok := got[p]; n >= floor && !ok {
					t.Fatalf("round %d, denseFactor %d, limit %d: package %d (%d titles, the limit-th count %d) left out", round, d, limit, p, n, floor)
				}
			}
		}
	}
}
