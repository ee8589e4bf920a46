package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// SQL fragments for a package p and its customer state cp. In every read
// query built from them, $1 is the customer's id. A package's selected
// count is the package's title count less its title-level deselections
// when the package is selected, or its title-level selections when it is
// not: the cost is the number of exceptions, not the package's size.
const (
	sqlPackageVisible = `(p.customer_id IS NULL OR p.customer_id = $1)`
	sqlJoinCP         = `LEFT JOIN customer_packages cp ON cp.customer_id = $1 AND cp.package_id = p.id`
	sqlSelectedCount  = `CASE WHEN COALESCE(cp.selected, false)
		THEN p.title_count - (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = $1 AND cr.package_id = p.id AND cr.selected = false)
		ELSE (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = $1 AND cr.package_id = p.id AND cr.selected) END`
	sqlPackageSelected = `(COALESCE(cp.selected, false) OR EXISTS (SELECT 1 FROM customer_resources cr
		WHERE cr.customer_id = $1 AND cr.package_id = p.id AND cr.selected))`
	// The columns scanPackage reads: head, a selected count, tail.
	sqlPackageColumnsHead = `p.id, p.name, p.vendor_id, v.name, p.customer_id IS NOT NULL, p.content_type, p.package_type,
		p.title_count, COALESCE(cp.selected, false), COALESCE(cp.hidden, false), `
	sqlPackageColumnsTail = `,
		p.token_fact, p.token_prompt, p.token_help, cp.token_value, COALESCE(cp.cov_begin, ''), COALESCE(cp.cov_end, ''),
		COALESCE(cp.allow_add, false), cp.proxy_id,
		(SELECT cv.proxy_id FROM customer_vendors cv WHERE cv.customer_id = $1 AND cv.vendor_id = p.vendor_id)`
	sqlPackageColumns = sqlPackageColumnsHead + sqlSelectedCount + sqlPackageColumnsTail
	sqlPackageFrom    = `packages p JOIN vendors v ON v.id = p.vendor_id ` + sqlJoinCP
)

// params collects the arguments of a query built piece by piece: add
// returns the placeholder of a new one.
type params []any

// add appends v and returns its placeholder, $n.
func (a *params) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// selectionFilter returns the SQL condition of a selection filter over the
// boolean expression sel; orderedthroughoperator selects nothing, since
// kbserver takes no orders.
func selectionFilter(s kb.Selection, sel string) string {
	switch s {
	case kb.SelectionSelected:
		return sel
	case kb.SelectionNotSelected:
		return "NOT " + sel
	case kb.SelectionOrderedThroughOperator:
		return "false"
	}
	return ""
}

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
func nameSearch(alias, search string, args *params) (cond, rank string, ok bool) {
	q := prefixQuery(search, "")
	if q == "" {
		return "", "", strings.TrimSpace(search) == ""
	}
	tq := `to_tsquery('simple', ` + args.add(q) + `)`
	return alias + `.fts @@ ` + tq, `-ts_rank(` + alias + `.fts, ` + tq + `)`, true
}

// rootProxy returns the customer's root proxy id, or "Customer not found".
func (s *Store) rootProxy(ctx context.Context, custID string) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT root_proxy FROM customers WHERE id = $1`, custID).Scan(&id)
	if noRows(err) {
		return "", kb.NotFound("Customer")
	}
	if err != nil {
		return "", fmt.Errorf("customer %s: %w", custID, err)
	}
	return id, nil
}

// scanPackage reads the columns sqlPackageColumns; root is the customer's
// root proxy.
func scanPackage(row pgx.Row, root string) (kb.Package, error) {
	var p kb.Package
	var ct, pt int
	var sel, hidden bool
	var tf, tp, th, tv, proxy, vendorProxy *string
	if err := row.Scan(&p.ID, &p.Name, &p.VendorID, &p.VendorName, &p.IsCustom, &ct, &pt, &p.TitleCount, &sel, &hidden,
		&p.SelectedCount, &tf, &tp, &th, &tv, &p.CustomCoverage.Begin, &p.CustomCoverage.End, &p.AllowOperatorToAddTitles,
		&proxy, &vendorProxy); err != nil {
		return p, err
	}
	p.ContentType, p.PackageType = kb.ContentType(ct), kb.PackageType(pt)
	p.IsSelected = sel || p.SelectedCount > 0
	p.Visibility = kbsql.Visibility(hidden)
	p.Proxy = effectiveProxy(proxy, str(vendorProxy), root)
	if tf != nil {
		p.IsTokenNeeded = true
		p.Token = &kb.Token{FactName: *tf, Prompt: str(tp), HelpText: str(th), Value: str(tv)}
	}
	return p, nil
}

// effectiveProxy is kbsql.EffectiveProxy of an own setting read as a
// nullable column (nil: inherited).
func effectiveProxy(own *string, inherited ...string) kb.ProxyRef {
	return kbsql.EffectiveProxy(str(own), own != nil, inherited...)
}

// str is the string a nullable column holds, "" for NULL.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Packages lists packages in the customer's context.
func (s *Store) Packages(ctx context.Context, custID string, q kb.PackageQuery) (kb.PackageList, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.PackageList{}, err
	}
	args := params{custID}
	where := []string{sqlPackageVisible}
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
		where = append(where, "p.vendor_id = "+args.add(q.VendorID))
	}
	if q.ContentType != kb.ContentAll {
		where = append(where, "p.content_type = "+args.add(int(q.ContentType)))
	}
	if f := selectionFilter(q.Selection, sqlPackageSelected); f != "" {
		where = append(where, f)
	}
	var list kb.PackageList
	list.Total, list.Packages, err = listPage(ctx, s, sqlPackageColumns, sqlPackageFrom, strings.Join(where, " AND "), order, args, q.Page,
		func(rows pgx.Rows) (kb.Package, error) { return scanPackage(rows, root) })
	if err != nil {
		return list, fmt.Errorf("list packages: %w", err)
	}
	return list, nil
}

// listPage counts the rows FROM from WHERE where and reads the page of them
// in order, with scan.
func listPage[T any](ctx context.Context, s *Store, columns, from, where, order string, args params, page kb.Page,
	scan func(pgx.Rows) (T, error)) (int, []T, error) {
	items := []T{}
	var total int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM `+from+` WHERE `+where, args...).Scan(&total); err != nil {
		return 0, items, err
	}
	if total <= page.Offset() {
		return total, items, nil
	}
	limit, offset := args.add(page.Count), args.add(page.Offset())
	rows, err := s.pool.Query(ctx, `SELECT `+columns+` FROM `+from+` WHERE `+where+` ORDER BY `+order+` LIMIT `+limit+` OFFSET `+offset, args...)
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
	row := s.pool.QueryRow(ctx, `SELECT `+sqlPackageColumns+` FROM `+sqlPackageFrom+`
		WHERE p.id = $2 AND p.vendor_id = $3 AND `+sqlPackageVisible, custID, packageID, vendorID)
	p, err := scanPackage(row, root)
	if noRows(err) {
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
