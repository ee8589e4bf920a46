package kbsql

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// statsChunk is the number of rows of one upsert statement of
// AddResolverCounts (7 parameters each).
const statsChunk = 200

// AddResolverCounts adds the counts to the stored ones with upserts
// (count = count + n), sent together in one transaction that takes no
// customer's lock (Engine.Exec). The keys go in the order of the tables'
// primary keys, so that two servers adding to the same rows at once on
// PostgreSQL lock them in the same order and never deadlock.
func (s *Store) AddResolverCounts(ctx context.Context, c kb.ResolverCounts) error {
	var stmts []Stmt
	reqs := sortedKeys(c.Requests, func(a, b kb.ResolverRequestKey) int {
		return cmp.Or(strings.Compare(a.CustomerID, b.CustomerID), strings.Compare(string(a.Month), string(b.Month)),
			strings.Compare(a.Source, b.Source), cmp.Compare(a.TitleID, b.TitleID), cmp.Compare(a.PackageID, b.PackageID),
			cmp.Compare(boolInt(a.FullText), boolInt(b.FullText)))
	})
	for chunk := range slices.Chunk(reqs, statsChunk) {
		var args Args
		values := make([]string, len(chunk))
		for i, k := range chunk {
			values[i] = "(" + strings.Join([]string{args.Add(k.CustomerID), args.Add(string(k.Month)), args.Add(k.Source),
				args.Add(k.TitleID), args.Add(k.PackageID), args.Add(k.FullText), args.Add(c.Requests[k])}, ", ") + ")"
		}
		stmts = append(stmts, Stmt{`INSERT INTO resolver_requests(customer_id, month, source, title_id, package_id, full_text, count)
			VALUES ` + strings.Join(values, ", ") + `
			ON CONFLICT (customer_id, month, source, title_id, package_id, full_text) DO UPDATE SET count = resolver_requests.count + excluded.count`, args})
	}
	unmet := sortedKeys(c.Unmet, func(a, b kb.UnmetKey) int {
		return cmp.Or(strings.Compare(a.CustomerID, b.CustomerID), strings.Compare(string(a.Month), string(b.Month)),
			strings.Compare(a.Title, b.Title), strings.Compare(a.ID, b.ID))
	})
	for chunk := range slices.Chunk(unmet, statsChunk) {
		var args Args
		values := make([]string, len(chunk))
		for i, k := range chunk {
			values[i] = "(" + strings.Join([]string{args.Add(k.CustomerID), args.Add(string(k.Month)), args.Add(k.Title),
				args.Add(k.ID), args.Add(c.Unmet[k])}, ", ") + ")"
		}
		stmts = append(stmts, Stmt{`INSERT INTO resolver_unmet(customer_id, month, sought_title, sought_id, count)
			VALUES ` + strings.Join(values, ", ") + `
			ON CONFLICT (customer_id, month, sought_title, sought_id) DO UPDATE SET count = resolver_unmet.count + excluded.count`, args})
	}
	if len(stmts) == 0 {
		return nil
	}
	if err := s.e.Exec(ctx, stmts...); err != nil {
		return fmt.Errorf("add resolver counts (%d requests keys, %d unmet demand keys): %w", len(reqs), len(unmet), err)
	}
	return nil
}

// sortedKeys returns the keys of m in the order of compare.
func sortedKeys[K comparable, V any](m map[K]V, compare func(a, b K) int) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compare)
	return keys
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// statsColumn is the column each grouping of the statistics groups by.
var statsColumn = map[kb.StatsGroup]string{
	kb.StatsByMonth: "month", kb.StatsByPackage: "package_id", kb.StatsByTitle: "title_id", kb.StatsBySource: "source",
}

// ResolverStats returns the customer's statistics between two months:
// one query sums the requests and (except by source, which a click does
// not know) the link-outs' clicks of each group, and joins the names of
// packages and titles; the rows are ordered here. The totals of the
// clicks by source are a second query.
func (s *Store) ResolverStats(ctx context.Context, custID string, q kb.ResolverStatsQuery) (kb.ResolverStats, error) {
	out := kb.ResolverStats{Query: q, Rows: []kb.ResolverStatsRow{}}
	col, ok := statsColumn[q.By]
	if !ok {
		return out, fmt.Errorf("resolver statistics: unknown grouping %q", q.By)
	}
	parts := `SELECT ` + col + ` AS k, SUM(count) AS req, SUM(CASE WHEN full_text THEN count ELSE 0 END) AS ft, 0 AS rc, 0 AS ac
		FROM resolver_requests WHERE customer_id = $1 AND month >= $2 AND month <= $3 GROUP BY ` + col
	if q.By != kb.StatsBySource {
		parts += ` UNION ALL SELECT ` + col + `, 0, 0, SUM(CASE WHEN via = 'resolver' THEN count ELSE 0 END), SUM(CASE WHEN via = 'resolver' THEN 0 ELSE count END)
		FROM link_out_months WHERE customer_id = $1 AND month >= $2 AND month <= $3 GROUP BY ` + col
	}
	sums := `(SELECT g.k AS k, CAST(SUM(g.req) AS bigint) AS req, CAST(SUM(g.ft) AS bigint) AS ft,
		CAST(SUM(g.rc) AS bigint) AS rc, CAST(SUM(g.ac) AS bigint) AS ac FROM (` + parts + `) g GROUP BY g.k) x`
	var query string
	switch q.By {
	case kb.StatsByPackage:
		query = `SELECT x.k, x.req, x.ft, x.rc, x.ac, COALESCE(p.name, ''), COALESCE(v.name, '') FROM ` + sums + `
			LEFT JOIN packages p ON p.id = x.k LEFT JOIN vendors v ON v.id = p.vendor_id`
	case kb.StatsByTitle:
		query = `SELECT x.k, x.req, x.ft, x.rc, x.ac, COALESCE(t.name, ''), '' FROM ` + sums + ` LEFT JOIN titles t ON t.id = x.k`
	default:
		query = `SELECT x.k, x.req, x.ft, x.rc, x.ac, '', '' FROM ` + sums
	}
	err := EachRow(ctx, s.e.Read(), query, []any{custID, string(q.From), string(q.To)}, func(rows Rows) error {
		var r kb.ResolverStatsRow
		var text string
		var id int64
		var name, vendor string
		key := any(&text)
		if q.By == kb.StatsByPackage || q.By == kb.StatsByTitle {
			key = &id
		}
		if err := rows.Scan(key, &r.Requests, &r.FullText, &r.ResolverClicks, &r.AZClicks, &name, &vendor); err != nil {
			return err
		}
		switch q.By {
		case kb.StatsByMonth:
			r.Month = kb.Month(text)
		case kb.StatsByPackage:
			r.PackageID, r.PackageName, r.VendorName = id, name, vendor
		case kb.StatsByTitle:
			r.TitleID, r.TitleName = id, name
		case kb.StatsBySource:
			r.Source = text
		}
		out.Rows = append(out.Rows, r)
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("resolver statistics of %s by %s: %w", custID, q.By, err)
	}
	for _, r := range out.Rows {
		out.Totals.Requests += r.Requests
		out.Totals.FullText += r.FullText
		out.Totals.ResolverClicks += r.ResolverClicks
		out.Totals.AZClicks += r.AZClicks
	}
	if q.By == kb.StatsBySource {
		err := s.e.Read().QueryRow(ctx, `SELECT CAST(COALESCE(SUM(CASE WHEN via = 'resolver' THEN count ELSE 0 END), 0) AS bigint),
			CAST(COALESCE(SUM(CASE WHEN via = 'resolver' THEN 0 ELSE count END), 0) AS bigint)
			FROM link_out_months WHERE customer_id = $1 AND month >= $2 AND month <= $3`, custID, string(q.From), string(q.To)).
			Scan(&out.Totals.ResolverClicks, &out.Totals.AZClicks)
		if err != nil {
			return out, fmt.Errorf("link-out clicks of %s: %w", custID, err)
		}
	}
	if q.By == kb.StatsByMonth {
		out.Rows = everyMonth(out.Rows, q.From, q.To)
		return out, nil
	}
	slices.SortFunc(out.Rows, func(a, b kb.ResolverStatsRow) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(b.ResolverClicks+b.AZClicks, a.ResolverClicks+a.AZClicks),
			strings.Compare(a.PackageName, b.PackageName), strings.Compare(a.TitleName, b.TitleName), strings.Compare(a.Source, b.Source),
			cmp.Compare(a.PackageID, b.PackageID), cmp.Compare(a.TitleID, b.TitleID))
	})
	return out, nil
}

// everyMonth returns a row for each month from from to to, in order: the
// row of rows when there is one, else a row of zeros.
func everyMonth(rows []kb.ResolverStatsRow, from, to kb.Month) []kb.ResolverStatsRow {
	byMonth := make(map[kb.Month]kb.ResolverStatsRow, len(rows))
	for _, r := range rows {
		byMonth[r.Month] = r
	}
	out := make([]kb.ResolverStatsRow, 0, kb.MonthsFromTo(from, to))
	for m := from; m <= to; m = m.AddMonths(1) {
		r, ok := byMonth[m]
		if !ok {
			r.Month = m
		}
		out = append(out, r)
	}
	return out
}

// UnmetDemand returns a page of what the customer's patrons sought without
// finding the full text between two months, summed over the months, the
// most requested first.
func (s *Store) UnmetDemand(ctx context.Context, custID string, q kb.UnmetQuery) (kb.UnmetList, error) {
	page := q.Page
	if page.Count <= 0 {
		page = kb.Page{Count: math.MaxInt32, Number: 1}
	}
	from := `(SELECT sought_title, sought_id, CAST(SUM(count) AS bigint) AS n, MAX(month) AS last FROM resolver_unmet
		WHERE customer_id = $1 AND month >= $2 AND month <= $3 GROUP BY sought_title, sought_id) u`
	total, items, err := ListPage(ctx, s.e.Read(), `u.sought_title, u.sought_id, u.n, u.last`, from, `TRUE`,
		`u.n DESC, u.sought_title, u.sought_id`, Args{custID, string(q.From), string(q.To)}, page,
		func(rows Rows) (kb.UnmetDemand, error) {
			var d kb.UnmetDemand
			var last string
			err := rows.Scan(&d.Title, &d.ID, &d.Requests, &last)
			d.LastMonth = kb.Month(last)
			return d, err
		})
	if err != nil {
		return kb.UnmetList{}, fmt.Errorf("unmet demand of %s: %w", custID, err)
	}
	return kb.UnmetList{Total: total, Items: items}, nil
}
