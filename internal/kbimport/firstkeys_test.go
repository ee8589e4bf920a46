package kbimport

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFirstKeys checks that a first load's keys answer as its lookups
// in SQL would: each title of an identifier once, ascending, whatever
// order the identifiers came in; the first resource's title of a
// provider title_id, after the batch's own; every title of a match hash.
func TestFirstKeys(t *testing.T) {
	k := newFirstKeys()
	for _, x := range []struct {
		t    int64
		norm string
	}{{5, "A"}, {3, "A"}, {5, "A"}, {9, "A"}, {4, "A"}, {3, "A"}, {7, "B"}} {
		k.addNorm(x.t, x.norm)
	}
	k.addTitle(3, 100)
	k.addTitle(4, 100)
	k.addTitle(5, 200)
	k.addResource(3, "p1")
	k.addResource(4, "p1") // a later resource does not take p1
	k.addResource(5, "")
	k.addResource(6, "p2")
	m := &batchMatch{byPID: map[string]int64{}, byNorm: map[string][]int64{}, byHash: map[int64][]int64{}, has: map[string]bool{}}
	m.byPID["p2"] = 8 // the batch's extra provider title_ids come first
	k.lookup(m, []string{"p1", "p2", "p3", ""}, []string{"A", "A", "C"}, []int64{100, 100, 300})
	want := &batchMatch{
		byPID:  map[string]int64{"p1": 3, "p2": 8},
		byNorm: map[string][]int64{"A": {3, 4, 5, 9}},
		byHash: map[int64][]int64{100: {3, 4}},
		has:    map[string]bool{"3|A": true, "4|A": true, "5|A": true, "9|A": true},
	}
	if diff := cmp.Diff(want, m, cmp.AllowUnexported(batchMatch{})); diff != "" {
		t.Errorf("lookup (-want +got):\n%s", diff)
	}
}
