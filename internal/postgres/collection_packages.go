package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
)

// sqlCollectionCount is the number of a package's titles in the
// customer's ($1) collection: its selected count less its hidden titles.
// Like sqlSelectedCount, its cost is the package's exceptions.
const sqlCollectionCount = `CASE WHEN COALESCE(cp.selected, false)
		THEN p.title_count - (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = $1 AND cr.package_id = p.id
			AND (cr.selected = false OR cr.hidden))
		ELSE (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = $1 AND cr.package_id = p.id
			AND cr.selected AND NOT cr.hidden) END`

// sqlCollectionPackageIDs lists the packages the customer ($1) selected
// whole or in part, not hidden: the candidates of its collection, found
// from its own state.
const sqlCollectionPackageIDs = `p.id IN (
		SELECT package_id FROM customer_packages WHERE customer_id = $1 AND selected AND NOT hidden
		UNION SELECT package_id FROM customer_resources WHERE customer_id = $1 AND selected AND NOT hidden)`

// CollectionPackages lists the packages of the customer's collection:
// those it selected whole or in part, not hidden, with at least one title
// in the collection. Their selectedCount counts those titles only. A name
// search matches every word as a prefix (packages.fts) and ranks by
// relevance unless q orders by name.
func (s *Store) CollectionPackages(ctx context.Context, custID string, q kb.CollectionPackageQuery) (kb.PackageList, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.PackageList{}, err
	}
	args := params{custID}
	where := []string{sqlPackageVisible, sqlCollectionPackageIDs,
		`NOT COALESCE(cp.hidden, false)`, `(` + sqlCollectionCount + `) > 0`}
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
		where = append(where, "p.content_type = "+args.add(int(q.ContentType)))
	}
	page := q.Page
	if page.Count == 0 {
		page = kb.Page{Count: 1 << 30, Number: 1}
	}
	var list kb.PackageList
	list.Total, list.Packages, err = listPage(ctx, s, sqlPackageColumnsHead+sqlCollectionCount+sqlPackageColumnsTail,
		sqlPackageFrom, strings.Join(where, " AND "), order, args, page,
		func(rows pgx.Rows) (kb.Package, error) { return scanPackage(rows, root) })
	if err != nil {
		return list, fmt.Errorf("list collection packages: %w", err)
	}
	return list, nil
}
