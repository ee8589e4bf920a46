package kb

import (
	"strings"
	"unicode"
)

// AdvancedToken is one token of a parsed advanced search: an operator, a
// parenthesis or a term.
type AdvancedToken struct {
	Op     string   // "AND", "OR", "NOT", "(" or ")"; "" for a term
	Words  []string // a term's words, as Words splits them: a phrase when more than one
	Prefix bool     // the term's last word matches as a prefix
}

// ParseAdvanced parses an advanced search: words, "quoted phrases", a
// trailing * on a word or phrase for a prefix, the operators AND, OR and
// NOT (upper case; NOT is binary, "a NOT b") and parentheses. Adjacent
// terms mean AND: the tokens it returns have the AND made explicit, and
// they form a well-formed expression, which the index compiles. A malformed search, or one whose parentheses nest deeper
// than MaxSearchDepth, is a CodeInvalid error.
func ParseAdvanced(s string) ([]AdvancedToken, error) {
	toks, err := advancedTokens(s)
	if err != nil {
		return nil, err
	}
	var out []AdvancedToken
	and := AdvancedToken{Op: "AND"}
	depth := 0
	prevTerm := false // the previous token ends an operand
	for i, t := range toks {
		switch t.Op {
		case "AND", "OR", "NOT":
			if !prevTerm {
				return nil, invalidAdvanced("%s must follow a search term", t.Op)
			}
			if i == len(toks)-1 {
				return nil, invalidAdvanced("%s must be followed by a search term", t.Op)
			}
			out = append(out, t)
			prevTerm = false
		case "(":
			if prevTerm {
				out = append(out, and)
			}
			if depth++; depth > MaxSearchDepth {
				return nil, invalidAdvanced("parentheses nest more than %d deep", MaxSearchDepth)
			}
			out = append(out, t)
			prevTerm = false
		case ")":
			if depth == 0 || !prevTerm {
				return nil, invalidAdvanced("unbalanced or empty parentheses")
			}
			depth--
			out = append(out, t)
			prevTerm = true
		default:
			if prevTerm {
				out = append(out, and)
			}
			out = append(out, t)
			prevTerm = true
		}
	}
	if depth != 0 {
		return nil, invalidAdvanced("unbalanced parentheses")
	}
	if len(out) == 0 {
		return nil, invalidAdvanced("no search term")
	}
	return out, nil
}

func invalidAdvanced(format string, args ...any) error {
	return Errorf(CodeInvalid, "Parameter search is not a valid advanced search: "+format+
		". Use words, \"quoted phrases\", word* prefixes, AND, OR, NOT and parentheses.", args...)
}

// advancedTokens splits an advanced search into operators, parentheses and
// terms; a term of punctuation only is dropped.
func advancedTokens(s string) ([]AdvancedToken, error) {
	var toks []AdvancedToken
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case r == '(' || r == ')':
			toks = append(toks, AdvancedToken{Op: string(r)})
			i++
		case r == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			if j == len(rs) {
				return nil, invalidAdvanced("a quote is not closed")
			}
			ws := Words(string(rs[i+1 : j]))
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
				toks = append(toks, AdvancedToken{Op: raw})
				continue
			}
			toks = appendTerm(toks, Words(raw), strings.HasSuffix(raw, "*"))
		}
	}
	return toks, nil
}

// appendTerm appends the term of ws unless ws is empty.
func appendTerm(toks []AdvancedToken, ws []string, prefix bool) []AdvancedToken {
	if len(ws) == 0 {
		return toks
	}
	return append(toks, AdvancedToken{Words: ws, Prefix: prefix})
}

// ISXNForms returns the forms in which an ISSN or ISBN search matches
// title_identifiers.norm: n, the search normalised (NormalizeISXNQuery;
// "" when it can match nothing), and issn, n with the hyphen a stored ISSN
// has (1234-567X) when n may be an ISSN or a prefix of one, else n.
func ISXNForms(search string) (n, issn string) {
	n = NormalizeISXNQuery(search)
	issn = n
	// Only an ASCII identifier gets the hyphenated form: cutting a
	// multi-byte character in two would make invalid UTF-8, which
	// PostgreSQL refuses.
	if len(n) > 4 && len(n) <= 8 && isASCII(n) {
		issn = n[:4] + "-" + n[4:]
	}
	return n, issn
}

// MaxRune sorts after every other character: s <= x < s+MaxRune is the
// range of the strings that begin with s.
const MaxRune = "\U0010FFFF"

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
