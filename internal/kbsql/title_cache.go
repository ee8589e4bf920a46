package kbsql

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/kbserver/kbserver/internal/kb"
)

// A search's page of titles is answered by the title index in ids; the
// titles themselves (row, identifiers, resources with the customer's
// state) are then read from the store, the most of a search's time on a
// large knowledge base (the rows of a page are scattered over the file).
// The titles a customer's searches show are read again and again (the
// first pages of common words), so the store keeps the finished titles of
// the pages it read lately, each valid only at the knowledge base's and
// the customer's versions it was read at: the same versions the holdings
// service's kept answers depend on, which every write that can change a
// title in the customer's context moves (versions.go). The versions are
// read before the titles, in the statement that reads the customer's root
// proxy (CustomerAt), which completing a title uses: a kept title is never
// older than its versions, and the root proxy is the one of those
// versions (a write of the root proxy moves the customer's version).

// titleCache keeps finished titles by customer, title and package filter.
type titleCache struct {
	max  atomic.Int64 // the most titles kept; 0: none
	mu   sync.Mutex
	kept map[titleKey]keptTitle

	hits, misses atomic.Int64
}

// titleKey names a finished title: the customer's, with all its resources
// or (pkg not 0) only its resource in one package.
type titleKey struct {
	cust    string
	id, pkg int64
}

// keptTitle is a finished title read at the versions kbv and cv.
type keptTitle struct {
	kbv, cv int64
	t       kb.Title
}

// DefaultKeptTitles is the number of finished titles a store keeps unless
// KeepTitles says otherwise: a few pages of each of the busiest searches,
// about 10 MB.
const DefaultKeptTitles = 4096

// KeepTitles sets how many finished titles the store keeps for pages of
// title searches and publication searches (0: none; every page reads its
// titles from the database).
func (s *Store) KeepTitles(n int) {
	s.titles.max.Store(int64(n))
	s.titles.mu.Lock()
	s.titles.kept = nil
	s.titles.mu.Unlock()
}

// KeptTitleStats returns the number of titles of pages found kept and
// read from the database.
func (s *Store) KeptTitleStats() (hits, misses int64) {
	return s.titles.hits.Load(), s.titles.misses.Load()
}

// TitlesAt returns the titles with the ids that the customer may see, in
// the order of ids, complete with identifiers and resources (only those
// in packageID unless it is 0), from those kept at the customer's
// versions at and, for the others, read and completed; see
// kb.SearchedStore.
func (s *Store) TitlesAt(ctx context.Context, custID string, at kb.CustomerAt, ids []int64, packageID int64) ([]kb.Title, error) {
	kbv, cv := at.KB, at.Customer
	c := &s.titles
	found := make(map[int64]kb.Title, len(ids))
	var missing []int64
	if c.max.Load() > 0 {
		c.mu.Lock()
		for _, id := range ids {
			if k, ok := c.kept[titleKey{custID, id, packageID}]; ok && k.kbv == kbv && k.cv == cv {
				found[id] = k.t
			} else {
				missing = append(missing, id)
			}
		}
		c.mu.Unlock()
	} else {
		missing = ids
	}
	c.hits.Add(int64(len(ids) - len(missing)))
	c.misses.Add(int64(len(missing)))
	if len(missing) > 0 {
		ts, err := s.visibleTitleRows(ctx, custID, missing)
		if err != nil {
			return nil, err
		}
		if err := s.completeTitlesAt(ctx, custID, at.Root, ts, packageID, kbv, cv); err != nil {
			return nil, err
		}
		for _, t := range ts {
			found[t.ID] = t
		}
		c.keep(custID, packageID, kbv, cv, ts)
	}
	// The titles share their slices with the kept ones: callers must
	// not change their elements (publication search keeps its resources
	// in new slices, collection.go).
	out := make([]kb.Title, 0, len(found))
	for _, id := range ids {
		if t, ok := found[id]; ok {
			out = append(out, t)
		}
	}
	return out, nil
}

// keep keeps finished titles read at kbv and cv; when the cache is full it
// starts again.
func (c *titleCache) keep(custID string, packageID, kbv, cv int64, ts []kb.Title) {
	limit := int(c.max.Load())
	ts = ts[:min(len(ts), limit)]
	if len(ts) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept == nil || len(c.kept)+len(ts) > limit {
		c.kept = map[titleKey]keptTitle{}
	}
	for _, t := range ts {
		t.Resources = slices.Clip(t.Resources)
		t.Identifiers = slices.Clip(t.Identifiers)
		c.kept[titleKey{custID, t.ID, packageID}] = keptTitle{kbv, cv, t}
	}
}

// visibleTitleRows reads the rows of the titles with the ids that the
// customer may see, in any order.
func (s *Store) visibleTitleRows(ctx context.Context, custID string, ids []int64) ([]kb.Title, error) {
	rows, err := s.e.Read().Query(ctx, `SELECT `+SQLTitleColumns+` FROM titles t WHERE `+s.d.InIDs("t.id", "$2")+` AND `+sqlTitleVisible, custID, ids)
	if err != nil {
		return nil, fmt.Errorf("read titles: %w", err)
	}
	ts, err := ScanTitles(rows)
	if err != nil {
		return nil, fmt.Errorf("read titles: %w", err)
	}
	return ts, nil
}
