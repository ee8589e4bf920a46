package search

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// The vendors' and packages' names, which the holdings service's vendor
// and package searches match (kb.TitleIndex's MatchNames). There are
// thousands of them, not millions (20,000 packages and 2,000 vendors in
// the 3M-title knowledge base): a search tests every folded name in
// memory (kb.NameTest), which takes well under a millisecond, and
// postings would save little against the page the store then reads. The
// names are read again from the store whenever its names version has
// moved (a vendor or a package created, renamed or deleted, by an import
// or by a customer): one read of the versions table a search, so that a
// name is found in the next request after the one that wrote it, on every
// instance.

// nameSet is the names at one version, in id order.
type nameSet struct {
	version      int64
	vendorIDs    []int64
	vendorNames  []string
	packageIDs   []int64
	packageNames []string
	packageOwner []string // the folded name of each package's vendor
}

// MatchNames implements kb.TitleIndex.
func (l *Live) MatchNames(ctx context.Context, q kb.NameSearch) ([]int64, error) {
	t, none := kb.CompileNameSearch(q)
	if none {
		return nil, nil
	}
	ns, err := l.currentNames(ctx)
	if err != nil {
		return nil, err
	}
	var ids []int64
	if q.Kind == kb.NameVendors {
		for i, n := range ns.vendorNames {
			if t.Matches(n, "") {
				ids = append(ids, ns.vendorIDs[i])
			}
		}
		return ids, nil
	}
	for i, n := range ns.packageNames {
		if t.Matches(n, ns.packageOwner[i]) {
			ids = append(ids, ns.packageIDs[i])
		}
	}
	return ids, nil
}

// currentNames returns the names at the store's current names version,
// reading them again when it has moved.
func (l *Live) currentNames(ctx context.Context) (*nameSet, error) {
	v, err := l.feed.NamesVersion(ctx)
	if err != nil {
		return nil, fmt.Errorf("match names: %w", err)
	}
	if ns := l.names.Load(); ns != nil && ns.version >= v {
		return ns, nil
	}
	l.namesMu.Lock()
	defer l.namesMu.Unlock()
	if ns := l.names.Load(); ns != nil && ns.version >= v {
		return ns, nil
	}
	ns := &nameSet{}
	vendorOf := map[int64]string{}
	ns.version, err = l.feed.FeedEntityNames(ctx, func(id int64, folded string) {
		ns.vendorIDs, ns.vendorNames = append(ns.vendorIDs, id), append(ns.vendorNames, folded)
		vendorOf[id] = folded
	}, func(id, vendorID int64, folded string) {
		ns.packageIDs, ns.packageNames = append(ns.packageIDs, id), append(ns.packageNames, folded)
		ns.packageOwner = append(ns.packageOwner, vendorOf[vendorID])
	})
	if err != nil {
		return nil, fmt.Errorf("match names: %w", err)
	}
	l.names.Store(ns)
	return ns, nil
}
