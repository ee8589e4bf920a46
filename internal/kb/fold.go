package kb

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold returns the form of a name used for ordering and for exact and
// begins-with matching, which the stores keep beside the name and index: lower case, diacritics removed, punctuation other
// than letters and digits turned into single spaces, trimmed.
func Fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if !ascii {
		s = norm.NFD.String(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
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

// Words splits a text into its words: runs of letters, digits and
// combining marks (the words of SQLite FTS5's unicode61 tokenizer, which
// the search semantics were first written for).
func Words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r))
	})
}
