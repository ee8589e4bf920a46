package postgres

import (
	"context"
	"log/slog"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// analyzeEvery is how many rows of titles and resources imports change
// (inserted, updated or deleted) before the store refreshes the planner's
// statistics itself. Autovacuum does it too, when it is on (the default),
// but only a minute or more later, and never where it is off: a knowledge
// base imported into tables without statistics is searched with plans
// made for empty tables (a title page several times slower:
// BENCHMARKS.md). ANALYZE reads a bounded sample of each
// table (30,000 rows at the default statistics target), whatever its size,
// while importing this many rows (some 35,000-50,000 KBART rows) takes
// several seconds.
const analyzeEvery = 100_000

// analyzedTables are the tables imports fill and every request reads, and
// the customers' state, which the plans of the same queries join.
const analyzedTables = `vendors, packages, titles, title_identifiers, resources, package_marks, customer_packages, customer_resources`

// analyzeAfterImport runs ANALYZE once the rows changed since the tables'
// last analysis reach analyzeEvery: PostgreSQL's own count of them
// (pg_stat_user_tables.n_mod_since_analyze, which every process and
// instance adds to, and which a statement may report a moment late) plus
// the rows this import changed (which it may not report yet). A failure is
// logged, not returned: the import has committed, and statistics only
// speed queries up.
func (s *Store) analyzeAfterImport(ctx context.Context, res kb.ImportResult) {
	changed := int64(res.TitlesCreated + res.ResourcesAdded + res.ResourcesUpdated + res.ResourcesRemoved)
	var since int64
	if err := s.pool.QueryRow(ctx, `SELECT COALESCE(sum(n_mod_since_analyze), 0)::bigint FROM pg_stat_user_tables
		WHERE schemaname = current_schema() AND relname IN ('titles', 'resources')`).Scan(&since); err != nil {
		slog.Warn("analyze after import: read table statistics", "err", err)
		return
	}
	if since+changed < analyzeEvery {
		return
	}
	start := time.Now()
	if _, err := s.pool.Exec(ctx, `ANALYZE `+analyzedTables); err != nil {
		slog.Warn("analyze after import", "err", err)
		return
	}
	slog.Debug("analyzed after import", "elapsed", time.Since(start))
}
