package main

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/kbserver/kbserver/internal/kb"
)

// rawQuery is the bare index query of a title search, the floor of what
// the store can do for it: the matching title ids straight from the index
// a search type and field use (FTS5 title_fts, trigram title_tri, the
// title_identifiers norm index, the titles sort_name and sort_publisher
// ranges), with no join to titles, no customer state and no resources.
//
// It mirrors buildTitleMatch in internal/sqlite/search.go, which is not
// exported; TestRawQueryCounts checks on a real knowledge base that both
// count the same titles for every search type and field.
type rawQuery struct {
	ids   string // SELECT … AS id FROM … WHERE …: the matches
	order string // ORDER BY of the first page (the index's order: bm25, or the name), "" for none
	args  []any
	none  bool // the search can match nothing (no words in it)
}

// countSQL counts the matches.
func (r rawQuery) countSQL() string { return `SELECT count(*) FROM (` + r.ids + `)` }

// pageSQL reads the first page of ids (:limit) in the index's order.
func (r rawQuery) pageSQL() string {
	s := r.ids
	if r.order != "" {
		s += " ORDER BY " + r.order
	}
	return s + " LIMIT :limit"
}

// exactSQL counts the matches the customer (:cust) sees: what the API's
// totalResults must be (a customer's custom titles are invisible to the
// others).
func (r rawQuery) exactSQL() string {
	return `SELECT count(*) FROM (` + r.ids + `) m JOIN titles t ON t.id = m.id WHERE t.customer_id IS NULL OR t.customer_id = :cust`
}

// maxRune sorts after every other character: s <= x < s+maxRune is a prefix range.
const maxRune = "\U0010FFFF"

// buildRawQuery translates a title search into its bare index query, as
// internal/sqlite's buildTitleMatch does (relevance order: kbbench never
// sets OrderBy).
func buildRawQuery(q kb.TitleQuery) (rawQuery, error) {
	search := strings.TrimSpace(q.Search)
	if q.Field == kb.FieldISXN {
		return isxnRaw(search, q.Type), nil
	}
	col := "name"
	sortCol := "sort_name"
	switch q.Field {
	case kb.FieldPublisher:
		col, sortCol = "publisher", "sort_publisher"
	case kb.FieldSubject:
		col = "subjects"
	}
	var advanced string
	if q.Type == kb.SearchAdvanced {
		var err error
		if advanced, err = advancedQuery(search); err != nil {
			return rawQuery{}, err
		}
	}
	ws := ftsWords(search)
	if len(ws) == 0 {
		return rawQuery{none: true}, nil
	}
	phrase := ftsQuote(strings.Join(ws, " "))
	word := func(expr string) rawQuery {
		return rawQuery{
			ids:   `SELECT rowid AS id FROM title_fts WHERE title_fts MATCH :m`,
			order: `bm25(title_fts)`,
			args:  []any{sql.Named("m", "{"+col+"} : ("+expr+")")},
		}
	}
	switch q.Type {
	case kb.SearchExactMatch:
		if q.Field == kb.FieldSubject {
			return word(phrase), nil
		}
		return rawQuery{ids: `SELECT id FROM titles WHERE ` + sortCol + ` = :m`, order: sortCol + ", id",
			args: []any{sql.Named("m", fold(search))}}, nil
	case kb.SearchBeginsWith:
		if q.Field == kb.FieldSubject {
			return word(phrase + "*"), nil
		}
		f := fold(search)
		return rawQuery{ids: `SELECT id FROM titles WHERE ` + sortCol + ` >= :m AND ` + sortCol + ` < :mhi`, order: sortCol + ", id",
			args: []any{sql.Named("m", f), sql.Named("mhi", f+maxRune)}}, nil
	case kb.SearchAny:
		return word(joinQuoted(ws, " OR ", "")), nil
	case kb.SearchProximity:
		if len(ws) == 1 {
			return word(ftsQuote(ws[0])), nil
		}
		return word("NEAR(" + joinQuoted(ws, " ", "") + ", 10)"), nil
	case kb.SearchExactPhrase:
		return word(phrase), nil
	case kb.SearchAdvanced:
		return word(advanced), nil
	}
	// contains: words of three or more characters through the trigram
	// index, shorter ones (and every subject word) as word prefixes.
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
		return word(joinQuoted(short, " AND ", "*")), nil
	}
	r := rawQuery{
		ids:   `SELECT rowid AS id FROM title_tri WHERE title_tri MATCH :m`,
		order: `bm25(title_tri)`,
		args:  []any{sql.Named("m", "{"+col+"} : ("+joinQuoted(long, " AND ", "")+")")},
	}
	if len(short) > 0 {
		r.ids += ` AND +rowid IN (SELECT rowid FROM title_fts WHERE title_fts MATCH :m2)`
		r.args = append(r.args, sql.Named("m2", shortQ))
	}
	return r, nil
}

// isxnRaw matches ISSNs and ISBNs as the store does: with or without
// hyphens, a prefix for beginswith and contains, else the whole identifier.
func isxnRaw(search string, t kb.SearchType) rawQuery {
	n := kb.NormalizeISXNQuery(search)
	if n == "" {
		return rawQuery{none: true}
	}
	issn := n
	if len(n) > 4 && len(n) <= 8 {
		issn = n[:4] + "-" + n[4:]
	}
	if t == kb.SearchBeginsWith || t == kb.SearchContains {
		return rawQuery{
			ids:  `SELECT DISTINCT title_id AS id FROM title_identifiers WHERE (norm >= :a AND norm < :ahi) OR (norm >= :b AND norm < :bhi)`,
			args: []any{sql.Named("a", n), sql.Named("ahi", n+maxRune), sql.Named("b", issn), sql.Named("bhi", issn+maxRune)},
		}
	}
	return rawQuery{
		ids:  `SELECT DISTINCT title_id AS id FROM title_identifiers WHERE norm IN (:a, :b)`,
		args: []any{sql.Named("a", n), sql.Named("b", issn)},
	}
}

// ftsQuote quotes a word or phrase for FTS5.
func ftsQuote(w string) string { return `"` + strings.ReplaceAll(w, `"`, `""`) + `"` }

func joinQuoted(ws []string, sep, suffix string) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(ftsQuote(w))
		b.WriteString(suffix)
	}
	return b.String()
}

// ftsWords splits a search into the words the FTS5 unicode61 tokenizer
// indexes: runs of letters, digits and combining marks.
func ftsWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r))
	})
}

// fold is the store's form of a name for exact and begins-with matching:
// lower case, diacritics removed, other punctuation than letters and
// digits turned into single spaces, trimmed.
func fold(s string) string {
	s = norm.NFD.String(s)
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
		default:
			space = true
		}
	}
	return b.String()
}

// advancedQuery translates an advanced search (words, "phrases", word*
// prefixes, AND, OR, NOT, parentheses) into an FTS5 expression, every
// word quoted, as the store does.
func advancedQuery(s string) (string, error) {
	var out []string
	depth := 0
	prevTerm := false
	toks, err := advancedTokens(s)
	if err != nil {
		return "", err
	}
	for i, t := range toks {
		switch t {
		case "AND", "OR", "NOT":
			if !prevTerm || i == len(toks)-1 {
				return "", errors.New("invalid advanced search: " + t + " needs a term on both sides")
			}
			out = append(out, t)
			prevTerm = false
		case "(":
			if prevTerm {
				out = append(out, "AND")
			}
			depth++
			out = append(out, t)
			prevTerm = false
		case ")":
			if depth == 0 || !prevTerm {
				return "", errors.New("invalid advanced search: unbalanced or empty parentheses")
			}
			depth--
			out = append(out, t)
			prevTerm = true
		default:
			if prevTerm {
				out = append(out, "AND")
			}
			out = append(out, t)
			prevTerm = true
		}
	}
	if depth != 0 || len(out) == 0 {
		return "", errors.New("invalid advanced search: unbalanced parentheses or no term")
	}
	return strings.Join(out, " "), nil
}

// advancedTokens splits an advanced search into operators, parentheses and
// quoted FTS5 terms.
func advancedTokens(s string) ([]string, error) {
	var toks []string
	term := func(ws []string, prefix bool) {
		if len(ws) == 0 {
			return
		}
		t := ftsQuote(strings.Join(ws, " "))
		if prefix {
			t += "*"
		}
		toks = append(toks, t)
	}
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case r == '(' || r == ')':
			toks = append(toks, string(r))
			i++
		case r == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			if j == len(rs) {
				return nil, errors.New("invalid advanced search: a quote is not closed")
			}
			ws := ftsWords(string(rs[i+1 : j]))
			i = j + 1
			prefix := i < len(rs) && rs[i] == '*'
			if prefix {
				i++
			}
			term(ws, prefix)
		default:
			j := i
			for j < len(rs) && !unicode.IsSpace(rs[j]) && rs[j] != '(' && rs[j] != ')' && rs[j] != '"' {
				j++
			}
			raw := string(rs[i:j])
			i = j
			if raw == "AND" || raw == "OR" || raw == "NOT" {
				toks = append(toks, raw)
				continue
			}
			term(ftsWords(raw), strings.HasSuffix(raw, "*"))
		}
	}
	return toks, nil
}

// openReadOnly opens the SQLite file path read only (mode=ro and
// query_only), with the page cache and settings of the store's readers.
func openReadOnly(path string, conns int) (*sql.DB, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	for _, p := range []string{"busy_timeout(10000)", "query_only(1)", "temp_store(MEMORY)", "cache_size(-32768)"} {
		q.Add("_pragma", p)
	}
	dsn := "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path) + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}
