package analysis

import (
	"cmp"
	"slices"

	"github.com/kbserver/kbserver/internal/search"
)

// A request compares coverage in the order of its holdings' sets: by
// slot (search.Holdings.Slots), merged with each package's classes by
// slot, with no title ids and no sorting on the way.

// slotted is a package's classes by base slot, for one base index.
type slotted struct {
	base  *search.Index
	slots []uint32 // ascending
	class []uint32
}

// slots is where a view's titles are in one request's holdings.
type slots struct {
	h      *search.Holdings
	first  uint32  // the delta's first slot
	delta  []int64 // the delta's titles, by slot less first
	bySlot map[int64]*slotted
	// customBySlot is the customer's own coverage of each package's
	// titles, ascending by slot.
	customBySlot map[int64][]slotClass
}

// slotClass is a title's class by its slot.
type slotClass struct{ slot, class uint32 }

// inHoldings places the view's packages in holdings h: each package's
// classes by base slot (kept while the base is), the delta's titles, and
// the customer's own coverage by slot.
func (c *coverages) inHoldings(v *coverageView, h *search.Holdings) {
	v.h = h
	v.delta, v.first = h.DeltaTitles()
	deltaSlot := make(map[int64]uint32, len(v.delta))
	for i, id := range v.delta {
		deltaSlot[id] = v.first + uint32(i)
	}
	v.bySlot = make(map[int64]*slotted, len(v.pkgs))
	for id, p := range v.pkgs {
		v.bySlot[id] = c.slotted(p, h.Base())
	}
	v.customBySlot = make(map[int64][]slotClass, len(v.custom))
	for pkg, cs := range v.custom {
		for _, cc := range cs {
			sl, ok := deltaSlot[cc.title]
			if !ok {
				var o uint32
				if o, ok = h.Base().Ordinal(cc.title); ok {
					sl = o
				}
			}
			if ok {
				v.customBySlot[pkg] = append(v.customBySlot[pkg], slotClass{sl, cc.class})
			}
		}
		slices.SortFunc(v.customBySlot[pkg], func(a, b slotClass) int { return cmp.Compare(a.slot, b.slot) })
	}
}

// slotted returns p's classes by slot of base, kept with p.
func (c *coverages) slotted(p *packageClasses, base *search.Index) *slotted {
	c.mu.Lock()
	s := p.slotted
	c.mu.Unlock()
	if s != nil && s.base == base {
		return s
	}
	bs := base.BaseSlots(p.titles)
	pairs := make([]uint64, 0, len(bs))
	for i, b := range bs {
		if b >= 0 {
			pairs = append(pairs, uint64(b)<<32|uint64(p.class[i]))
		}
	}
	slices.Sort(pairs)
	s = &slotted{base: base, slots: make([]uint32, len(pairs)), class: make([]uint32, len(pairs))}
	for i, pr := range pairs {
		s.slots[i], s.class[i] = uint32(pr>>32), uint32(pr)
	}
	c.mu.Lock()
	p.slotted = s
	c.mu.Unlock()
	return s
}

// eachClass calls fn with the slot of each of set's titles, ascending,
// and its class in package pkg (noClass for one it does not have), the
// customer's own coverage in place of the managed one. The package's
// classes are merged in slot order with a set of a sixteenth of its size
// or more, sought one by one in a smaller one.
func (v *coverageView) eachClass(pkg int64, set search.TitleSet, fn func(slot, class uint32)) {
	p, s, custom := v.pkgs[pkg], v.bySlot[pkg], v.customBySlot[pkg]
	merge := set.Len() > len(s.slots)/16
	j, k := 0, 0
	set.EachSlot(func(sl uint32) {
		c := noClass
		switch {
		case sl >= v.first:
			if i, ok := slices.BinarySearch(p.titles, v.delta[sl-v.first]); ok {
				c = p.class[i]
			}
		case merge:
			for j < len(s.slots) && s.slots[j] < sl {
				j++
			}
			if j < len(s.slots) && s.slots[j] == sl {
				c = s.class[j]
			}
		default:
			if i, ok := slices.BinarySearch(s.slots, sl); ok {
				c = s.class[i]
			}
		}
		for k < len(custom) && custom[k].slot < sl {
			k++
		}
		if c != noClass && k < len(custom) && custom[k].slot == sl {
			c = custom[k].class
		}
		fn(sl, c)
	})
}

// classesIn returns eachClass's slots and classes.
func (v *coverageView) classesIn(pkg int64, set search.TitleSet) (slots, classes []uint32) {
	n := set.Len()
	slots, classes = make([]uint32, 0, n), make([]uint32, 0, n)
	v.eachClass(pkg, set, func(sl, c uint32) {
		slots, classes = append(slots, sl), append(classes, c)
	})
	return slots, classes
}
