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
// rebuild it. Concurrent searches of one customer share one build.
// Collections beyond the budget are dropped, least recently used first.
// An Index is safe for concurrent use.
//
// A consistent Index makes the search that finds a new version wait for
// the rebuild (seconds for half a million titles). Otherwise, while a
// rebuild runs in the background, searches are answered from the previous
// version: their records are still checked against the customer's current
// state (a title that left the collection is never shown), but counts and
// facets lag the change by the rebuild's duration.
type Index struct {
	maxTitles  int
	consistent bool

	mu      sync.Mutex
	entries map[string]*entry
	clock   int64
	// building serialises the builds of each customer: a burst of changes
	// makes builds one after the other, never many at once.
	building sync.Map // customer id → *sync.Mutex
}

type entry struct {
	version string
	ready   chan struct{} // closed when coll or err is set
	coll    *collection
	err     error
	used    int64
	// previous is the last built collection of an older version, served
	// while this entry builds when the Index is not consistent.
	previous *collection
}

// NewIndex returns an Index that keeps collections of up to maxTitles
// titles in all (DefaultMaxTitles when 0 or less); a collection larger
// than the budget is built for each search and not kept. consistent makes
// every search wait for the rebuild of a changed collection.
func NewIndex(maxTitles int, consistent bool) *Index {
	if maxTitles <= 0 {
		maxTitles = DefaultMaxTitles
	}
	return &Index{maxTitles: maxTitles, consistent: consistent, entries: map[string]*entry{}}
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
		prev := e.previous // nil once built
		x.mu.Unlock()
		if !x.consistent && prev != nil {
			select {
			case <-e.ready:
			default:
				return prev, nil // being rebuilt
			}
		}
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return e.coll, e.err
	}
	next := &entry{version: version, ready: make(chan struct{}), used: x.clock}
	if ok && !x.consistent {
		if prev := e.built(); prev != nil {
			next.previous = prev
		} else {
			next.previous = e.previous
		}
	}
	x.entries[custID] = next
	x.mu.Unlock()
	if prev := next.previous; prev != nil {
		// A failed background build drops the entry: the next search
		// builds again, and waits for it.
		go x.build(context.WithoutCancel(ctx), st, custID, next)
		return prev, nil
	}
	x.build(ctx, st, custID, next)
	return next.coll, next.err
}

// built returns the entry's collection when its build is over, else nil.
func (e *entry) built() *collection {
	select {
	case <-e.ready:
		return e.coll
	default:
		return nil
	}
}

// build builds e's collection and closes e.ready, after any build of the
// same customer still running.
func (x *Index) build(ctx context.Context, st kb.PublicationStore, custID string, e *entry) {
	m, _ := x.building.LoadOrStore(custID, &sync.Mutex{})
	m.(*sync.Mutex).Lock()
	defer m.(*sync.Mutex).Unlock()
	// The build goes on if the request goes away: others may wait on it.
	e.coll, e.err = buildCollection(context.WithoutCancel(ctx), st, custID, e.version)
	if e.err != nil {
		e.err = fmt.Errorf("build the collection of %s: %w", custID, e.err)
	}
	x.mu.Lock()
	if x.entries[custID] == e {
		if e.err != nil {
			delete(x.entries, custID) // the next search tries again
		} else {
			e.previous = nil
		}
	}
	close(e.ready)
	x.evict(custID)
	x.mu.Unlock()
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
