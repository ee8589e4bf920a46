package sqlite

import (
	"container/list"
	"context"
	"database/sql"
	"errors"
	"sync"
)

// statementCache holds the store's prepared statements of the reader pool,
// the most recently used maxPrepared of them, by SQL text. Preparing the
// reads of every request (a title, an API key) once, rather than at every
// request, saves SQLite's parse and planning, which cost more than running
// them; database/sql prepares a statement again, once, on each connection
// that runs it. Statements are prepared outside the cache's lock, so that a
// preparation waiting for a reader connection holds up no other request.
type statementCache struct {
	mu    sync.Mutex
	items map[string]*list.Element // of *cachedStmt
	order list.List                // most recently used first
}

// cachedStmt is a statement of the cache. users counts the queries that
// took it and have not started yet: an evicted statement is closed once
// none is left (database/sql then keeps it for the rows of started ones).
type cachedStmt struct {
	q       string
	st      *sql.Stmt
	users   int
	evicted bool
}

// maxPrepared bounds the statements the store keeps prepared: the reads
// of every request are a few dozen texts, and searches and lists build
// theirs from their filters; a statement costs some kilobytes on each
// reader connection.
const maxPrepared = 64

// queryPrepared runs the query q on the reader pool as a prepared
// statement.
func (s *Store) queryPrepared(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	c := &s.reads
	cs, err := c.take(ctx, s.r, q)
	if err != nil {
		return nil, err
	}
	defer c.give(cs)
	return cs.st.QueryContext(ctx, args...)
}

// take returns the statement of q, preparing it on db when it is not
// cached, and counts a user of it.
func (c *statementCache) take(ctx context.Context, db *sql.DB, q string) (*cachedStmt, error) {
	c.mu.Lock()
	if cs := c.lookup(q); cs != nil {
		cs.users++
		c.mu.Unlock()
		return cs, nil
	}
	c.mu.Unlock()
	st, err := db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cs := c.lookup(q); cs != nil { // another request prepared it meanwhile
		st.Close()
		cs.users++
		return cs, nil
	}
	if c.items == nil {
		c.items = map[string]*list.Element{}
	}
	cs := &cachedStmt{q: q, st: st, users: 1}
	c.items[q] = c.order.PushFront(cs)
	if c.order.Len() > maxPrepared {
		old := c.order.Remove(c.order.Back()).(*cachedStmt)
		delete(c.items, old.q)
		old.evicted = true
		if old.users == 0 {
			old.st.Close()
		}
	}
	return cs, nil
}

// lookup returns the cached statement of q, now the most recently used,
// or nil; the caller holds mu.
func (c *statementCache) lookup(q string) *cachedStmt {
	e, ok := c.items[q]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedStmt)
}

// give ends a use of a statement that take returned, closing it when it
// was evicted and no use is left.
func (c *statementCache) give(cs *cachedStmt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs.users--
	if cs.evicted && cs.users == 0 {
		cs.st.Close()
	}
}

// close closes the prepared statements.
func (c *statementCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for e := c.order.Front(); e != nil; e = e.Next() {
		errs = append(errs, e.Value.(*cachedStmt).st.Close())
	}
	c.items = nil
	c.order.Init()
	return errors.Join(errs...)
}
