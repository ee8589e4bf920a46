package search

import (
	"cmp"
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

	name, publisher, subject *field
	// oddNames holds the folded names that are not their name tokens
	// joined by spaces (none known; kept so that a difference between
	// kb.Fold and kb.Words cannot break the name-order binary search).
	oddNames map[uint32]string

	pubs     []string          // distinct folded publishers, sorted
	pubPosts []*roaring.Bitmap // by position in pubs: the titles of that publisher

	// The identifiers, sorted by matching form then ordinal, packed
	// without a pointer each: identifier i is
	// identText[identEnd[i-1]:identEnd[i]], of title identOrd[i].
	identText string
	identEnd  []uint32
	identOrd  []uint32
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

// Builder gathers titles and packages for an Index, in any order.
type Builder struct {
	titles   []Title
	pkgOwner map[int64]string
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder { return &Builder{pkgOwner: map[int64]string{}} }

// AddPackage records a package; a package that holds titles but was never
// added counts as managed.
func (b *Builder) AddPackage(p Package) {
	if p.CustomerID != "" {
		b.pkgOwner[p.ID] = p.CustomerID
	}
}

// AddTitle records a title. The index keeps no reference to t's slices.
func (b *Builder) AddTitle(t Title) { b.titles = append(b.titles, t) }

// Build makes the index of the titles added so far and empties the
// Builder.
func (b *Builder) Build() *Index {
	type keyed struct {
		sort string
		i    int
	}
	keys := make([]keyed, len(b.titles))
	for i, t := range b.titles {
		keys[i] = keyed{kb.Fold(t.Name), i}
	}
	slices.SortFunc(keys, func(p, q keyed) int {
		if c := strings.Compare(p.sort, q.sort); c != 0 {
			return c
		}
		return cmp.Compare(b.titles[p.i].ID, b.titles[q.i].ID)
	})
	n := len(keys)
	x := &Index{
		ids:      make([]int64, n),
		byID:     make([]uint32, n),
		customOf: map[string]*roaring.Bitmap{},
		byType:   map[kb.ResourceType]*roaring.Bitmap{},
		packages: map[int64]*roaring.Bitmap{},
		pkgOwner: b.pkgOwner,
		oddNames: map[uint32]string{},
	}
	x.all = roaring.New()
	x.all.AddRange(0, uint64(n))
	x.custom = roaring.New()
	nameB, pubB, subjB := newFieldBuilder(false), newFieldBuilder(true), newFieldBuilder(true)
	pubOrds := map[string][]uint32{}
	pkgOrds := map[int64][]uint32{}
	typeOrds := map[kb.ResourceType][]uint32{}
	var words []string
	var idents []ident
	for o, k := range keys {
		t := &b.titles[k.i]
		ord := uint32(o)
		x.ids[o] = t.ID
		x.byID[o] = ord
		if t.CustomerID != "" {
			x.custom.Add(ord)
			if x.customOf[t.CustomerID] == nil {
				x.customOf[t.CustomerID] = roaring.New()
			}
			x.customOf[t.CustomerID].Add(ord)
		}
		typeOrds[t.Type] = append(typeOrds[t.Type], ord)
		words = fieldTokens(t.Name, words[:0])
		nameB.add(words)
		if strings.Join(words, " ") != k.sort {
			x.oddNames[ord] = k.sort
		}
		pubB.add(fieldTokens(t.Publisher, words[:0]))
		words = words[:0]
		for _, s := range t.Subjects {
			words = fieldTokens(s, words)
		}
		subjB.add(words)
		fp := kb.Fold(t.Publisher)
		pubOrds[fp] = append(pubOrds[fp], ord)
		for _, id := range t.Identifiers {
			idents = append(idents, ident{id, ord})
		}
		for _, p := range t.Packages {
			if l := pkgOrds[p]; len(l) == 0 || l[len(l)-1] != ord {
				pkgOrds[p] = append(l, ord)
			}
		}
	}
	b.titles = nil
	x.name, x.publisher, x.subject = nameB.build(), pubB.build(), subjB.build()
	for ty, l := range typeOrds {
		x.byType[ty] = optimized(l)
	}
	for p, l := range pkgOrds {
		x.packages[p] = optimized(l)
	}
	x.pubs = make([]string, 0, len(pubOrds))
	for p := range pubOrds {
		x.pubs = append(x.pubs, p)
	}
	sort.Strings(x.pubs)
	x.pubPosts = make([]*roaring.Bitmap, len(x.pubs))
	for i, p := range x.pubs {
		x.pubPosts[i] = optimized(pubOrds[p])
	}
	slices.SortFunc(x.byID, func(p, q uint32) int { return cmp.Compare(x.ids[p], x.ids[q]) })
	slices.SortFunc(idents, func(p, q ident) int {
		if c := strings.Compare(p.norm, q.norm); c != 0 {
			return c
		}
		return cmp.Compare(p.ord, q.ord)
	})
	var text strings.Builder
	x.identEnd = make([]uint32, len(idents))
	x.identOrd = make([]uint32, len(idents))
	for i, id := range idents {
		text.WriteString(id.norm)
		x.identEnd[i] = uint32(text.Len())
		x.identOrd[i] = id.ord
	}
	x.identText = text.String()
	return x
}

// optimized returns the bitmap of the sorted ordinals l, run-compressed.
func optimized(l []uint32) *roaring.Bitmap {
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

// identRange adds to out the titles with an identifier equal to s, or
// beginning with it when prefix is set.
func (x *Index) identRange(out *roaring.Bitmap, s string, prefix bool) {
	i := sort.Search(len(x.identEnd), func(i int) bool { return x.identAt(i) >= s })
	for ; i < len(x.identEnd); i++ {
		v := x.identAt(i)
		if v != s && !(prefix && strings.HasPrefix(v, s)) {
			break
		}
		out.Add(x.identOrd[i])
	}
}

// identAt returns identifier i in its matching form.
func (x *Index) identAt(i int) string {
	start := uint32(0)
	if i > 0 {
		start = x.identEnd[i-1]
	}
	return x.identText[start:x.identEnd[i]]
}
