package postgres

import (
	"strings"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// advancedQuery translates an advanced search (kbsql.ParseAdvanced: AND,
// OR, binary NOT, parentheses, words, phrases, prefixes) into tsquery
// text for to_tsquery('simple', …), every word restricted to weight. "a
// NOT b" is "a & !b": NOT binds tighter than AND, AND than OR, in FTS5 as
// in tsquery, so the translation keeps the meaning. Every word is folded
// and quoted, so no user text reaches to_tsquery as syntax; a malformed
// search is kbsql's kb.CodeInvalid error.
func advancedQuery(s, weight string) (string, error) {
	toks, err := kbsql.ParseAdvanced(s)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, t := range toks {
		switch t.Op {
		case "AND":
			b.WriteString(" & ")
		case "OR":
			b.WriteString(" | ")
		case "NOT":
			b.WriteString(" & !")
		case "(", ")":
			b.WriteString(t.Op)
		default:
			b.WriteString(phrase(t.Words, t.Prefix, weight))
		}
	}
	return b.String(), nil
}
