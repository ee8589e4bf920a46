package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// Holdings streams rows of the customer's completed snapshot, from the
// 1-based row offset: a seek on the snapshot's marks, then the segments
// from there in package order, each one ordered scan of its resources, so
// a page costs the same wherever it starts.
func (s *Store) Holdings(ctx context.Context, custID string, offset, count int, fn func(*kb.Holding) error) error {
	// One read transaction: the status and the rows come from the same
	// state, even if a forced POST starts a new build meanwhile.
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("holdings of %s: %w", custID, err)
	}
	defer tx.Rollback()
	st, err := snapshotStatus(ctx, tx, custID)
	if err != nil {
		return err
	}
	if err := kbsql.HoldingsReadable(st.Status); err != nil {
		return err
	}
	offset = max(offset, 1)
	if offset > st.Total {
		return nil
	}
	sc := holdingsScan{ctx: ctx, tx: tx, cust: custID, HoldingsPage: kbsql.NewHoldingsPage(count, fn)}
	var seq int
	err = tx.QueryRowContext(ctx, `SELECT seq, package_id, title_id FROM snapshot_marks WHERE customer_id = ? AND seq <= ?
		ORDER BY seq DESC LIMIT 1`, custID, offset).Scan(&seq, &sc.fromPackage, &sc.fromTitle)
	if err != nil {
		return fmt.Errorf("holdings of %s: %w", custID, err)
	}
	sc.Skip = offset - seq
	defer func() {
		for _, st := range sc.stmts {
			st.Close()
		}
	}()
	return sc.run()
}

// holdingsScan reads the rows of a page of a snapshot.
type holdingsScan struct {
	kbsql.HoldingsPage
	ctx                    context.Context
	tx                     *sql.Tx
	cust                   string
	fromPackage, fromTitle int64                // the mark the page starts from
	proxies                map[string]string    // the frozen proxies' URL masks, read when first needed
	stmts                  map[string]*sql.Stmt // prepared once a page, used for each of its segments
}

// segmentHead is a segment of a built snapshot as a page reads it.
type segmentHead struct {
	packageID, vendorID     int64
	kind                    int
	packageName, vendorName string
	urlMask                 string
	customised              bool // the customer has title-level state in the package
}

// run reads the segments from the mark's package on, a batch at a time.
func (sc *holdingsScan) run() error {
	after := sc.fromPackage - 1
	for sc.Left != 0 {
		segs, err := queryAll(sc.ctx, sc.tx, `SELECT sg.package_id, sg.kind, COALESCE(p.name, sg.package_name),
				COALESCE(v.id, sg.vendor_id), COALESCE(v.name, sg.vendor_name), sg.url_mask, sg.customised
			FROM snapshot_segments sg LEFT JOIN packages p ON p.id = sg.package_id LEFT JOIN vendors v ON v.id = p.vendor_id
			WHERE sg.customer_id = ? AND sg.package_id > ? ORDER BY sg.package_id LIMIT 64`, []any{sc.cust, after},
			func(r *sql.Rows) (g segmentHead, err error) {
				return g, r.Scan(&g.packageID, &g.kind, &g.packageName, &g.vendorID, &g.vendorName, &g.urlMask, &g.customised)
			})
		if err != nil {
			return fmt.Errorf("holdings of %s: %w", sc.cust, err)
		}
		if len(segs) == 0 {
			return nil
		}
		for i := range segs {
			if sc.Left == 0 {
				return nil
			}
			from := int64(0)
			if segs[i].packageID == sc.fromPackage {
				from = sc.fromTitle
			}
			if err := sc.segment(&segs[i], from); err != nil {
				return err
			}
		}
		after = segs[len(segs)-1].packageID
	}
	return nil
}

// prepare returns the page's prepared statement of query q.
func (sc *holdingsScan) prepare(q string) (*sql.Stmt, error) {
	if st, ok := sc.stmts[q]; ok {
		return st, nil
	}
	st, err := sc.tx.PrepareContext(sc.ctx, q)
	if err != nil {
		return nil, fmt.Errorf("holdings of %s: %w", sc.cust, err)
	}
	if sc.stmts == nil {
		sc.stmts = map[string]*sql.Stmt{}
	}
	sc.stmts[q] = st
	return st, nil
}

// frozenCustomisation is a resource's customisation frozen at the POST,
// read as one JSON array: custom coverage, coverage statement, embargo unit
// and value, proxy id (null: inherited).
const frozenCustomisation = `CASE WHEN sr.title_id IS NULL THEN '' ELSE
	json_array(sr.custom_coverage, sr.coverage_statement, sr.embargo_unit, sr.embargo_value, sr.proxy_id) END`

// segmentRowsSQL reads, per segment kind, the resources of package :p of
// customer :c from title :t on: title id, KBART rows, URL, pub type and
// frozen customisation, and for a resource without KBART rows (a custom
// package's) the title's name, publisher, contributors and identifiers.
var segmentRowsSQL = [...]string{
	segmentPackage: `SELECT r.title_id, r.kbart, r.url, r.pub_type, ` + frozenCustomisation + `, '', '', '', ''
		FROM resources r
		LEFT JOIN snapshot_resources sr ON sr.customer_id = :c AND sr.package_id = r.package_id AND sr.title_id = r.title_id
		WHERE r.package_id = :p AND r.title_id >= :t AND COALESCE(sr.selected, 1) = 1 AND COALESCE(sr.hidden, 0) = 0
		ORDER BY r.title_id`,
	segmentTitles: `SELECT r.title_id, r.kbart, r.url, r.pub_type, ` + frozenCustomisation + `, '', '', '', ''
		FROM snapshot_resources sr
		CROSS JOIN resources r ON r.package_id = sr.package_id AND r.title_id = sr.title_id
		WHERE sr.customer_id = :c AND sr.package_id = :p AND sr.title_id >= :t AND sr.selected = 1 AND sr.hidden = 0
		ORDER BY sr.title_id`,
	segmentCustom: `SELECT r.title_id, '', r.url, COALESCE(t.pub_type, r.pub_type), ` + frozenCustomisation + `,
			COALESCE(t.name, r.name), COALESCE(t.publisher, r.publisher), COALESCE(t.contributors, r.contributors),
			CASE WHEN t.id IS NULL THEN r.identifiers ELSE (SELECT json_group_array(json_array(subtype, value)) FROM
				(SELECT subtype, value FROM title_identifiers WHERE title_id = t.id ORDER BY type, subtype, value)) END
		FROM snapshot_custom_resources r LEFT JOIN titles t ON t.id = r.title_id
		LEFT JOIN snapshot_resources sr ON sr.customer_id = :c AND sr.package_id = r.package_id AND sr.title_id = r.title_id
		WHERE r.customer_id = :c AND r.package_id = :p AND r.title_id >= :t AND COALESCE(sr.selected, 1) = 1 AND COALESCE(sr.hidden, 0) = 0
		ORDER BY r.title_id`,
}

// plainPackageRowsSQL reads a managed package in which the customer has no
// title-level state: one ordered scan of its resources. They all have
// KBART rows, which hold their URLs: it reads only those and the title's
// type.
const plainPackageRowsSQL = `SELECT kbart, pub_type FROM resources WHERE package_id = :p AND title_id >= :t ORDER BY title_id`

// segment gives the rows of one segment from title from on.
func (sc *holdingsScan) segment(g *segmentHead, from int64) error {
	q, plain := segmentRowsSQL[g.kind], g.kind == segmentPackage && !g.customised
	if plain {
		q = plainPackageRowsSQL
	}
	stmt, err := sc.prepare(q)
	if err != nil {
		return err
	}
	args := []any{sql.Named("p", g.packageID), sql.Named("t", from)}
	if !plain {
		args = append(args, sql.Named("c", sc.cust))
	}
	rows, err := stmt.QueryContext(sc.ctx, args...)
	if err != nil {
		return fmt.Errorf("holdings of %s, package %d: %w", sc.cust, g.packageID, err)
	}
	defer rows.Close()
	r := kbsql.SnapshotResource{PackageID: g.packageID, VendorID: g.vendorID, PackageName: g.packageName, VendorName: g.vendorName}
	var cust string
	dest := []any{&r.TitleID, &r.KBART, &r.URL, &r.PubType, &cust, &r.TitleName, &r.Publisher, &r.Contributors, &r.Identifiers}
	if plain {
		dest = []any{&r.KBART, &r.PubType}
	}
	for sc.Left != 0 && rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return fmt.Errorf("holdings of %s, package %d: %w", sc.cust, g.packageID, err)
		}
		if err := sc.customise(&r, cust, g.urlMask); err != nil {
			return err
		}
		if err := sc.Give(&r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("holdings of %s, package %d: %w", sc.cust, g.packageID, err)
	}
	return nil
}

// customise sets the resource's frozen customisation from its JSON array
// (empty: none) and its effective proxy's URL mask: its own proxy, else
// the package's (which already falls back on the vendor's and the root's).
func (sc *holdingsScan) customise(r *kbsql.SnapshotResource, cust, packageMask string) error {
	r.CustomCoverage, r.Statement, r.EmbargoUnit, r.EmbargoValue, r.URLMask = "", "", 0, 0, packageMask
	if cust == "" {
		return nil
	}
	var a [5]any
	if err := json.Unmarshal([]byte(cust), &a); err != nil {
		return fmt.Errorf("customisation of %d/%d: %w", r.PackageID, r.TitleID, err)
	}
	r.CustomCoverage, _ = a[0].(string)
	r.Statement, _ = a[1].(string)
	unit, _ := a[2].(float64)
	value, _ := a[3].(float64)
	r.EmbargoUnit, r.EmbargoValue = int(unit), int(value)
	proxy, ok := a[4].(string)
	if !ok {
		return nil // inherited
	}
	if sc.proxies == nil {
		m, err := frozenProxies(sc.ctx, sc.tx, sc.cust)
		if err != nil {
			return err
		}
		sc.proxies = m
	}
	r.URLMask = sc.proxies[proxy]
	return nil
}

// frozenProxies reads the URL masks of the customer's proxies as frozen at
// the POST, by proxy id.
func frozenProxies(ctx context.Context, tx *sql.Tx, custID string) (map[string]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, url_mask FROM snapshot_proxies WHERE customer_id = ?`, custID)
	if err != nil {
		return nil, fmt.Errorf("proxies of %s: %w", custID, err)
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var id, mask string
		if err := rows.Scan(&id, &mask); err != nil {
			return nil, fmt.Errorf("proxies of %s: %w", custID, err)
		}
		m[id] = mask
	}
	return m, rows.Err()
}
