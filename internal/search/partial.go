package search

import "slices"

// PartialSort leaves the k smallest elements of s, in order, at its
// start: a full sort when k is a large part of s, else a quickselect of
// the k smallest followed by a sort of those.
func PartialSort[T any](s []T, k int, cmpf func(a, b T) int) {
	if k >= len(s)/4 {
		slices.SortFunc(s, cmpf)
		return
	}
	lo, hi := 0, len(s)-1
	for lo < hi {
		p := partition(s, lo, hi, cmpf)
		switch {
		case p == k:
			lo = hi
		case p < k:
			lo = p + 1
		default:
			hi = p - 1
		}
	}
	slices.SortFunc(s[:k], cmpf)
}

// partition is Lomuto's partition of s[lo..hi] around its middle element;
// it returns the pivot's final index.
func partition[T any](s []T, lo, hi int, cmpf func(a, b T) int) int {
	mid := lo + (hi-lo)/2
	s[mid], s[hi] = s[hi], s[mid]
	i := lo
	for j := lo; j < hi; j++ {
		if cmpf(s[j], s[hi]) < 0 {
			s[i], s[j] = s[j], s[i]
			i++
		}
	}
	s[i], s[hi] = s[hi], s[i]
	return i
}
