package pubsearch

import (
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// filter holds the facet filters of a query but the alpha menu, which
// needs the locale. Values of one filter are alternatives; a title must
// pass every filter given.
type filter struct {
	types    map[kb.ResourceType]bool
	subjects map[string]bool // lower-cased names
	packages map[int64]bool
	peer     *bool
}

func newFilter(q kb.PubQuery) filter {
	var f filter
	if len(q.ResourceTypes) > 0 {
		f.types = map[kb.ResourceType]bool{}
		for _, t := range q.ResourceTypes {
			f.types[t] = true
		}
	}
	if len(q.Subjects) > 0 {
		f.subjects = map[string]bool{}
		for _, s := range q.Subjects {
			f.subjects[strings.ToLower(strings.TrimSpace(s))] = true
		}
	}
	if len(q.PackageIDs) > 0 {
		f.packages = map[int64]bool{}
		for _, id := range q.PackageIDs {
			f.packages[id] = true
		}
	}
	f.peer = q.PeerReviewed
	return f
}

func (f filter) keep(h kb.PubHit) bool {
	if f.types != nil && !f.types[h.PubType] {
		return false
	}
	if f.peer != nil && h.PeerReviewed != *f.peer {
		return false
	}
	if f.packages != nil && !anyOf(h.PackageIDs, func(id int64) bool { return f.packages[id] }) {
		return false
	}
	if f.subjects != nil && !anyOf(h.Subjects, func(s kb.Subject) bool { return f.subjects[strings.ToLower(s.Name)] }) {
		return false
	}
	return true
}

func anyOf[T any](s []T, ok func(T) bool) bool {
	for _, v := range s {
		if ok(v) {
			return true
		}
	}
	return false
}
