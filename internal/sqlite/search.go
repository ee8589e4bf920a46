package sqlite

import (
	"strings"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The translation of the searches of both services into SQL over SQLite's
// FTS5 indexes (kbsql.Search); the shared store runs the lists.

// maxRune sorts after every other character: s <= x < s+maxRune is a prefix range.
const maxRune = kbsql.MaxRune

// search is SQLite's translation of searches (kbsql.Search), over the
// FTS5 indexes.
type search struct{}

// TitleMatch is buildTitleMatch's kbsql.Match: the subquery of (id, rank)
// rows or the condition.
func (search) TitleMatch(q kb.TitleQuery, args *kbsql.Args) (kbsql.Match, error) {
	m, err := buildTitleMatch(q, args)
	if m.sub != "" {
		return kbsql.Match{Sub: m.sub, Rank: "m.rank"}, err
	}
	return kbsql.Match{Cond: m.cond, None: m.none}, err
}

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
	ws := kb.Words(search)
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
		return titleMatch{cond: sortCol + " = " + args.Add(kb.Fold(search)), sort: sortCol}, nil
	case kb.SearchBeginsWith:
		if q.Field == kb.FieldSubject {
			return word(phrase + "*"), nil
		}
		f := kb.Fold(search)
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

// quote quotes a word as an FTS5 string.
func quote(w string) string { return `"` + strings.ReplaceAll(w, `"`, `""`) + `"` }
