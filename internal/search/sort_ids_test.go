package search

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortIDsLikeSort compares sortIDs with slices.Sort over lists of
// every length class: short, long, sorted, with equal ids, with large
// and negative ones.
func TestSortIDsLikeSort(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 3))
	for i, n := range []int{0, 1, 7, radixMin - 1, radixMin, radixMin + 1, 50000, 200000} {
		for _, span := range []int64{10, 1 << 20, 1 << 40, 1 << 62} {
			ids := make([]int64, n)
			for j := range ids {
				ids[j] = r.Int64N(span)
			}
			if i%3 == 0 && n > 0 {
				ids[r.IntN(n)] = -5
			}
			want := slices.Clone(ids)
			slices.Sort(want)
			sortIDs(ids)
			if !slices.Equal(ids, want) {
				t.Fatalf("%d ids below %d: sorted wrong", n, span)
			}
			sortIDs(ids) // sorted already
			if !slices.Equal(ids, want) {
				t.Fatalf("%d ids below %d, sorted again: wrong", n, span)
			}
		}
	}
}

func BenchmarkSortIDs(b *testing.B) {
	r := rand.New(rand.NewPCG(38, 4))
	ids := make([]int64, 1_000_000)
	for i := range ids {
		ids[i] = r.Int64N(3_000_000)
	}
	work := make([]int64, len(ids))
	b.Run("radix", func(b *testing.B) {
		for range b.N {
			copy(work, ids)
			sortIDs(work)
		}
	})
	b.Run("slices.Sort", func(b *testing.B) {
		for range b.N {
			copy(work, ids)
			slices.Sort(work)
		}
	})
}
