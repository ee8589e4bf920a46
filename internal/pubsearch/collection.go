package pubsearch

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
)

// collection is the searchable form of one customer's collection at one
// version: for each title, in title id order, what filters, facets and
// ordering need, in flat arrays (about 100 bytes a title). Subjects and
// packages are interned and listed per title in CSR form: title i has
// subj[subjOff[i]:subjOff[i+1]].
type collection struct {
	version string
	ids     []int64
	text    string   // every title's name, end to end
	nameOff []uint32 // title i's name is text[nameOff[i]:nameOff[i+1]]
	types   []uint8  // kb.ResourceType
	peer    []bool
	subjOff []uint32
	subj    []uint32
	pkgOff  []uint32
	pkg     []uint32

	subjects []kb.Subject // by interned index
	packages []int64      // by interned index

	mu      sync.Mutex
	locales map[string]*localeView
}

// maxViews bounds the locales whose view a collection keeps (8 bytes a
// title each).
const maxViews = 4

// localeView is a collection's order and alpha menu entries under one
// locale.
type localeView struct {
	path []alpha.Path // each title's place in the alpha menus
	rank []uint32     // position of each title in name order
}

// buildCollection reads the customer's collection from the store, which
// hands it over in title id order: the arrays are filled as the titles
// come, with no copy of them held on the way.
func buildCollection(ctx context.Context, st kb.PublicationStore, custID, version string) (*collection, error) {
	c := &collection{version: version, nameOff: []uint32{0}, subjOff: []uint32{0}, pkgOff: []uint32{0}, locales: map[string]*localeView{}}
	var text strings.Builder
	subjects := interner[kb.Subject]{index: map[kb.Subject]uint32{}}
	packages := interner[int64]{index: map[int64]uint32{}}
	var order error
	err := st.CollectionHits(ctx, custID, func(h kb.PubHit) {
		if n := len(c.ids); n > 0 && h.ID <= c.ids[n-1] && order == nil {
			order = fmt.Errorf("collection of %s: title %d came after title %d", custID, h.ID, c.ids[n-1])
		}
		c.ids = append(c.ids, h.ID)
		text.WriteString(h.Name)
		c.nameOff = append(c.nameOff, uint32(text.Len()))
		c.types = append(c.types, uint8(h.PubType))
		c.peer = append(c.peer, h.PeerReviewed)
		c.subj = subjects.appendAll(c.subj, uint32(len(c.subj)), h.Subjects)
		c.subjOff = append(c.subjOff, uint32(len(c.subj)))
		c.pkg = packages.appendAll(c.pkg, uint32(len(c.pkg)), h.PackageIDs)
		c.pkgOff = append(c.pkgOff, uint32(len(c.pkg)))
	})
	if err == nil {
		err = order
	}
	if err == nil && text.Len() > math.MaxUint32 {
		err = fmt.Errorf("collection of %s: %d bytes of title names, more than a collection holds", custID, text.Len())
	}
	if err != nil {
		return nil, err
	}
	c.subjects, c.packages = subjects.values, packages.values
	c.text = text.String()
	if text.Cap()-text.Len() > text.Len()/8 {
		c.text = strings.Clone(c.text) // not the builder's doubled buffer
	}
	// Give back what append's doubling left unused: the collection stays
	// in memory for as long as it is searched.
	c.ids, c.nameOff, c.types, c.peer = shrink(c.ids), shrink(c.nameOff), shrink(c.types), shrink(c.peer)
	c.subj, c.subjOff, c.pkg, c.pkgOff = shrink(c.subj), shrink(c.subjOff), shrink(c.pkg), shrink(c.pkgOff)
	return c, nil
}

// shrink returns s in an array of its length when more than an eighth of
// its capacity is unused.
func shrink[S ~[]E, E any](s S) S {
	if cap(s)-len(s) > len(s)/8 {
		return slices.Clone(s)
	}
	return s
}

// interner numbers distinct values in order of first sight.
type interner[K comparable] struct {
	index  map[K]uint32
	values []K
}

// appendAll appends to list the numbers of vs not yet in list[from:].
func (n *interner[K]) appendAll(list []uint32, from uint32, vs []K) []uint32 {
	for _, v := range vs {
		j, ok := n.index[v]
		if !ok {
			j = uint32(len(n.values))
			n.index[v] = j
			n.values = append(n.values, v)
		}
		if !slices.Contains(list[from:], j) {
			list = append(list, j)
		}
	}
	return list
}

// find returns the index of title id, or -1.
func (c *collection) find(id int64) int {
	i, ok := slices.BinarySearch(c.ids, id)
	if !ok {
		return -1
	}
	return i
}

// name returns title i's name.
func (c *collection) name(i int) string { return c.text[c.nameOff[i]:c.nameOff[i+1]] }

// typ returns title i's resource type.
func (c *collection) typ(i int) kb.ResourceType { return kb.ResourceType(c.types[i]) }

func (c *collection) subjectsOf(i int) []uint32 { return c.subj[c.subjOff[i]:c.subjOff[i+1]] }
func (c *collection) packagesOf(i int) []uint32 { return c.pkg[c.pkgOff[i]:c.pkgOff[i+1]] }

// view returns the collection's order and menu entries under loc,
// computing them at first use.
func (c *collection) view(loc *alpha.Locale) *localeView {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.locales[loc.Tag()]; ok {
		return v
	}
	if len(c.locales) >= maxViews {
		for tag := range c.locales { // drop one: they are cheap to redo
			delete(c.locales, tag)
			break
		}
	}
	o := loc.Order(len(c.ids), c.name, nil) // ties in title id order
	v := &localeView{path: o.Path, rank: o.Rank}
	c.locales[loc.Tag()] = v
	return v
}

// size is what the collection counts for in the cache's budget: its
// titles.
func (c *collection) size() int { return len(c.ids) }
