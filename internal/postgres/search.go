package postgres

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The translation of the searches of both services into SQL over
// PostgreSQL's search columns (kbsql.Search): a weighted tsvector (GIN),
// pg_trgm indexes of the folded names and the identifiers' B-tree; the
// shared store runs the lists.

// search is PostgreSQL's kbsql.Search.
type search struct{}

// TitleMatch is buildTitleMatch's kbsql.Match: a condition on titles t
// and its rank.
func (search) TitleMatch(q kb.TitleQuery, args *kbsql.Args) (kbsql.Match, error) {
	m, err := buildTitleMatch(q, args)
	return kbsql.Match{Cond: m.cond, Rank: m.rank, None: m.none}, err
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

// titleMatch is how a title search restricts and ranks titles t: a
// condition served by an index and, unless the list is ordered by name, a
// rank (lower is better, as SQLite's bm25).
type titleMatch struct {
	cond string // condition on t
	rank string // rank expression; "" when ranking is not needed (order by name, or no relevance)
	none bool   // the search can match nothing (no words in it)
}

// fieldWeight is the tsvector weight of a search field in titles.fts.
func fieldWeight(f kb.SearchField) string {
	switch f {
	case kb.FieldPublisher:
		return "B"
	case kb.FieldSubject:
		return "C"
	}
	return "A"
}

// rankWeights is the ts_rank weights array ({D, C, B, A}) that counts only
// the occurrences of words in the searched field, as FTS5's column filter
// ranks: a title whose publisher repeats a name search's word ranks no
// higher for it.
func rankWeights(weight string) string {
	switch weight {
	case "B":
		return `'{0,0,1,0}'`
	case "C":
		return `'{0,1,0,0}'`
	}
	return `'{0,0,0,1}'`
}

// sortColumn is the folded column of a field that exact, begins-with and
// substring matching use (the subjects have none: they are words only).
func sortColumn(f kb.SearchField) string {
	if f == kb.FieldPublisher {
		return "t.sort_publisher"
	}
	return "t.sort_name"
}

// foldWord is the folded form of a search word, as the indexed names are
// folded. A word of combining marks only, which folds to nothing, keeps its
// lower-case self: it matches nothing, as on SQLite.
func foldWord(w string) string {
	if f := kb.Fold(w); f != "" {
		return f
	}
	return strings.ToLower(w)
}

// phrase returns the tsquery of words in sequence (each the next position
// of the last), the last a prefix when prefix, parenthesised so that it is
// one operand.
func phrase(ws []string, prefix bool, weight string) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = lexeme(foldWord(w), prefix && i == len(ws)-1, weight)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, " <-> ") + ")"
}

// joinLexemes returns the tsquery of words joined by op (" & " or " | ").
func joinLexemes(ws []string, op string, prefix bool, weight string) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = lexeme(foldWord(w), prefix, weight)
	}
	return strings.Join(parts, op)
}

// nearDistance is the largest distance between the positions of two words
// of a proximity search: FTS5's NEAR(…, 10), at most 10 words between them.
const nearDistance = 11

// buildTitleMatch translates a title search into SQL over the indexes:
// titles.fts (GIN; the field's weight restricts a word to the field), the
// folded-name B-tree indexes (exact and begins-with), their pg_trgm
// indexes (substrings) and the identifier index (ISSN/ISBN). Arguments go
// to args. Ordered by name (q.OrderBy is kb.OrderName) there is no rank:
// ranking is most of the cost of a broad word search.
func buildTitleMatch(q kb.TitleQuery, args *kbsql.Args) (titleMatch, error) {
	search := strings.TrimSpace(q.Search)
	if q.Field == kb.FieldISXN {
		return isxnMatch(search, q.Type, args), nil
	}
	weight := fieldWeight(q.Field)
	sortCol := sortColumn(q.Field)
	var advanced string
	if q.Type == kb.SearchAdvanced {
		var err error
		if advanced, err = advancedQuery(search, weight); err != nil {
			return titleMatch{}, err
		}
	}
	ws := kb.Words(search)
	if len(ws) == 0 {
		return titleMatch{none: true}, nil
	}
	byName := q.OrderBy == kb.OrderName
	word := func(tsq string) titleMatch {
		tq := `to_tsquery('simple', ` + args.Add(tsq) + `)`
		m := titleMatch{cond: `t.fts @@ ` + tq}
		if !byName {
			m.rank = `-ts_rank(` + rankWeights(weight) + `, t.fts, ` + tq + `)`
		}
		return m
	}
	switch q.Type {
	case kb.SearchExactMatch:
		if q.Field == kb.FieldSubject {
			return word(phrase(ws, false, weight)), nil
		}
		return titleMatch{cond: sortCol + " = " + args.Add(kb.Fold(search))}, nil
	case kb.SearchBeginsWith:
		if q.Field == kb.FieldSubject {
			return word(phrase(ws, true, weight)), nil
		}
		f := kb.Fold(search)
		return titleMatch{cond: sortCol + " >= " + args.Add(f) + " AND " + sortCol + " < " + args.Add(f+kbsql.MaxRune)}, nil
	case kb.SearchAny:
		return word(joinLexemes(ws, " | ", false, weight)), nil
	case kb.SearchProximity:
		m := word(joinLexemes(ws, " & ", false, weight))
		if len(ws) > 1 {
			m.cond += " AND " + nearCondition(ws, weight, args)
		}
		return m, nil
	case kb.SearchExactPhrase:
		return word(phrase(ws, false, weight)), nil
	case kb.SearchAdvanced:
		return word(advanced), nil
	}
	return containsMatch(ws, q.Field, byName, args), nil
}

// nearCondition is true of a title t whose field (weight) holds all the
// words within a window of nearDistance+1 positions, as FTS5's NEAR: some
// position of one of the words starts a window holding every word. The
// GIN index has found the titles with all the words; this reads only
// their vectors.
func nearCondition(ws []string, weight string, args *kbsql.Args) string {
	seen := map[string]bool{}
	var lexemes []string
	for _, w := range ws {
		if f := foldWord(w); !seen[f] {
			seen[f] = true
			lexemes = append(lexemes, f)
		}
	}
	return `EXISTS (WITH h AS (SELECT u.lexeme, p.pos FROM unnest(t.fts) u, unnest(u.positions, u.weights) p(pos, w)
			WHERE u.lexeme = ANY(` + args.Add(lexemes) + `::text[]) AND p.w = '` + weight + `')
		SELECT 1 FROM h a WHERE (SELECT count(DISTINCT b.lexeme) FROM h b
			WHERE b.pos BETWEEN a.pos AND a.pos + ` + strconv.Itoa(nearDistance) + `) = ` + strconv.Itoa(len(lexemes)) + `)`
}

// containsMatch matches titles whose field contains every word as a
// substring: folded words of three or more characters through the pg_trgm
// index of the folded column (LIKE '%word%'), shorter words (which a
// trigram cannot hold) and all subject words as word prefixes through
// titles.fts, as SQLite's trigram and word indexes do. The rank is the
// trigram similarity of the column to the words, or the word rank when
// there are only short words.
func containsMatch(ws []string, field kb.SearchField, byName bool, args *kbsql.Args) titleMatch {
	col := sortColumn(field)
	var long, short []string
	for _, w := range ws {
		if f := foldWord(w); utf8.RuneCountInString(f) >= 3 && field != kb.FieldSubject {
			long = append(long, f)
		} else {
			short = append(short, w)
		}
	}
	var m titleMatch
	var conds, sims []string
	for _, f := range long {
		// The pattern serves as the similarity's operand too (pg_trgm
		// ignores the %): a count, which has no rank, uses every argument.
		pattern := args.Add("%" + kbsql.EscapeLike(f) + "%")
		conds = append(conds, col+` LIKE `+pattern)
		sims = append(sims, `similarity(`+col+`, `+pattern+`)`)
	}
	if len(short) > 0 {
		tq := `to_tsquery('simple', ` + args.Add(joinLexemes(short, " & ", true, fieldWeight(field))) + `)`
		conds = append(conds, `t.fts @@ `+tq)
		m.rank = `-ts_rank(` + rankWeights(fieldWeight(field)) + `, t.fts, ` + tq + `)`
	}
	if len(sims) > 0 {
		m.rank = `-(` + strings.Join(sims, " + ") + `)`
	}
	if byName {
		m.rank = ""
	}
	m.cond = strings.Join(conds, " AND ")
	return m
}

// isxnMatch matches ISSNs and ISBNs, with or without hyphens, an ISBN-10
// finding its ISBN-13. Begins-with and contains match a prefix of the
// identifier (a B-tree range); the other search types match it whole.
func isxnMatch(search string, t kb.SearchType, args *kbsql.Args) titleMatch {
	n, issn := kbsql.ISXNForms(search)
	if n == "" {
		return titleMatch{none: true}
	}
	if t == kb.SearchBeginsWith || t == kb.SearchContains {
		return titleMatch{cond: `t.id IN (SELECT title_id FROM title_identifiers
			WHERE (norm >= ` + args.Add(n) + ` AND norm < ` + args.Add(n+kbsql.MaxRune) + `)
			OR (norm >= ` + args.Add(issn) + ` AND norm < ` + args.Add(issn+kbsql.MaxRune) + `))`}
	}
	return titleMatch{cond: `t.id IN (SELECT title_id FROM title_identifiers WHERE norm IN (` + args.Add(n) + `, ` + args.Add(issn) + `))`}
}

// TitleSearchSQL returns the bare index query of a title search: a SELECT
// of (id, rank) rows of titles t that Titles counts and pages (without the
// customer's visibility, filters or title rows), the ORDER BY of its first
// page (rank, then name; it may name t's columns, so it belongs inside the
// SELECT), and its arguments ($1…); none when the search can match
// nothing. Load tools run it as the floor of what a title search can cost
// on this schema.
func TitleSearchSQL(q kb.TitleQuery) (query, order string, args []any, none bool, err error) {
	var ps kbsql.Args
	m, err := buildTitleMatch(q, &ps)
	if err != nil || m.none {
		return "", "", nil, m.none, err
	}
	rank, order := "0", "t.sort_name, t.id"
	if m.rank != "" {
		rank, order = m.rank, "rank, t.sort_name, t.id"
	}
	return `SELECT t.id AS id, (` + rank + `)::float8 AS rank FROM titles t WHERE ` + m.cond, order, ps, false, nil
}
