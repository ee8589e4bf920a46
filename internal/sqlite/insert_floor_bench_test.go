package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/sqlite"
)

// BenchmarkInsertFloor is the floor of an import into an empty store: the
// rows of BenchmarkImportKBART's file (-importrows) read beforehand and
// written straight into the final tables (a title, its resource with its
// KBART line, its identifiers) through prepared statements in one
// transaction on the store's writer settings, with no staging, matching,
// diff, change records or marks. No import path through this engine can be
// faster; rows/s is the figure to hold the import's target against.
func BenchmarkInsertFloor(b *testing.B) {
	rows := readRows(b, *importRows)
	ctx := context.Background()
	var elapsed time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "kb.db"))
		if err != nil {
			b.Fatal(err)
		}
		db := s.Writer() // the store's writer, pragmas and all
		b.StartTimer()
		start := time.Now()
		if err := insertFloor(ctx, db, rows); err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(len(rows)*b.N)/elapsed.Seconds(), "rows/s")
}

// insertFloor writes rows as new titles of one new package.
func insertFloor(ctx context.Context, db *sql.DB, rows []kb.ImportRow) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var vendor, pkg int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO vendors(name, sort_name) VALUES ('V', 'v') RETURNING id`).Scan(&vendor); err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, `INSERT INTO packages(vendor_id, name, sort_name, content_type, package_type) VALUES (?, 'P', 'p', 1, 1) RETURNING id`,
		vendor).Scan(&pkg); err != nil {
		return err
	}
	prepare := func(query string) (*sql.Stmt, error) { return tx.PrepareContext(ctx, query) }
	title, err := prepare(`INSERT INTO titles(name, sort_name, publisher, sort_publisher, pub_type, match_hash, source_package_id)
		VALUES (?, ?, ?, ?, 1, ?, ?) RETURNING id`)
	if err != nil {
		return err
	}
	resource, err := prepare(`INSERT INTO resources(package_id, title_id, sort_name, url, coverage, kbart, kbart_hash, gen, pub_type, provider_id)
		VALUES (?, ?, ?, ?, '[]', ?, ?, 1, 1, ?)`)
	if err != nil {
		return err
	}
	ident, err := prepare(`INSERT OR IGNORE INTO title_identifiers(title_id, type, subtype, value, norm, valid) VALUES (?, 0, ?, ?, ?, 1)`)
	if err != nil {
		return err
	}
	for i, r := range rows {
		name, publisher := r.KBART[kbart.PublicationTitle], r.KBART[kbart.PublisherName]
		var id int64
		if err := title.QueryRowContext(ctx, name, kb.Fold(name), publisher, kb.Fold(publisher), int64(i), pkg).Scan(&id); err != nil {
			return fmt.Errorf("title: %w", err)
		}
		line := strings.Join(r.KBART[:], "\t")
		if _, err := resource.ExecContext(ctx, pkg, id, kb.Fold(name), r.KBART[kbart.TitleURL], line, int64(len(line)), r.KBART[kbart.TitleID]); err != nil {
			return fmt.Errorf("resource: %w", err)
		}
		for sub, v := range []string{r.KBART[kbart.PrintIdentifier], r.KBART[kbart.OnlineIdentifier]} {
			if v == "" {
				continue
			}
			if _, err := ident.ExecContext(ctx, id, sub, v, strings.ToUpper(v)); err != nil {
				return fmt.Errorf("identifier: %w", err)
			}
		}
	}
	return tx.Commit()
}
