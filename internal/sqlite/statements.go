package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// statementCache holds a store's prepared statements of the reads that run
// at every request (a title, an API key), by SQL text. database/sql
// prepares a statement again, once, on each connection that runs it.
type statementCache struct {
	mu    sync.Mutex // serialises preparations
	stmts sync.Map   // string → *sql.Stmt
	n     int        // statements prepared, under mu
}

// maxPrepared bounds the statements a store keeps prepared: the reads of
// every request are a few dozen texts; a search builds its text from its
// filters, a few hundred shapes at most. Past the bound, a new text runs
// unprepared.
const maxPrepared = 512

// prepared returns the statement q prepared on the reader pool, preparing
// it at its first use, or nil when maxPrepared statements are prepared
// already. Preparing the reads of a title once, rather than at every
// request, saves SQLite's parse and planning, which cost more than running
// them. A text stays prepared as long as the store is open.
func (s *Store) prepared(ctx context.Context, q string) (*sql.Stmt, error) {
	c := &s.reads
	if st, ok := c.stmts.Load(q); ok {
		return st.(*sql.Stmt), nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.stmts.Load(q); ok {
		return st.(*sql.Stmt), nil
	}
	if c.n >= maxPrepared {
		return nil, nil
	}
	st, err := s.r.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	c.stmts.Store(q, st)
	c.n++
	return st, nil
}

// queryPrepared runs the query q on the reader pool as a prepared
// statement.
func (s *Store) queryPrepared(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := s.prepared(ctx, q)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return s.r.QueryContext(ctx, q, args...)
	}
	return st.QueryContext(ctx, args...)
}

// close closes the prepared statements.
func (c *statementCache) close() error {
	var errs []error
	c.stmts.Range(func(q, st any) bool {
		errs = append(errs, st.(*sql.Stmt).Close())
		c.stmts.Delete(q)
		return true
	})
	return errors.Join(errs...)
}
