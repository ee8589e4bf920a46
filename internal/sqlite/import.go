package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The bulk path of an import (kbsql.BulkWriter) on SQLite. The import is
// one transaction of the one writer connection: it needs no lock of its
// own, and it gives new titles ids itself. Rows are written with prepared
// single-row statements, prepared once per import (multi-row VALUES
// statements measured slower: SQLite keeps a statement journal for them).
// A resource the import rewrites keeps its former hash in prev_hash until
// Finish counts the changed ones.

// importBatch is how many rows an import matches and writes at a time.
const importBatch = 512

// Import runs fn in one write transaction with an SQLite bulk writer.
func (e engine) Import(ctx context.Context, fn func(kbsql.Tx, kbsql.BulkWriter) error) error {
	return e.s.inTx(ctx, func(tx *sql.Tx) error {
		w := &bulk{tx: tx, stmts: map[string]*sql.Stmt{}}
		defer w.close()
		return fn(txQuerier{querier{q: tx}}, w)
	})
}

// bulk writes one import.
type bulk struct {
	tx        *sql.Tx
	stmts     map[string]*sql.Stmt
	started   bool  // TitleIDs has read the largest title id
	maxTitle  int64 // the largest title id before the import
	nextTitle int64 // the id of the next title created
}

func (w *bulk) BatchSize() int { return importBatch }

func (w *bulk) close() {
	for _, st := range w.stmts {
		st.Close()
	}
}

// exec runs q as a statement prepared once per import.
func (w *bulk) exec(ctx context.Context, q string, args ...any) error {
	st, ok := w.stmts[q]
	if !ok {
		var err error
		if st, err = w.tx.PrepareContext(ctx, q); err != nil {
			return err
		}
		w.stmts[q] = st
	}
	_, err := st.ExecContext(ctx, args...)
	return err
}

// TitleIDs gives ids above every id ever given: the largest title's and
// the one AUTOINCREMENT remembers.
func (w *bulk) TitleIDs(ctx context.Context, n int) ([]int64, error) {
	if !w.started {
		if err := w.tx.QueryRowContext(ctx, `SELECT max(COALESCE((SELECT MAX(id) FROM titles), 0),
			COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'titles'), 0))`).Scan(&w.maxTitle); err != nil {
			return nil, fmt.Errorf("read title ids: %w", err)
		}
		w.started, w.nextTitle = true, w.maxTitle+1
	}
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = w.nextTitle
		w.nextTitle++
	}
	return ids, nil
}

// Write inserts the new titles and identifiers, inserts the new resources
// and updates the rewritten ones.
func (w *bulk) Write(ctx context.Context, b *kbsql.ImportBatch) error {
	for _, t := range b.Titles {
		p := t.Row
		subjects, contributors := kbsql.TitleJSON(p.Row)
		if err := w.exec(ctx, `INSERT INTO titles(id, name, sort_name, publisher, sort_publisher, pub_type, description, peer_reviewed,
			subjects, contributors, match_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ID, p.Name, t.Sort, p.Publisher, kb.Fold(p.Publisher), int(p.PubType), p.Row.Description, p.Row.PeerReviewed,
			subjects, contributors, p.Match); err != nil {
			return fmt.Errorf("create titles: %w", err)
		}
	}
	for _, ids := range [][]kbsql.TitleIdent{b.Idents, b.Added} {
		for _, i := range ids {
			if err := w.exec(ctx, `INSERT OR IGNORE INTO title_identifiers(title_id, type, subtype, value, norm, valid) VALUES (?, ?, ?, ?, ?, ?)`,
				i.TitleID, int(i.Type), int(i.Subtype), i.Value, i.Norm, i.Valid); err != nil {
				return fmt.Errorf("add identifiers: %w", err)
			}
		}
	}
	for _, r := range b.Resources {
		var err error
		switch r.State {
		case kbsql.ResourceNew:
			err = w.exec(ctx, `INSERT INTO resources(package_id, title_id, sort_name, pub_type, url, coverage, embargo_unit, embargo_value,
				kbart, kbart_hash, gen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				b.PackageID, r.TitleID, r.Sort, int(r.PubType), r.URL, r.CoverageJSON(), int(r.EmbargoUnit), r.EmbargoValue,
				r.KBART, int64(r.Hash), b.Gen)
		case kbsql.ResourcePrior:
			err = w.exec(ctx, `UPDATE resources SET sort_name = ?, url = ?, coverage = ?, embargo_unit = ?, embargo_value = ?,
				kbart = ?, prev_hash = kbart_hash, kbart_hash = ?, gen = ? WHERE package_id = ? AND title_id = ?`,
				r.Sort, r.URL, r.CoverageJSON(), int(r.EmbargoUnit), r.EmbargoValue, r.KBART, int64(r.Hash), b.Gen, b.PackageID, r.TitleID)
		case kbsql.ResourceAppend:
			err = w.exec(ctx, `UPDATE resources SET kbart = ?, kbart_hash = ?, coverage = ? WHERE package_id = ? AND title_id = ?`,
				r.KBART, int64(r.Hash), r.CoverageJSON(), b.PackageID, r.TitleID)
		}
		if err != nil {
			return fmt.Errorf("write resources: %w", err)
		}
	}
	return nil
}

// Finish counts the resources whose rows changed, indexes the titles the
// import created (one set-based statement per index, much faster than a
// row at a time) and refreshes the package's snapshot marks.
func (w *bulk) Finish(ctx context.Context, packageID int64) (int, error) {
	var updated int
	if err := w.tx.QueryRowContext(ctx, `SELECT count(*) FROM resources WHERE package_id = ? AND prev_hash IS NOT NULL AND prev_hash <> kbart_hash`,
		packageID).Scan(&updated); err != nil {
		return 0, fmt.Errorf("count updated resources: %w", err)
	}
	stmts := []string{`UPDATE resources SET prev_hash = NULL WHERE package_id = ? AND prev_hash IS NOT NULL`}
	args := []any{packageID}
	if w.started {
		stmts = append(stmts,
			`INSERT INTO title_fts(rowid, name, publisher, subjects) SELECT id, name, publisher, `+sqlSubjectWords+` FROM titles WHERE id > ?`,
			`INSERT INTO title_tri(rowid, name, publisher) SELECT id, name, publisher FROM titles WHERE id > ?`)
		args = append(args, w.maxTitle, w.maxTitle)
	}
	for i, q := range stmts {
		if _, err := w.tx.ExecContext(ctx, q, args[i]); err != nil {
			return 0, fmt.Errorf("finish import: %s: %w", strings.Fields(q)[0], err)
		}
	}
	return updated, kbsql.RefreshPackageMarks(ctx, txQuerier{querier{q: w.tx}}, packageID)
}
