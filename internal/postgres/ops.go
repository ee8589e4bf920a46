package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// errClosed is what Ready and Stats return after Close.
var errClosed = errors.New("the store is closed")

// codeUndefinedTable is the SQLSTATE of a query naming a table that does
// not exist.
const codeUndefinedTable = "42P01"

// Ready returns nil when the database answers, its schema is at the
// newest migration this build knows and its last write did not fail for
// a full disk (or a probe write since succeeded: kbsql.DiskWatch); the
// search index's readiness is the search service's, which /readyz asks
// too.
func (s *Store) Ready(ctx context.Context) error {
	if s.closed.Load() {
		return errClosed
	}
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("database %s does not answer: %w", s.name, err)
	}
	applied, known, err := s.SchemaVersion(ctx)
	if isCode(err, codeUndefinedTable) {
		return fmt.Errorf("database %s has no kbserver schema where the server opened it (the schema was dropped, or search_path names another): restart kbserver to migrate it", s.name)
	}
	if err != nil {
		return fmt.Errorf("database %s: read the schema version: %w", s.name, err)
	}
	if err := kbsql.SchemaCurrent(applied, known); err != nil {
		return err
	}
	if err := s.disk.Ready(ctx, s.ProbeDisk); err != nil {
		return fmt.Errorf("database %s: %w", s.name, err)
	}
	return nil
}

// Stats returns the store's statistics: the pool's from pgxpool, the
// snapshot builds this process ran, and the running totals of the imports
// every process recorded (the one row of import_totals).
func (s *Store) Stats(ctx context.Context) (kb.StoreStats, error) {
	if s.closed.Load() {
		return kb.StoreStats{}, errClosed
	}
	var st kb.StoreStats
	p := s.pool.Stat()
	st.Pool = kb.PoolStats{
		MaxOpen:      int(p.MaxConns()),
		Open:         int(p.TotalConns()),
		InUse:        int(p.AcquiredConns()),
		Idle:         int(p.IdleConns()),
		WaitCount:    p.EmptyAcquireCount(),
		WaitDuration: p.EmptyAcquireWaitTime(),
	}
	s.buildStats.Fill(&st)
	return st, s.ImportTotals(ctx, &st)
}
