package kbsql

import (
	"context"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// The package searches of the hosted service's v2 lists (kb.PackageMatch
// other than words, or a keyword search), written once for both engines
// over the folded names (sort_name) of packages p and their vendors v.
// Packages are few beside titles (thousands, not millions), so these
// conditions read the package rows rather than a word index; they have no
// relevance rank, and a list ordered by relevance falls back to name order.

// nameMatch restricts the rows of alias (v, a vendor, or p, a package) to
// those whose name holds every word of search as a word prefix, the same
// on both engines. none is true when search matches nothing (only
// punctuation, or no name); the Match is empty when there is no search.
//
// The matching ids are read first, in one pass over the names'
// (sort_name, id) index: the list's count and its page then look ids up
// rather than each matching every name again (at 20,000 packages a broad
// word's pass is about 5 ms), and a search that matches no name ends
// here.
//
// Relevance: every match holds every word, so what tells matches apart is
// what else their names hold; a name of fewer words ranks first (ties in
// name order). It is BM25's order over the matches without repeated
// words, where every word's document frequency is the number of matches.
func (s *Store) nameMatch(ctx context.Context, alias, search string, args *Args) (m Match, none bool, err error) {
	words := foldedWords(search)
	if len(words) == 0 {
		return Match{}, strings.TrimSpace(search) != "", nil
	}
	var match Args
	parts := make([]string, len(words))
	for i, w := range words {
		// The folded name's words are separated by single spaces
		// (kb.Fold).
		parts[i] = wordPrefix("sort_name", w, &match)
	}
	table := map[string]string{"v": "vendors", "p": "packages"}[alias]
	ids, err := queryAll(ctx, s.e.Read(), `SELECT id FROM `+table+` WHERE `+strings.Join(parts, " AND "), match, scanInt64)
	if err != nil || len(ids) == 0 {
		return Match{}, err == nil, err
	}
	name := alias + ".sort_name"
	return Match{Cond: s.d.InIDs(alias+".id", args.Add(ids)), Rank: `LENGTH(` + name + `) - LENGTH(REPLACE(` + name + `, ' ', ''))`}, false, nil
}

// wordPrefix is the condition that a word of the folded name expr begins
// with the folded word w (kb.Fold separates a name's words by single
// spaces), adding its argument to args.
func wordPrefix(expr, w string, args *Args) string {
	return `(' ' || ` + expr + `) LIKE ` + args.Add("% "+EscapeLike(w)+"%") + ` ESCAPE '\'`
}

// foldedWords returns the folded words of a search, those that fold to
// nothing left out.
func foldedWords(search string) []string {
	var words []string
	for _, w := range kb.Words(search) {
		if f := kb.Fold(w); f != "" {
			words = append(words, f)
		}
	}
	return words
}

// packageTextMatch returns the SQL condition of q's search over package
// names (and vendor names with q.Keyword), adding its arguments to args.
// cond is "" when there is no search; none is true when the search has no
// words (only punctuation) and so can match nothing.
func packageTextMatch(q kb.PackageQuery, args *Args) (cond string, none bool) {
	words := foldedWords(q.Search)
	if len(words) == 0 {
		return "", strings.TrimSpace(q.Search) != ""
	}
	names := []string{"p.sort_name"}
	if q.Keyword {
		names = append(names, "v.sort_name")
	}
	// anyName is true when test holds for one of the names.
	anyName := func(test func(name string) string) string {
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = test(n)
		}
		return "(" + strings.Join(parts, " OR ") + ")"
	}
	like := func(expr, pattern string) string {
		return expr + ` LIKE ` + args.Add(pattern) + ` ESCAPE '\'`
	}
	// prefixes joins with sep, for each word, the condition that one of the
	// names has a word beginning with it.
	prefixes := func(sep string) string {
		parts := make([]string, len(words))
		for i, w := range words {
			parts[i] = anyName(func(n string) string { return wordPrefix(n, w, args) })
		}
		return strings.Join(parts, sep)
	}
	whole := strings.Join(words, " ")
	switch q.Match {
	case kb.PackageMatchExact:
		f := kb.Fold(q.Search)
		return anyName(func(n string) string { return n + ` = ` + args.Add(f) }), false
	case kb.PackageMatchBeginsWith:
		f := kb.Fold(q.Search)
		return anyName(func(n string) string {
			return `(` + n + ` >= ` + args.Add(f) + ` AND ` + n + ` < ` + args.Add(f+MaxRune) + `)`
		}), false
	case kb.PackageMatchPhrase:
		return anyName(func(n string) string {
			return like(`(' ' || `+n+` || ' ')`, "% "+EscapeLike(whole)+" %")
		}), false
	case kb.PackageMatchAny:
		return "(" + prefixes(" OR ") + ")", false
	case kb.PackageMatchContains:
		parts := make([]string, len(words))
		for i, w := range words {
			parts[i] = anyName(func(n string) string { return like(n, "%"+EscapeLike(w)+"%") })
		}
		return strings.Join(parts, " AND "), false
	}
	return prefixes(" AND "), false
}

// visibilityCondition is the SQL condition of a visibility filter over the
// customer's state cp; "" for none.
func visibilityCondition(f kb.VisibilityFilter) string {
	switch f {
	case kb.VisibilityShown:
		return `COALESCE(cp.hidden, FALSE) = FALSE`
	case kb.VisibilityHidden:
		return `COALESCE(cp.hidden, FALSE) = TRUE`
	}
	return ""
}
