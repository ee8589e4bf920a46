package postgres

import (
	"context"
	"log/slog"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// analyzeEvery is how many rows imports change (titles created, resources
// added, updated and removed) before the store refreshes the planner's
// statistics itself. Autovacuum does it too, when it is on (the default),
// but only a minute or more later, and never where it is off: a knowledge
// base imported into tables without statistics is searched with plans
// made for empty tables (a title page measured 32 ms instead of 8 ms on a
// 200,000-title knowledge base). ANALYZE samples a bounded number of rows
// (about 0.3 s on these tables), while importing this many rows takes
// several seconds: under 5% of an import's time.
const analyzeEvery = 50_000

// analyzedTables are the tables imports fill and every request reads, and
// the customers' state, which the plans of the same queries join.
const analyzedTables = `vendors, packages, titles, title_identifiers, resources, package_marks, customer_packages, customer_resources`

// analyzeAfterImport counts the rows an import changed and, once they add
// up to analyzeEvery, runs ANALYZE. A failure is logged, not returned: the
// import has committed, and statistics only speed queries up.
func (s *Store) analyzeAfterImport(ctx context.Context, res kb.ImportResult) {
	changed := int64(res.TitlesCreated + res.ResourcesAdded + res.ResourcesUpdated + res.ResourcesRemoved)
	if s.unanalyzed.Add(changed) < analyzeEvery {
		return
	}
	s.unanalyzed.Store(0)
	start := time.Now()
	if _, err := s.pool.Exec(ctx, `ANALYZE `+analyzedTables); err != nil {
		slog.Warn("analyze after import", "err", err)
		return
	}
	slog.Debug("analyzed after import", "elapsed", time.Since(start))
}
