package kbimport

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The third phase of an import: one transaction applies what the first two
// staged, with set-based statements whose work is proportional to what
// changes. Every statement reads the staging tables of this import ($2 is
// the import's id where it appears, $1 the package's).

// apply applies the staged import in tx.
func (imp *importer) apply(ctx context.Context, tx kbsql.Tx) error {
	if err := imp.ensurePackage(ctx, tx); err != nil {
		return err
	}
	imp.res.VendorID, imp.res.PackageID, imp.res.ImportID = imp.vendorID, imp.packageID, imp.id
	P, I := imp.packageID, imp.id
	now := time.Now().UTC()
	// The titles the import staged, owned by the package.
	if _, err := tx.Exec(ctx, `INSERT INTO titles(id, name, sort_name, publisher, sort_publisher, pub_type, description, peer_reviewed,
		subjects, contributors, match_hash, source_package_id)
		SELECT id, name, sort_name, publisher, sort_publisher, pub_type, description, peer_reviewed, subjects, contributors, match_hash, $2
		FROM import_titles WHERE import_id = $1`, I, P); err != nil {
		return fmt.Errorf("create titles: %w", err)
	}
	d := func(kind int) string { return strconv.Itoa(kind) }
	inDelta := func(kind int) string {
		return `(SELECT title_id FROM import_delta WHERE import_id = $2 AND kind = ` + d(kind) + `)`
	}
	steps := []applyStep{
		{"add identifiers", `INSERT INTO title_identifiers(title_id, type, subtype, value, norm, valid)
			SELECT title_id, type, subtype, value, norm, valid FROM import_idents WHERE import_id = $1 ON CONFLICT DO NOTHING`, []any{I}},
	}
	steps = append(steps, titleSteps(I)...)
	steps = append(steps, []applyStep{
		{"claim titles", `UPDATE titles SET source_package_id = $1 WHERE source_package_id IS NULL AND customer_id IS NULL
			AND id IN (SELECT title_id FROM import_rows WHERE import_id = $2 AND keep = FALSE)`, []any{P, I}},
		// Titles leaving the package: their keys and the customers' state
		// on them are kept aside, then they go.
		{"retire resources", `INSERT INTO retired_resources(package_id, title_id, provider_id, norm, match_hash, url, retired, import_id)
			SELECT $1, r.title_id, r.provider_id,
				COALESCE((SELECT min(ti.norm) FROM title_identifiers ti WHERE ti.title_id = r.title_id AND ti.valid = TRUE), ''),
				t.match_hash, r.url, $3, $2
			FROM resources r JOIN titles t ON t.id = r.title_id
			WHERE r.package_id = $1 AND r.title_id IN ` + inDelta(deltaRemove) + `
			ON CONFLICT (package_id, title_id) DO UPDATE SET provider_id = excluded.provider_id, norm = excluded.norm,
				match_hash = excluded.match_hash, url = excluded.url, retired = excluded.retired, import_id = excluded.import_id`, []any{P, I, now}},
		{"retire customers' state", `INSERT INTO retired_customer_resources(` + customerResourceColumns + `)
			SELECT ` + customerResourceColumns + ` FROM customer_resources
			WHERE package_id = $1 AND title_id IN ` + inDelta(deltaRemove) + `
			ON CONFLICT (package_id, title_id, customer_id) DO UPDATE SET ` + excludedColumns(customerResourceColumns), []any{P, I}},
		{"remove customers' state", `DELETE FROM customer_resources WHERE package_id = $1 AND title_id IN ` + inDelta(deltaRemove), []any{P, I}},
		{"remove resources", `DELETE FROM resources WHERE package_id = $1 AND title_id IN ` + inDelta(deltaRemove), []any{P, I}},
		// Titles joining the package, with the customers' state they
		// had when they left it.
		{"add resources", `INSERT INTO resources(package_id, title_id, sort_name, pub_type, url, coverage, embargo_unit, embargo_value,
			kbart, kbart_hash, gen, provider_id)
			SELECT $1, d.title_id, t.sort_name, t.pub_type, d.url, d.coverage, d.embargo_unit, d.embargo_value, d.kbart, d.kbart_hash, 0, d.provider_id
			FROM import_delta d JOIN titles t ON t.id = d.title_id WHERE d.import_id = $2 AND d.kind = ` + d(deltaAdd), []any{P, I}},
		{"restore customers' state", `INSERT INTO customer_resources(` + customerResourceColumns + `)
			SELECT ` + customerResourceColumns + ` FROM retired_customer_resources
			WHERE package_id = $1 AND title_id IN ` + inDelta(deltaAdd) + ` ON CONFLICT DO NOTHING`, []any{P, I}},
		{"forget restored state", `DELETE FROM retired_customer_resources WHERE package_id = $1 AND title_id IN ` + inDelta(deltaAdd), []any{P, I}},
		{"forget returned titles", `DELETE FROM retired_resources WHERE package_id = $1 AND title_id IN ` + inDelta(deltaAdd), []any{P, I}},
		{"update resources", `UPDATE resources SET (url, coverage, embargo_unit, embargo_value, kbart, kbart_hash, provider_id) =
			(SELECT d.url, d.coverage, d.embargo_unit, d.embargo_value, d.kbart, d.kbart_hash, d.provider_id FROM import_delta d
				WHERE d.import_id = $2 AND d.kind = ` + d(deltaUpdate) + ` AND d.title_id = resources.title_id)
			WHERE package_id = $1 AND title_id IN ` + inDelta(deltaUpdate), []any{P, I}},
	}...)
	steps = append(steps, recordSteps(P, I, imp.spec.FeedID, now)...)
	if err := runSteps(ctx, tx, steps); err != nil {
		return err
	}
	return imp.finishApply(ctx, tx, now)
}

// finishApply ends an import's transaction: the orphaned titles go, the
// snapshot marks and the imports log are written, and the counters move.
func (imp *importer) finishApply(ctx context.Context, tx kbsql.Tx, now time.Time) error {
	P, I := imp.packageID, imp.id
	if err := imp.removeOrphans(ctx, tx); err != nil {
		return err
	}
	if err := imp.applyMarks(ctx, tx); err != nil {
		return err
	}
	if imp.firstGen && imp.res.ResourcesAdded > 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO changes(customer_id, at, key_id, object, action, before, after, import_id, package_id, feed_id)
			VALUES ('', $1, 0, $2, $3, '', $4, $5, $6, $7)`, now, fmt.Sprintf("package %d", P), kb.ImportFirst,
			kbsql.JSONObject("titles", imp.res.ResourcesAdded, "rows", imp.res.Rows-imp.res.RowsRejected), I, P, feedColumn(imp.spec.FeedID)); err != nil {
			return fmt.Errorf("record changes: %w", err)
		}
	}
	if _, err := purgeRetired(ctx, tx, now.Add(-kb.RetiredKept)); err != nil {
		return err
	}
	if err := recordImport(ctx, tx, imp.res); err != nil {
		return err
	}
	// The counters move at the end: a bulk load's transaction, which
	// created the package at its start, holds their rows from here to its
	// commit only, not for the whole load (a load of many packages,
	// load.go, holds them from its first package's end, on an empty
	// knowledge base). The names counter comes before
	// the titles counter, as in a custom package's deletion: two writes
	// that take both rows take them in one order.
	if imp.newNames {
		if err := kbsql.BumpVersion(ctx, tx, kbsql.NamesVersion); err != nil {
			return err
		}
	}
	if err := imp.bumpTitles(ctx, tx); err != nil {
		return err
	}
	return kbsql.BumpVersion(ctx, tx, kbsql.KBVersion)
}

// feedColumn is the changes' feed_id of an import by feed id: NULL for
// none (an import from the command line).
func feedColumn(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// applyStep is one statement of an import's transaction.
type applyStep struct {
	what string
	sql  string
	args []any
}

// runSteps runs the steps in order.
func runSteps(ctx context.Context, tx kbsql.Tx, steps []applyStep) error {
	for _, s := range steps {
		if _, err := tx.Exec(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("%s: %w", s.what, err)
		}
	}
	return nil
}

// titleSteps change the titles the package owns as the diff staged them
// in import_delta (import I): identifiers lost, names, publishers and
// types, and the sort keys of every package's resources of the renamed.
func titleSteps(I int64) []applyStep {
	d := func(kind int) string { return strconv.Itoa(kind) }
	return []applyStep{
		{"remove identifiers", `DELETE FROM title_identifiers WHERE title_id IN (SELECT title_id FROM import_delta WHERE import_id = $1 AND kind = ` + d(deltaUnident) + `)
			AND EXISTS (SELECT 1 FROM import_delta d WHERE d.import_id = $1 AND d.kind = ` + d(deltaUnident) + ` AND d.title_id = title_identifiers.title_id
			AND d.ident_type = title_identifiers.type AND d.ident_subtype = title_identifiers.subtype AND d.ident_value = title_identifiers.value)`, []any{I}},
		{"update titles", `UPDATE titles SET (name, sort_name, publisher, sort_publisher, pub_type, match_hash) =
			(SELECT d.name, d.sort_name, d.publisher, d.sort_publisher, d.pub_type, d.match_hash FROM import_delta d
				WHERE d.import_id = $1 AND d.kind = ` + d(deltaTitle) + ` AND d.title_id = titles.id)
			WHERE id IN (SELECT title_id FROM import_delta WHERE import_id = $1 AND kind = ` + d(deltaTitle) + `)`, []any{I}},
		{"update titles' resources", `UPDATE resources SET (sort_name, pub_type) = (SELECT t.sort_name, t.pub_type FROM titles t WHERE t.id = resources.title_id)
			WHERE title_id IN (SELECT title_id FROM import_delta WHERE import_id = $1 AND kind = ` + d(deltaTitle) + `)`, []any{I}},
	}
}

// recordSteps write the change records import I staged and the package's
// title count.
func recordSteps(P, I, feedID int64, now time.Time) []applyStep {
	return []applyStep{
		{"record changes", `INSERT INTO changes(customer_id, at, key_id, object, action, before, after, import_id, package_id, feed_id)
			SELECT '', $3, 0, object, action, before, after, $2, $1, $4 FROM import_delta WHERE import_id = $2 AND action <> '' ORDER BY kind, title_id`,
			[]any{P, I, now, feedColumn(feedID)}},
		{"count titles", `UPDATE packages SET title_count = (SELECT count(*) FROM resources WHERE package_id = $1) WHERE id = $1`, []any{P}},
	}
}

// bumpTitles moves the titles counter on when the import changed what a
// title index holds: the titles that joined or left the package (new ones
// among them, and those deleted with it), were renamed, or gained or lost
// an identifier. They are recorded when there are at most
// kbsql.TitleChangesListed of them, so that an index catches up with a delta.
func (imp *importer) bumpTitles(ctx context.Context, tx kbsql.Tx) error {
	kinds := strconv.Itoa(deltaAdd) + ", " + strconv.Itoa(deltaRemove) + ", " + strconv.Itoa(deltaTitle) + ", " + strconv.Itoa(deltaUnident)
	q, args := `SELECT title_id FROM import_delta WHERE import_id = $1 AND kind IN (`+kinds+`)
		UNION SELECT title_id FROM import_idents WHERE import_id = $1`, []any{imp.id}
	if imp.bulk != nil {
		// Every title of a bulk load's new package joined it, and holds
		// all that the load changed.
		q, args = `SELECT title_id FROM resources WHERE package_id = $1`, []any{imp.packageID}
	}
	ids, err := kbsql.QueryAll(ctx, tx, q+` LIMIT `+strconv.Itoa(kbsql.TitleChangesListed+1), args, kbsql.ScanInt64)
	switch {
	case err != nil:
		return fmt.Errorf("titles changed: %w", err)
	case len(ids) == 0:
		return nil
	}
	return kbsql.BumpTitles(ctx, tx, ids...) // more than kbsql.TitleChangesListed: everything
}

// customerResourceColumns are the columns of customer_resources, which
// retired_customer_resources copies.
const customerResourceColumns = `customer_id, package_id, title_id, selected, hidden, custom_coverage, coverage_statement,
	embargo_unit, embargo_value, proxy_id, udf`

// excludedColumns is the SET list of an upsert that takes every column of
// the new row.
func excludedColumns(cols string) string {
	var b strings.Builder
	for i, c := range strings.Split(cols, ",") {
		c = strings.TrimSpace(c)
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c + " = excluded." + c)
	}
	return b.String()
}

// ensurePackage creates the vendor and the package when the import is
// their first, and sets the package's content type, type, generation and
// non-standard columns.
func (imp *importer) ensurePackage(ctx context.Context, tx kbsql.Tx) error {
	spec := imp.spec
	if imp.vendorID == 0 {
		if err := tx.QueryRow(ctx, `INSERT INTO vendors(name, sort_name) VALUES ($1, $2) RETURNING id`,
			spec.VendorName, kb.Fold(spec.VendorName)).Scan(&imp.vendorID); err != nil {
			return fmt.Errorf("create vendor: %w", err)
		}
	}
	ct := kb.StoredContentType(spec.ContentType)
	if imp.packageID == 0 {
		if err := tx.QueryRow(ctx, `INSERT INTO packages(vendor_id, name, sort_name, content_type, package_type) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			imp.vendorID, spec.PackageName, kb.Fold(spec.PackageName), int(ct), int(spec.PackageType)).Scan(&imp.packageID); err != nil {
			return fmt.Errorf("create package: %w", err)
		}
		imp.newNames = true // a new vendor comes with its package
	}
	if _, err := tx.Exec(ctx, `UPDATE packages SET content_type = $1, package_type = $2, import_gen = import_gen + 1, kbart_extra = $3 WHERE id = $4`,
		int(ct), int(spec.PackageType), strings.Join(spec.ExtraColumns, "\t"), imp.packageID); err != nil {
		return fmt.Errorf("update package: %w", err)
	}
	return nil
}

// removeOrphans deletes the managed titles that left their last package
// (a retired resource keeps the id: a title that comes back gets it).
func (imp *importer) removeOrphans(ctx context.Context, tx kbsql.Tx) error {
	if imp.res.ResourcesRemoved == 0 {
		return nil
	}
	ids, err := kbsql.QueryAll(ctx, tx, `SELECT title_id FROM import_delta WHERE import_id = $1 AND kind = `+strconv.Itoa(deltaRemove), []any{imp.id}, kbsql.ScanInt64)
	if err != nil {
		return fmt.Errorf("removed titles: %w", err)
	}
	return kbsql.RemoveOrphanTitles(ctx, tx, "", ids)
}

// applyMarks replaces the package's snapshot marks with the diff's, when
// its resources changed.
func (imp *importer) applyMarks(ctx context.Context, tx kbsql.Tx) error {
	if !imp.marksChange {
		return nil
	}
	for _, s := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM package_marks WHERE package_id = $1`, []any{imp.packageID}},
		{`INSERT INTO package_marks(package_id, title_id, row_offset) SELECT $1, title_id, kbart_hash FROM import_delta
			WHERE import_id = $2 AND kind = ` + strconv.Itoa(deltaMark), []any{imp.packageID, imp.id}},
		{`UPDATE packages SET kbart_rows = $2, marks_ok = TRUE WHERE id = $1`, []any{imp.packageID, imp.kbartRows}},
	} {
		if _, err := tx.Exec(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("marks of package %d: %w", imp.packageID, err)
		}
	}
	return nil
}

// purgeRetired forgets the retired state older than before and returns how
// many titles' state it forgot.
func purgeRetired(ctx context.Context, tx kbsql.Tx, before time.Time) (int, error) {
	var n int64
	for i, q := range []string{
		`DELETE FROM retired_customer_resources WHERE EXISTS (SELECT 1 FROM retired_resources rr
			WHERE rr.package_id = retired_customer_resources.package_id AND rr.title_id = retired_customer_resources.title_id AND rr.retired < $1)`,
		`DELETE FROM retired_resources WHERE retired < $1`,
	} {
		k, err := tx.Exec(ctx, q, before)
		if err != nil {
			return 0, fmt.Errorf("purge retired state: %w", err)
		}
		if i == 1 {
			n = k
		}
	}
	return int(n), nil
}

// PurgeRetired implements kb.Importer.
func (s *Importer) PurgeRetired(ctx context.Context, before time.Time) (int, error) {
	var n int
	err := s.e.Write(ctx, "", func(tx kbsql.Tx) error {
		var err error
		n, err = purgeRetired(ctx, tx, before)
		return err
	})
	return n, err
}
