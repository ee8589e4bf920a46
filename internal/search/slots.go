package search

import (
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// Slots number the titles of one state of the live index densely, for
// arrays over a Holdings' titles that are read in a set's order: a
// title's slot is its ordinal in the base index or, for a title of the
// delta, the base's length plus its ordinal there. A set's titles come in
// slot order (EachSlot); a base's slots (BaseSlots) stay valid while the
// base does (Base), whatever the delta.

// Slots returns the number of slots.
func (h *Holdings) Slots() int {
	n := h.b.x.Len()
	if h.b.d != nil {
		n += h.b.d.x.Len()
	}
	return n
}

// Base returns the base index, which identifies the base slots.
func (h *Holdings) Base() *Index { return h.b.x }

// BaseSlots returns the base slot of each of ids (ascending), -1 for a
// title the base does not have. A title of the delta keeps its base slot
// here, but a set has it at its delta slot (DeltaTitles). A list as long
// as a tenth of the base is merged with the base's ids in order, a
// shorter one sought id by id.
func (x *Index) BaseSlots(ids []int64) []int32 {
	return x.baseSlots(ids, len(ids) > len(x.byID)/10)
}

// baseSlots is BaseSlots, merged or sought.
func (x *Index) baseSlots(ids []int64, merge bool) []int32 {
	out := make([]int32, len(ids))
	if merge {
		k := 0
		for i, id := range ids {
			for k < len(x.byID) && x.ids[x.byID[k]] < id {
				k++
			}
			out[i] = -1
			if k < len(x.byID) && x.ids[x.byID[k]] == id {
				out[i] = int32(x.byID[k])
			}
		}
		return out
	}
	for i, id := range ids {
		out[i] = -1
		if o, ok := x.Ordinal(id); ok {
			out[i] = int32(o)
		}
	}
	return out
}

// DeltaTitles returns the ids of the delta's titles by their ordinal
// there: title i's slot is the base's length plus i. None without a
// delta.
func (h *Holdings) DeltaTitles() (ids []int64, first uint32) {
	first = uint32(h.b.x.Len())
	if h.b.d == nil {
		return nil, first
	}
	return h.b.d.x.ids, first
}

// EachSlot calls fn with the slot of each of the set's titles, ascending.
func (s TitleSet) EachSlot(fn func(slot uint32)) {
	buf := make([]uint32, min(4096, max(s.Len(), 1)))
	it := s.base.ManyIterator()
	for n := it.NextMany(buf); n > 0; n = it.NextMany(buf) {
		for _, o := range buf[:n] {
			fn(o)
		}
	}
	if s.dl == nil {
		return
	}
	first := uint32(s.x.Len())
	it = s.dl.ManyIterator()
	for n := it.NextMany(buf); n > 0; n = it.NextMany(buf) {
		for _, o := range buf[:n] {
			fn(first + o)
		}
	}
}

// SetOfSlots returns the set of the titles at slots, ascending.
func (h *Holdings) SetOfSlots(slots []uint32) TitleSet {
	first := uint32(h.b.x.Len())
	k, _ := slices.BinarySearch(slots, first)
	s := TitleSet{x: h.b.x, d: h.b.d}
	s.base = roaringOf(slots[:k], 0)
	if h.b.d != nil {
		s.dl = roaringOf(slots[k:], first)
	}
	return s
}

// roaringOf returns the bitmap of slots (ascending) less first.
func roaringOf(slots []uint32, first uint32) *roaring.Bitmap {
	bm := roaring.New()
	if first == 0 {
		bm.AddMany(slots)
		return bm
	}
	os := make([]uint32, len(slots))
	for i, s := range slots {
		os[i] = s - first
	}
	bm.AddMany(os)
	return bm
}
