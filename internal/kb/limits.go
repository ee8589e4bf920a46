package kb

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// TextLimit bounds a free-text value: at most Chars characters (Unicode
// code points), at most Bytes bytes of UTF-8 when Bytes is not 0, and, for
// a name that the stores keep folded and index (Fold), at most FoldedBytes
// bytes once folded when FoldedBytes is not 0. The byte bounds keep every
// stored value within what an index row of either store can hold
// (PostgreSQL's B-tree rows hold at most 2,704 bytes); the character
// bounds are well above what real data needs (the longest of the 472,991
// rows of the real KBART corpus: a title of 585 bytes, a URL of 312).
type TextLimit struct {
	Chars       int
	Bytes       int
	FoldedBytes int
}

// The limits of the free text the services and the command line take.
var (
	// LimitName bounds the names the stores index folded: vendor, package
	// and title names and publishers. A name's folded form may take up to
	// three times its bytes (Hangul syllables fold to their letters).
	LimitName = TextLimit{Chars: 1000, FoldedBytes: 2000}
	// LimitURL bounds URLs and URL masks (assignments index theirs).
	LimitURL = TextLimit{Chars: 2000, Bytes: 2000}
	// LimitID bounds the ids clients give: customers, proxies, profile
	// parts, identifiers of custom titles.
	LimitID = TextLimit{Chars: 100, Bytes: 400}
	// LimitLabel bounds the display labels of the custom fields.
	LimitLabel = TextLimit{Chars: 100}
	// LimitShort bounds short free text: coverage statements,
	// user-defined fields, token values, editions, contributor names,
	// resource management objects' descriptions.
	LimitShort = TextLimit{Chars: 1000}
	// LimitText bounds any other text: descriptions, notes of resource
	// management objects, every string of a request body without a
	// tighter limit.
	LimitText = TextLimit{Chars: 10000}
	// LimitSearch bounds a search string, which also has at most
	// MaxSearchWords words.
	LimitSearch = TextLimit{Chars: 1000}
)

// MaxSearchWords is the most words (runs of letters and digits, Words) a
// search may hold: a search is a condition per word, and PostgreSQL's
// query parser recurses per word.
const MaxSearchWords = 100

// MaxSearchDepth is the deepest that the parentheses of an advanced
// search may nest: SQLite's full-text query parser refuses an expression
// tree deeper than 256, and no person nests more than a few.
const MaxSearchDepth = 10

// MaxRepeated is the most values a repeated query parameter may have.
const MaxRepeated = 100

// Exceeded returns how s breaks the limit, worded to follow the name of
// the value ("is 1,204 characters long: at most 1,000 are allowed"), or ""
// when it is within it.
func (l TextLimit) Exceeded(s string) string {
	if n := utf8.RuneCountInString(s); n > l.Chars {
		return "is " + Thousands(n) + " characters long: at most " + Thousands(l.Chars) + " are allowed"
	}
	if l.Bytes > 0 && len(s) > l.Bytes {
		return "takes " + Thousands(len(s)) + " bytes of UTF-8: at most " + Thousands(l.Bytes) + " are allowed"
	}
	// Folding (Fold) may make a name several times longer in bytes:
	// only a name that could outgrow the bound is folded to be measured.
	if l.FoldedBytes > 0 && 4*len(s) > l.FoldedBytes {
		if n := len(Fold(s)); n > l.FoldedBytes {
			return "takes " + Thousands(n) + " bytes once folded for sorting and matching: at most " + Thousands(l.FoldedBytes) + " are allowed"
		}
	}
	return ""
}

// CheckText returns CodeInvalid naming what (e.g. "Package name") when s
// breaks the limit.
func CheckText(what, s string, l TextLimit) error {
	if e := l.Exceeded(s); e != "" {
		return Errorf(CodeInvalid, "%s %s.", what, e)
	}
	return nil
}

// CheckSearch returns CodeInvalid naming what (e.g. "Parameter search")
// when a search string is not UTF-8 text without NUL characters, is too
// long or has too many words.
func CheckSearch(what, s string) error {
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		return Errorf(CodeInvalid, "%s must be UTF-8 text without NUL characters.", what)
	}
	if err := CheckText(what, s, LimitSearch); err != nil {
		return err
	}
	if n := len(Words(s)); n > MaxSearchWords {
		return Errorf(CodeInvalid, "%s has %s words: at most %d are allowed.", what, Thousands(n), MaxSearchWords)
	}
	return nil
}

// Truncate returns s cut to at most n bytes, at the start of a character.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Abbrev returns s when it is at most n bytes long, else its first n bytes
// or fewer (whole characters) and "…": a client's value quoted in a
// message.
func Abbrev(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return Truncate(s, n) + "…"
}

// Thousands formats n with a comma between each group of three digits.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}
