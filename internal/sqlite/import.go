package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// SQLite's part of an import (kbsql.ImportEngine): batch size, title ids
// from the AUTOINCREMENT sequence, and the bulk path only when asked, with
// a larger page cache while it runs.

// importBatch is how many rows an import matches and stages at a time.
const importBatch = 2000

func (e engine) Import() kbsql.ImportEngine { return importEngine{e.s} }

// importEngine is SQLite's part of an import.
type importEngine struct{ s *Store }

func (importEngine) BatchSize() int { return importBatch }

// The writer's page cache, KiB: as opened, and while a bulk load runs. A
// bulk load's one transaction inserts into the indexes of titles,
// identifiers and resources at random places: with the usual 64 MiB, a
// million rows spill pages to the WAL and read them back (BENCHMARKS.md).
const (
	writerCacheKiB = 64 << 10
	bulkCacheKiB   = 256 << 10
)

// BulkBegin gives the writer the larger page cache for the bulk load of
// tx, until done.
func (importEngine) BulkBegin(ctx context.Context, tx kbsql.Tx) (done func(context.Context) error, err error) {
	if _, err := tx.Exec(ctx, fmt.Sprintf("PRAGMA cache_size = -%d", bulkCacheKiB)); err != nil {
		return nil, fmt.Errorf("bulk load: page cache: %w", err)
	}
	return func(ctx context.Context) error {
		if _, err := tx.Exec(ctx, fmt.Sprintf("PRAGMA cache_size = -%d", writerCacheKiB)); err != nil {
			return fmt.Errorf("bulk load: page cache: %w", err)
		}
		return nil
	}, nil
}

// Bulk: the bulk path can run (its reads go to the reader pool), and
// SQLite has one writer.
func (importEngine) Bulk() (possible, oneWriter bool) { return true, true }

// TitleIDs reserves ids above every id ever given (the largest title's and
// the one AUTOINCREMENT remembers) by moving AUTOINCREMENT's past them, so
// that a custom title a customer creates meanwhile takes another.
func (ie importEngine) TitleIDs(ctx context.Context, tx kbsql.Tx, n int) ([]int64, error) {
	reserve := func(q kbsql.Querier) (int64, error) {
		var last int64
		if err := q.QueryRow(ctx, `SELECT max(COALESCE((SELECT MAX(id) FROM titles), 0),
			COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'titles'), 0))`).Scan(&last); err != nil {
			return 0, err
		}
		k, err := q.Exec(ctx, `UPDATE sqlite_sequence SET seq = $1 WHERE name = 'titles'`, last+int64(n))
		if err == nil && k == 0 {
			_, err = q.Exec(ctx, `INSERT INTO sqlite_sequence(name, seq) VALUES ('titles', $1)`, last+int64(n))
		}
		return last, err
	}
	var last int64
	var err error
	if tx != nil {
		last, err = reserve(tx)
	} else {
		err = ie.s.inTx(ctx, func(tx *sql.Tx) error {
			last, err = reserve(querier{q: tx})
			return err
		})
	}
	if err != nil {
		return nil, fmt.Errorf("reserve title ids: %w", err)
	}
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = last + 1 + int64(i)
	}
	return ids, nil
}

// DeferUpkeep drops the tables' indexes made by CREATE INDEX (origin
// "c": not a primary key's or a UNIQUE constraint's) that are not unique,
// and returns the text the schema holds of them to build them again.
// SQLite checks a foreign key by a lookup of the parent's key, which a
// load keeps (and it cannot drop one without rebuilding its table).
func (importEngine) DeferUpkeep(ctx context.Context, tx kbsql.Tx, tables []string) ([]string, error) {
	return kbsql.DeferUpkeep(ctx, tx, `SELECT m.name, 'DROP INDEX "' || replace(m.name, '"', '""') || '"', m.sql
		FROM sqlite_master m JOIN pragma_index_list(m.tbl_name) l ON l.name = m.name
		WHERE m.type = 'index' AND l.origin = 'c' AND NOT l."unique" AND m.sql IS NOT NULL
		AND m.tbl_name IN (SELECT value FROM json_each($1))
		ORDER BY m.name`, tables)
}
