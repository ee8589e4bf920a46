package search

import "container/heap"

// heapOf is a container/heap over a slice, the element less orders
// first at its root.
type heapOf[T any] struct {
	s    []T
	less func(a, b T) bool
}

func (h *heapOf[T]) Len() int           { return len(h.s) }
func (h *heapOf[T]) Less(i, j int) bool { return h.less(h.s[i], h.s[j]) }
func (h *heapOf[T]) Swap(i, j int)      { h.s[i], h.s[j] = h.s[j], h.s[i] }
func (h *heapOf[T]) Push(v any)         { h.s = append(h.s, v.(T)) }
func (h *heapOf[T]) Pop() any {
	v := h.s[len(h.s)-1]
	h.s = h.s[:len(h.s)-1]
	return v
}

// offer keeps v if it is among the k elements ranked last by less of
// those offered so far (the root is the one to go first), and reports
// whether it did.
func (h *heapOf[T]) offer(v T, k int) bool {
	switch {
	case len(h.s) < k:
		heap.Push(h, v)
	case h.less(h.s[0], v):
		h.s[0] = v
		heap.Fix(h, 0)
	default:
		return false
	}
	return true
}
