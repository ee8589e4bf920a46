package kbsnapshot

import (
	"context"
	"fmt"
	"github.com/kbserver/kbserver/internal/kbsql"
	"strconv"
)

// A snapshot is not a copy of its rows. The build writes one segment per
// package that has holdings (its first row and row count) and a mark every
// MarkEvery resources (the row at which that resource starts); a page seeks
// the mark at or before its offset and reads the rows from the knowledge
// base and the frozen state from there. A managed package selected as a
// whole, with no title-level exclusion or custom coverage, takes its marks
// from package_marks, which its import computes once for every customer:
// such a segment costs its number of marks, not of its rows.

// MarkEvery is the number of resources between two marks.
const MarkEvery = 256

// sourceRowsExpr counts the KBART rows of resource r as imported: one per
// source row (newline separated), one for a resource without source rows.
const sourceRowsExpr = `CASE WHEN r.kbart = '' THEN 1 ELSE length(r.kbart) - length(replace(r.kbart, '` + "\n" + `', '')) + 1 END`

// kbartRowsExpr counts the KBART rows of resource r as served: one per
// range of a custom coverage (sr, the frozen customisation), else its
// source rows. Serving counts the same way (SnapshotResource.Rows).
func kbartRowsExpr(d kbsql.Dialect) string {
	return `CASE WHEN COALESCE(sr.custom_coverage, '') <> '' THEN ` + d.JSONArrayLength("sr.custom_coverage") + ` ELSE ` + sourceRowsExpr + ` END`
}

// Segment kinds (snapshot_segments.kind).
const (
	segmentPackage = 0 // a managed package selected as a whole
	segmentTitles  = 1 // titles selected one by one in a managed package
	segmentCustom  = 2 // a custom package, from its frozen copy
)

// segmentSets is, for the kinds whose marks are computed at build time,
// the resources of package $2 that are holdings of customer $1 (FROM …
// WHERE, r the resource and sr its frozen customisation) and the SQL count
// of a resource's rows.
func segmentSets(d kbsql.Dialect, kind int) (from, rows string) {
	if kind == segmentCustom {
		return `FROM snapshot_custom_resources r
			LEFT JOIN snapshot_resources sr ON sr.customer_id = $1 AND sr.package_id = r.package_id AND sr.title_id = r.title_id
			WHERE r.customer_id = $1 AND r.package_id = $2 AND COALESCE(sr.selected, TRUE) = TRUE AND COALESCE(sr.hidden, FALSE) = FALSE`,
			`CASE WHEN COALESCE(sr.custom_coverage, '') <> '' THEN ` + d.JSONArrayLength("sr.custom_coverage") + ` ELSE 1 END`
	}
	return `FROM snapshot_resources sr ` + d.FixedJoin() + ` resources r ON r.package_id = sr.package_id AND r.title_id = sr.title_id
		WHERE sr.customer_id = $1 AND sr.package_id = $2 AND sr.selected = TRUE AND sr.hidden = FALSE`, kbartRowsExpr(d)
}

// marksSQL selects, from a set of resources with their row counts n (the
// subquery set, with columns title_id and n), every MarkEvery-th resource
// from the first with the row offset (from 0) at which its rows start.
func marksSQL(set string) string {
	return `SELECT title_id, off FROM (
		SELECT title_id, SUM(n) OVER w - n AS off, ROW_NUMBER() OVER w AS rn FROM (` + set + `) res
		WINDOW w AS (ORDER BY title_id ROWS UNBOUNDED PRECEDING)
	) c WHERE (rn - 1) % ` + strconv.Itoa(MarkEvery) + ` = 0`
}

// RefreshPackageMarks computes a managed package's marks and KBART row
// count, for the snapshots of every customer that selects it whole, in the
// caller's transaction (an import's, or a build's that finds them stale).
func RefreshPackageMarks(ctx context.Context, tx kbsql.Tx, packageID int64) error {
	rows := `SELECT r.title_id AS title_id, ` + sourceRowsExpr + ` AS n FROM resources r WHERE r.package_id = $1`
	for _, q := range []string{
		`DELETE FROM package_marks WHERE package_id = $1`,
		`INSERT INTO package_marks(package_id, title_id, row_offset) SELECT $1, title_id, off FROM (` + marksSQL(rows) + `) m`,
		`UPDATE packages SET kbart_rows = (SELECT COALESCE(SUM(n), 0) FROM (` + rows + `) x), marks_ok = TRUE WHERE id = $1`,
	} {
		if _, err := tx.Exec(ctx, q, packageID); err != nil {
			return fmt.Errorf("marks of package %d: %w", packageID, err)
		}
	}
	return nil
}

// segment is a package's part of a snapshot being built.
type segment struct {
	packageID  int64
	kind       int
	exclusions bool  // (kind 0) title-level exclusions or custom coverage
	marksOK    bool  // (kind 0) package_marks are current
	rows       int64 // (kind 0) the package's KBART rows
}

// segmentsSQL lists the packages with holdings of customer $1 from its
// frozen state, in package id order.
const segmentsSQL = `
SELECT sp.package_id, CASE WHEN p.customer_id IS NULL THEN 0 ELSE 2 END,
	EXISTS (SELECT 1 FROM snapshot_resources sr WHERE sr.customer_id = $1 AND sr.package_id = sp.package_id
		AND (sr.selected = FALSE OR sr.hidden = TRUE OR sr.custom_coverage <> '')),
	p.marks_ok, p.kbart_rows
FROM snapshot_packages sp JOIN packages p ON p.id = sp.package_id
WHERE sp.customer_id = $1 AND sp.selected = TRUE AND sp.hidden = FALSE
UNION ALL
SELECT DISTINCT sr.package_id, 1, TRUE, TRUE, 0
FROM snapshot_resources sr
LEFT JOIN snapshot_packages sp ON sp.customer_id = $1 AND sp.package_id = sr.package_id
WHERE sr.customer_id = $1 AND sr.selected = TRUE AND sr.hidden = FALSE
	AND COALESCE(sp.selected, FALSE) = FALSE AND COALESCE(sp.hidden, FALSE) = FALSE
ORDER BY 1`

// WriteSegments writes the segments and marks of the customer's snapshot
// (whose old ones are gone) and returns its row count.
func WriteSegments(ctx context.Context, tx kbsql.Tx, custID, root string) (int64, error) {
	segs, err := kbsql.QueryAll(ctx, tx, segmentsSQL, []any{custID}, func(r kbsql.Rows) (s segment, err error) {
		return s, r.Scan(&s.packageID, &s.kind, &s.exclusions, &s.marksOK, &s.rows)
	})
	if err != nil {
		return 0, fmt.Errorf("list snapshot packages: %w", err)
	}
	seq := int64(1)
	for _, s := range segs {
		n, err := writeSegment(ctx, tx, custID, root, s, seq)
		if err != nil {
			return 0, err
		}
		seq += n
	}
	return seq - 1, nil
}

// writeSegment writes one package's segment, starting at row seq, and its
// marks; it returns the segment's row count.
func writeSegment(ctx context.Context, tx kbsql.Tx, custID, root string, s segment, seq int64) (int64, error) {
	var n int64
	switch {
	case s.kind == segmentPackage:
		if !s.marksOK {
			if err := RefreshPackageMarks(ctx, tx, s.packageID); err != nil {
				return 0, err
			}
			if err := tx.QueryRow(ctx, `SELECT kbart_rows FROM packages WHERE id = $1`, s.packageID).Scan(&s.rows); err != nil {
				return 0, fmt.Errorf("rows of package %d: %w", s.packageID, err)
			}
		}
		if !s.exclusions {
			n = s.rows
			if n > 0 {
				if _, err := tx.Exec(ctx, `INSERT INTO snapshot_marks(customer_id, seq, package_id, title_id)
					SELECT $1, $2 + row_offset, $3, title_id FROM package_marks WHERE package_id = $3`, custID, seq, s.packageID); err != nil {
					return 0, fmt.Errorf("marks of package %d: %w", s.packageID, err)
				}
			}
			break
		}
		var err error
		if n, err = shiftedMarks(ctx, tx, custID, s, seq); err != nil {
			return 0, err
		}
	default:
		from, rows := segmentSets(tx.Dialect(), s.kind)
		set := `SELECT r.title_id AS title_id, ` + rows + ` AS n ` + from
		if err := tx.QueryRow(ctx, `SELECT COALESCE(SUM(n), 0) FROM (`+set+`) x`, custID, s.packageID).Scan(&n); err != nil {
			return 0, fmt.Errorf("rows of package %d: %w", s.packageID, err)
		}
		if n > 0 {
			if _, err := tx.Exec(ctx, `INSERT INTO snapshot_marks(customer_id, seq, package_id, title_id)
				SELECT $1, $3 + off, $2, title_id FROM (`+marksSQL(set)+`) m`, custID, s.packageID, seq); err != nil {
				return 0, fmt.Errorf("marks of package %d: %w", s.packageID, err)
			}
		}
	}
	if n == 0 {
		return 0, nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO snapshot_segments(customer_id, package_id, kind, seq, nrows, package_name, vendor_id, vendor_name,
			url_mask, customised)
		SELECT $1, p.id, $3, $4, $5, p.name, p.vendor_id, v.name,
			COALESCE((SELECT px.url_mask FROM snapshot_proxies px WHERE px.customer_id = $1
				AND px.id = COALESCE(sp.proxy_id, sv.proxy_id, $6)), ''),
			EXISTS (SELECT 1 FROM snapshot_resources sr WHERE sr.customer_id = $1 AND sr.package_id = p.id)
		FROM packages p JOIN vendors v ON v.id = p.vendor_id
		LEFT JOIN snapshot_packages sp ON sp.customer_id = $1 AND sp.package_id = p.id
		LEFT JOIN snapshot_vendors sv ON sv.customer_id = $1 AND sv.vendor_id = p.vendor_id
		WHERE p.id = $2`, custID, s.packageID, s.kind, seq, n, root)
	if err != nil {
		return 0, fmt.Errorf("segment of package %d: %w", s.packageID, err)
	}
	return n, nil
}

// exceptionDeltasSQL lists the resources of package $2 whose row count
// customer $1 changed (excluded: all their rows; custom coverage: one row
// per range instead of their KBART rows), in title order, with the change.
func exceptionDeltasSQL(d kbsql.Dialect) string {
	return `SELECT r.title_id,
		(CASE WHEN sr.selected = FALSE OR sr.hidden = TRUE THEN 0 ELSE ` + kbartRowsExpr(d) + ` END) - ` + sourceRowsExpr + `
		FROM snapshot_resources sr ` + d.FixedJoin() + ` resources r ON r.package_id = sr.package_id AND r.title_id = sr.title_id
		WHERE sr.customer_id = $1 AND sr.package_id = $2 AND (sr.selected = FALSE OR sr.hidden = TRUE OR sr.custom_coverage <> '')
		ORDER BY sr.title_id`
}

// shiftedMarks writes the marks of a managed package selected whole in
// which the customer excluded titles or set custom coverage: the package's
// import marks, each moved by the row changes of the titles before it. A
// mark on an excluded title still marks where the next included title
// starts; marks that fall together keep the first, marks at or past the
// segment's end are dropped. Its cost is the package's marks plus the
// customer's exceptions in it, not the package's rows. It returns the
// segment's row count.
func shiftedMarks(ctx context.Context, tx kbsql.Tx, custID string, s segment, seq int64) (int64, error) {
	deltas, err := kbsql.QueryAll(ctx, tx, exceptionDeltasSQL(tx.Dialect()), []any{custID, s.packageID},
		func(r kbsql.Rows) (d RowDelta, err error) { return d, r.Scan(&d.Title, &d.Rows) })
	if err != nil {
		return 0, fmt.Errorf("exceptions of package %d: %w", s.packageID, err)
	}
	n := SegmentRows(s.rows, deltas)
	if n <= 0 {
		return 0, nil
	}
	marks, err := kbsql.QueryAll(ctx, tx, `SELECT row_offset, title_id FROM package_marks WHERE package_id = $1 ORDER BY row_offset`,
		[]any{s.packageID}, func(r kbsql.Rows) (m PackageMark, err error) { return m, r.Scan(&m.Offset, &m.Title) })
	if err != nil {
		return 0, fmt.Errorf("marks of package %d: %w", s.packageID, err)
	}
	var rows [][]any
	for _, m := range ShiftMarks(marks, deltas, n) {
		rows = append(rows, []any{custID, seq + m.Offset, s.packageID, m.Title})
	}
	if err := tx.CopyRows(ctx, "snapshot_marks", []string{"customer_id", "seq", "package_id", "title_id"}, rows); err != nil {
		return 0, fmt.Errorf("marks of package %d: %w", s.packageID, err)
	}
	return n, nil
}
