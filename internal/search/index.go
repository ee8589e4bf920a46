package search

import (
	"slices"
	"sort"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

// Index is an immutable index of the knowledge base's titles. Titles are
// numbered by ordinals in name order (kb.Fold(name), then id): ordinal o
// is the o-th title of the name-ordered list. It is safe for concurrent
// searches.
type Index struct {
	ids  []int64  // by ordinal: the title's id
	byID []uint32 // ordinals in the order of their titles' ids

	all      *roaring.Bitmap            // every ordinal
	custom   *roaring.Bitmap            // custom titles of every customer
	customOf map[string]*roaring.Bitmap // a customer's custom titles
	byType   map[kb.ResourceType]*roaring.Bitmap
	packages map[int64]*roaring.Bitmap // package id → its titles
	pkgOwner map[int64]string          // custom packages' owners
	peer     *roaring.Bitmap           // peer-reviewed titles

	// subjects are the distinct subjects (name and scheme), by name;
	// subjPosts[i] holds the titles with subjects[i], and the subjects of
	// ordinal o are subjOf[subjOff[o]:subjOff[o+1]] (a facet counts a
	// result title by title).
	subjects  []kb.Subject
	subjPosts []*roaring.Bitmap
	subjOff   []uint32
	subjOf    []uint32
	// pkgIDs are the ids of the packages that hold titles, sorted: a
	// package's index is its position; the packages of ordinal o are
	// pkgIDs[pkgOf[pkgOff[o]:pkgOff[o+1]]] (a facet counts a small
	// result title by title).
	pkgIDs []int64
	pkgOff []uint32
	pkgOf  []uint32

	name, publisher, subject *field
	// oddNames holds the folded names that are not their name tokens
	// joined by spaces (none known; kept so that a difference between
	// kb.Fold and kb.Words cannot break the name-order binary search).
	oddNames map[uint32]string

	pubs     []string          // distinct folded publishers, sorted
	pubPosts []*roaring.Bitmap // by position in pubs: the titles of that publisher

	idents identList // the identifiers in their matching form
}

// ident is one identifier of a title in its matching form.
type ident struct {
	norm string
	ord  uint32
}

// Len returns the number of titles in the index.
func (x *Index) Len() int { return len(x.ids) }

// Ordinal returns the ordinal of the title id; ok is false for a title the
// index does not hold. A caller builds a customer's selected set with it.
func (x *Index) Ordinal(id int64) (o uint32, ok bool) {
	k := sort.Search(len(x.byID), func(k int) bool { return x.ids[x.byID[k]] >= id })
	if k == len(x.byID) || x.ids[x.byID[k]] != id {
		return 0, false
	}
	return x.byID[k], true
}

// ID returns the id of the title at ordinal o.
func (x *Index) ID(o uint32) int64 { return x.ids[o] }

// optimized returns the bitmap of the ordinals l (sorted in place),
// run-compressed.
func optimized(l []uint32) *roaring.Bitmap {
	slices.Sort(l)
	bm := roaring.BitmapOf(l...)
	bm.RunOptimize()
	return bm
}

// sortName returns the folded name of ordinal o, as the stores keep it in
// titles.sort_name.
func (x *Index) sortName(o uint32) string {
	if s, ok := x.oddNames[o]; ok {
		return s
	}
	var b strings.Builder
	var buf [16]uint32
	for i, t := range x.name.tokens(o, buf[:0]) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.name.terms[t])
	}
	return b.String()
}

// nameRange returns the ordinals whose folded name equals f, or begins
// with it when prefix is set: a range, since ordinals are in name order.
func (x *Index) nameRange(f string, prefix bool) *roaring.Bitmap {
	n := len(x.ids)
	lo := sort.Search(n, func(o int) bool { return x.sortName(uint32(o)) >= f })
	hi := lo + sort.Search(n-lo, func(k int) bool {
		s := x.sortName(uint32(lo + k))
		if prefix {
			return !strings.HasPrefix(s, f)
		}
		return s != f
	})
	bm := roaring.New()
	bm.AddRange(uint64(lo), uint64(hi))
	return bm
}

// publisherRange returns the titles whose folded publisher equals f, or
// begins with it when prefix is set.
func (x *Index) publisherRange(f string, prefix bool) *roaring.Bitmap {
	lo := sort.SearchStrings(x.pubs, f)
	hi := lo
	for hi < len(x.pubs) && (x.pubs[hi] == f || prefix && strings.HasPrefix(x.pubs[hi], f)) {
		hi++
	}
	switch hi - lo {
	case 0:
		return roaring.New()
	case 1:
		return x.pubPosts[lo]
	}
	return roaring.FastOr(x.pubPosts[lo:hi]...)
}
