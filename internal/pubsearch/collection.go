package pubsearch

import (
	"cmp"
	"context"
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
	names   []string
	types   []kb.ResourceType
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
	top  []uint8  // index into alpha.TopEntries() of each title
	rank []uint32 // position of each title in name order
}

// buildCollection reads the customer's collection from the store.
func buildCollection(ctx context.Context, st kb.PublicationStore, custID, version string) (*collection, error) {
	var hits []kb.PubHit
	if err := st.CollectionHits(ctx, custID, func(h kb.PubHit) { hits = append(hits, h) }); err != nil {
		return nil, err
	}
	slices.SortFunc(hits, func(a, b kb.PubHit) int { return cmp.Compare(a.ID, b.ID) })
	n := len(hits)
	c := &collection{
		version: version,
		ids:     make([]int64, n),
		names:   make([]string, n),
		types:   make([]kb.ResourceType, n),
		peer:    make([]bool, n),
		subjOff: make([]uint32, n+1),
		pkgOff:  make([]uint32, n+1),
		locales: map[string]*localeView{},
	}
	subjects := interner[kb.Subject]{index: map[kb.Subject]uint32{}}
	packages := interner[int64]{index: map[int64]uint32{}}
	for i, h := range hits {
		c.ids[i], c.names[i], c.types[i], c.peer[i] = h.ID, h.Name, h.PubType, h.PeerReviewed
		c.subj = subjects.appendAll(c.subj, c.subjOff[i], h.Subjects)
		c.subjOff[i+1] = uint32(len(c.subj))
		c.pkg = packages.appendAll(c.pkg, c.pkgOff[i], h.PackageIDs)
		c.pkgOff[i+1] = uint32(len(c.pkg))
		hits[i] = kb.PubHit{} // let the subjects and package lists go
	}
	c.subjects, c.packages = subjects.values, packages.values
	return c, nil
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
	n := len(c.ids)
	tops := alpha.TopEntries()
	topIdx := make(map[string]uint8, len(tops))
	for i, t := range tops {
		topIdx[t] = uint8(i)
	}
	v := &localeView{top: make([]uint8, n), rank: make([]uint32, n)}
	keys := make([]string, n)
	order := make([]uint32, n)
	for i, name := range c.names {
		keys[i] = string(loc.Key(name))
		v.top[i] = topIdx[loc.Top(name)]
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int {
		if c := strings.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b) // title id order
	})
	for pos, i := range order {
		v.rank[i] = uint32(pos)
	}
	c.locales[loc.Tag()] = v
	return v
}

// size is what the collection counts for in the cache's budget: its
// titles.
func (c *collection) size() int { return len(c.ids) }
