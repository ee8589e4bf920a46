package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// importBatch is how many rows an import reads, matches and writes at a
// time: the importer's memory is bounded by it, not by the package's size,
// and each batch costs a fixed number of round trips.
const importBatch = 4096

// ImportPackage implements kb.Importer in one transaction, under the import
// lock: imports run one at a time, as on SQLite (two imports could
// otherwise both create the same new title).
//
// Rows are handled a batch at a time, in a fixed number of round trips
// whatever the batch: queries match the batch's identifiers and match
// hashes to titles and find the package's resources of its titles, one
// reserves the new titles' ids, and new titles, identifiers and resources
// are written in bulk (COPY; rewritten resources are deleted first). A resource the import lists is stamped with the
// import's generation; at the end, the package's resources with an older
// generation are the ones the file no longer lists.
func (s *Store) ImportPackage(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	var res kb.ImportResult
	if strings.TrimSpace(spec.VendorName) == "" || strings.TrimSpace(spec.PackageName) == "" {
		return res, kb.Errorf(kb.CodeMissing, "import: vendor and package names are required")
	}
	if spec.PackageType == kb.PackageCustom {
		return res, kb.Errorf(kb.CodeInvalid, "import: package type Custom is reserved for customers' own packages")
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(`+importLockSQL+`)`); err != nil {
			return fmt.Errorf("lock imports: %w", err)
		}
		imp := &importer{ctx: ctx, tx: tx, res: &res}
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
	s.analyzeAfterImport(ctx, res)
	return res, nil
}

// importer holds the state of one ImportPackage call.
type importer struct {
	ctx       context.Context
	tx        pgx.Tx
	res       *kb.ImportResult
	packageID int64
	gen       int64        // this import's generation of the package
	w         importWriter // what the current batch writes
}

func (imp *importer) run(spec kb.PackageSpec, next func() (kb.ImportRow, error)) error {
	if err := imp.ensurePackage(spec); err != nil {
		return err
	}
	if err := imp.begin(); err != nil {
		return err
	}
	if err := kbsql.ImportBatches(imp.ctx, importBatch, next, imp.batch); err != nil {
		return err
	}
	if err := imp.removeUnlisted(); err != nil {
		return err
	}
	return imp.finish()
}

// ensurePackage finds or creates the vendor and the package by folded
// name, and starts a new import generation of the package.
func (imp *importer) ensurePackage(spec kb.PackageSpec) error {
	ctx, tx := imp.ctx, imp.tx
	vname, pname := strings.TrimSpace(spec.VendorName), strings.TrimSpace(spec.PackageName)
	err := tx.QueryRow(ctx, `SELECT id FROM vendors WHERE customer_id IS NULL AND sort_name = $1`, kbsql.Fold(vname)).Scan(&imp.res.VendorID)
	if noRows(err) {
		err = tx.QueryRow(ctx, `INSERT INTO vendors(name, sort_name) VALUES ($1, $2) RETURNING id`, vname, kbsql.Fold(vname)).Scan(&imp.res.VendorID)
		if err != nil {
			return fmt.Errorf("create vendor: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("find vendor: %w", err)
	}
	ct := kb.StoredContentType(spec.ContentType)
	err = tx.QueryRow(ctx, `SELECT id, import_gen FROM packages WHERE vendor_id = $1 AND sort_name = $2`,
		imp.res.VendorID, kbsql.Fold(pname)).Scan(&imp.packageID, &imp.gen)
	if noRows(err) {
		err = tx.QueryRow(ctx, `INSERT INTO packages(vendor_id, name, sort_name, content_type, package_type) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			imp.res.VendorID, pname, kbsql.Fold(pname), int(ct), int(spec.PackageType)).Scan(&imp.packageID)
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
