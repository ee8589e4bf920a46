package kb

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPickHoldingsTitle(t *testing.T) {
	for _, c := range []struct {
		name string
		c    HoldingsCandidates
		want int64
	}{
		{"nothing", HoldingsCandidates{}, 0},
		{"title_id first", HoldingsCandidates{ByProvider: []int64{7}, ByIdentifier: [][]int64{{3}}, ByName: []int64{5}}, 7},
		{"then an identifier, the oldest", HoldingsCandidates{ByIdentifier: [][]int64{{3, 9}}, ByName: []int64{5}}, 3},
		{"the first identifier that names one", HoldingsCandidates{ByIdentifier: [][]int64{{}, {8, 9}, {2}}}, 8},
		{"then the one title of the name", HoldingsCandidates{ByName: []int64{5}}, 5},
		{"not by name when an identifier names none", HoldingsCandidates{ByIdentifier: [][]int64{{}}, ByName: []int64{5}}, 0},
		{"an ambiguous name names none", HoldingsCandidates{ByName: []int64{5, 6}}, 0},
	} {
		if got := PickHoldingsTitle(c.c); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

func TestPlanHoldings(t *testing.T) {
	for _, c := range []struct {
		name       string
		was, want  []int64
		sel, desel []int64
		kept       int
	}{
		{"none", nil, nil, []int64{}, []int64{}, 0},
		{"first file", nil, []int64{1, 2}, []int64{1, 2}, []int64{}, 0},
		{"empty file", []int64{1, 2}, nil, []int64{}, []int64{1, 2}, 0},
		{"mixed", []int64{1, 3, 5, 7}, []int64{2, 3, 7, 8}, []int64{2, 8}, []int64{1, 5}, 2},
		{"same", []int64{4, 9}, []int64{4, 9}, []int64{}, []int64{}, 2},
	} {
		sel, desel, kept := PlanHoldings(c.was, c.want)
		if !slices.Equal(sel, c.sel) || !slices.Equal(desel, c.desel) || kept != c.kept {
			t.Errorf("%s: %v %v %d, want %v %v %d", c.name, sel, desel, kept, c.sel, c.desel, c.kept)
		}
	}
}

// TestPlanHoldingsProperty compares PlanHoldings with set arithmetic on
// maps over random sets.
func TestPlanHoldingsProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		set := func() []int64 {
			var s []int64
			for range r.IntN(40) {
				s = append(s, int64(r.IntN(60)+1))
			}
			return SortedUnique(s)
		}
		was, want := set(), set()
		sel, desel, kept := PlanHoldings(was, want)
		in := func(s []int64, v int64) bool { _, ok := slices.BinarySearch(s, v); return ok }
		var wsel, wdesel []int64
		wkept := 0
		for v := int64(1); v <= 60; v++ {
			switch a, b := in(was, v), in(want, v); {
			case a && b:
				wkept++
			case a:
				wdesel = append(wdesel, v)
			case b:
				wsel = append(wsel, v)
			}
		}
		if d := cmp.Diff([][]int64{wsel, wdesel}, [][]int64{sel, desel}, cmp.Comparer(func(a, b []int64) bool { return len(a) == len(b) && (len(a) == 0 || slices.Equal(a, b)) })); d != "" || kept != wkept {
			t.Fatalf("was %v want %v: kept %d (want %d) %s", was, want, kept, wkept, d)
		}
	}
}

func TestSortedUnique(t *testing.T) {
	if got := SortedUnique([]int64{5, 0, 3, 5, 0, 1}); !slices.Equal(got, []int64{1, 3, 5}) {
		t.Errorf("%v", got)
	}
}
