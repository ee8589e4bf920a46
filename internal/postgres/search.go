package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The searches of the holdings service over PostgreSQL's search columns:
// vendor, package and title lists. The rows they find are read with the
// shared store's columns and scans (internal/kbsql).

// prefixQuery returns the tsquery text (for to_tsquery('simple', …)) in
// which every word of a search must match as a word prefix, each with
// weight when it is not ""; "" when the search has no words. Words are
// folded as the indexed names are, and quoted: no user text reaches
// to_tsquery as syntax.
func prefixQuery(search, weight string) string {
	var b strings.Builder
	for _, w := range kbsql.Words(search) {
		f := kbsql.Fold(w)
		if f == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(" & ")
		}
		b.WriteString(lexeme(f, true, weight))
	}
	return b.String()
}

// lexeme quotes a folded word as a tsquery operand, a prefix when prefix,
// restricted to weight when it is not "".
func lexeme(w string, prefix bool, weight string) string {
	q := `'` + strings.NewReplacer(`'`, `''`, `\`, `\\`).Replace(w) + `'`
	if prefix || weight != "" {
		q += ":"
		if prefix {
			q += "*"
		}
		q += weight
	}
	return q
}

// nameSearch returns the condition that restricts the rows of alias to
// those whose name (the tsvector alias.fts) matches search, every word as
// a prefix, and the rank of a match (lower is better); it adds its
// argument to args. ok is false when search can match nothing (only
// punctuation); the condition is "" when there is no search.
func nameSearch(alias, search string, args *kbsql.Args) (cond, rank string, ok bool) {
	q := prefixQuery(search, "")
	if q == "" {
		return "", "", strings.TrimSpace(search) == ""
	}
	tq := `to_tsquery('simple', ` + args.Add(q) + `)`
	return alias + `.fts @@ ` + tq, `-ts_rank(` + alias + `.fts, ` + tq + `)`, true
}

// Vendors lists the managed vendors and the customer's own vendor.
func (s *Store) Vendors(ctx context.Context, custID string, q kb.VendorQuery) (kb.VendorList, error) {
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return kb.VendorList{}, err
	}
	args := kbsql.Args{custID}
	where := kbsql.SQLVendorVisible
	order := "v.sort_name, v.id"
	cond, rank, ok := nameSearch("v", q.Search, &args)
	if !ok {
		return kb.VendorList{Vendors: []kb.Vendor{}}, nil
	}
	if cond != "" {
		where += " AND " + cond
		if q.OrderBy != kb.OrderName {
			order = rank + ", v.sort_name, v.id"
		}
	}
	var list kb.VendorList
	list.Total, list.Vendors, err = kbsql.ListPage(ctx, s.Engine().Read(), kbsql.SQLVendorColumns, `vendors v`, where, order, args, q.Page,
		func(rows kbsql.Rows) (kb.Vendor, error) { return kbsql.ScanVendor(rows, root) })
	if err != nil {
		return list, fmt.Errorf("list vendors: %w", err)
	}
	return list, nil
}

// Packages lists packages in the customer's context.
func (s *Store) Packages(ctx context.Context, custID string, q kb.PackageQuery) (kb.PackageList, error) {
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return kb.PackageList{}, err
	}
	args := kbsql.Args{custID}
	where := []string{kbsql.SQLPackageVisible}
	order := "p.sort_name, p.id"
	cond, rank, ok := nameSearch("p", q.Search, &args)
	if !ok {
		return kb.PackageList{Packages: []kb.Package{}}, nil
	}
	if cond != "" {
		where = append(where, cond)
		if q.OrderBy != kb.OrderName {
			order = rank + ", p.sort_name, p.id"
		}
	}
	if q.VendorID != 0 {
		where = append(where, "p.vendor_id = "+args.Add(q.VendorID))
	}
	if q.ContentType != kb.ContentAll {
		where = append(where, "p.content_type = "+args.Add(int(q.ContentType)))
	}
	if f := kbsql.SelectionFilter(q.Selection, kbsql.SQLPackageSelected); f != "" {
		where = append(where, f)
	}
	var list kb.PackageList
	list.Total, list.Packages, err = kbsql.ListPage(ctx, s.Engine().Read(), kbsql.SQLPackageColumns, kbsql.SQLPackageFrom,
		strings.Join(where, " AND "), order, args, q.Page,
		func(rows kbsql.Rows) (kb.Package, error) { return kbsql.ScanPackage(rows, root) })
	if err != nil {
		return list, fmt.Errorf("list packages: %w", err)
	}
	return list, nil
}

// Titles lists titles in the customer's context.
func (s *Store) Titles(ctx context.Context, custID string, q kb.TitleQuery) (kb.TitleList, error) {
	list := kb.TitleList{Titles: []kb.Title{}}
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return list, err
	}
	total := -1 // unknown until counted
	if q.PackageID != 0 {
		p, err := s.PackageOf(ctx, custID, root, q.VendorID, q.PackageID)
		if err != nil {
			return list, err
		}
		total = kbsql.PackageTitleTotal(p, q)
	}
	args := kbsql.Args{custID}
	where := []string{kbsql.SQLTitleVisible}
	from, order := `titles t`, "t.sort_name, t.id"
	search := strings.TrimSpace(q.Search) != ""
	if search {
		m, err := buildTitleMatch(q, &args)
		if err != nil {
			return list, err
		}
		if m.none {
			return list, nil
		}
		where = append(where, m.cond)
		if m.rank != "" {
			order = m.rank + ", t.sort_name, t.id"
		}
	}
	if q.PackageID != 0 {
		if search {
			from += ` JOIN resources r ON r.title_id = t.id`
		} else {
			// The package's resources in name order: one index range.
			from, order = `resources r JOIN titles t ON t.id = r.title_id`, "r.sort_name, r.title_id"
		}
		where = append(where, "r.package_id = "+args.Add(q.PackageID))
		if f := kbsql.SelectionFilter(q.Selection, kbsql.SQLResourceSelected); f != "" {
			where = append(where, f)
		}
	} else if f := kbsql.SelectionFilter(q.Selection, `t.id IN (`+kbsql.SQLSelectedTitleIDs+`)`); f != "" {
		where = append(where, f)
	}
	if q.ResourceType != kb.ResourceAll {
		where = append(where, "t.pub_type = "+args.Add(int(q.ResourceType)))
	}
	w := strings.Join(where, " AND ")
	if total >= 0 {
		list.Total = total
	} else if err := s.Engine().Read().QueryRow(ctx, `SELECT count(*) FROM `+from+` WHERE `+w, args...).Scan(&list.Total); err != nil {
		return list, fmt.Errorf("count titles: %w", err)
	}
	if list.Total <= q.Page.Offset() {
		return list, nil
	}
	limit, offset := args.Add(q.Page.Count), args.Add(q.Page.Offset())
	rows, err := s.Engine().Read().Query(ctx, `SELECT `+kbsql.SQLTitleColumns+` FROM `+from+` WHERE `+w+` ORDER BY `+order+` LIMIT `+limit+` OFFSET `+offset, args...)
	if err != nil {
		return list, fmt.Errorf("list titles: %w", err)
	}
	if list.Titles, err = kbsql.ScanTitles(rows); err != nil {
		return list, fmt.Errorf("list titles: %w", err)
	}
	if err := s.CompleteTitles(ctx, custID, root, list.Titles, q.PackageID); err != nil {
		return list, err
	}
	return list, nil
}
