package sqlite

import (
	"strings"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// advancedQuery translates an advanced search (kbsql.ParseAdvanced) into an
// FTS5 expression. Every word is quoted in the output, so no user text
// reaches FTS5 as syntax.
func advancedQuery(s string) (string, error) {
	toks, err := kbsql.ParseAdvanced(s)
	if err != nil {
		return "", err
	}
	out := make([]string, len(toks))
	for i, t := range toks {
		if t.Op != "" {
			out[i] = t.Op
			continue
		}
		out[i] = quote(strings.Join(t.Words, " "))
		if t.Prefix {
			out[i] += "*"
		}
	}
	return strings.Join(out, " "), nil
}
