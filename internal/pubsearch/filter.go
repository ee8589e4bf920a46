package pubsearch

import (
	"strings"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
)

// filter holds the filters of a query over one collection. Values of one
// filter are alternatives; a title must pass every filter given.
type filter struct {
	c        *collection
	rt       kb.ResourceType
	types    map[kb.ResourceType]bool
	subjects []bool // by interned subject; nil: no subject filter
	packages []bool // by interned package; nil: no package filter
	peer     *bool
	entry    *alpha.Entry // the alpha menu entry; nil: any
	none     bool         // a filter nothing passes
}

func newFilter(c *collection, q kb.PubQuery) filter {
	f := filter{c: c, rt: q.ResourceType, peer: q.PeerReviewed}
	if len(q.ResourceTypes) > 0 {
		f.types = map[kb.ResourceType]bool{}
		for _, t := range q.ResourceTypes {
			f.types[t] = true
		}
	}
	if len(q.Subjects) > 0 {
		want := map[string]bool{}
		for _, s := range q.Subjects {
			want[strings.ToLower(strings.TrimSpace(s))] = true
		}
		f.subjects = make([]bool, len(c.subjects))
		for i, s := range c.subjects {
			f.subjects[i] = want[strings.ToLower(s.Name)]
		}
	}
	if len(q.PackageIDs) > 0 {
		want := map[int64]bool{}
		for _, id := range q.PackageIDs {
			want[id] = true
		}
		f.packages = make([]bool, len(c.packages))
		for i, id := range c.packages {
			f.packages[i] = want[id]
		}
	}
	if q.AlphaMenu != "" {
		e, err := alpha.ParseEntry(q.AlphaMenu)
		f.entry, f.none = &e, err != nil
	}
	return f
}

func (f filter) keep(i int, v *localeView) bool {
	c := f.c
	if f.none {
		return false
	}
	if f.rt != kb.ResourceAll && c.typ(i) != f.rt {
		return false
	}
	if f.types != nil && !f.types[c.typ(i)] {
		return false
	}
	if f.peer != nil && c.peer[i] != *f.peer {
		return false
	}
	if f.entry != nil && !f.entry.Match(v.path[i]) {
		return false
	}
	if f.packages != nil && !anyOf(c.packagesOf(i), f.packages) {
		return false
	}
	if f.subjects != nil && !anyOf(c.subjectsOf(i), f.subjects) {
		return false
	}
	return true
}

// anyOf reports whether any of the interned indexes is set in set.
func anyOf(idx []uint32, set []bool) bool {
	for _, j := range idx {
		if set[j] {
			return true
		}
	}
	return false
}
