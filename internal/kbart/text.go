package kbart

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// This file holds the lexical clean-up applied to every value before its
// meaning is looked at: encoding repairs, whitespace, CSV-style quotes,
// HTML entities and control characters.

// Byte classes found by scanning a line once (see splitTabs and lineFlags).
const (
	flagCtl  uint8 = 1 << iota // a control character other than tab
	flagHigh                   // a byte >= 0x80
	flagC3                     // byte 0xC3, the mark of double-encoded UTF-8
	flagAmp                    // '&', a possible HTML entity
)

// byteFlags maps each byte to its classes.
var byteFlags = func() (t [256]uint8) {
	for c := 0; c < 0x20; c++ {
		if c != '\t' {
			t[c] = flagCtl
		}
	}
	t[0x7F] = flagCtl
	for c := 0x80; c < 0x100; c++ {
		t[c] = flagHigh
	}
	t[0xC3] |= flagC3
	t['&'] = flagAmp
	return t
}()

// lineFlags returns the union of the classes of the bytes of s.
func lineFlags(s string) uint8 {
	var f uint8
	for i := 0; i < len(s); i++ {
		f |= byteFlags[s[i]]
	}
	return f
}

// decodeLegacy decodes a value that is not valid UTF-8 as Windows-1252 (a
// superset of Latin-1 for printable characters), or as Mac OS Roman when
// the value holds a byte that Windows-1252 leaves undefined (0x81, 0x8D,
// 0x8F, 0x90, 0x9D) or when macRoman is set (the file showed such bytes
// before). It returns the name of the encoding used.
func decodeLegacy(s string, macRoman bool) (string, string) {
	cm, name := charmap.Windows1252, "Windows-1252"
	if macRoman || hasCP1252Undefined(s) {
		cm, name = charmap.Macintosh, "Mac OS Roman"
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			continue
		}
		b.WriteRune(cm.DecodeByte(c))
	}
	return b.String(), name
}

// hasCP1252Undefined reports whether s has a byte that Windows-1252 leaves
// undefined.
func hasCP1252Undefined(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 0x81, 0x8D, 0x8F, 0x90, 0x9D:
			return true
		}
	}
	return false
}

// decodeWindows1252 decodes a value that is not valid UTF-8 as
// Windows-1252.
func decodeWindows1252(s string) string {
	d, _ := decodeLegacy(s, false)
	return d
}

// repairMojibake undoes one level of double encoding: UTF-8 bytes that were
// decoded as Latin-1 or Windows-1252 and encoded as UTF-8 again, which turns
// "für" into "fÃ¼r". The repair is made only when mapping every character
// back to its single byte gives valid UTF-8. It returns s unchanged
// otherwise.
func repairMojibake(s string) string {
	if !mayBeMojibake(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r < 0x100:
			// ASCII, Latin-1, and C1 controls left by a Latin-1 decoding.
			b = append(b, byte(r))
		default:
			c, ok := charmap.Windows1252.EncodeRune(r)
			if !ok || c < 0x80 || c > 0x9F {
				return s
			}
			b = append(b, c)
		}
	}
	if !utf8.Valid(b) {
		return s
	}
	return string(b)
}

// mayBeMojibake is a quick test for repairMojibake: double-encoded UTF-8
// has a character U+00C0..U+00FF (bytes C3 80..C3 BF) followed by a
// character that encodes a continuation byte: U+0080..U+00BF (C2 xx) or a
// Windows-1252 special such as Œ, š, ƒ, ˆ, – or ™ (C5, C6, CB or E2 xx).
// Correct text such as "für" (C3 BC 72) does not.
func mayBeMojibake(s string) bool {
	for i := strings.IndexByte(s, 0xC3); i >= 0 && i+2 < len(s); {
		if c := s[i+1]; c >= 0x80 && c <= 0xBF {
			switch s[i+2] {
			case 0xC2, 0xC5, 0xC6, 0xCB, 0xE2:
				return true
			}
		}
		k := strings.IndexByte(s[i+1:], 0xC3)
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// unquoteCSV removes CSV-style double quotes around a whole value ("..."
// with "" standing for one quote inside). A value whose inner quotes are not
// all doubled is not CSV-quoted (e.g. `"Hamlet" and "Macbeth"`) and is
// returned unchanged.
func unquoteCSV(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s, false
	}
	inner := s[1 : len(s)-1]
	doubled := false
	for i := 0; i < len(inner); i++ {
		if inner[i] != '"' {
			continue
		}
		if i+1 >= len(inner) || inner[i+1] != '"' {
			return s, false
		}
		doubled = true
		i++
	}
	if doubled {
		inner = strings.ReplaceAll(inner, `""`, `"`)
	}
	return inner, true
}

// isTrimRune reports whether r is removed from the ends of values: Unicode
// white space, the byte order mark and control characters.
func isTrimRune(r rune) bool {
	return unicode.IsSpace(r) || r == '\uFEFF' || r < 0x20
}

// trimValue removes leading and trailing white space (including NBSP and a
// stray byte order mark) from s.
func trimValue(s string) string {
	if len(s) == 0 {
		return s
	}
	if c, d := s[0], s[len(s)-1]; c > ' ' && c < utf8.RuneSelf && d > ' ' && d < utf8.RuneSelf {
		return s
	}
	return strings.TrimFunc(s, isTrimRune)
}

// replaceControls replaces control characters (tab, CR, LF and the other C0
// controls, and DEL) with spaces.
func replaceControls(s string) string {
	if lineFlags(s)&flagCtl == 0 && strings.IndexByte(s, '\t') < 0 {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c == 0x7F {
			b[i] = ' '
		}
	}
	return string(b)
}

// maxEntityLen bounds the length of an HTML character reference.
const maxEntityLen = 32

// unescapeHTML decodes complete HTML character references ("&amp;",
// "&#8212;", "&#x26;"). Unlike html.UnescapeString it needs the final ';'
// and the whole name, so that "AT&T", "R&D" and the misspelt "&quote;" are
// left alone instead of becoming `"e;`.
func unescapeHTML(s string) string {
	i := strings.IndexByte(s, '&')
	if i < 0 || strings.IndexByte(s[i:], ';') < 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for ; i >= 0 && i < len(s); i = nextAmp(s, i+1) {
		j := strings.IndexByte(s[i+1:min(len(s), i+maxEntityLen)], ';')
		if j < 0 {
			continue
		}
		ref := s[i : i+j+2]
		dec, ok := decodeEntity(ref)
		if !ok {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:i])
		b.WriteString(dec)
		last = i + len(ref)
		i = last - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// nextAmp returns the index of the next '&' at or after from, or -1.
func nextAmp(s string, from int) int {
	if from >= len(s) {
		return -1
	}
	if k := strings.IndexByte(s[from:], '&'); k >= 0 {
		return from + k
	}
	return -1
}

// decodeEntity decodes one reference "&name;", "&#123;" or "&#x7B;".
func decodeEntity(ref string) (string, bool) {
	name := ref[1 : len(ref)-1]
	if name == "" {
		return "", false
	}
	numeric := name[0] == '#'
	for k := 0; k < len(name); k++ {
		c := name[k]
		if !(c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' || k == 0 && c == '#') {
			return "", false
		}
	}
	dec := html.UnescapeString(ref)
	if dec == ref {
		return "", false
	}
	if !numeric {
		// A named reference expands to a symbol, never to letters: a
		// result with letters is a partial match of a longer word.
		for k := 0; k < len(dec); k++ {
			if c := dec[k]; c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9' || c == ';' && name != "semi" {
				return "", false
			}
		}
	}
	return dec, true
}

// Kinds of lexical change made by cleanValue, reported as a bit set.
const (
	cleanQuoted   uint8 = 1 << iota // CSV-style quotes removed
	cleanMojibake                   // double-encoded UTF-8 repaired
	cleanEntities                   // HTML entities decoded
	cleanControls                   // control characters replaced
	cleanTrimmed                    // white space removed around the value
)

// maxCleanRounds bounds the clean-up loop; each productive round shortens
// the value or removes a layer, so real values settle in one or two.
const maxCleanRounds = 16

// cleanValue applies the lexical clean-up to one value until nothing
// changes, so that cleaning a cleaned value is a no-op (the writer/reader
// round trip relies on it). flags are the byte classes of the value (or of
// its whole line, a superset); entities says whether HTML entities are
// decoded in this field. It returns the clean value and the kinds of change
// made.
//
// CSV-style quotes are removed once, from the value as read: a quote that
// decoding an entity produced ("&quot;Ihre Werte, bitte!&quot;") is part of
// the text, not quoting, and is kept.
func cleanValue(s string, flags uint8, entities bool) (string, uint8) {
	var changed uint8
	for round := 0; round < maxCleanRounds; round++ {
		prev := s
		if flags&flagCtl != 0 {
			if t := replaceControls(s); t != s {
				s, changed = t, changed|cleanControls
			}
		}
		if needsTrim(s) {
			s, changed = trimNoting(s, changed)
		}
		if round == 0 && len(s) > 1 && s[0] == '"' {
			if t, ok := unquoteCSV(s); ok {
				s, changed = trimNoting(t, changed|cleanQuoted)
			}
		}
		if flags&flagC3 != 0 {
			if t := repairMojibake(s); t != s {
				s, changed = trimNoting(t, changed|cleanMojibake)
			}
		}
		if entities && flags&flagAmp != 0 {
			if t := unescapeHTML(s); t != s {
				s, changed = trimNoting(t, changed|cleanEntities)
			}
		}
		if s == prev {
			break
		}
		// Repairs can reveal new characters; look at the value itself.
		flags = lineFlags(s) | flagCtl
	}
	return s, changed
}

// trimNoting trims s, adding cleanTrimmed to changed when that changed it.
// Callers test needsTrim first: most values need no trimming.
func trimNoting(s string, changed uint8) (string, uint8) {
	if t := trimValue(s); len(t) != len(s) {
		return t, changed | cleanTrimmed
	}
	return s, changed
}
