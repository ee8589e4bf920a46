package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// importBatch is how many rows an import reads, matches and writes at a
// time: the importer's memory is bounded by it, not by the package's size.
const importBatch = 512

// ImportPackage implements kb.Importer in one write transaction.
//
// Rows are handled a batch at a time: one query matches the batch's
// identifiers to titles, one query finds the package's resources for the
// batch's titles, and new titles, identifiers and resources are written
// with prepared INSERTs, with title ids the importer assigns itself (it is
// the only writer). A resource the import lists is stamped with the import's
// generation; at the end, the package's resources with an older generation
// are the ones the file no longer lists.
func (s *Store) ImportPackage(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	var res kb.ImportResult
	if strings.TrimSpace(spec.VendorName) == "" || strings.TrimSpace(spec.PackageName) == "" {
		return res, kb.Errorf(kb.CodeMissing, "import: vendor and package names are required")
	}
	if spec.PackageType == kb.PackageCustom {
		return res, kb.Errorf(kb.CodeInvalid, "import: package type Custom is reserved for customers' own packages")
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		imp := &importer{ctx: ctx, tx: tx, res: &res, stmts: map[string]*sql.Stmt{}}
		defer imp.close()
		if err := imp.run(spec, next); err != nil {
			return err
		}
		if err := recordImport(ctx, tx, res); err != nil {
			return err
		}
		return bumpVersion(ctx, tx, kbsql.KBVersion)
	})
	if err != nil {
		return kb.ImportResult{}, fmt.Errorf("import %s / %s: %w", spec.VendorName, spec.PackageName, err)
	}
	return res, nil
}

// importer holds the state of one ImportPackage call.
type importer struct {
	ctx       context.Context
	tx        *sql.Tx
	res       *kb.ImportResult
	stmts     map[string]*sql.Stmt
	packageID int64
	gen       int64 // this import's generation of the package
	nextTitle int64 // id of the next title created
	maxTitle  int64 // largest title id before the import
}

func (imp *importer) close() {
	for _, st := range imp.stmts {
		st.Close()
	}
}

// stmt returns a prepared statement, prepared once per import.
func (imp *importer) stmt(q string) (*sql.Stmt, error) {
	if st, ok := imp.stmts[q]; ok {
		return st, nil
	}
	st, err := imp.tx.PrepareContext(imp.ctx, q)
	if err != nil {
		return nil, err
	}
	imp.stmts[q] = st
	return st, nil
}

func (imp *importer) exec(q string, args ...any) error {
	st, err := imp.stmt(q)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(imp.ctx, args...)
	return err
}

func (imp *importer) run(spec kb.PackageSpec, next func() (kb.ImportRow, error)) error {
	if err := imp.ensurePackage(spec); err != nil {
		return err
	}
	// Title ids are never reused: the next id is above every id ever given.
	if err := imp.tx.QueryRowContext(imp.ctx, `SELECT max(COALESCE((SELECT MAX(id) FROM titles), 0),
		COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'titles'), 0))`).Scan(&imp.maxTitle); err != nil {
		return fmt.Errorf("read title ids: %w", err)
	}
	imp.nextTitle = imp.maxTitle + 1
	if err := kbsql.ImportBatches(imp.ctx, importBatch, next, imp.batch); err != nil {
		return err
	}
	if err := imp.removeUnlisted(); err != nil {
		return err
	}
	return imp.finish()
}

// ensurePackage finds or creates the vendor and the package by name, and
// starts a new import generation of the package.
func (imp *importer) ensurePackage(spec kb.PackageSpec) error {
	ctx, tx := imp.ctx, imp.tx
	vname, pname := strings.TrimSpace(spec.VendorName), strings.TrimSpace(spec.PackageName)
	err := tx.QueryRowContext(ctx, `SELECT id FROM vendors WHERE customer_id IS NULL AND sort_name = ?`, kbsql.Fold(vname)).Scan(&imp.res.VendorID)
	if errors.Is(err, sql.ErrNoRows) {
		r, err := tx.ExecContext(ctx, `INSERT INTO vendors(name, sort_name) VALUES (?, ?)`, vname, kbsql.Fold(vname))
		if err != nil {
			return fmt.Errorf("create vendor: %w", err)
		}
		imp.res.VendorID, _ = r.LastInsertId()
		if _, err := tx.ExecContext(ctx, `INSERT INTO vendor_fts(rowid, name) VALUES (?, ?)`, imp.res.VendorID, vname); err != nil {
			return fmt.Errorf("index vendor: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("find vendor: %w", err)
	}
	ct := kb.StoredContentType(spec.ContentType)
	err = tx.QueryRowContext(ctx, `SELECT id, import_gen FROM packages WHERE vendor_id = ? AND sort_name = ?`,
		imp.res.VendorID, kbsql.Fold(pname)).Scan(&imp.packageID, &imp.gen)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		r, err := tx.ExecContext(ctx, `INSERT INTO packages(vendor_id, name, sort_name, content_type, package_type) VALUES (?, ?, ?, ?, ?)`,
			imp.res.VendorID, pname, kbsql.Fold(pname), int(ct), int(spec.PackageType))
		if err != nil {
			return fmt.Errorf("create package: %w", err)
		}
		imp.packageID, _ = r.LastInsertId()
		if _, err := tx.ExecContext(ctx, `INSERT INTO package_fts(rowid, name) VALUES (?, ?)`, imp.packageID, pname); err != nil {
			return fmt.Errorf("index package: %w", err)
		}
	case err != nil:
		return fmt.Errorf("find package: %w", err)
	}
	imp.gen++
	if _, err := tx.ExecContext(ctx, `UPDATE packages SET content_type = ?, package_type = ?, import_gen = ? WHERE id = ?`,
		int(ct), int(spec.PackageType), imp.gen, imp.packageID); err != nil {
		return fmt.Errorf("update package: %w", err)
	}
	imp.res.PackageID = imp.packageID
	return nil
}

// batch imports one batch of rows.
func (imp *importer) batch(rows []kb.ImportRow) error {
	if len(rows) == 0 {
		return nil
	}
	ps, err := kbsql.PrepareRows(rows)
	if err != nil {
		return err
	}
	imp.res.Rows += len(rows)
	byNorm, byHash, err := imp.lookupTitles(ps)
	if err != nil {
		return err
	}
	var titles, idents [][]any
	refs := make([]kbsql.ImportTitle, len(ps))
	for i := range ps {
		p := &ps[i]
		t, ok := kbsql.MatchTitle(p, byNorm, byHash)
		if ok {
			imp.res.TitlesMatched++
			for _, id := range kbsql.AddedIdents(p, t, byNorm) { // identifiers this row adds to a known title
				idents = append(idents, []any{t.ID, int(id.Type), int(id.Subtype), id.Value, id.Norm, 1})
			}
		} else {
			t = kbsql.ImportTitle{ID: imp.nextTitle, Sort: kbsql.Fold(p.Name), PubType: p.PubType}
			imp.nextTitle++
			imp.res.TitlesCreated++
			titles = append(titles, newTitle(t, p))
			for _, id := range p.Idents {
				idents = append(idents, []any{t.ID, int(id.Type), int(id.Subtype), id.Value, id.Norm, boolInt(id.Valid)})
			}
			kbsql.NoteNewTitle(p, t, byNorm, byHash)
		}
		refs[i] = t
	}
	if err := imp.insertRows(`INSERT INTO titles(id, name, sort_name, publisher, sort_publisher, pub_type, description, peer_reviewed, subjects, contributors, match_hash) VALUES `, 11, titles); err != nil {
		return fmt.Errorf("create titles: %w", err)
	}
	if err := imp.insertRows(`INSERT OR IGNORE INTO title_identifiers(title_id, type, subtype, value, norm, valid) VALUES `, 6, idents); err != nil {
		return fmt.Errorf("add identifiers: %w", err)
	}
	return imp.writeResources(ps, refs)
}

// lookupTitles finds the managed titles of a batch's valid identifiers and,
// for rows without one, of their match hashes: two queries a batch.
func (imp *importer) lookupTitles(ps []kbsql.ImportRow) (map[string]kbsql.ImportTitle, map[int64]kbsql.ImportTitle, error) {
	norms, hashes := kbsql.MatchKeys(ps)
	byNorm := make(map[string]kbsql.ImportTitle, len(norms))
	byHash := make(map[int64]kbsql.ImportTitle, len(hashes))
	if len(norms) > 0 {
		j, _ := json.Marshal(norms)
		rows, err := imp.tx.QueryContext(imp.ctx, `SELECT ti.norm, t.id, t.sort_name, t.pub_type FROM title_identifiers ti JOIN titles t ON t.id = ti.title_id
			WHERE ti.norm IN (SELECT value FROM json_each(?)) AND ti.valid = 1 AND t.customer_id IS NULL ORDER BY t.id`, string(j))
		if err != nil {
			return nil, nil, fmt.Errorf("match identifiers: %w", err)
		}
		for rows.Next() {
			var n string
			var t kbsql.ImportTitle
			if err := rows.Scan(&n, &t.ID, &t.Sort, &t.PubType); err != nil {
				rows.Close()
				return nil, nil, err
			}
			if _, ok := byNorm[n]; !ok {
				byNorm[n] = t
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("match identifiers: %w", err)
		}
	}
	if len(hashes) > 0 {
		j, _ := json.Marshal(hashes)
		rows, err := imp.tx.QueryContext(imp.ctx, `SELECT match_hash, id, sort_name, pub_type FROM titles
			WHERE match_hash IN (SELECT value FROM json_each(?)) AND customer_id IS NULL ORDER BY id`, string(j))
		if err != nil {
			return nil, nil, fmt.Errorf("match titles: %w", err)
		}
		for rows.Next() {
			var h int64
			var t kbsql.ImportTitle
			if err := rows.Scan(&h, &t.ID, &t.Sort, &t.PubType); err != nil {
				rows.Close()
				return nil, nil, err
			}
			if _, ok := byHash[h]; !ok {
				byHash[h] = t
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("match titles: %w", err)
		}
	}
	return byNorm, byHash, nil
}

// newTitle returns the column values of a title created from a row.
func newTitle(t kbsql.ImportTitle, p *kbsql.ImportRow) []any {
	row := p.Row
	subjects, contributors := kbsql.TitleJSON(row)
	return []any{t.ID, p.Name, t.Sort, p.Publisher, kbsql.Fold(p.Publisher), int(p.PubType), row.Description,
		boolInt(row.PeerReviewed), subjects, contributors, p.Match}
}

// insertRows inserts rows of n columns, one prepared single-row INSERT
// each. (Multi-row VALUES statements measured slower: SQLite keeps a
// statement journal for them.)
func (imp *importer) insertRows(prefix string, n int, rows [][]any) error {
	q := prefix + "(" + strings.Repeat("?, ", n-1) + "?)"
	for _, r := range rows {
		if err := imp.exec(q, r...); err != nil {
			return err
		}
	}
	return nil
}

// writeResources writes the batch's rows into the package's resources
// (kbsql.ImportResources).
func (imp *importer) writeResources(ps []kbsql.ImportRow, refs []kbsql.ImportTitle) error {
	existing, err := imp.existingResources(refs)
	if err != nil {
		return err
	}
	order, err := kbsql.ImportResources(ps, refs, existing, imp.gen)
	if err != nil {
		return err
	}
	var inserts [][]any
	for _, r := range order {
		cov := r.CoverageJSON()
		switch r.State {
		case kbsql.ResourceNew:
			imp.res.ResourcesAdded++
			inserts = append(inserts, []any{imp.packageID, r.TitleID, r.Sort, int(r.PubType), r.URL, cov, int(r.EmbargoUnit), r.EmbargoValue, r.KBART, int64(r.Hash), imp.gen})
		case kbsql.ResourcePrior:
			if err := imp.exec(`UPDATE resources SET sort_name = ?, url = ?, coverage = ?, embargo_unit = ?, embargo_value = ?,
				kbart = ?, prev_hash = kbart_hash, kbart_hash = ?, gen = ? WHERE package_id = ? AND title_id = ?`,
				r.Sort, r.URL, cov, int(r.EmbargoUnit), r.EmbargoValue, r.KBART, int64(r.Hash), imp.gen, imp.packageID, r.TitleID); err != nil {
				return fmt.Errorf("update resource: %w", err)
			}
		case kbsql.ResourceAppend:
			if err := imp.exec(`UPDATE resources SET kbart = ?, kbart_hash = ?, coverage = ? WHERE package_id = ? AND title_id = ?`,
				r.KBART, int64(r.Hash), cov, imp.packageID, r.TitleID); err != nil {
				return fmt.Errorf("update resource: %w", err)
			}
		}
	}
	if err := imp.insertRows(`INSERT INTO resources(package_id, title_id, sort_name, pub_type, url, coverage, embargo_unit, embargo_value, kbart, kbart_hash, gen) VALUES `, 11, inserts); err != nil {
		return fmt.Errorf("add resources: %w", err)
	}
	return nil
}

// existingResources returns the package's resources of the batch's titles.
func (imp *importer) existingResources(refs []kbsql.ImportTitle) (map[int64]kbsql.PriorResource, error) {
	ids := kbsql.TitleIDs(refs)
	j, _ := json.Marshal(ids)
	rows, err := imp.tx.QueryContext(imp.ctx, `SELECT title_id, gen, CASE WHEN gen = ? THEN kbart ELSE '' END, CASE WHEN gen = ? THEN coverage ELSE '' END
		FROM resources WHERE package_id = ? AND title_id IN (SELECT value FROM json_each(?))`, imp.gen, imp.gen, imp.packageID, string(j))
	if err != nil {
		return nil, fmt.Errorf("find resources: %w", err)
	}
	defer rows.Close()
	m := map[int64]kbsql.PriorResource{}
	for rows.Next() {
		var tid int64
		var e kbsql.PriorResource
		if err := rows.Scan(&tid, &e.Gen, &e.KBART, &e.Coverage); err != nil {
			return nil, fmt.Errorf("find resources: %w", err)
		}
		m[tid] = e
	}
	return m, rows.Err()
}

// removeUnlisted deletes the package's resources that the import did not
// list, the customers' state on them, and titles left in no package.
func (imp *importer) removeUnlisted() error {
	ctx, tx := imp.ctx, imp.tx
	rows, err := tx.QueryContext(ctx, `SELECT title_id FROM resources WHERE package_id = ? AND gen <> ?`, imp.packageID, imp.gen)
	if err != nil {
		return fmt.Errorf("find unlisted resources: %w", err)
	}
	var gone []int64
	for rows.Next() {
		var tid int64
		if err := rows.Scan(&tid); err != nil {
			rows.Close()
			return err
		}
		gone = append(gone, tid)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("find unlisted resources: %w", err)
	}
	if len(gone) == 0 {
		return nil
	}
	imp.res.ResourcesRemoved = len(gone)
	if _, err := tx.ExecContext(ctx, `DELETE FROM resources WHERE package_id = ? AND gen <> ?`, imp.packageID, imp.gen); err != nil {
		return fmt.Errorf("remove resources: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM customer_resources WHERE package_id = ?
		AND NOT EXISTS (SELECT 1 FROM resources r WHERE r.package_id = customer_resources.package_id AND r.title_id = customer_resources.title_id)`,
		imp.packageID); err != nil {
		return fmt.Errorf("remove resource state: %w", err)
	}
	for _, tid := range gone {
		if err := deleteTitleIfOrphan(ctx, tx, tid, ""); err != nil {
			return err
		}
	}
	return nil
}

// deleteTitleIfOrphan deletes a title that is in no package any more: a
// managed one (owner "") or a custom title of the customer owner. Its
// identifiers go with it (ON DELETE CASCADE); its search entries here.
func deleteTitleIfOrphan(ctx context.Context, tx *sql.Tx, tid int64, owner string) error {
	r, err := tx.ExecContext(ctx, `DELETE FROM titles WHERE id = ? AND customer_id IS ?
		AND NOT EXISTS (SELECT 1 FROM resources WHERE title_id = ?)`, tid, nullIfEmpty(owner), tid)
	if err != nil {
		return fmt.Errorf("remove title %d: %w", tid, err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return nil
	}
	return unindexTitle(ctx, tx, tid)
}

// unindexTitle removes a title's search index entries.
func unindexTitle(ctx context.Context, tx *sql.Tx, tid int64) error {
	for _, q := range []string{`DELETE FROM title_fts WHERE rowid = ?`, `DELETE FROM title_tri WHERE rowid = ?`} {
		if _, err := tx.ExecContext(ctx, q, tid); err != nil {
			return fmt.Errorf("unindex title %d: %w", tid, err)
		}
	}
	return nil
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// finish counts the resources the import changed, indexes the titles it
// created (one set-based statement per index, much faster than a row at a
// time) and updates the package's title count and snapshot marks.
func (imp *importer) finish() error {
	ctx, tx := imp.ctx, imp.tx
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM resources WHERE package_id = ? AND prev_hash IS NOT NULL AND prev_hash <> kbart_hash`,
		imp.packageID).Scan(&imp.res.ResourcesUpdated); err != nil {
		return fmt.Errorf("count updated resources: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE resources SET prev_hash = NULL WHERE package_id = ? AND prev_hash IS NOT NULL`, imp.packageID); err != nil {
		return fmt.Errorf("count updated resources: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO title_fts(rowid, name, publisher, subjects)
		SELECT id, name, publisher, COALESCE((SELECT group_concat(json_extract(value, '$[1]'), ' ; ') FROM json_each(CASE WHEN subjects = '' THEN '[]' ELSE subjects END)), '')
		FROM titles WHERE id > ?`, imp.maxTitle); err != nil {
		return fmt.Errorf("index titles: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO title_tri(rowid, name, publisher) SELECT id, name, publisher FROM titles WHERE id > ?`, imp.maxTitle); err != nil {
		return fmt.Errorf("index titles: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE packages SET title_count = (SELECT count(*) FROM resources WHERE package_id = ?) WHERE id = ?`,
		imp.packageID, imp.packageID); err != nil {
		return fmt.Errorf("count titles: %w", err)
	}
	return refreshPackageMarks(ctx, tx, imp.packageID)
}
