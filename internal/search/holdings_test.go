package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
)

// TestHoldingsLikeRebuild: a package's titles and a customer's selected
// titles, in all packages and in each, are the same from an index with a
// delta of changes as from an index built anew after them; and combined
// sets are the sets' combinations.
func TestHoldingsLikeRebuild(t *testing.T) {
	n := 1200
	if testing.Short() {
		n = 600
	}
	ctx := context.Background()
	p := newPropertyKB(t, n, 23)
	feed := p.store.(kb.TitleFeed)
	base := p.x
	v0, err := feed.TitlesVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(23, 38))
	for round := range 3 {
		if round < 2 {
			changeCustomTitles(t, p, r, 25)
		} else if _, err := gen.Generate(ctx, p.store, gen.Options{Titles: n + n/4, Seed: 23, Packages: 20, Vendors: 5}, nil); err != nil {
			t.Fatal(err)
		}
		bld := NewBuilder()
		_, changed, ok, err := feed.FeedChanges(ctx, v0, maxDelta, bld.AddPackage, bld.AddTitle)
		if err != nil || !ok {
			t.Fatalf("round %d: changes since %d: ok %v, err %v", round, v0, ok, err)
		}
		d := newDelta(base, bld.Build(), changed)
		p.load(t)
		for _, cust := range []string{"c1", "c2"} {
			sel, err := feed.SelectionOf(ctx, cust)
			if err != nil {
				t.Fatal(err)
			}
			withDelta := &Holdings{b: &built{x: base, d: d}, e: &selEntry{sel: sel}}
			anew := &Holdings{b: &built{x: p.x}, e: &selEntry{sel: sel}}
			if got, want := withDelta.Selected(0).IDs(), anew.Selected(0).IDs(); !slices.Equal(got, want) {
				t.Fatalf("round %d, %s: %d titles selected with the delta, %d built anew", round, cust, len(got), len(want))
			}
			pkgs := withDelta.SelectedPackages()
			if len(pkgs) == 0 {
				t.Fatalf("round %d, %s: no package selected", round, cust)
			}
			byPkg := withDelta.SelectedByPackage()
			for _, pkg := range pkgs {
				got := []int64{}
				if s, ok := byPkg[pkg]; ok {
					got = s.IDs()
				}
				if want := anew.Selected(pkg).IDs(); !slices.Equal(got, want) {
					t.Errorf("round %d, %s, package %d: %d selected in one pass with the delta, %d built anew", round, cust, pkg, len(got), len(want))
				}
			}
			var sets []TitleSet
			var union, twice []int64
			times := map[int64]int{}
			for _, pkg := range pkgs {
				sets = append(sets, withDelta.Selected(pkg))
				for _, id := range anew.Selected(pkg).IDs() {
					if times[id]++; times[id] == 1 {
						union = append(union, id)
					} else if times[id] == 2 {
						twice = append(twice, id)
					}
				}
			}
			slices.Sort(union)
			slices.Sort(twice)
			if got := withDelta.Union(sets...); !slices.Equal(got.IDs(), union) || got.Len() != len(union) {
				t.Errorf("round %d, %s: the union of the packages' selections has %d titles (Len %d), want %d", round, cust, len(got.IDs()), got.Len(), len(union))
			}
			for _, pkg := range pkgs[:min(len(pkgs), 5)] {
				var want []int64
				for _, other := range pkgs {
					if other != pkg {
						want = append(want, anew.Selected(other).IDs()...)
					}
				}
				slices.Sort(want)
				want = slices.Compact(want)
				if got := withDelta.SelectedElsewhere(pkg).IDs(); !slices.Equal(got, want) {
					t.Errorf("round %d, %s: %d titles selected elsewhere than package %d, want %d", round, cust, len(got), pkg, len(want))
				}
			}
			if got := withDelta.SelectedTwice(); !slices.Equal(got.IDs(), twice) {
				t.Errorf("round %d, %s: SelectedTwice has %d titles, want %d", round, cust, got.Len(), len(twice))
			}
			if got := withDelta.Twice(sets...); !slices.Equal(got.IDs(), twice) || got.Len() != len(twice) || (cust == "c1" && len(twice) == 0) {
				t.Errorf("round %d, %s: the titles selected twice are %d (Len %d), want %d (c1: some)", round, cust, len(got.IDs()), got.Len(), len(twice))
			}
			for _, pkg := range pkgs {
				if got, want := withDelta.Selected(pkg).IDs(), anew.Selected(pkg).IDs(); !slices.Equal(got, want) {
					t.Errorf("round %d, %s, package %d: %d selected with the delta, %d built anew", round, cust, pkg, len(got), len(want))
				}
			}
			if cust != "c1" {
				continue
			}
			ids := slices.Sorted(func(yield func(int64) bool) {
				for id := range p.x.packages {
					if !yield(id) {
						return
					}
				}
			})
			for i, pkg := range ids {
				a, b := withDelta.PackageTitles(pkg), anew.PackageTitles(pkg)
				if got, want := a.IDs(), b.IDs(); !slices.Equal(got, want) {
					t.Errorf("round %d: package %d has %d titles with the delta, %d built anew", round, pkg, len(got), len(want))
				}
				if got := withDelta.SetOf(b.IDs()).IDs(); !slices.Equal(got, b.IDs()) {
					t.Errorf("round %d: package %d's titles by id: %d, want %d", round, pkg, len(got), b.Len())
				}
				// Slots: ascending, naming the set's titles, and back.
				var slots []uint32
				a.EachSlot(func(s uint32) { slots = append(slots, s) })
				dIDs, first := withDelta.DeltaTitles()
				var named []int64
				for _, sl := range slots {
					if sl < first {
						named = append(named, withDelta.Base().ID(sl))
					} else {
						named = append(named, dIDs[sl-first])
					}
				}
				slices.Sort(named)
				if !slices.IsSorted(slots) || !slices.Equal(named, b.IDs()) || !slices.Equal(withDelta.SetOfSlots(slots).IDs(), b.IDs()) {
					t.Errorf("round %d: package %d's slots %v name %v, want %v", round, pkg, slots, named, b.IDs())
				}
				for _, sl := range slots {
					if int(sl) >= withDelta.Slots() {
						t.Errorf("round %d: slot %d of %d", round, sl, withDelta.Slots())
					}
				}
				// Pages in name order, across the whole set.
				for _, pg := range [][2]int{{0, 7}, {5, 13}, {a.Len() - 3, 10}, {a.Len(), 5}} {
					if pg[0] < 0 {
						continue
					}
					if got, want := a.Page(pg[0], pg[1]), b.Page(pg[0], pg[1]); !slices.Equal(got, want) {
						t.Errorf("round %d: package %d, page %v: %v with the delta, %v built anew", round, pkg, pg, got, want)
					}
				}
				other := ids[(i+1)%len(ids)]
				for _, c := range []struct {
					name string
					got  TitleSet
					want []int64
				}{
					{"and", a.And(withDelta.PackageTitles(other)), both(b.IDs(), anew.PackageTitles(other).IDs(), true)},
					{"and not", a.AndNot(withDelta.PackageTitles(other)), both(b.IDs(), anew.PackageTitles(other).IDs(), false)},
				} {
					if got := c.got.IDs(); !slices.Equal(got, c.want) || c.got.Len() != len(c.want) {
						t.Errorf("round %d: package %d %s %d: %d titles (Len %d), want %d", round, pkg, c.name, other, len(got), c.got.Len(), len(c.want))
					}
				}
			}
		}
	}
}

// both returns the ids of a that are (in) or are not (!in) in b, both
// ascending.
func both(a, b []int64, in bool) []int64 {
	out := []int64{}
	for _, id := range a {
		if _, ok := slices.BinarySearch(b, id); ok == in {
			out = append(out, id)
		}
	}
	return out
}
