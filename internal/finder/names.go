package finder

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// The vendors' and packages' names, which the holdings service's vendor
// and package searches match (Service.matchNames). There are thousands of
// them, not millions: a search tests every folded name in memory
// (kb.NameList.Match; BENCHMARKS.md measures it), and postings would save
// little against the page the store then reads. The names are read again
// from the store whenever its names version has moved (a vendor or a
// package created, renamed or deleted, by an import or by a customer): one
// read of the versions table a search, so that a name is found in the next
// request after the one that wrote it, on every instance.

// nameSet is the names at one version.
type nameSet struct {
	version int64
	kb.NameList
}

// matchNames returns the ids of the vendors or packages whose names q
// matches (kb.NameTest) and the ids of the others, in ascending order,
// every customer's included (the store keeps to those the customer may
// see), at the store's current names version (kb.NameList.Match).
func (s *Service) matchNames(ctx context.Context, q kb.NameSearch) (match, others []int64, err error) {
	ns, err := s.currentNames(ctx)
	if err != nil {
		return nil, nil, err
	}
	match, others = ns.Match(q)
	return match, others, nil
}

// currentNames returns the names at the store's current names version,
// reading them again when it has moved.
func (s *Service) currentNames(ctx context.Context) (*nameSet, error) {
	v, err := s.store.NamesVersion(ctx)
	if err != nil {
		return nil, fmt.Errorf("match names: %w", err)
	}
	if ns := s.nameSet.Load(); ns != nil && ns.version >= v {
		return ns, nil
	}
	s.namesMu.Lock()
	defer s.namesMu.Unlock()
	if ns := s.nameSet.Load(); ns != nil && ns.version >= v {
		return ns, nil
	}
	ns := &nameSet{}
	if ns.version, err = s.store.FeedEntityNames(ctx, ns.AddVendor, ns.AddPackage); err != nil {
		return nil, fmt.Errorf("match names: %w", err)
	}
	s.nameSet.Store(ns)
	return ns, nil
}
