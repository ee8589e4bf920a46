package kb

import (
	"slices"
	"strings"
	"testing"
)

// FuzzParseAdvanced checks the advanced search parser against a slow
// reference, a recursive descent over its output: whatever the search,
// ParseAdvanced refuses it with CodeInvalid or returns a well-formed
// expression (operand, then operator and operand, ...; an operand a term or
// a parenthesised expression) no deeper than MaxSearchDepth, whose
// terms are words as Words splits them, in the order of the search.
func FuzzParseAdvanced(f *testing.F) {
	for _, s := range []string{
		`(zebra OR annals) AND studies`, `go NOT practice`, `"weekly news"* OR zeb*`, `a (b) "c d" e*`,
		`"unclosed`, `(((`, `()`, `NOT zebra`, `zebra OR`, `a AND OR b`, `)(`, `"" * ( ) " "`, `**"`,
		`and or not AND`, `ǅ Straße 한국어*`, "a\u00a0b\u2003(c)",
		strings.Repeat("(", MaxSearchDepth+1) + "a" + strings.Repeat(")", MaxSearchDepth+1),
		strings.Repeat("(", MaxSearchDepth) + "a" + strings.Repeat(")", MaxSearchDepth),
		strings.Repeat("a NOT ", 200) + "b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks, err := ParseAdvanced(s)
		if err != nil {
			if ErrorCode(err) != CodeInvalid || !strings.HasPrefix(ErrorMessage(err), "Parameter search is not a valid advanced search: ") {
				t.Fatalf("ParseAdvanced(%q): %v, want CodeInvalid", s, err)
			}
			return
		}
		p := &exprChecker{toks: toks}
		if !p.expr(0) || p.i != len(toks) {
			t.Fatalf("ParseAdvanced(%q) = %+v: not a well-formed expression (at token %d)", s, toks, p.i)
		}
		if p.depth > MaxSearchDepth {
			t.Fatalf("ParseAdvanced(%q) nests %d deep", s, p.depth)
		}
		var words []string
		for _, tok := range toks {
			for _, w := range tok.Words {
				if got := Words(w); len(got) != 1 || got[0] != w {
					t.Fatalf("ParseAdvanced(%q): term word %q is not one word", s, w)
				}
			}
			words = append(words, tok.Words...)
		}
		// Every word of the terms comes from the search, in order (the
		// operators' words excepted).
		rest := Words(s)
		for _, w := range words {
			i := slices.Index(rest, w)
			if i < 0 {
				t.Fatalf("ParseAdvanced(%q): word %q is not in the search, in order", s, w)
			}
			rest = rest[i+1:]
		}
	})
}

// exprChecker is the reference of FuzzParseAdvanced: a recursive descent
// over tokens of the grammar
//
//	expr    = operand { ("AND" | "OR" | "NOT") operand }
//	operand = term | "(" expr ")"
type exprChecker struct {
	toks  []AdvancedToken
	i     int
	depth int // the deepest parenthesis seen
}

func (p *exprChecker) expr(depth int) bool {
	if !p.operand(depth) {
		return false
	}
	for p.i < len(p.toks) && slices.Contains([]string{"AND", "OR", "NOT"}, p.toks[p.i].Op) {
		p.i++
		if !p.operand(depth) {
			return false
		}
	}
	return true
}

func (p *exprChecker) operand(depth int) bool {
	if p.i == len(p.toks) {
		return false
	}
	t := p.toks[p.i]
	p.i++
	switch t.Op {
	case "":
		return len(t.Words) > 0
	case "(":
		p.depth = max(p.depth, depth+1)
		if !p.expr(depth+1) || p.i == len(p.toks) || p.toks[p.i].Op != ")" {
			return false
		}
		p.i++
		return true
	}
	return false
}
