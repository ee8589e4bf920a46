package pubsearch

import (
	"context"
	"fmt"
	"sync"

	"github.com/kbserver/kbserver/internal/kb"
)

// DefaultMaxTitles is the default budget of an Index: the titles of all
// the collections it keeps, about 100 bytes each.
const DefaultMaxTitles = 2_000_000

// Index keeps the searchable form of recently searched customers'
// collections in memory, so that a broad search or a browse of a
// collection of half a million titles does not read half a million rows.
// Each is keyed by the store's CollectionVersion, read at every search: a
// change of the customer's holdings or an import makes the next search
// rebuild it, so answers are never stale. Concurrent searches of one
// customer share one build. Collections beyond the budget are dropped,
// least recently used first. An Index is safe for concurrent use.
type Index struct {
	maxTitles int

	mu      sync.Mutex
	entries map[string]*entry
	clock   int64
}

type entry struct {
	version string
	ready   chan struct{} // closed when coll or err is set
	coll    *collection
	err     error
	used    int64
}

// NewIndex returns an Index that keeps collections of up to maxTitles
// titles in all (DefaultMaxTitles when 0 or less). A collection larger
// than the budget is built for each search and not kept.
func NewIndex(maxTitles int) *Index {
	if maxTitles <= 0 {
		maxTitles = DefaultMaxTitles
	}
	return &Index{maxTitles: maxTitles, entries: map[string]*entry{}}
}

// collection returns the customer's current collection.
func (x *Index) collection(ctx context.Context, st kb.PublicationStore, custID string) (*collection, error) {
	version, err := st.CollectionVersion(ctx, custID)
	if err != nil {
		return nil, err
	}
	x.mu.Lock()
	x.clock++
	e, ok := x.entries[custID]
	if ok && e.version == version {
		e.used = x.clock
		x.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return e.coll, e.err
	}
	e = &entry{version: version, ready: make(chan struct{}), used: x.clock}
	x.entries[custID] = e
	x.mu.Unlock()

	// The build goes on if this request goes away: others may wait on it.
	e.coll, e.err = buildCollection(context.WithoutCancel(ctx), st, custID, version)
	if e.err != nil {
		e.err = fmt.Errorf("build the collection of %s: %w", custID, e.err)
	}
	close(e.ready)
	x.mu.Lock()
	if e.err != nil && x.entries[custID] == e {
		delete(x.entries, custID) // the next search tries again
	}
	x.evict(custID)
	x.mu.Unlock()
	return e.coll, e.err
}

// evict drops least recently used collections, never keep's, until the
// built ones fit the budget; keep's alone may exceed it, and then it goes
// too. x.mu is held.
func (x *Index) evict(keep string) {
	for {
		total := 0
		var oldest string
		var oldestUsed int64
		for id, e := range x.entries {
			select {
			case <-e.ready:
			default:
				continue // being built
			}
			if e.coll == nil {
				continue
			}
			total += e.coll.size()
			if id != keep && (oldest == "" || e.used < oldestUsed) {
				oldest, oldestUsed = id, e.used
			}
		}
		if total <= x.maxTitles {
			return
		}
		if oldest == "" {
			delete(x.entries, keep)
			return
		}
		delete(x.entries, oldest)
	}
}
