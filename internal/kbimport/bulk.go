package kbimport

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The bulk path of an import: the first import of a package that does not
// exist yet, when kb.PackageSpec.Bulk asks for it or leaves it to an
// engine whose other writers go on beside a long transaction. A new package has nothing to
// compare with: every title its rows name joins it, and none leaves; no
// customer has state on it, nothing of it was retired. So the diff has
// nothing to do, and the staging tables only carry rows from one place to
// another. The bulk path matches the rows as the staged path does (the
// same lookup, rules and batches, and the import's own keys in memory,
// ownKeys), but writes each batch straight into the final tables, in one
// transaction from the first row to the last: readers see the package
// whole or not at all. The new package's resources keep each title's
// first row's provider title_id and URL, as the staged rows would give
// them. Beside the import's keys it keeps the rows of the titles it
// claims (titles whose source package no longer lists them, whose names
// and identifiers it may change at its end).

// bulkLoad is the state of a bulk load.
type bulkLoad struct {
	tx kbsql.Tx
	// claimed holds the rows of the titles without a source package that
	// the load lists, in file order: the package becomes their source.
	claimed map[int64][]stagedRow
	// first says the load is a first load (kb.PackageSpec.FirstLoad)
	// into a knowledge base with no title: no row can match a title the
	// load did not create, which its keys in memory hold (ownKeys), so the
	// tables it writes need no index until its end (loadTables).
	first bool
}

// loadTables are the tables a load writes row by row: a first load
// defers their upkeep to its end (kbsql.ImportEngine.DeferUpkeep).
var loadTables = []string{"titles", "title_identifiers", "resources"}

// emptyKB reports whether the knowledge base has no title at all, not
// even a customer's, as q sees it.
func emptyKB(ctx context.Context, q kbsql.Querier) (bool, error) {
	var some bool
	if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM titles)`).Scan(&some); err != nil {
		return false, fmt.Errorf("is the knowledge base empty: %w", err)
	}
	return !some, nil
}

// bulkTx returns the bulk load's transaction, or nil for a staged import.
func (imp *importer) bulkTx() kbsql.Tx {
	if imp.bulk == nil {
		return nil
	}
	return imp.bulk.tx
}

// takesBulk reports whether the import takes the bulk path.
func (imp *importer) takesBulk() bool {
	possible, oneWriter := imp.ie.Bulk()
	if imp.packageID != 0 || imp.spec.DryRun || !possible {
		return false
	}
	switch imp.spec.Bulk {
	case kb.BulkOn:
		return true
	case kb.BulkOff:
		return false
	}
	return !oneWriter || imp.firstLoad
}

// mayLoadFirst reports whether the import may be a first load: asked for
// (kb.PackageSpec.FirstLoad), of a new package, into an empty knowledge
// base as the store's committed state shows it.
func (imp *importer) mayLoadFirst(ctx context.Context) (bool, error) {
	if !imp.spec.FirstLoad || imp.packageID != 0 || imp.spec.DryRun {
		return false, nil
	}
	return emptyKB(ctx, imp.s.e.Read())
}

// runBulk imports the rows of a new package by the bulk path. A first
// load was decided on the committed state (mayLoadFirst): only imports
// add the managed titles a load could match, one at a time, and a
// customer's title added since is only locked for the load's length.
func (imp *importer) runBulk(ctx context.Context, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	err := imp.s.inBulkTx(ctx, imp.ie, imp.holder, imp.firstLoad, func(tx kbsql.Tx, lease func(context.Context) error) error {
		return imp.bulkPackage(ctx, tx, next, lease)
	})
	return imp.res, err
}

// inBulkTx runs fn in the one transaction of a bulk load (runBulk's of
// one package, Load's of many), readied for it (BulkBegin). With first,
// the loaded tables' upkeep is deferred (DeferUpkeep) and built again
// after fn. Where the load holds the one writer, it renews the import
// lock's lease itself (renewLease): fn calls lease as it goes, and the
// lease is renewed last just before the commit.
func (s *Importer) inBulkTx(ctx context.Context, ie kbsql.ImportEngine, holder string, first bool, fn func(tx kbsql.Tx, lease func(context.Context) error) error) error {
	_, renew := ie.Bulk()
	return s.e.Write(ctx, "", func(tx kbsql.Tx) (err error) {
		done, err := ie.BulkBegin(ctx, tx)
		if err != nil {
			return err
		}
		defer func() {
			if derr := done(context.WithoutCancel(ctx)); err == nil {
				err = derr
			}
		}()
		var rebuild []string
		if first {
			if rebuild, err = ie.DeferUpkeep(ctx, tx, loadTables); err != nil {
				return err
			}
		}
		if err := fn(tx, leaseRenewal(tx, holder, renew)); err != nil {
			return err
		}
		for _, def := range rebuild {
			if _, err := tx.Exec(ctx, def); err != nil {
				return fmt.Errorf("bulk load: build: %w", err)
			}
		}
		if renew {
			return renewLease(ctx, tx, holder)
		}
		return nil
	})
}

// bulkPackage writes a new package's rows in tx, the bulk load's
// transaction (or a load's, load.go), and finishes it there: its batches
// are matched and written, then its marks, change records and the
// import's log. lease renews the import lock's lease when it is due.
func (imp *importer) bulkPackage(ctx context.Context, tx kbsql.Tx, next func() (kb.ImportRow, error), lease func(context.Context) error) error {
	imp.bulk = &bulkLoad{tx: tx, claimed: map[int64][]stagedRow{}, first: imp.firstLoad}
	defer func() { imp.bulk = nil }()
	if err := imp.ensurePackage(ctx, tx); err != nil {
		return err
	}
	imp.res.VendorID, imp.res.PackageID, imp.res.ImportID, imp.res.Bulk = imp.vendorID, imp.packageID, imp.id, true
	err := ImportBatches(ctx, imp.s.batchSize(imp.ie), next, readyRows, func(rows readyBatch) error {
		if err := lease(ctx); err != nil {
			return err
		}
		return imp.stage(ctx, rows)
	})
	if err != nil {
		return err
	}
	if err := imp.finishBulk(ctx, tx); err != nil {
		return err
	}
	return imp.check() // an error rolls back
}

// leaseRenewal returns the function that renews holder's lease of the
// import lock in tx when it is due, where the load holds the one writer
// (renew); else one that does nothing.
func leaseRenewal(tx kbsql.Tx, holder string, renew bool) func(context.Context) error {
	renewed := time.Now()
	return func(ctx context.Context) error {
		if !renew || time.Since(renewed) < importRenew {
			return nil
		}
		renewed = time.Now()
		return renewLease(ctx, tx, holder)
	}
}

// titleColumns are the columns of a new title, as a batch stages it
// (import_titles without the import's id) and then its source package.
var titleColumns = []string{"id", "name", "sort_name", "publisher", "sort_publisher", "pub_type", "description", "peer_reviewed",
	"subjects", "contributors", "match_hash", "source_package_id"}

// resourceColumns are the columns of a new resource.
var resourceColumns = []string{"package_id", "title_id", "sort_name", "pub_type", "url", "coverage", "embargo_unit", "embargo_value",
	"kbart", "kbart_hash", "gen", "provider_id"}

// write writes a matched batch (as stage would stage it) into the final
// tables: its new titles, their identifiers, and a resource for each
// title its rows name, or the rows added to the resource an earlier batch
// wrote.
func (bl *bulkLoad) write(ctx context.Context, imp *importer, b *stagedBatch) error {
	tx, d, P := bl.tx, imp.s.d, imp.packageID
	type titleKeys struct {
		sortName string
		pubType  int
	}
	keys := map[int64]titleKeys{} // the batch's titles' sort keys
	titles := make([][]any, len(b.titles))
	for i, t := range b.titles {
		id := t[1].(int64)
		keys[id] = titleKeys{t[3].(string), t[6].(int)}
		titles[i] = append(slices.Clone(t[1:]), P)
	}
	if err := tx.CopyRows(ctx, "titles", titleColumns, titles); err != nil {
		return fmt.Errorf("create titles: %w", err)
	}
	// A new title's identifiers are new; those of a title an earlier batch
	// or the store had may be there already.
	var fresh, more [][]any
	for _, x := range b.idents {
		if _, ok := keys[x[1].(int64)]; ok {
			fresh = append(fresh, x[1:])
		} else {
			more = append(more, x[1:])
		}
	}
	if err := tx.CopyRows(ctx, "title_identifiers", identColumns, fresh); err != nil {
		return fmt.Errorf("add identifiers: %w", err)
	}
	if err := addIdents(ctx, tx, more); err != nil {
		return err
	}
	// The batch's rows, title by title in file order.
	var order []int64
	rows := map[int64][]stagedRow{}
	for _, r := range b.rows {
		s := stagedRow{title: r[2].(int64), seq: r[1].(int64), providerID: r[3].(string), url: r[4].(string), name: r[5].(string),
			publisher: r[6].(string), pubType: kb.ResourceType(r[7].(int)), kbart: r[8].(string)}
		if _, ok := rows[s.title]; !ok {
			order = append(order, s.title)
		}
		rows[s.title] = append(rows[s.title], s)
	}
	// The titles this batch did not create: their sort keys, whether the
	// package claims them, and the resources earlier batches wrote.
	var old []int64
	for _, t := range order {
		if _, ok := keys[t]; !ok {
			old = append(old, t)
		}
	}
	type written struct{ providerID, url, kbart string }
	had := map[int64]written{}
	if len(old) > 0 {
		err := kbsql.EachRow(ctx, tx, `SELECT id, sort_name, pub_type, source_package_id FROM titles WHERE `+d.InIDs("id", "$1"), []any{old}, func(r kbsql.Rows) error {
			var t int64
			var k titleKeys
			var source *int64
			if err := r.Scan(&t, &k.sortName, &k.pubType, &source); err != nil {
				return err
			}
			keys[t] = k
			if owns, _ := kb.TitleSource(source, P); owns && !imp.own.created[t] {
				bl.claimed[t] = append(bl.claimed[t], rows[t]...)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("bulk load: titles: %w", err)
		}
		err = kbsql.EachRow(ctx, tx, `SELECT title_id, provider_id, url, kbart FROM resources WHERE package_id = $1 AND `+d.InIDs("title_id", "$2"),
			[]any{P, old}, func(r kbsql.Rows) error {
				var t int64
				var w written
				if err := r.Scan(&t, &w.providerID, &w.url, &w.kbart); err != nil {
					return err
				}
				had[t] = w
				return nil
			})
		if err != nil {
			return fmt.Errorf("bulk load: resources: %w", err)
		}
	}
	var added [][]any
	var updates []kbsql.Stmt
	for _, t := range order {
		rs := rows[t]
		w, ok := had[t]
		if ok {
			// The rows an earlier batch wrote come first, as in the
			// staged rows' order.
			lines := strings.Split(w.kbart, "\n")
			prev := make([]stagedRow, len(lines), len(lines)+len(rs))
			for i, l := range lines {
				prev[i] = stagedRow{title: t, kbart: l}
			}
			prev[0].providerID, prev[0].url = w.providerID, w.url
			rs = append(prev, rs...)
		}
		res := aggregate(rs)
		if ok {
			updates = append(updates, kbsql.Stmt{SQL: `UPDATE resources SET coverage = $3, embargo_unit = $4, embargo_value = $5, kbart = $6, kbart_hash = $7
				WHERE package_id = $1 AND title_id = $2`, Args: []any{P, t, res.coverageJSON(), int(res.embargoUnit), res.embargoValue,
				strings.Join(res.lines, "\n"), int64(res.hash)}})
			continue
		}
		k := keys[t]
		added = append(added, []any{P, t, k.sortName, k.pubType, res.url, res.coverageJSON(), int(res.embargoUnit), res.embargoValue,
			strings.Join(res.lines, "\n"), int64(res.hash), 0, res.providerID})
	}
	if err := tx.CopyRows(ctx, "resources", resourceColumns, added); err != nil {
		return fmt.Errorf("add resources: %w", err)
	}
	if err := kbsql.ExecAll(ctx, tx, updates...); err != nil {
		return fmt.Errorf("bulk load: update resources: %w", err)
	}
	return nil
}

// identColumns are the columns of an identifier of a title.
var identColumns = []string{"title_id", "type", "subtype", "value", "norm", "valid"}

// addIdents adds identifiers (identColumns) that the titles may have
// already: those they have are left as they are. (One batch: one round
// trip on PostgreSQL.)
func addIdents(ctx context.Context, tx kbsql.Tx, idents [][]any) error {
	stmts := make([]kbsql.Stmt, len(idents))
	for i, x := range idents {
		stmts[i] = kbsql.Stmt{SQL: `INSERT INTO title_identifiers(title_id, type, subtype, value, norm, valid) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT DO NOTHING`, Args: x}
	}
	if err := kbsql.ExecAll(ctx, tx, stmts...); err != nil {
		return fmt.Errorf("add identifiers: %w", err)
	}
	return nil
}

// finishBulk ends a bulk load, in its transaction: the snapshot marks from
// the package's titles in order, the claimed titles' changes against what
// they were before the load, the change records and what every import
// writes at its end (finishApply).
func (imp *importer) finishBulk(ctx context.Context, tx kbsql.Tx) error {
	bl, P, I := imp.bulk, imp.packageID, imp.id
	now := time.Now().UTC()
	df := &differ{imp: imp}
	err := kbsql.EachRow(ctx, tx, `SELECT title_id, length(kbart) - length(replace(kbart, $2, '')) FROM resources WHERE package_id = $1 ORDER BY title_id`,
		[]any{P, "\n"}, func(r kbsql.Rows) error {
			var t int64
			var breaks int
			if err := r.Scan(&t, &breaks); err != nil {
				return err
			}
			df.mark(t, breaks+1)
			return nil
		})
	if err != nil {
		return fmt.Errorf("bulk load: marks: %w", err)
	}
	imp.res.ResourcesAdded = int(df.count)
	imp.kbartRows, imp.marksChange = df.offset, df.count > 0
	claimed := make([]int64, 0, len(bl.claimed))
	for t := range bl.claimed {
		claimed = append(claimed, t)
	}
	slices.Sort(claimed)
	if len(claimed) > 0 && imp.load != nil {
		// Every title of a load has its source package, the one that
		// created it, which lists it.
		return fmt.Errorf("bulk load: a load claims %d titles without a source package", len(claimed))
	}
	if len(claimed) > 0 {
		// The store's committed state: the titles before the load.
		titles, err := readTitles(ctx, imp.s.e.Read(), imp.s.d, P, claimed)
		if err != nil {
			return err
		}
		for _, t := range claimed {
			if lt := titles[t]; lt != nil {
				df.titleChanges(t, bl.claimed[t], lt)
			}
		}
	}
	if err := tx.CopyRows(ctx, "import_delta", deltaColumns, df.delta); err != nil {
		return fmt.Errorf("bulk load: stage changes: %w", err)
	}
	idents := make([][]any, len(df.idents))
	for i, x := range df.idents {
		idents[i] = x[1:]
	}
	if err := addIdents(ctx, tx, idents); err != nil {
		return err
	}
	// Only the claimed titles change (titleSteps; their statements read
	// the resources by title, an index a first load builds at its end).
	var steps []applyStep
	if len(claimed) > 0 {
		steps = append(titleSteps(I), applyStep{"claim titles", `UPDATE titles SET source_package_id = $1 WHERE source_package_id IS NULL
			AND customer_id IS NULL AND ` + imp.s.d.InIDs("id", "$2"), []any{P, claimed}})
	}
	steps = append(steps, recordSteps(P, I, imp.spec.FeedID, now)...)
	if err := runSteps(ctx, tx, steps); err != nil {
		return err
	}
	return imp.finishApply(ctx, tx, now)
}
