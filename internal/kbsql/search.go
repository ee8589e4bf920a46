package kbsql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// The lists of the holdings service (vendors, packages and titles). The
// search service (package search) matches titles and the vendors' and
// packages' names: the stores keep no text index. A vendor or package
// list takes the names it matched in its query (package_search.go); a
// title search asks the store only for the titles it found, by id
// (TitlesAt).

// Match is how a name search restricts and ranks rows: a condition on the
// rows and the rank that orders the best matches first ("" for none).
// Arguments have gone to the Args the search was given.
type Match struct {
	Cond string
	Rank string
}

// orderBy returns the ORDER BY of matches: rank first when there is one.
func (m Match) orderBy(byName string) string {
	if m.Rank == "" {
		return byName
	}
	return m.Rank + ", " + byName
}

// nameList reads a page of vendors or packages (alias v or p) in from,
// where, with a name search, counting them FROM countFrom (see
// countedPage).
func nameList[T any](ctx context.Context, s *Store, alias, columns, from, countFrom string, where []string, args Args, search string,
	names *kb.NameMatches, byName bool, page kb.Page, scan func(Rows) (T, error)) (int, []T, error) {
	if err := kb.CheckSearch("Search", search); err != nil {
		return 0, nil, err
	}
	m, none, err := s.nameMatch(ctx, alias, search, names, &args)
	if err != nil {
		return 0, nil, err // nameCond says it was matching names
	}
	if none {
		return 0, []T{}, nil
	}
	order := alias + ".sort_name, " + alias + ".id"
	if m.Cond != "" {
		where = append(where, m.Cond)
	}
	if !byName {
		order = m.orderBy(order)
	}
	return countedPage(ctx, s.e.Read(), columns, from, countFrom, strings.Join(where, " AND "), order, args, page, scan)
}

// Vendors lists the managed vendors and the customer's own vendor.
func (s *Store) Vendors(ctx context.Context, custID string, q kb.VendorQuery) (kb.VendorList, error) {
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return kb.VendorList{}, err
	}
	var list kb.VendorList
	list.Total, list.Vendors, err = nameList(ctx, s, "v", SQLVendorColumns, `vendors v`, `vendors v`, []string{SQLVendorVisible}, Args{custID},
		q.Search, q.Names, q.OrderBy == kb.OrderName, q.Page, func(rows Rows) (kb.Vendor, error) { return ScanVendor(rows, root) })
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
	args := Args{custID}
	where := []string{sqlPackageVisible}
	// The count reads only the joins the conditions need: counting
	// through the vendor and the customer's state costs several times
	// more (BENCHMARKS.md).
	needCP := false
	if q.VendorID != 0 {
		where = append(where, "p.vendor_id = "+args.Add(q.VendorID))
	}
	if q.ContentType != kb.ContentAll {
		where = append(where, "p.content_type = "+args.Add(int(q.ContentType)))
	}
	if f := SelectionFilter(q.Selection, SQLPackageSelected); f != "" {
		where, needCP = append(where, f), true
	}
	if f := visibilityCondition(q.Visibility); f != "" {
		where, needCP = append(where, f), true
	}
	search := q.Search
	if q.Match != kb.PackageMatchWords || q.Keyword {
		// The hosted service's other searches (kb.PackageMatch), with no
		// relevance rank: a list ordered by relevance falls back to name
		// order.
		if err := kb.CheckSearch("Search", search); err != nil {
			return kb.PackageList{}, err
		}
		if strings.TrimSpace(search) != "" {
			cond, none, err := s.nameCond(ctx, "p", kb.NameSearch{Kind: kb.NamePackages, Search: search, Match: q.Match, Keyword: q.Keyword}, q.Names, &args)
			if err != nil {
				return kb.PackageList{}, fmt.Errorf("list packages: %w", err)
			}
			if none {
				return kb.PackageList{Packages: []kb.Package{}}, nil
			}
			where = append(where, cond)
		}
		search = ""
	}
	countFrom := `packages p`
	if needCP {
		countFrom += ` ` + sqlJoinCP
	}
	var list kb.PackageList
	list.Total, list.Packages, err = nameList(ctx, s, "p", SQLPackageColumns, SQLPackageFrom, countFrom, where, args, search, q.Names, q.OrderBy == kb.OrderName,
		q.Page, func(rows Rows) (kb.Package, error) { return ScanPackage(rows, root) })
	if err != nil {
		return list, fmt.Errorf("list packages: %w", err)
	}
	return list, nil
}

// CollectionPackages lists the packages of the customer's collection:
// those it selected whole or in part, not hidden, with at least one title
// in the collection. Their selectedCount counts those titles only. A name
// search matches every word as a prefix and ranks by relevance unless q
// orders by name.
func (s *Store) CollectionPackages(ctx context.Context, custID string, q kb.CollectionPackageQuery) (kb.PackageList, error) {
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return kb.PackageList{}, err
	}
	args := Args{custID}
	where := []string{sqlPackageVisible, SQLCollectionPackageIDs, `COALESCE(cp.hidden, FALSE) = FALSE`, `(` + SQLCollectionCount + `) > 0`}
	if q.ContentType != kb.ContentAll {
		where = append(where, "p.content_type = "+args.Add(int(q.ContentType)))
	}
	page := q.Page
	if page.Count == 0 {
		page = kb.Page{Count: 1 << 30, Number: 1}
	}
	var list kb.PackageList
	list.Total, list.Packages, err = nameList(ctx, s, "p", SQLCollectionPackageColumns, SQLPackageFrom, `packages p `+sqlJoinCP, where, args, q.Search, q.Names, q.ByName,
		page, func(rows Rows) (kb.Package, error) { return ScanPackage(rows, root) })
	if err != nil {
		return list, fmt.Errorf("list collection packages: %w", err)
	}
	return list, nil
}

// PackageNames returns the names of the packages with the ids that the
// customer may see.
func (s *Store) PackageNames(ctx context.Context, custID string, ids []int64) (map[int64]string, error) {
	names := make(map[int64]string, len(ids))
	if len(ids) == 0 {
		return names, nil
	}
	err := EachRow(ctx, s.e.Read(), `SELECT id, name FROM packages WHERE `+s.d.InIDs("id", "$1")+` AND (customer_id IS NULL OR customer_id = $2)`,
		[]any{ids, custID}, func(r Rows) error {
			var id int64
			var name string
			if err := r.Scan(&id, &name); err != nil {
				return err
			}
			names[id] = name
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read package names: %w", err)
	}
	return names, nil
}

// Titles lists titles in the customer's context.
func (s *Store) Titles(ctx context.Context, custID string, q kb.TitleQuery) (kb.TitleList, error) {
	list := kb.TitleList{Titles: []kb.Title{}}
	if strings.TrimSpace(q.Search) != "" {
		return list, errors.New("list titles: a title search is the search service's (finder.Service.Titles)")
	}
	at, err := s.CustomerVersions(ctx, custID)
	if err != nil {
		return list, err
	}
	root := at.Root
	total := -1 // unknown until counted
	if q.PackageID != 0 {
		p, err := s.PackageOf(ctx, custID, root, q.VendorID, q.PackageID)
		if err != nil {
			return list, err
		}
		total = PackageTitleTotal(p, q)
	}
	args := Args{custID}
	where := []string{sqlTitleVisible}
	from, order := `titles t`, "t.sort_name, t.id"
	if q.PackageID != 0 {
		// The package's resources in name order: one index range.
		from, order = `resources r JOIN titles t ON t.id = r.title_id`, "r.sort_name, r.title_id"
		where = append(where, "r.package_id = "+args.Add(q.PackageID))
		if f := SelectionFilter(q.Selection, SQLResourceSelected); f != "" {
			where = append(where, f)
		}
	} else if f := SelectionFilter(q.Selection, `t.id IN (`+SQLSelectedTitleIDs+`)`); f != "" {
		where = append(where, f)
	}
	if q.ResourceType != kb.ResourceAll {
		where = append(where, "t.pub_type = "+args.Add(int(q.ResourceType)))
	}
	if len(q.PackageIDs) > 0 {
		ids := make([]string, len(q.PackageIDs))
		for i, id := range q.PackageIDs {
			ids[i] = args.Add(id)
		}
		where = append(where, `t.id IN (SELECT r.title_id FROM resources r JOIN packages p ON p.id = r.package_id
			WHERE r.package_id IN (`+strings.Join(ids, ", ")+`) AND `+sqlPackageVisible+`)`)
	}
	w := strings.Join(where, " AND ")
	read := s.e.Read()
	if total >= 0 {
		list.Total = total
	} else if err := read.QueryRow(ctx, `SELECT count(*) FROM `+from+` WHERE `+w, args...).Scan(&list.Total); err != nil {
		return list, fmt.Errorf("count titles: %w", err)
	}
	if list.Total <= q.Page.Offset() {
		return list, nil
	}
	limit, offset := args.Add(q.Page.Count), args.Add(q.Page.Offset())
	rows, err := read.Query(ctx, `SELECT `+SQLTitleColumns+` FROM `+from+` WHERE `+w+` ORDER BY `+order+` LIMIT `+limit+` OFFSET `+offset, args...)
	if err != nil {
		return list, fmt.Errorf("list titles: %w", err)
	}
	if list.Titles, err = ScanTitles(rows); err != nil {
		return list, fmt.Errorf("list titles: %w", err)
	}
	if err := s.completeTitlesAt(ctx, custID, root, list.Titles, q.PackageID, at.KB, at.Customer); err != nil {
		return list, err
	}
	return list, nil
}
