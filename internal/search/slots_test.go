package search

import (
	"slices"
	"testing"
)

// TestBaseSlots compares BaseSlots, merged (a long list) and sought (a
// short one), with Ordinal, ids the index has and ids it has not.
func TestBaseSlots(t *testing.T) {
	x := smallIndex()
	var all []int64
	for o := range x.Len() {
		all = append(all, x.ID(uint32(o)))
	}
	slices.Sort(all)
	with := []int64{-1, 0}
	for _, id := range all {
		with = append(with, id, id+1_000_000_000)
	}
	slices.Sort(with)
	with = slices.Compact(with)
	for k, ids := range [][]int64{with, all, all[:1], with[:3], nil, with, all[:1]} {
		got := x.baseSlots(ids, k < 4)
		for i, id := range ids {
			want := int32(-1)
			if o, ok := x.Ordinal(id); ok {
				want = int32(o)
			}
			if got[i] != want {
				t.Fatalf("%d ids: the slot of %d is %d, want %d", len(ids), id, got[i], want)
			}
		}
	}
}
