package search

import "slices"

// radixMin is the length from which sortIDs sorts by radix, a digit of
// radixBits a pass (two passes for ids below four million).
const (
	radixMin  = 1 << 12
	radixBits = 11
	radixMask = 1<<radixBits - 1
)

// sortIDs sorts ids ascending: for long lists of non-negative ids a
// least-significant-digit radix sort, a digit a pass (a set's ids come in
// name order, far from sorted; a million ids below 3M sort in about a
// quarter of slices.Sort's time, BenchmarkSortIDs), slices.Sort
// otherwise. Passes over a digit every id shares are skipped.
func sortIDs(ids []int64) {
	if len(ids) < radixMin || slices.IsSorted(ids) {
		slices.Sort(ids)
		return
	}
	var or, and uint64 = 0, ^uint64(0)
	for _, id := range ids {
		if id < 0 {
			slices.Sort(ids)
			return
		}
		or |= uint64(id)
		and &= uint64(id)
	}
	buf := make([]int64, len(ids))
	src, dst := ids, buf
	var count [1<<radixBits + 1]int
	for shift := uint(0); shift < 64; shift += radixBits {
		if (or>>shift)&radixMask == (and>>shift)&radixMask {
			continue // every id has the same digit here
		}
		clear(count[:])
		for _, id := range src {
			count[(uint64(id)>>shift)&radixMask+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, id := range src {
			b := (uint64(id) >> shift) & radixMask
			dst[count[b]] = id
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &ids[0] {
		copy(ids, src)
	}
}
