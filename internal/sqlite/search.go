package sqlite

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The searches of the holdings service over SQLite's FTS5 indexes: vendor,
// package and title lists. The rows they find are read with the shared
// store's columns and scans (internal/kbsql).

// maxRune sorts after every other character: s <= x < s+maxRune is a prefix range.
const maxRune = kbsql.MaxRune

// titleMatch is how a title search restricts and ranks titles: either a
// subquery of (id, rank) rows joined as m, or a condition on titles t.
type titleMatch struct {
	sub  string // SELECT id, rank ...; "" when cond is used
	cond string // condition on t
	sort string // with cond: the sort column (t.sort_name or t.sort_publisher)
	none bool   // the search can match nothing (no words in it)
}

// ftsColumn is the title_fts column of a search field.
func ftsColumn(f kb.SearchField) string {
	switch f {
	case kb.FieldPublisher:
		return "publisher"
	case kb.FieldSubject:
		return "subjects"
	}
	return "name"
}

// buildTitleMatch translates a title search into SQL over the indexes,
// adding its arguments to args: the FTS5 word index (bm25 relevance), the
// FTS5 trigram index (substrings), the folded-name B-tree indexes (exact
// and begins-with) and the identifier index (ISSN/ISBN). None of them
// scans the title table. Ordered by name (q.OrderBy is kb.OrderName), the
// rank is 0: bm25 is most of the cost of a broad word search.
func buildTitleMatch(q kb.TitleQuery, args *kbsql.Args) (titleMatch, error) {
	rank := func(table string) string {
		if q.OrderBy == kb.OrderName {
			return "0"
		}
		return "bm25(" + table + ")"
	}
	search := strings.TrimSpace(q.Search)
	if q.Field == kb.FieldISXN {
		return isxnMatch(search, q.Type, args), nil
	}
	col := ftsColumn(q.Field)
	sortCol := "t.sort_name"
	if q.Field == kb.FieldPublisher {
		sortCol = "t.sort_publisher"
	}
	var advanced string
	if q.Type == kb.SearchAdvanced {
		var err error
		if advanced, err = advancedQuery(search); err != nil {
			return titleMatch{}, err
		}
	}
	ws := kbsql.Words(search)
	if len(ws) == 0 {
		return titleMatch{none: true}, nil
	}
	phrase := quote(strings.Join(ws, " "))
	word := func(expr string) titleMatch {
		return titleMatch{sub: `SELECT rowid AS id, ` + rank("title_fts") + ` AS rank FROM title_fts WHERE title_fts MATCH ` +
			args.Add("{"+col+"} : ("+expr+")")}
	}
	switch q.Type {
	case kb.SearchExactMatch:
		if q.Field == kb.FieldSubject {
			return word(phrase), nil
		}
		return titleMatch{cond: sortCol + " = " + args.Add(kbsql.Fold(search)), sort: sortCol}, nil
	case kb.SearchBeginsWith:
		if q.Field == kb.FieldSubject {
			return word(phrase + "*"), nil
		}
		f := kbsql.Fold(search)
		return titleMatch{cond: sortCol + " >= " + args.Add(f) + " AND " + sortCol + " < " + args.Add(f+maxRune), sort: sortCol}, nil
	case kb.SearchAny:
		return word(joinQuoted(ws, " OR ", "")), nil
	case kb.SearchProximity:
		if len(ws) == 1 {
			return word(quote(ws[0])), nil
		}
		return word("NEAR(" + joinQuoted(ws, " ", "") + ", 10)"), nil
	case kb.SearchExactPhrase:
		return word(phrase), nil
	case kb.SearchAdvanced:
		return word(advanced), nil
	}
	return containsMatch(ws, col, rank, args), nil
}

// TitleSearchSQL returns the bare index query of a title search: a SELECT
// of (id, rank) rows over the search indexes that Titles counts and pages
// (without the customer's visibility, filters or title rows), the ORDER BY
// of its first page in the index's order, and its arguments; none when the
// search can match nothing. Load tools run it as the floor of what a title
// search can cost on this schema.
func TitleSearchSQL(q kb.TitleQuery) (query, order string, args []any, none bool, err error) {
	var a kbsql.Args
	m, err := buildTitleMatch(q, &a)
	switch {
	case err != nil || m.none:
		return "", "", nil, m.none, err
	case m.sub != "":
		return m.sub, "rank", a, false, nil
	}
	return `SELECT t.id AS id, 0 AS rank FROM titles t WHERE ` + m.cond, m.sort + ", t.id", a, false, nil
}

// containsMatch matches titles whose field contains every word as a
// substring: words of three or more characters through the trigram index,
// shorter words (which a trigram cannot hold) as word prefixes.
func containsMatch(ws []string, col string, rank func(table string) string, args *kbsql.Args) titleMatch {
	var long, short []string
	for _, w := range ws {
		if utf8.RuneCountInString(w) >= 3 && col != "subjects" {
			long = append(long, w)
		} else {
			short = append(short, w)
		}
	}
	shortQ := "{" + col + "} : (" + joinQuoted(short, " AND ", "*") + ")"
	if len(long) == 0 {
		return titleMatch{sub: `SELECT rowid AS id, ` + rank("title_fts") + ` AS rank FROM title_fts WHERE title_fts MATCH ` + args.Add(shortQ)}
	}
	m := titleMatch{sub: `SELECT rowid AS id, ` + rank("title_tri") + ` AS rank FROM title_tri WHERE title_tri MATCH ` +
		args.Add("{"+col+"} : ("+joinQuoted(long, " AND ", "")+")")}
	if len(short) > 0 {
		m.sub += ` AND +rowid IN (SELECT rowid FROM title_fts WHERE title_fts MATCH ` + args.Add(shortQ) + `)`
	}
	return m
}

func joinQuoted(ws []string, sep, suffix string) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(quote(w))
		b.WriteString(suffix)
	}
	return b.String()
}

// isxnMatch matches ISSNs and ISBNs, with or without hyphens, an ISBN-10
// finding its ISBN-13. Begins-with and contains match a prefix of the
// identifier; the other search types match it whole.
func isxnMatch(search string, t kb.SearchType, args *kbsql.Args) titleMatch {
	n, issn := kbsql.ISXNForms(search)
	if n == "" {
		return titleMatch{none: true}
	}
	if t == kb.SearchBeginsWith || t == kb.SearchContains {
		return titleMatch{sub: `SELECT DISTINCT title_id AS id, 0 AS rank FROM title_identifiers
			WHERE (norm >= ` + args.Add(n) + ` AND norm < ` + args.Add(n+maxRune) + `) OR (norm >= ` + args.Add(issn) + ` AND norm < ` + args.Add(issn+maxRune) + `)`}
	}
	return titleMatch{sub: `SELECT DISTINCT title_id AS id, 0 AS rank FROM title_identifiers WHERE norm IN (` + args.Add(n) + `, ` + args.Add(issn) + `)`}
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
func nameSearch(table, alias, search string, args *kbsql.Args) (join string, ok bool) {
	m := ftsPrefixQuery(search)
	if m == "" {
		return "", strings.TrimSpace(search) == ""
	}
	return ` JOIN (SELECT rowid AS id, bm25(` + table + `) AS rank FROM ` + table + ` WHERE ` + table + ` MATCH ` + args.Add(m) +
		`) m ON m.id = ` + alias + `.id`, true
}

// quote quotes a word as an FTS5 string.
func quote(w string) string { return `"` + strings.ReplaceAll(w, `"`, `""`) + `"` }

// Vendors lists the managed vendors and the customer's own vendor.
func (s *Store) Vendors(ctx context.Context, custID string, q kb.VendorQuery) (kb.VendorList, error) {
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return kb.VendorList{}, err
	}
	args := kbsql.Args{custID}
	from := `vendors v`
	order := "v.sort_name, v.id"
	join, ok := nameSearch("vendor_fts", "v", q.Search, &args)
	if !ok {
		return kb.VendorList{Vendors: []kb.Vendor{}}, nil
	}
	if join != "" {
		from += join
		if q.OrderBy != kb.OrderName {
			order = "m.rank, v.sort_name, v.id"
		}
	}
	var list kb.VendorList
	list.Total, list.Vendors, err = kbsql.ListPage(ctx, s.Engine().Read(), kbsql.SQLVendorColumns, from, kbsql.SQLVendorVisible, order, args, q.Page,
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
	from := kbsql.SQLPackageFrom
	where := []string{kbsql.SQLPackageVisible}
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
		where = append(where, "p.vendor_id = "+args.Add(q.VendorID))
	}
	if q.ContentType != kb.ContentAll {
		where = append(where, "p.content_type = "+args.Add(int(q.ContentType)))
	}
	if f := kbsql.SelectionFilter(q.Selection, kbsql.SQLPackageSelected); f != "" {
		where = append(where, f)
	}
	var list kb.PackageList
	list.Total, list.Packages, err = kbsql.ListPage(ctx, s.Engine().Read(), kbsql.SQLPackageColumns, from, strings.Join(where, " AND "), order, args, q.Page,
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
	var from, order string
	search := strings.TrimSpace(q.Search) != ""
	var m titleMatch
	if search {
		var err error
		if m, err = buildTitleMatch(q, &args); err != nil {
			return list, err
		}
		if m.none {
			return list, nil
		}
	}
	switch {
	case search && m.sub != "":
		from = `(` + m.sub + `) m JOIN titles t ON t.id = m.id`
		order = "m.rank, t.sort_name, t.id"
	case search:
		from = `titles t`
		where = append(where, m.cond)
		order = "t.sort_name, t.id"
	case q.PackageID != 0:
		from = `resources r JOIN titles t ON t.id = r.title_id`
		order = "r.sort_name, r.title_id"
	default:
		from = `titles t`
		order = "t.sort_name, t.id"
	}
	if q.OrderBy == kb.OrderName || (q.OrderBy == kb.OrderDefault && !search) {
		order = "t.sort_name, t.id"
		if !search && q.PackageID != 0 {
			order = "r.sort_name, r.title_id"
		}
	}
	if q.PackageID != 0 {
		if search {
			from += ` JOIN resources r ON r.title_id = t.id`
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
	read := s.Engine().Read()
	if total >= 0 {
		list.Total = total
	} else if err := read.QueryRow(ctx, countTitles(from, w, m, q), args...).Scan(&list.Total); err != nil {
		return list, fmt.Errorf("count titles: %w", err)
	}
	if list.Total <= q.Page.Offset() {
		return list, nil
	}
	limit, offset := args.Add(q.Page.Count), args.Add(q.Page.Offset())
	rows, err := read.Query(ctx, `SELECT `+kbsql.SQLTitleColumns+` FROM `+from+` WHERE `+w+` ORDER BY `+order+` LIMIT `+limit+` OFFSET `+offset, args...)
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

// countTitles returns the query that counts a title list's matches. A
// search with no other filter counts the index's matches without joining
// a title row to each (the join was most of the count's cost): every
// match is visible but the custom titles of other customers, which are
// few and found by their own index.
func countTitles(from, where string, m titleMatch, q kb.TitleQuery) string {
	if m.sub != "" && q.PackageID == 0 && q.Selection == kb.SelectionAll && q.ResourceType == kb.ResourceAll {
		return `SELECT count(*) FROM (` + m.sub + `) m
			WHERE m.id NOT IN (SELECT id FROM titles WHERE customer_id IS NOT NULL AND customer_id <> $1)`
	}
	return `SELECT count(*) FROM ` + from + ` WHERE ` + where
}
