package search

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPartialSort checks that the first k elements are the k smallest in
// order, for sizes and k on both sides of the quickselect threshold and
// with many equal elements.
func TestPartialSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 7, 100, 1000, 5000} {
		for _, k := range []int{0, 1, 2, n / 10, n / 4, n / 2, n} {
			if k > n {
				continue
			}
			for _, spread := range []int{3, 1 << 30} {
				s := make([]int, n)
				for i := range s {
					s[i] = r.IntN(spread)
				}
				want := slices.Clone(s)
				slices.Sort(want)
				PartialSort(s, k, cmp.Compare[int])
				if !slices.Equal(s[:k], want[:k]) {
					t.Fatalf("n=%d k=%d spread=%d: first k %v, want %v", n, k, spread, s[:k], want[:k])
				}
				rest := slices.Clone(s)
				slices.Sort(rest)
				if !slices.Equal(rest, want) {
					t.Fatalf("n=%d k=%d: elements lost or duplicated", n, k)
				}
			}
		}
	}
}
