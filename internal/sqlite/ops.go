package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// errClosed is what Ready and Stats return after Close.
var errClosed = errors.New("the store is closed")

// Ready returns nil when a reader connection answers, the database file is
// still the one the store opened, its schema is at the newest migration
// this build knows and its last write did not fail for a full disk (or a
// probe write since succeeded: kbsql.DiskWatch); the search index's
// readiness is the search service's, which /readyz asks too. It asks the reader pool, not the one writer
// connection, which a long import may hold.
//
// A SQLite connection keeps reading a file deleted or replaced under it
// (the open file lives on), so the query alone would not notice: the file
// at the path is compared with the one opened.
func (s *Store) Ready(ctx context.Context) error {
	if s.closed.Load() {
		return errClosed
	}
	var applied int
	if err := s.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&applied); err != nil {
		return fmt.Errorf("database %s does not answer: %w", s.path, err)
	}
	if s.file != nil {
		fi, err := os.Stat(s.path)
		switch {
		case errors.Is(err, os.ErrNotExist) || err == nil && !os.SameFile(fi, s.file):
			return fmt.Errorf("database file %s is gone (deleted or replaced since the server opened it): restart kbserver to open the file now at that path (a new, empty database if there is none)", s.path)
		case err != nil:
			return fmt.Errorf("database file %s: %w", s.path, err)
		}
	}
	if err := kbsql.SchemaCurrent(applied, s.known); err != nil {
		return err
	}
	if err := s.disk.Ready(ctx, s.ProbeDisk); err != nil {
		return fmt.Errorf("database %s: %w", s.path, err)
	}
	return nil
}

// Stats returns the store's statistics. Pool sums the reader pool and the
// one writer connection. The import figures come from the one row of
// import_totals.
func (s *Store) Stats(ctx context.Context) (kb.StoreStats, error) {
	if s.closed.Load() {
		return kb.StoreStats{}, errClosed
	}
	var st kb.StoreStats
	r, w := s.r.Stats(), s.w.Stats()
	st.Pool = kb.PoolStats{
		MaxOpen:      r.MaxOpenConnections + w.MaxOpenConnections,
		Open:         r.OpenConnections + w.OpenConnections,
		InUse:        r.InUse + w.InUse,
		Idle:         r.Idle + w.Idle,
		WaitCount:    r.WaitCount + w.WaitCount,
		WaitDuration: r.WaitDuration + w.WaitDuration,
	}
	s.buildStats.Fill(&st)
	return st, s.ImportTotals(ctx, &st)
}
