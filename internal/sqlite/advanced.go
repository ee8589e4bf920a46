package sqlite

import (
	"strings"
	"unicode"

	"github.com/kbserver/kbserver/internal/kb"
)

// advancedQuery translates an advanced search into an FTS5 expression. It
// accepts words, "quoted phrases", a trailing * on a word for a prefix, the
// operators AND, OR and NOT (upper case; adjacent terms mean AND) and
// parentheses. Every word is quoted in the output, so no user text reaches
// FTS5 as syntax.
func advancedQuery(s string) (string, error) {
	toks, err := advancedTokens(s)
	if err != nil {
		return "", err
	}
	var out []string
	depth := 0
	prevTerm := false // the previous token ends an operand
	for i, t := range toks {
		switch t {
		case "AND", "OR", "NOT":
			if !prevTerm {
				return "", invalidAdvanced("%s must follow a search term", t)
			}
			if i == len(toks)-1 {
				return "", invalidAdvanced("%s must be followed by a search term", t)
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
				return "", invalidAdvanced("unbalanced or empty parentheses")
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
	if depth != 0 {
		return "", invalidAdvanced("unbalanced parentheses")
	}
	if len(out) == 0 {
		return "", invalidAdvanced("no search term")
	}
	return strings.Join(out, " "), nil
}

func invalidAdvanced(format string, args ...any) error {
	return kb.Errorf(kb.CodeInvalid, "Parameter search is not a valid advanced search: "+format+
		". Use words, \"quoted phrases\", word* prefixes, AND, OR, NOT and parentheses.", args...)
}

// advancedTokens splits an advanced search into operators, parentheses and
// quoted FTS5 terms.
func advancedTokens(s string) ([]string, error) {
	var toks []string
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
				return nil, invalidAdvanced("a quote is not closed")
			}
			ws := words(string(rs[i+1 : j]))
			i = j + 1
			prefix := i < len(rs) && rs[i] == '*'
			if prefix {
				i++
			}
			toks = appendTerm(toks, ws, prefix)
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
			toks = appendTerm(toks, words(raw), strings.HasSuffix(raw, "*"))
		}
	}
	return toks, nil
}

// appendTerm appends the FTS5 phrase of ws (a prefix phrase when prefix),
// unless ws is empty (a term of punctuation only).
func appendTerm(toks, ws []string, prefix bool) []string {
	if len(ws) == 0 {
		return toks
	}
	t := quote(strings.Join(ws, " "))
	if prefix {
		t += "*"
	}
	return append(toks, t)
}
