package kbsnapshot

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// holdingsChunk is the most resources a query of a page reads: a page that
// ends early does not leave a package's remaining resources to be read and
// dropped, and a whole snapshot is read a chunk at a time.
const holdingsChunk = 8192

// Holdings streams rows of the customer's completed snapshot, from the
// 1-based row offset: a seek on the snapshot's marks, then the segments
// from there in package order, each read in keyset chunks of its
// resources, so a page costs the same wherever it starts and a whole
// snapshot streams without being held in memory. It reads in one read
// transaction (Engine.ReadTx): the status and the rows come from the same
// state, even if a forced POST starts a new build meanwhile, on this server
// or another.
func (s *Snapshots) Holdings(ctx context.Context, custID string, offset, count int, fn func(*kb.Holding) error) error {
	return s.e.ReadTx(ctx, func(q kbsql.Querier) error {
		st, err := snapshotStatus(ctx, q, custID)
		if err != nil {
			return err
		}
		if err := HoldingsReadable(st.Status); err != nil {
			return err
		}
		offset = max(offset, 1)
		if offset > st.Total {
			return nil
		}
		sc := holdingsScan{ctx: ctx, q: q, d: s.d, cust: custID, HoldingsPage: NewHoldingsPage(count, fn)}
		var seq int64
		err = q.QueryRow(ctx, `SELECT seq, package_id, title_id FROM snapshot_marks WHERE customer_id = $1 AND seq <= $2
			ORDER BY seq DESC LIMIT 1`, custID, offset).Scan(&seq, &sc.fromPackage, &sc.fromTitle)
		if err != nil {
			return fmt.Errorf("holdings of %s: %w", custID, err)
		}
		sc.Skip = offset - int(seq)
		return sc.run()
	})
}

// HoldingsColumns implements kb.SnapshotStore: the non-standard KBART
// columns of the packages of the customer's completed snapshot.
func (s *Snapshots) HoldingsColumns(ctx context.Context, custID string) ([]string, error) {
	var cols []string
	err := s.e.ReadTx(ctx, func(q kbsql.Querier) error {
		st, err := snapshotStatus(ctx, q, custID)
		if err != nil {
			return err
		}
		if err := HoldingsReadable(st.Status); err != nil {
			return err
		}
		return kbsql.EachRow(ctx, q, `SELECT p.kbart_extra FROM snapshot_segments sg JOIN packages p ON p.id = sg.package_id
			WHERE sg.customer_id = $1 AND p.kbart_extra <> '' ORDER BY sg.package_id`, []any{custID}, func(r kbsql.Rows) error {
			var extra string
			if err := r.Scan(&extra); err != nil {
				return err
			}
			for _, c := range splitColumns(extra) {
				if !slices.Contains(cols, c) {
					cols = append(cols, c)
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("holdings columns of %s: %w", custID, err)
	}
	return cols, nil
}

// splitColumns splits a package's kbart_extra: tab-separated column names.
func splitColumns(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\t")
}

// holdingsScan reads the rows of a page of a snapshot.
type holdingsScan struct {
	HoldingsPage
	ctx                    context.Context
	q                      kbsql.Querier
	d                      kbsql.Dialect
	cust                   string
	fromPackage, fromTitle int64             // the mark the page starts from
	proxies                map[string]string // the frozen proxies' URL masks, read at the first customised segment
}

// segmentHead is a segment of a built snapshot as a page reads it.
type segmentHead struct {
	packageID, vendorID     int64
	kind                    int
	packageName, vendorName string
	urlMask                 string
	customised              bool     // the customer has title-level state in the package
	extra                   []string // the package's non-standard KBART columns
}

// run reads the segments from the mark's package on, a batch at a time.
func (sc *holdingsScan) run() error {
	after := sc.fromPackage - 1
	for sc.Left != 0 {
		segs, err := kbsql.QueryAll(sc.ctx, sc.q, `SELECT sg.package_id, sg.kind, COALESCE(p.name, sg.package_name),
				COALESCE(v.id, sg.vendor_id), COALESCE(v.name, sg.vendor_name), sg.url_mask, sg.customised, COALESCE(p.kbart_extra, '')
			FROM snapshot_segments sg LEFT JOIN packages p ON p.id = sg.package_id LEFT JOIN vendors v ON v.id = p.vendor_id
			WHERE sg.customer_id = $1 AND sg.package_id > $2 ORDER BY sg.package_id LIMIT 64`, []any{sc.cust, after},
			func(r kbsql.Rows) (g segmentHead, err error) {
				var extra string
				err = r.Scan(&g.packageID, &g.kind, &g.packageName, &g.vendorID, &g.vendorName, &g.urlMask, &g.customised, &extra)
				g.extra = splitColumns(extra)
				return g, err
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

// frozenCustomisation is the columns of a resource's customisation frozen
// at the POST (sr, possibly absent: none).
const frozenCustomisation = `COALESCE(sr.custom_coverage, ''), COALESCE(sr.coverage_statement, ''),
	COALESCE(sr.embargo_unit, 0), COALESCE(sr.embargo_value, 0), sr.proxy_id`

// segmentRowsSQL reads, for a segment of kind, at most $3 resources of
// package $1 of customer $4 from title $2 on: title id, KBART rows, URL,
// pub type, frozen customisation (custom coverage, coverage statement,
// embargo unit and value, proxy id: NULL inherits), and for a resource
// without KBART rows (a custom package's) the title's name, publisher,
// contributors and identifiers.
func (sc *holdingsScan) segmentRowsSQL(kind int) string {
	switch kind {
	case segmentTitles:
		return `SELECT r.title_id, r.kbart, r.url, r.pub_type, ` + frozenCustomisation + `, '', '', '', ''
			FROM snapshot_resources sr ` + sc.d.FixedJoin() + ` resources r ON r.package_id = sr.package_id AND r.title_id = sr.title_id
			WHERE sr.customer_id = $4 AND sr.package_id = $1 AND sr.title_id >= $2 AND sr.selected = TRUE AND sr.hidden = FALSE
			ORDER BY sr.title_id LIMIT $3`
	case segmentCustom:
		return `SELECT r.title_id, '', r.url, COALESCE(t.pub_type, r.pub_type), ` + frozenCustomisation + `,
				COALESCE(t.name, r.name), COALESCE(t.publisher, r.publisher), COALESCE(t.contributors, r.contributors),
				CASE WHEN t.id IS NULL THEN r.identifiers ELSE ` + sc.d.IdentifiersJSON("t.id") + ` END
			FROM snapshot_custom_resources r LEFT JOIN titles t ON t.id = r.title_id
			LEFT JOIN snapshot_resources sr ON sr.customer_id = $4 AND sr.package_id = r.package_id AND sr.title_id = r.title_id
			WHERE r.customer_id = $4 AND r.package_id = $1 AND r.title_id >= $2
				AND COALESCE(sr.selected, TRUE) = TRUE AND COALESCE(sr.hidden, FALSE) = FALSE
			ORDER BY r.title_id LIMIT $3`
	}
	return `SELECT r.title_id, r.kbart, r.url, r.pub_type, ` + frozenCustomisation + `, '', '', '', ''
		FROM resources r
		LEFT JOIN snapshot_resources sr ON sr.customer_id = $4 AND sr.package_id = r.package_id AND sr.title_id = r.title_id
		WHERE r.package_id = $1 AND r.title_id >= $2 AND COALESCE(sr.selected, TRUE) = TRUE AND COALESCE(sr.hidden, FALSE) = FALSE
		ORDER BY r.title_id LIMIT $3`
}

// plainPackageRowsSQL reads a managed package in which the customer has no
// title-level state: one ordered scan of its resources. They all have
// KBART rows, which hold their URLs: it reads only those and the title's
// type.
const plainPackageRowsSQL = `SELECT title_id, kbart, pub_type FROM resources WHERE package_id = $1 AND title_id >= $2
	ORDER BY title_id LIMIT $3`

// segment gives the rows of one segment from title from on.
func (sc *holdingsScan) segment(g *segmentHead, from int64) error {
	plain := g.kind == segmentPackage && !g.customised
	q := plainPackageRowsSQL
	if !plain {
		q = sc.segmentRowsSQL(g.kind)
	}
	r := SnapshotResource{PackageID: g.packageID, VendorID: g.vendorID, PackageName: g.packageName, VendorName: g.vendorName,
		ExtraColumns: g.extra}
	var proxy *string
	dest := []any{&r.TitleID, &r.KBART, &r.URL, &r.PubType, &r.CustomCoverage, &r.Statement, &r.EmbargoUnit, &r.EmbargoValue, &proxy,
		&r.TitleName, &r.Publisher, &r.Contributors, &r.Identifiers}
	if plain {
		dest = []any{&r.TitleID, &r.KBART, &r.PubType}
		r.URLMask = g.urlMask
	} else if err := sc.readProxies(); err != nil {
		// Before the rows: a PostgreSQL transaction's connection reads one
		// result at a time.
		return err
	}
	for sc.Left != 0 {
		// Every resource has a row at least, so a page needs no more
		// resources than the rows it skips and gives.
		limit := holdingsChunk
		if sc.Left > 0 {
			limit = min(limit, sc.Skip+sc.Left)
		}
		args := []any{g.packageID, from, limit}
		if !plain {
			args = append(args, sc.cust)
		}
		n, err := sc.chunk(q, args, dest, &r, &proxy, g, plain)
		if err != nil {
			return err
		}
		if n < limit {
			return nil // the segment's end (or the page's)
		}
		from = r.TitleID + 1
	}
	return nil
}

// chunk reads one query of a segment's rows into r (through dest, which
// scans the frozen proxy id into *proxy) and gives them; it returns how
// many it read.
func (sc *holdingsScan) chunk(q string, args, dest []any, r *SnapshotResource, proxy **string, g *segmentHead, plain bool) (int, error) {
	rows, err := sc.q.Query(sc.ctx, q, args...)
	if err != nil {
		return 0, fmt.Errorf("holdings of %s, package %d: %w", sc.cust, g.packageID, err)
	}
	defer rows.Close()
	n := 0
	for sc.Left != 0 && rows.Next() {
		n++
		if err := rows.Scan(dest...); err != nil {
			return n, fmt.Errorf("holdings of %s, package %d: %w", sc.cust, g.packageID, err)
		}
		if !plain {
			r.URLMask = g.urlMask
			if *proxy != nil {
				r.URLMask = sc.proxies[**proxy]
			}
		}
		if err := sc.Give(r); err != nil {
			return n, err
		}
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("holdings of %s, package %d: %w", sc.cust, g.packageID, err)
	}
	return n, nil
}

// readProxies reads the URL masks of the customer's proxies as frozen at
// the POST, by proxy id, once a page.
func (sc *holdingsScan) readProxies() error {
	if sc.proxies != nil {
		return nil
	}
	m := map[string]string{}
	err := kbsql.EachRow(sc.ctx, sc.q, `SELECT id, url_mask FROM snapshot_proxies WHERE customer_id = $1`, []any{sc.cust}, func(r kbsql.Rows) error {
		var id, mask string
		if err := r.Scan(&id, &mask); err != nil {
			return err
		}
		m[id] = mask
		return nil
	})
	if err != nil {
		return fmt.Errorf("proxies of %s: %w", sc.cust, err)
	}
	sc.proxies = m
	return nil
}
