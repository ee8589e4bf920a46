// Package answercache keeps finished HTTP answers in memory, each valid
// only while the store's version it was built at is current. The caller
// reads the version from the store at every request (so that every
// instance over one database sees every write, whichever instance made
// it) and asks for the answer of that version: an answer of any other
// version is a miss, and is replaced by the answer built next. Memory is
// bounded by a byte budget; beyond it the least recently used answers are
// dropped.
package answercache

import (
	"container/list"
	"sync"
	"sync/atomic"
)

// entryOverhead is what an answer costs beyond its key, version and body:
// the list element, the map slot and the entry itself, roughly.
const entryOverhead = 160

// MaxShare is the largest share of the budget one answer may take: an
// answer larger than budget/MaxShare is served but not kept, so that one
// huge answer cannot empty the cache.
const MaxShare = 4

// Cache is a bounded cache of answers by key and version. The zero value
// is not usable; a nil *Cache keeps nothing (Get always misses, Put does
// nothing). A Cache is safe for concurrent use.
type Cache struct {
	budget int64

	mu    sync.Mutex
	used  int64
	items map[string]*list.Element // of *entry
	order list.List                // most recently used first

	hits, misses, stale, evictions atomic.Int64
}

// entry is one answer kept.
type entry struct {
	key, version string
	body         []byte
	size         int64
}

// New returns a cache that keeps answers of up to budget bytes in all
// (keys, versions and bodies, with an estimate of the bookkeeping); a
// budget of 0 or less returns nil, a cache that keeps nothing.
func New(budget int64) *Cache {
	if budget <= 0 {
		return nil
	}
	return &Cache{budget: budget, items: map[string]*list.Element{}}
}

// Get returns the body kept for key at version. It counts a hit, a miss,
// or a stale miss (an answer of another version was kept: it is dropped).
// The body must not be modified.
func (c *Cache) Get(key, version string) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	el, ok := c.items[key]
	if !ok {
		c.mu.Unlock()
		c.misses.Add(1)
		return nil, false
	}
	e := el.Value.(*entry)
	if e.version != version {
		c.remove(el)
		c.mu.Unlock()
		c.stale.Add(1)
		return nil, false
	}
	c.order.MoveToFront(el)
	c.mu.Unlock()
	c.hits.Add(1)
	return e.body, true
}

// Put keeps body as the answer for key at version, replacing any answer
// kept for key, and drops the least recently used answers while the
// budget is exceeded. An answer larger than budget/MaxShare is not kept.
// The cache keeps body itself: the caller must not modify it afterwards.
func (c *Cache) Put(key, version string, body []byte) {
	if c == nil {
		return
	}
	size := int64(len(key)+len(version)+len(body)) + entryOverhead
	if size > c.budget/MaxShare {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.remove(el)
	}
	c.items[key] = c.order.PushFront(&entry{key: key, version: version, body: body, size: size})
	c.used += size
	for c.used > c.budget {
		c.remove(c.order.Back())
		c.evictions.Add(1)
	}
}

// remove drops an answer; c.mu is held.
func (c *Cache) remove(el *list.Element) {
	e := c.order.Remove(el).(*entry)
	delete(c.items, e.key)
	c.used -= e.size
}

// Stats are a cache's counters since it was made, and what it holds now.
type Stats struct {
	// Hits are answers served from the cache; Misses requests for which
	// no answer was kept; Stale requests for which the answer kept was
	// of another version (dropped then).
	Hits, Misses, Stale int64
	// Evictions are answers dropped to stay within the budget.
	Evictions int64
	// Entries and Bytes are the answers kept now and the bytes they are
	// counted for; Budget is the most Bytes may be.
	Entries       int
	Bytes, Budget int64
}

// Stats returns the cache's counters (all zero for a nil cache).
func (c *Cache) Stats() Stats {
	if c == nil {
		return Stats{}
	}
	c.mu.Lock()
	n, used := len(c.items), c.used
	c.mu.Unlock()
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Stale: c.stale.Load(), Evictions: c.evictions.Load(),
		Entries: n, Bytes: used, Budget: c.budget}
}
