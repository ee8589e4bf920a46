package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// sqlCollectionHits reads the resources of the customer's collection
// with their titles, in title id then package id order: a title in n
// packages of the collection is n rows in a row. Flat rows grouped by the
// caller cost less than an array per title built by the server.
const sqlCollectionHits = `WITH c AS (` + kbsql.SQLCollection + `)
	SELECT t.id, t.name, t.pub_type, t.peer_reviewed, t.subjects, c.package_id
	FROM c JOIN titles t ON t.id = c.title_id
	ORDER BY t.id, c.package_id`

// CollectionHits calls fn for every title of the customer's collection, in
// ascending title id order, with its packages in the collection
// (ascending). The rows stream from one query, one snapshot: memory stays
// at one title whatever the size of the collection, and the hits share one
// buffer of package ids, which fn must not keep.
func (s *Store) CollectionHits(ctx context.Context, custID string, fn func(kb.PubHit)) error {
	rows, err := s.pool.Query(ctx, sqlCollectionHits, custID)
	if err != nil {
		return fmt.Errorf("collection of %s: %w", custID, err)
	}
	defer rows.Close()
	var h, next kb.PubHit
	var pt int
	var subjects string
	var pkg int64
	pkgs := make([]int64, 0, 8)
	n := 0
	for rows.Next() {
		if err := rows.Scan(&next.ID, &next.Name, &pt, &next.PeerReviewed, &subjects, &pkg); err != nil {
			return fmt.Errorf("collection of %s: %w", custID, err)
		}
		if n > 0 && next.ID == h.ID { // the same title in another package
			pkgs = append(pkgs, pkg)
			continue
		}
		if n > 0 {
			h.PackageIDs = pkgs
			fn(h)
		}
		n++
		h = next
		h.PubType = kb.ResourceType(pt)
		if h.Subjects, err = kbsql.DecodeSubjects(h.ID, subjects); err != nil {
			return fmt.Errorf("collection of %s: %w", custID, err)
		}
		pkgs = append(pkgs[:0], pkg)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("collection of %s: %w", custID, err)
	}
	if n == 0 { // an unknown customer has no collection: say which it is
		_, err := s.RootProxy(ctx, custID)
		return err
	}
	h.PackageIDs = pkgs
	fn(h)
	return nil
}

// CollectionPackages lists the packages of the customer's collection:
// those it selected whole or in part, not hidden, with at least one title
// in the collection. Their selectedCount counts those titles only. A name
// search matches every word as a prefix (packages.fts) and ranks by
// relevance unless q orders by name.
func (s *Store) CollectionPackages(ctx context.Context, custID string, q kb.CollectionPackageQuery) (kb.PackageList, error) {
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return kb.PackageList{}, err
	}
	args := kbsql.Args{custID}
	where := []string{kbsql.SQLPackageVisible, kbsql.SQLCollectionPackageIDs,
		`COALESCE(cp.hidden, FALSE) = FALSE`, `(` + kbsql.SQLCollectionCount + `) > 0`}
	order := "p.sort_name, p.id"
	cond, rank, ok := nameSearch("p", q.Search, &args)
	if !ok {
		return kb.PackageList{Packages: []kb.Package{}}, nil
	}
	if cond != "" {
		where = append(where, cond)
		if !q.ByName {
			order = rank + ", p.sort_name, p.id"
		}
	}
	if q.ContentType != kb.ContentAll {
		where = append(where, "p.content_type = "+args.Add(int(q.ContentType)))
	}
	page := q.Page
	if page.Count == 0 {
		page = kb.Page{Count: 1 << 30, Number: 1}
	}
	var list kb.PackageList
	list.Total, list.Packages, err = kbsql.ListPage(ctx, s.Engine().Read(), kbsql.SQLCollectionPackageColumns,
		kbsql.SQLPackageFrom, strings.Join(where, " AND "), order, args, page,
		func(rows kbsql.Rows) (kb.Package, error) { return kbsql.ScanPackage(rows, root) })
	if err != nil {
		return list, fmt.Errorf("list collection packages: %w", err)
	}
	return list, nil
}

// TitleMatches calls fn with every title the search of q matches and its
// rank (lower is better; 0 when q orders by name), through the same
// indexes as the title search of the holdings service; it does not look at
// the customer's collection. The matches stream: a broad search holds no
// list of them.
func (s *Store) TitleMatches(ctx context.Context, custID string, q kb.PubQuery, fn func(id int64, rank float64)) error {
	if strings.TrimSpace(q.Search) == "" {
		return nil
	}
	tq := kb.TitleQuery{Search: q.Search, Field: q.Field, Type: q.Type}
	if q.ByName {
		tq.OrderBy = kb.OrderName // no rank needed
	}
	var args kbsql.Args
	m, err := buildTitleMatch(tq, &args)
	if err != nil || m.none {
		return err
	}
	rank := "0"
	if m.rank != "" {
		rank = m.rank
	}
	rows, err := s.pool.Query(ctx, `SELECT t.id, (`+rank+`)::float8 FROM titles t WHERE `+m.cond, args...)
	if err != nil {
		return fmt.Errorf("title matches: %w", err)
	}
	defer rows.Close()
	var id int64
	var r float64
	for rows.Next() {
		if err := rows.Scan(&id, &r); err != nil {
			return fmt.Errorf("title matches: %w", err)
		}
		fn(id, r)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("title matches: %w", err)
	}
	return nil
}
