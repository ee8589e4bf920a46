package search

import (
	"cmp"
	"context"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/alpha"
)

// viewBlock is the number of consecutive positions of a view's order that
// one of its blocks holds (a variable for tests).
var viewBlock = 4096

// View is the order of an index's titles under one locale's collation
// (the publication search's name order) and their places in its alpha
// menus: 8 bytes a title, and bitmaps that hold each title once more.
type View struct {
	locale string       // the locale's tag
	rank   []uint32     // by ordinal: position in collation order
	path   []alpha.Path // by ordinal: place in the alpha menus
	// tops[i] holds the titles under alpha.TopEntries()[i].
	tops []*roaring.Bitmap
	// blocks[b] holds the titles at positions [b*block, (b+1)*block):
	// a page deep in a large result skips whole blocks by their counts.
	blocks []*roaring.Bitmap
	block  int
}

// NewView orders the index's titles under loc. names calls its argument
// with the id and name of every title (in any order; a title not in the
// index is ignored, one of the index left out sorts as an empty name).
// Titles whose names collate equal are in id order, as in a collection.
func (x *Index) NewView(ctx context.Context, loc *alpha.Locale, names func(ctx context.Context, fn func(id int64, name string)) error) (*View, error) {
	n := x.Len()
	// The names, end to end in the order they come, and where each
	// ordinal's is; dropped once ordered.
	var text []byte
	var end []uint32
	at := make([]int32, n)
	for i := range at {
		at[i] = -1
	}
	err := names(ctx, func(id int64, name string) {
		o, ok := x.Ordinal(id)
		if !ok || at[o] >= 0 {
			return
		}
		text = append(text, name...)
		at[o] = int32(len(end))
		end = append(end, uint32(len(text)))
	})
	if err != nil {
		return nil, err
	}
	all := string(text) // one copy, of which the names are slices
	text = nil
	name := func(o int) string {
		k := at[o]
		if k < 0 {
			return ""
		}
		start := uint32(0)
		if k > 0 {
			start = end[k-1]
		}
		return all[start:end[k]]
	}
	ord := loc.Order(n, name, func(a, b uint32) int { return cmp.Compare(x.ids[a], x.ids[b]) })
	all, end, at = "", nil, nil
	return newView(loc.Tag(), ord.Rank, ord.Path), nil
}

// newView returns the view of the positions rank (by ordinal) and the
// alpha menu paths path (by ordinal; nil: no menus, for tests).
func newView(locale string, rank []uint32, path []alpha.Path) *View {
	n := len(rank)
	v := &View{locale: locale, rank: rank, path: path, tops: make([]*roaring.Bitmap, len(alpha.TopEntries())), block: viewBlock}
	tops := make([][]uint32, len(v.tops))
	perm := make([]uint32, n)
	for o := range n {
		if path != nil {
			t := path[o].TopIndex()
			tops[t] = append(tops[t], uint32(o))
		}
		perm[rank[o]] = uint32(o)
	}
	for t, l := range tops {
		v.tops[t] = optimized(l)
	}
	for lo := 0; lo < n; lo += v.block {
		v.blocks = append(v.blocks, optimized(perm[lo:min(lo+v.block, n)]))
	}
	return v
}

// page returns up to count members of match from the off-th on, in the
// view's order.
func (v *View) page(match *roaring.Bitmap, off, count int) []uint32 {
	byRank := func(a, b uint32) int { return cmp.Compare(v.rank[a], v.rank[b]) }
	total := int(match.GetCardinality())
	if off >= total || count <= 0 {
		return nil
	}
	if total <= 2*v.block {
		all := match.ToArray()
		PartialSort(all, min(off+count, total), byRank)
		return all[off:min(off+count, total)]
	}
	var out []uint32
	skip := off
	for _, b := range v.blocks {
		if len(out) == count {
			break
		}
		n := int(match.AndCardinality(b))
		if skip >= n {
			skip -= n
			continue
		}
		in := roaring.And(match, b).ToArray()
		slices.SortFunc(in, byRank)
		in = in[skip:]
		skip = 0
		out = append(out, in[:min(len(in), count-len(out))]...)
	}
	return out
}
