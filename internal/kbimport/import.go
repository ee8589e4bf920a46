// Package kbimport is the import of KBART title lists into the knowledge
// base (kb.Importer and kb.RetiredPurger), written once over the engine
// seam of internal/kbsql (kbsql.Engine and its kbsql.ImportEngine) that
// internal/sqlite and internal/postgres implement. An engine's store
// embeds an Importer beside its *kbsql.Store.
package kbimport

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The import of a KBART title list into a package (kb.Importer), written
// once over the engines. It runs in three phases, so that it holds the
// database's write lock only briefly (on SQLite the one writer serves
// every customer's writes too):
//
//  1. stage (stage.go): the rows are read a batch at a time,
//     matched to titles (kb's identity rules) by reads of the live tables
//     and of what this import staged before, and written to the staging
//     tables (import_rows, import_titles, import_idents) in one short
//     transaction a batch;
//  2. diff (diff.go): the staged rows, title by title, are compared
//     with the package's resources and the titles they own, and what
//     changes is staged in import_delta with the change records, a chunk
//     of titles at a time; every count of the result is known here;
//  3. apply (apply.go): one transaction applies the delta with
//     set-based statements: readers see the package before the import or
//     after it, and the transaction's work is proportional to what
//     changed, not to the package's size.
//
// The import lock (lock.go) keeps imports one at a time from the
// first read to the end, so that what the first two phases read is still
// true when the third applies it; customers' writes never change the
// knowledge base's managed titles or packages. A dry run runs all three
// phases and rolls the third back. The staging tables are emptied when an
// import ends and when the next one begins (after a crash). A new
// package's first import may take the bulk path instead (bulk.go):
// the first phase's matching, written straight into the final tables in
// one transaction.

// Importer imports title lists over an engine. It keeps no state of its
// own: the import lock and the staging tables are the database's.
type Importer struct {
	e     kbsql.Engine
	d     kbsql.Dialect
	batch int // rows a batch, 0 for the engine's (SetImportBatch)
	// reference reads a staged import's own keys from the staging tables
	// (SetReference).
	reference bool
}

// SetReference makes the staged imports read what they staged so far
// back from the staging tables a batch at a time, as they did before
// they kept it in memory (ownKeys): a slow reference that tests compare
// the kept keys with. Call it before any import runs.
func (s *Importer) SetReference(on bool) { s.reference = on }

// SetImportBatch sets how many rows the imports match and write at a
// time, 0 for the engine's choice (kbsql.ImportEngine.BatchSize). It is
// for tests, which check that a result does not depend on it; call it
// before any import runs.
func (s *Importer) SetImportBatch(n int) { s.batch = n }

// batchSize returns how many rows an import matches and writes at a time.
func (s *Importer) batchSize(ie kbsql.ImportEngine) int {
	if s.batch > 0 {
		return s.batch
	}
	return ie.BatchSize()
}

// New returns the importer over an engine.
func New(e kbsql.Engine) *Importer { return &Importer{e: e, d: e.Dialect()} }

// errDryRun rolls a dry run's apply transaction back.
var errDryRun = errors.New("dry run")

// ImportPackage implements kb.Importer.
func (s *Importer) ImportPackage(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	spec.VendorName, spec.PackageName = strings.TrimSpace(spec.VendorName), strings.TrimSpace(spec.PackageName)
	if err := checkImportSpec(spec); err != nil {
		return kb.ImportResult{}, err
	}
	holder, unlock, err := s.lockImports(ctx)
	if err != nil {
		return kb.ImportResult{}, fmt.Errorf("import %s / %s: %w", spec.VendorName, spec.PackageName, err)
	}
	defer unlock()
	imp := &importer{s: s, ie: s.e.Import(), spec: spec, id: newImportID(), holder: holder, own: newOwnKeys()}
	res, err := imp.run(ctx, next)
	if cerr := imp.s.clearStage(context.WithoutCancel(ctx)); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return res, fmt.Errorf("import %s / %s: %w", spec.VendorName, spec.PackageName, err)
	}
	return res, nil
}

// check runs the spec's Check, if any, on what the import would do.
func (imp *importer) check() error {
	if imp.spec.Check == nil {
		return nil
	}
	return imp.spec.Check(imp.res)
}

// checkImportSpec checks the names and the type of the package to fill.
func checkImportSpec(spec kb.PackageSpec) error {
	if spec.VendorName == "" || spec.PackageName == "" {
		return kb.Errorf(kb.CodeMissing, "import: vendor and package names are required")
	}
	if spec.PackageType == kb.PackageCustom {
		return kb.Errorf(kb.CodeInvalid, "import: package type Custom is reserved for customers' own packages")
	}
	for _, c := range []struct {
		what, s string
		l       kb.TextLimit
	}{{"A vendor name", spec.VendorName, kb.LimitName}, {"A package name", spec.PackageName, kb.LimitName}} {
		if err := kb.CheckText(c.what, c.s, c.l); err != nil {
			return err
		}
	}
	if len(spec.ExtraColumns) > maxExtraColumns {
		return kb.Errorf(kb.CodeInvalid, "import: %d non-standard columns: at most %d are kept", len(spec.ExtraColumns), maxExtraColumns)
	}
	for _, c := range spec.ExtraColumns {
		if c == "" || strings.ContainsAny(c, "\t\r\n") {
			return kb.Errorf(kb.CodeInvalid, "import: a non-standard column name %q is empty or holds a tab or line break", c)
		}
		if err := kb.CheckText("A column name", c, kb.LimitID); err != nil {
			return err
		}
	}
	return nil
}

// maxExtraColumns bounds the non-standard KBART columns a package keeps.
const maxExtraColumns = 64

// newImportID returns a random positive id for an import: its staged rows
// and its recorded changes carry it.
func newImportID() int64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return int64(binary.BigEndian.Uint64(b[:])>>2) + 1
}

// importer holds the state of one ImportPackage call.
type importer struct {
	s    *Importer
	ie   kbsql.ImportEngine
	spec kb.PackageSpec
	id   int64 // the import's id

	vendorID  int64 // 0 until the vendor exists (a new vendor is created when applied)
	packageID int64 // 0 until the package exists
	firstGen  bool  // the package has no resources yet: its first import
	seq       int64 // rows staged so far
	res       kb.ImportResult
	// holdRemovals: a rejected row matched no title of the package, so
	// it may stand for any of them.
	holdRemovals bool
	// What the diff found of the package after the import: its KBART
	// rows and resources, and whether its resources change (then its
	// snapshot marks are replaced).
	kbartRows   int64
	marksChange bool
	backfilled  int64     // the last title whose provider id backfillProviderIDs read
	bulk        *bulkLoad // set while a bulk load runs (bulk.go)
	own         *ownKeys  // the keys of what the import staged or loaded so far
	holder      string    // the holder of the import lock's lease
	newNames    bool      // the import created its package (and maybe its vendor)
	firstLoad   bool      // a first load (kb.PackageSpec.FirstLoad) into an empty knowledge base, as the import began
	load        *load     // the load the import is part of (LoadPackages), or nil
}

func (imp *importer) run(ctx context.Context, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	if err := imp.s.clearStage(ctx); err != nil {
		return kb.ImportResult{}, err
	}
	if err := imp.findPackage(ctx); err != nil {
		return kb.ImportResult{}, err
	}
	var err error
	if imp.firstLoad, err = imp.mayLoadFirst(ctx); err != nil {
		return kb.ImportResult{}, err
	}
	if imp.takesBulk() {
		return imp.runBulk(ctx, next)
	}
	if err := imp.backfillProviderIDs(ctx); err != nil {
		return kb.ImportResult{}, err
	}
	if err := ImportBatches(ctx, imp.s.batchSize(imp.ie), next, readyRows, func(rows readyBatch) error { return imp.stage(ctx, rows) }); err != nil {
		return kb.ImportResult{}, err
	}
	if err := imp.diff(ctx); err != nil {
		return kb.ImportResult{}, err
	}
	if err := imp.check(); err != nil {
		return imp.res, err
	}
	err = imp.s.e.Write(ctx, "", func(tx kbsql.Tx) error {
		if err := imp.apply(ctx, tx); err != nil {
			return err
		}
		if imp.spec.DryRun {
			return errDryRun
		}
		return nil
	})
	if imp.spec.DryRun && errors.Is(err, errDryRun) {
		imp.res.ImportID = 0
		return imp.res, nil
	}
	if err != nil {
		return kb.ImportResult{}, err
	}
	return imp.res, nil
}

// findPackage finds the vendor and the package by folded name; when they
// do not exist yet, the apply transaction creates them.
func (imp *importer) findPackage(ctx context.Context) error {
	return imp.findPackageIn(ctx, imp.s.e.Read())
}

// findPackageIn is findPackage reading through q.
func (imp *importer) findPackageIn(ctx context.Context, q kbsql.Querier) error {
	err := q.QueryRow(ctx, `SELECT id FROM vendors WHERE customer_id IS NULL AND sort_name = $1`, kb.Fold(imp.spec.VendorName)).Scan(&imp.vendorID)
	if kbsql.NoRows(err) {
		imp.firstGen = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("find vendor: %w", err)
	}
	err = q.QueryRow(ctx, `SELECT id FROM packages WHERE vendor_id = $1 AND sort_name = $2`,
		imp.vendorID, kb.Fold(imp.spec.PackageName)).Scan(&imp.packageID)
	if kbsql.NoRows(err) {
		imp.firstGen = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("find package: %w", err)
	}
	var n int
	if err := q.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM resources WHERE package_id = $1 LIMIT 1) x`, imp.packageID).Scan(&n); err != nil {
		return fmt.Errorf("find package: %w", err)
	}
	imp.firstGen = n == 0
	return nil
}

// clearStage empties the staging tables: only one import runs at a time,
// so what they hold is this import's or a crashed one's.
func (s *Importer) clearStage(ctx context.Context) error {
	return s.e.Write(ctx, "", func(tx kbsql.Tx) error {
		for _, t := range []string{"import_rows", "import_titles", "import_idents", "import_delta"} {
			if _, err := tx.Exec(ctx, `DELETE FROM `+t); err != nil {
				return fmt.Errorf("clear %s: %w", t, err)
			}
		}
		return nil
	})
}

// recordImport adds res to the imports log and the running totals, in the
// import's transaction.
func recordImport(ctx context.Context, tx kbsql.Tx, res kb.ImportResult) error {
	now := tx.Dialect().Now() // the database's clock: one for every instance
	_, err := tx.Exec(ctx, `INSERT INTO imports(finished, vendor_id, package_id, rows, titles_created, titles_matched,
		resources_added, resources_updated, resources_removed, import_id) VALUES (`+now+`, $1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		res.VendorID, res.PackageID, res.Rows, res.TitlesCreated, res.TitlesMatched,
		res.ResourcesAdded, res.ResourcesUpdated, res.ResourcesRemoved, res.ImportID)
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
func (s *Importer) ImportTotals(ctx context.Context, st *kb.StoreStats) error {
	var last kbsql.Time
	err := s.e.Read().QueryRow(ctx, `SELECT imports, rows, finished FROM import_totals`).Scan(&st.Imports, &st.ImportRows, &last)
	if kbsql.NoRows(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store stats: imports: %w", err)
	}
	st.LastImport = last.T.UTC()
	return nil
}

// backfillProviderIDs gives the package's resources stored before their
// provider title_id was kept (migration 014) their title_id, read from
// their first KBART row, in short transactions: the import matches by it.
func (imp *importer) backfillProviderIDs(ctx context.Context) error {
	if imp.packageID == 0 {
		return nil
	}
	for {
		type fill struct {
			title int64
			pid   string
		}
		var fills []fill
		read := 0
		err := kbsql.EachRow(ctx, imp.s.e.Read(), `SELECT title_id, kbart FROM resources WHERE package_id = $1 AND provider_id = '' AND kbart <> ''
			AND title_id > $2 ORDER BY title_id LIMIT 2000`, []any{imp.packageID, imp.backfilled}, func(r kbsql.Rows) error {
			var f fill
			var k string
			if err := r.Scan(&f.title, &k); err != nil {
				return err
			}
			imp.backfilled, read = f.title, read+1
			if f.pid = strings.TrimSpace(kbartFields(k)[kbart.TitleID]); f.pid != "" {
				fills = append(fills, f)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("provider ids: %w", err)
		}
		if read == 0 {
			return nil
		}
		err = imp.s.e.Write(ctx, "", func(tx kbsql.Tx) error {
			for _, f := range fills {
				if _, err := tx.Exec(ctx, `UPDATE resources SET provider_id = $1 WHERE package_id = $2 AND title_id = $3`, f.pid, imp.packageID, f.title); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("provider ids: %w", err)
		}
	}
}
