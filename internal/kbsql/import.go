package kbsql

import (
	"context"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// The import of a KBART title list into a package (kb.Importer), written
// once: an engine gives the transaction and its bulk path (BulkWriter).
//
// Rows are handled a batch at a time, in a fixed number of statements
// whatever the batch: queries match the batch's identifiers and match
// hashes to titles and find the package's resources of its titles, and
// the engine writes the new titles, identifiers and resources in bulk. A
// resource the import lists is stamped with the import's generation; at
// the end, the package's resources with an older generation are the ones
// the file no longer lists.

// BulkWriter is an engine's bulk path of one import, in its transaction.
type BulkWriter interface {
	// BatchSize is how many rows a batch should have: the importer's
	// memory is bounded by it, not by the package's size.
	BatchSize() int
	// TitleIDs returns n new title ids, never given before: other systems
	// keep them.
	TitleIDs(ctx context.Context, n int) ([]int64, error)
	// Write writes a batch's new titles with their identifiers, the
	// identifiers later rows add to titles, and the package's resources.
	Write(ctx context.Context, b *ImportBatch) error
	// Finish ends the import of the package: it returns how many of the
	// package's resources the import rewrote with other rows than they had,
	// and brings the engine's search index and the package's snapshot
	// marks up to date.
	Finish(ctx context.Context, packageID int64) (updated int, err error)
}

// ImportBatch is what one batch of an import writes.
type ImportBatch struct {
	PackageID int64
	Gen       int64 // the import's generation of the package
	Titles    []NewTitle
	Idents    []TitleIdent // of the new titles: none can exist yet
	Added     []TitleIdent // valid identifiers later rows add to titles: may exist
	Resources []*ImportResource
}

// NewTitle is a title an import batch creates from a row.
type NewTitle struct {
	ID   int64
	Sort string // the folded name
	Row  *ImportRow
}

// TitleIdent is an identifier an import batch gives a title.
type TitleIdent struct {
	TitleID int64
	Ident
}

// ImportPackage implements kb.Importer in one transaction that holds the
// import lock (Engine.Import): imports run one at a time (two could
// otherwise both create the same new title).
func (s *Store) ImportPackage(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	var res kb.ImportResult
	if strings.TrimSpace(spec.VendorName) == "" || strings.TrimSpace(spec.PackageName) == "" {
		return res, kb.Errorf(kb.CodeMissing, "import: vendor and package names are required")
	}
	if spec.PackageType == kb.PackageCustom {
		return res, kb.Errorf(kb.CodeInvalid, "import: package type Custom is reserved for customers' own packages")
	}
	if err := kb.CheckText("A vendor name", strings.TrimSpace(spec.VendorName), kb.LimitName); err != nil {
		return res, err
	}
	if err := kb.CheckText("A package name", strings.TrimSpace(spec.PackageName), kb.LimitName); err != nil {
		return res, err
	}
	err := s.e.Import(ctx, func(tx Tx, w BulkWriter) error {
		imp := &importer{tx: tx, w: w, res: &res}
		if err := imp.run(ctx, spec, next); err != nil {
			return err
		}
		if err := recordImport(ctx, tx, res); err != nil {
			return err
		}
		return bumpVersion(ctx, tx, KBVersion)
	})
	if err != nil {
		return kb.ImportResult{}, fmt.Errorf("import %s / %s: %w", spec.VendorName, spec.PackageName, err)
	}
	return res, nil
}

// importer holds the state of one ImportPackage call.
type importer struct {
	tx        Tx
	w         BulkWriter
	res       *kb.ImportResult
	packageID int64
	gen       int64 // this import's generation of the package
}

func (imp *importer) run(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) error {
	if err := imp.ensurePackage(ctx, spec); err != nil {
		return err
	}
	if err := ImportBatches(ctx, imp.w.BatchSize(), next, func(rows []kb.ImportRow) error { return imp.batch(ctx, rows) }); err != nil {
		return err
	}
	if err := imp.removeUnlisted(ctx); err != nil {
		return err
	}
	updated, err := imp.w.Finish(ctx, imp.packageID)
	if err != nil {
		return err
	}
	imp.res.ResourcesUpdated = updated
	if _, err := imp.tx.Exec(ctx, `UPDATE packages SET title_count = (SELECT count(*) FROM resources WHERE package_id = $1) WHERE id = $1`,
		imp.packageID); err != nil {
		return fmt.Errorf("count titles: %w", err)
	}
	return nil
}

// ensurePackage finds or creates the vendor and the package by folded
// name, and starts a new import generation of the package.
func (imp *importer) ensurePackage(ctx context.Context, spec kb.PackageSpec) error {
	tx := imp.tx
	vname, pname := strings.TrimSpace(spec.VendorName), strings.TrimSpace(spec.PackageName)
	err := tx.QueryRow(ctx, `SELECT id FROM vendors WHERE customer_id IS NULL AND sort_name = $1`, kb.Fold(vname)).Scan(&imp.res.VendorID)
	if NoRows(err) {
		err = tx.QueryRow(ctx, `INSERT INTO vendors(name, sort_name) VALUES ($1, $2) RETURNING id`, vname, kb.Fold(vname)).Scan(&imp.res.VendorID)
		if err == nil {
			err = tx.Reindex(ctx, IndexVendor, imp.res.VendorID)
		}
		if err != nil {
			return fmt.Errorf("create vendor: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("find vendor: %w", err)
	}
	ct := kb.StoredContentType(spec.ContentType)
	err = tx.QueryRow(ctx, `SELECT id, import_gen FROM packages WHERE vendor_id = $1 AND sort_name = $2`,
		imp.res.VendorID, kb.Fold(pname)).Scan(&imp.packageID, &imp.gen)
	if NoRows(err) {
		err = tx.QueryRow(ctx, `INSERT INTO packages(vendor_id, name, sort_name, content_type, package_type) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			imp.res.VendorID, pname, kb.Fold(pname), int(ct), int(spec.PackageType)).Scan(&imp.packageID)
		if err == nil {
			err = tx.Reindex(ctx, IndexPackage, imp.packageID)
		}
		if err != nil {
			return fmt.Errorf("create package: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("find package: %w", err)
	}
	imp.gen++
	if _, err := tx.Exec(ctx, `UPDATE packages SET content_type = $1, package_type = $2, import_gen = $3 WHERE id = $4`,
		int(ct), int(spec.PackageType), imp.gen, imp.packageID); err != nil {
		return fmt.Errorf("update package: %w", err)
	}
	imp.res.PackageID = imp.packageID
	return nil
}

// batch imports one batch of rows: it matches each row to a managed title
// (by a valid identifier, else by match hash for rows without one),
// creates the titles no row matched, and writes the resources.
func (imp *importer) batch(ctx context.Context, rows []kb.ImportRow) error {
	if len(rows) == 0 {
		return nil
	}
	ps, err := PrepareRows(rows)
	if err != nil {
		return err
	}
	imp.res.Rows += len(rows)
	byNorm, byHash, err := imp.lookupTitles(ctx, ps)
	if err != nil {
		return err
	}
	b := &ImportBatch{PackageID: imp.packageID, Gen: imp.gen}
	refs := make([]ImportTitle, len(ps))
	var created []int // indexes in ps of the rows that create a title
	for i := range ps {
		p := &ps[i]
		t, ok := MatchTitle(p, byNorm, byHash)
		if ok {
			imp.res.TitlesMatched++
			for _, id := range AddedIdents(p, t, byNorm) { // identifiers this row adds to a known title
				b.Added = append(b.Added, TitleIdent{TitleID: t.ID, Ident: id})
			}
			refs[i] = t
			continue
		}
		// A new title: its id comes once the batch knows how many it needs;
		// until then refs holds -(its index in created)-1.
		t = ImportTitle{ID: -int64(len(created)) - 1, Sort: kb.Fold(p.Name), PubType: p.PubType}
		created = append(created, i)
		NoteNewTitle(p, t, byNorm, byHash)
		refs[i] = t
	}
	if len(created) > 0 {
		ids, err := imp.w.TitleIDs(ctx, len(created))
		if err != nil {
			return fmt.Errorf("new title ids: %w", err)
		}
		for i := range refs {
			if refs[i].ID < 0 {
				refs[i].ID = ids[-refs[i].ID-1]
			}
		}
		for i := range b.Added { // identifiers later rows added to new titles
			if b.Added[i].TitleID < 0 {
				b.Added[i].TitleID = ids[-b.Added[i].TitleID-1]
			}
		}
		for k, i := range created {
			b.Titles = append(b.Titles, NewTitle{ID: ids[k], Sort: refs[i].Sort, Row: &ps[i]})
			for _, id := range ps[i].Idents {
				b.Idents = append(b.Idents, TitleIdent{TitleID: ids[k], Ident: id})
			}
		}
		imp.res.TitlesCreated += len(created)
	}
	existing, err := imp.existingResources(ctx, refs)
	if err != nil {
		return err
	}
	if b.Resources, err = ImportResources(ps, refs, existing, imp.gen); err != nil {
		return err
	}
	for _, r := range b.Resources {
		if r.State == ResourceNew {
			imp.res.ResourcesAdded++
		}
	}
	return imp.w.Write(ctx, b)
}

// lookupTitles finds the managed titles of a batch's valid identifiers and,
// for rows without one, of their match hashes: two queries a batch. When
// several titles share an identifier or a hash, the oldest wins.
func (imp *importer) lookupTitles(ctx context.Context, ps []ImportRow) (map[string]ImportTitle, map[int64]ImportTitle, error) {
	norms, hashes := MatchKeys(ps)
	byNorm := make(map[string]ImportTitle, len(norms))
	byHash := make(map[int64]ImportTitle, len(hashes))
	d := imp.tx.Dialect()
	if len(norms) > 0 {
		err := eachRow(ctx, imp.tx, `SELECT ti.norm, t.id, t.sort_name, t.pub_type FROM title_identifiers ti JOIN titles t ON t.id = ti.title_id
			WHERE `+d.InTexts("ti.norm", "$1")+` AND ti.valid = TRUE AND t.customer_id IS NULL ORDER BY t.id`, []any{norms},
			func(r Rows) error {
				var n string
				var t ImportTitle
				if err := r.Scan(&n, &t.ID, &t.Sort, &t.PubType); err != nil {
					return err
				}
				if _, ok := byNorm[n]; !ok {
					byNorm[n] = t
				}
				return nil
			})
		if err != nil {
			return nil, nil, fmt.Errorf("match identifiers: %w", err)
		}
	}
	if len(hashes) > 0 {
		err := eachRow(ctx, imp.tx, `SELECT match_hash, id, sort_name, pub_type FROM titles
			WHERE `+d.InIDs("match_hash", "$1")+` AND customer_id IS NULL ORDER BY id`, []any{hashes},
			func(r Rows) error {
				var h int64
				var t ImportTitle
				if err := r.Scan(&h, &t.ID, &t.Sort, &t.PubType); err != nil {
					return err
				}
				if _, ok := byHash[h]; !ok {
					byHash[h] = t
				}
				return nil
			})
		if err != nil {
			return nil, nil, fmt.Errorf("match titles: %w", err)
		}
	}
	return byNorm, byHash, nil
}

// existingResources returns the package's resources of the batch's titles.
func (imp *importer) existingResources(ctx context.Context, refs []ImportTitle) (map[int64]PriorResource, error) {
	m := map[int64]PriorResource{}
	err := eachRow(ctx, imp.tx, `SELECT title_id, gen, kbart_hash, CASE WHEN gen = $1 THEN kbart ELSE '' END,
		CASE WHEN gen = $1 THEN coverage ELSE '' END, url, embargo_unit, embargo_value
		FROM resources WHERE package_id = $2 AND `+imp.tx.Dialect().InIDs("title_id", "$3"), []any{imp.gen, imp.packageID, TitleIDs(refs)},
		func(r Rows) error {
			var tid int64
			var e PriorResource
			if err := r.Scan(&tid, &e.Gen, &e.Hash, &e.KBART, &e.Coverage, &e.URL, &e.EmbargoUnit, &e.EmbargoValue); err != nil {
				return err
			}
			m[tid] = e
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("find resources: %w", err)
	}
	return m, nil
}

// removeUnlisted deletes the package's resources that the import did not
// list, the customers' state on them, and the managed titles left in no
// package.
func (imp *importer) removeUnlisted(ctx context.Context) error {
	gone, err := queryAll(ctx, imp.tx, `DELETE FROM resources WHERE package_id = $1 AND gen <> $2 RETURNING title_id`,
		[]any{imp.packageID, imp.gen}, scanInt64)
	if err != nil {
		return fmt.Errorf("remove resources: %w", err)
	}
	if len(gone) == 0 {
		return nil
	}
	imp.res.ResourcesRemoved = len(gone)
	if _, err := imp.tx.Exec(ctx, `DELETE FROM customer_resources WHERE package_id = $1 AND `+imp.tx.Dialect().InIDs("title_id", "$2"),
		imp.packageID, gone); err != nil {
		return fmt.Errorf("remove resource state: %w", err)
	}
	return removeOrphanTitles(ctx, imp.tx, "", gone)
}

// recordImport adds res to the imports log and the running totals, in the
// import's transaction.
func recordImport(ctx context.Context, tx Tx, res kb.ImportResult) error {
	now := tx.Dialect().Now() // the database's clock: one for every instance
	_, err := tx.Exec(ctx, `INSERT INTO imports(finished, vendor_id, package_id, rows, titles_created, titles_matched,
		resources_added, resources_updated, resources_removed) VALUES (`+now+`, $1, $2, $3, $4, $5, $6, $7, $8)`,
		res.VendorID, res.PackageID, res.Rows, res.TitlesCreated, res.TitlesMatched,
		res.ResourcesAdded, res.ResourcesUpdated, res.ResourcesRemoved)
	if err == nil {
		_, err = tx.Exec(ctx, `INSERT INTO import_totals(id, imports, rows, finished) VALUES (1, 1, $1, `+now+`)
			ON CONFLICT (id) DO UPDATE SET imports = import_totals.imports + 1, rows = import_totals.rows + excluded.rows,
			finished = excluded.finished`, res.Rows)
	}
	if err != nil {
		return fmt.Errorf("record import: %w", err)
	}
	return nil
}

// ImportTotals fills in the running totals of the imports every process
// recorded (the one row of import_totals; none before the first import).
func (s *Store) ImportTotals(ctx context.Context, st *kb.StoreStats) error {
	var last Time
	err := s.e.Read().QueryRow(ctx, `SELECT imports, rows, finished FROM import_totals`).Scan(&st.Imports, &st.ImportRows, &last)
	if NoRows(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store stats: imports: %w", err)
	}
	st.LastImport = last.T.UTC()
	return nil
}
