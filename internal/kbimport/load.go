package kbimport

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// A load fills an empty knowledge base with many packages in one
// transaction (kb.Loader): each package is a first load's bulk path
// (bulk.go) in the load's transaction, and the tables' deferred upkeep is
// built once, after the last. Had each package been committed on its own,
// a later package's rows would match the earlier packages' titles by
// reading the store; the load keeps those keys in memory instead (the
// packages' own keys, merged as each ends), in the order the store would
// give them, so that the load's result equals the packages imported one
// by one (storetest.Load), and no index is needed until its end.

// load is the state of a load.
type load struct {
	tx     kbsql.Tx
	holder string
	// keys holds the titles the packages loaded so far created, by match
	// hash, and the titles of their valid identifiers (ownKeys.merge).
	keys  *ownKeys
	lease func(context.Context) error
	mu    sync.Mutex // one package at a time
	// err is the first package's failure: the load then fails, whatever
	// fn does with the error, and imports nothing more.
	err error
}

// LoadPackages implements kb.Loader; into a knowledge base that is not
// empty, each package is imported by ImportPackage.
func (s *Importer) LoadPackages(ctx context.Context, fn func(kb.ImportFunc) error) (bool, error) {
	return s.Load(ctx, fn, s.ImportPackage)
}

// Load is LoadPackages, with each importing the packages of a knowledge
// base that is not empty (an engine's store gives its own ImportPackage).
func (s *Importer) Load(ctx context.Context, fn func(kb.ImportFunc) error, each kb.ImportFunc) (bool, error) {
	ie := s.e.Import()
	if possible, _ := ie.Bulk(); !possible {
		return false, fn(each)
	}
	holder, unlock, err := s.lockImports(ctx)
	if err != nil {
		return false, fmt.Errorf("load: %w", err)
	}
	if ok, err := s.mayLoad(ctx); err != nil || !ok {
		unlock() // each takes the lock itself
		if err != nil {
			return false, err
		}
		return false, fn(each)
	}
	defer unlock()
	// The staging tables are emptied before the load (a crashed import's
	// rows) and after it; within it, each package empties what it staged.
	if err := s.clearStage(ctx); err != nil {
		return false, fmt.Errorf("load: %w", err)
	}
	defer s.clearStage(context.WithoutCancel(ctx))
	err = s.inBulkTx(ctx, ie, holder, true, func(tx kbsql.Tx, lease func(context.Context) error) error {
		ld := &load{tx: tx, holder: holder, keys: newOwnKeys(), lease: lease}
		err := fn(func(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
			ld.mu.Lock()
			defer ld.mu.Unlock()
			if ld.err != nil {
				return kb.ImportResult{}, fmt.Errorf("import %s / %s: an earlier package of the load failed: %w", spec.VendorName, spec.PackageName, ld.err)
			}
			res, err := s.loadPackage(ctx, ld, ie, spec, next)
			ld.err = err
			return res, err
		})
		if err == nil {
			err = ld.err // what one of its packages wrote is rolled back
		}
		return err
	})
	if err != nil {
		return true, fmt.Errorf("load: %w", err)
	}
	return true, nil
}

// mayLoad reports whether the knowledge base, as committed, has no title
// and no package of the knowledge base (a customer's may be there), so
// that every package of a load is new.
func (s *Importer) mayLoad(ctx context.Context) (bool, error) {
	var some bool
	err := s.e.Read().QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM titles) OR EXISTS (SELECT 1 FROM packages WHERE customer_id IS NULL)`).Scan(&some)
	if err != nil {
		return false, fmt.Errorf("load: is the knowledge base empty: %w", err)
	}
	return !some, nil
}

// loadPackage imports one package of a load, in its transaction.
func (s *Importer) loadPackage(ctx context.Context, ld *load, ie kbsql.ImportEngine, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	spec.VendorName, spec.PackageName = strings.TrimSpace(spec.VendorName), strings.TrimSpace(spec.PackageName)
	wrap := func(err error) error { return fmt.Errorf("import %s / %s: %w", spec.VendorName, spec.PackageName, err) }
	fail := func(err error) (kb.ImportResult, error) { return kb.ImportResult{}, wrap(err) }
	if err := checkImportSpec(spec); err != nil {
		return kb.ImportResult{}, err
	}
	if spec.DryRun {
		return fail(kb.Errorf(kb.CodeInvalid, "a load does not dry-run its packages"))
	}
	imp := &importer{s: s, ie: ie, spec: spec, id: newImportID(), holder: ld.holder, own: newOwnKeys(), load: ld, firstLoad: true}
	if err := imp.findPackageIn(ctx, ld.tx); err != nil {
		return fail(err)
	}
	if imp.packageID != 0 {
		return fail(kb.Errorf(kb.CodeInvalid, "the load has this package already: a package comes once in a load"))
	}
	if err := imp.bulkPackage(ctx, ld.tx, next, ld.lease); err != nil {
		return imp.res, wrap(err)
	}
	if _, err := ld.tx.Exec(ctx, `DELETE FROM import_delta WHERE import_id = $1`, imp.id); err != nil {
		return imp.res, wrap(fmt.Errorf("clear import_delta: %w", err))
	}
	ld.keys.merge(imp.own)
	return imp.res, nil
}
