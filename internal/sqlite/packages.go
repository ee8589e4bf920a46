package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// SQL fragments for a package p and its customer state cp (joined for the
// customer :cust). A package's selected count is the package's title count
// less its title-level deselections when the package is selected, or its
// title-level selections when it is not: the cost is the number of
// exceptions, not the package's size.
const (
	sqlPackageVisible = `(p.customer_id IS NULL OR p.customer_id = :cust)`
	sqlJoinCP         = `LEFT JOIN customer_packages cp ON cp.customer_id = :cust AND cp.package_id = p.id`
	sqlSelectedCount  = `CASE WHEN COALESCE(cp.selected, 0) = 1
		THEN p.title_count - (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = :cust AND cr.package_id = p.id AND cr.selected = 0)
		ELSE (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = :cust AND cr.package_id = p.id AND cr.selected = 1) END`
	sqlPackageSelected = `(COALESCE(cp.selected, 0) = 1 OR EXISTS (SELECT 1 FROM customer_resources cr
		WHERE cr.customer_id = :cust AND cr.package_id = p.id AND cr.selected = 1))`
	// The columns scanPackage reads: head, a selected count, tail.
	sqlPackageColumnsHead = `p.id, p.name, p.vendor_id, v.name, p.customer_id IS NOT NULL, p.content_type, p.package_type,
		p.title_count, COALESCE(cp.selected, 0), COALESCE(cp.hidden, 0), `
	sqlPackageColumnsTail = `,
		p.token_fact, p.token_prompt, p.token_help, cp.token_value, COALESCE(cp.cov_begin, ''), COALESCE(cp.cov_end, ''),
		COALESCE(cp.allow_add, 0), cp.proxy_id,
		(SELECT cv.proxy_id FROM customer_vendors cv WHERE cv.customer_id = :cust AND cv.vendor_id = p.vendor_id)`
	sqlPackageColumns = sqlPackageColumnsHead + sqlSelectedCount + sqlPackageColumnsTail
)

// selectionFilter returns the SQL condition of a selection filter over the
// expression sel (true when selected); orderedthroughoperator selects
// nothing, since kbserver takes no orders.
func selectionFilter(s kb.Selection, sel string) string {
	switch s {
	case kb.SelectionSelected:
		return sel
	case kb.SelectionNotSelected:
		return "NOT " + sel
	case kb.SelectionOrderedThroughOperator:
		return "0"
	}
	return ""
}

// ftsPrefixQuery turns a search string into an FTS5 query in which every
// word must match as a word prefix; "" when it has no words.
func ftsPrefixQuery(s string) string {
	ws := kbsql.Words(s)
	for i, w := range ws {
		ws[i] = quote(w) + "*"
	}
	return strings.Join(ws, " AND ")
}

// nameSearch returns the join that restricts the rows of alias to those
// whose name matches search in the FTS5 table, ranked as m.rank, and adds
// its argument to args. ok is false when search can match nothing (only
// punctuation); the join is "" when there is no search.
func nameSearch(table, alias, search string, args *[]any) (join string, ok bool) {
	m := ftsPrefixQuery(search)
	if m == "" {
		return "", strings.TrimSpace(search) == ""
	}
	*args = append(*args, sql.Named("q", m))
	return ` JOIN (SELECT rowid AS id, bm25(` + table + `) AS rank FROM ` + table + ` WHERE ` + table + ` MATCH :q) m ON m.id = ` + alias + `.id`, true
}

// quote quotes a word as an FTS5 string.
func quote(w string) string { return `"` + strings.ReplaceAll(w, `"`, `""`) + `"` }

// rootProxy returns the customer's root proxy id.
func (s *Store) rootProxy(ctx context.Context, custID string) (string, error) {
	var id string
	err := s.r.QueryRowContext(ctx, `SELECT root_proxy FROM customers WHERE id = ?`, custID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", kb.NotFound("Customer")
	}
	if err != nil {
		return "", fmt.Errorf("customer %s: %w", custID, err)
	}
	return id, nil
}

func scanPackage(sc interface{ Scan(...any) error }, root string) (kb.Package, error) {
	var p kb.Package
	var ct, pt, sel, hidden int
	var tf, tp, th, tv, proxy, vendorProxy sql.NullString
	if err := sc.Scan(&p.ID, &p.Name, &p.VendorID, &p.VendorName, &p.IsCustom, &ct, &pt, &p.TitleCount, &sel, &hidden,
		&p.SelectedCount, &tf, &tp, &th, &tv, &p.CustomCoverage.Begin, &p.CustomCoverage.End, &p.AllowOperatorToAddTitles,
		&proxy, &vendorProxy); err != nil {
		return p, err
	}
	p.ContentType, p.PackageType = kb.ContentType(ct), kb.PackageType(pt)
	p.IsSelected = sel == 1 || p.SelectedCount > 0
	p.Visibility = kbsql.Visibility(hidden == 1)
	p.Proxy = effectiveProxy(proxy, vendorProxy.String, root)
	if tf.Valid {
		p.IsTokenNeeded = true
		p.Token = &kb.Token{FactName: tf.String, Prompt: tp.String, HelpText: th.String, Value: tv.String}
	}
	return p, nil
}

// effectiveProxy is kbsql.EffectiveProxy of an own setting read as a
// nullable column (NULL: inherited).
func effectiveProxy(own sql.NullString, inherited ...string) kb.ProxyRef {
	return kbsql.EffectiveProxy(own.String, own.Valid, inherited...)
}

// Packages lists packages in the customer's context.
func (s *Store) Packages(ctx context.Context, custID string, q kb.PackageQuery) (kb.PackageList, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.PackageList{}, err
	}
	args := []any{sql.Named("cust", custID)}
	from := `packages p JOIN vendors v ON v.id = p.vendor_id ` + sqlJoinCP
	where := []string{sqlPackageVisible}
	order := "p.sort_name, p.id"
	join, ok := nameSearch("package_fts", "p", q.Search, &args)
	if !ok {
		return kb.PackageList{Packages: []kb.Package{}}, nil
	}
	if join != "" {
		from += join
		if q.OrderBy != kb.OrderName {
			order = "m.rank, p.sort_name, p.id"
		}
	}
	if q.VendorID != 0 {
		where = append(where, "p.vendor_id = :vendor")
		args = append(args, sql.Named("vendor", q.VendorID))
	}
	if q.ContentType != kb.ContentAll {
		where = append(where, "p.content_type = :ct")
		args = append(args, sql.Named("ct", int(q.ContentType)))
	}
	if f := selectionFilter(q.Selection, sqlPackageSelected); f != "" {
		where = append(where, f)
	}
	var list kb.PackageList
	list.Total, list.Packages, err = listPage(ctx, s.r, sqlPackageColumns, from, strings.Join(where, " AND "), order, args, q.Page,
		func(rows *sql.Rows) (kb.Package, error) { return scanPackage(rows, root) })
	if err != nil {
		return list, fmt.Errorf("list packages: %w", err)
	}
	return list, nil
}

// listPage counts the rows FROM from WHERE where and reads the page of them
// in order, with scan.
func listPage[T any](ctx context.Context, db *sql.DB, columns, from, where, order string, args []any, page kb.Page,
	scan func(*sql.Rows) (T, error)) (int, []T, error) {
	items := []T{}
	var total int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM `+from+` WHERE `+where, args...).Scan(&total); err != nil {
		return 0, items, err
	}
	if total <= page.Offset() {
		return total, items, nil
	}
	args = append(args, sql.Named("limit", page.Count), sql.Named("offset", page.Offset()))
	rows, err := db.QueryContext(ctx, `SELECT `+columns+` FROM `+from+` WHERE `+where+` ORDER BY `+order+` LIMIT :limit OFFSET :offset`, args...)
	if err != nil {
		return total, items, err
	}
	defer rows.Close()
	for rows.Next() {
		item, err := scan(rows)
		if err != nil {
			return total, items, err
		}
		items = append(items, item)
	}
	return total, items, rows.Err()
}

// Package returns one package of a vendor in the customer's context.
func (s *Store) Package(ctx context.Context, custID string, vendorID, packageID int64) (kb.Package, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.Package{}, err
	}
	return s.pkg(ctx, custID, root, vendorID, packageID)
}

// pkg is Package for a caller that has read the customer's root proxy.
func (s *Store) pkg(ctx context.Context, custID, root string, vendorID, packageID int64) (kb.Package, error) {
	row := s.r.QueryRowContext(ctx, `SELECT `+sqlPackageColumns+` FROM packages p JOIN vendors v ON v.id = p.vendor_id `+sqlJoinCP+`
		WHERE p.id = :id AND p.vendor_id = :vendor AND `+sqlPackageVisible,
		sql.Named("cust", custID), sql.Named("id", packageID), sql.Named("vendor", vendorID))
	p, err := scanPackage(row, root)
	if errors.Is(err, sql.ErrNoRows) {
		if _, verr := s.Vendor(ctx, custID, vendorID); verr != nil {
			return p, verr
		}
		return p, kb.NotFound("Package")
	}
	if err != nil {
		return p, fmt.Errorf("package %d: %w", packageID, err)
	}
	return p, nil
}
