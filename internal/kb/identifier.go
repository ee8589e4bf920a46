package kb

// This file holds the ISSN and ISBN rules shared by the KBART reader, the
// store and the search API. Every function is pure and allocation-light:
// they sit on the import hot path.

// issnDigits copies s into dst as the 8 significant characters of an
// ISSN-shaped value, accepting "1234-5679", "1234 5679" and "12345679" (with
// surrounding spaces and a lowercase x). It reports false when s does not
// have that shape.
func issnDigits(s string, dst *[8]byte) bool {
	s = trimASCIISpace(s)
	skip := 8 // index in s of the separator, if any
	switch len(s) {
	case 8:
	case 9:
		if s[4] != '-' && s[4] != ' ' {
			return false
		}
		skip = 4
	default:
		return false
	}
	for i := 0; i < 8; i++ {
		j := i
		if i >= skip {
			j++
		}
		c := s[j]
		switch {
		case c >= '0' && c <= '9':
		case i == 7 && (c == 'X' || c == 'x'):
			c = 'X'
		default:
			return false
		}
		dst[i] = c
	}
	return true
}

// ISSNShaped reports whether s looks like an ISSN: eight characters, all
// digits except that the last may be X, optionally with one hyphen or space
// between the two halves. It does not check the check digit.
func ISSNShaped(s string) bool {
	var d [8]byte
	return issnDigits(s, &d)
}

// NormalizeISSN returns s in the canonical form "1234-5679" (uppercase X)
// and true when s is ISSN-shaped (see ISSNShaped) and its check digit is
// valid. Otherwise it returns "" and false.
func NormalizeISSN(s string) (norm string, ok bool) {
	var d [8]byte
	if !issnDigits(s, &d) || issnCheck(d[:7]) != d[7] {
		return "", false
	}
	if t := trimASCIISpace(s); len(t) == 9 && t[4] == '-' && t[8] != 'x' {
		return t, true // already canonical: no allocation
	}
	return string([]byte{d[0], d[1], d[2], d[3], '-', d[4], d[5], d[6], d[7]}), true
}

// issnCheck returns the ISSN check character for the first 7 digits.
func issnCheck(d []byte) byte {
	sum := 0
	for i, c := range d {
		sum += int(c-'0') * (8 - i)
	}
	switch c := (11 - sum%11) % 11; c {
	case 10:
		return 'X'
	default:
		return byte('0' + c)
	}
}

// isbnDigits copies the significant characters of s (digits and a final X)
// into dst, dropping hyphens and spaces, and returns how many there are: 10
// or 13 for an ISBN-shaped value, 0 otherwise. A 13-digit value must start
// with 978 or 979, the EAN prefixes of ISBNs.
func isbnDigits(s string, dst *[13]byte) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
		case c == 'X' || c == 'x':
			c = 'X'
		case c == '-' || c == ' ':
			continue
		default:
			return 0
		}
		if n == 13 {
			return 0
		}
		dst[n] = c
		n++
	}
	switch n {
	case 10:
		for _, c := range dst[:9] {
			if c == 'X' {
				return 0
			}
		}
		return 10
	case 13:
		for _, c := range dst[:13] {
			if c == 'X' {
				return 0
			}
		}
		if dst[0] != '9' || dst[1] != '7' || (dst[2] != '8' && dst[2] != '9') {
			return 0
		}
		return 13
	}
	return 0
}

// ISBNShaped reports whether s looks like an ISBN: 10 characters (digits,
// the last may be X) or 13 digits starting with 978 or 979, once hyphens and
// spaces are removed. It does not check the check digit.
func ISBNShaped(s string) bool {
	var d [13]byte
	return isbnDigits(s, &d) != 0
}

// NormalizeISBN returns the 13-digit form of s, without hyphens, and true
// when s is an ISBN-10 or ISBN-13 (hyphens and spaces allowed) with a valid
// check digit. An ISBN-10 is converted to its 978-prefixed ISBN-13.
// Otherwise it returns "" and false.
func NormalizeISBN(s string) (isbn13 string, ok bool) {
	var d [13]byte
	switch isbnDigits(s, &d) {
	case 10:
		if isbn10Check(d[:9]) != d[9] {
			return "", false
		}
		return isbn10To13(d[:9]), true
	case 13:
		if isbn13Check(d[:12]) != d[12] {
			return "", false
		}
		if len(s) == 13 {
			return s, true // already 13 bare digits: no allocation
		}
		return string(d[:]), true
	}
	return "", false
}

// isbn10Check returns the ISBN-10 check character for the first 9 digits.
func isbn10Check(d []byte) byte {
	sum := 0
	for i, c := range d {
		sum += int(c-'0') * (10 - i)
	}
	switch c := (11 - sum%11) % 11; c {
	case 10:
		return 'X'
	default:
		return byte('0' + c)
	}
}

// isbn13Check returns the ISBN-13 (EAN-13) check digit for the first 12
// digits.
func isbn13Check(d []byte) byte {
	sum := 0
	for i, c := range d {
		w := 1
		if i%2 == 1 {
			w = 3
		}
		sum += int(c-'0') * w
	}
	return byte('0' + (10-sum%10)%10)
}

// isbn10To13 converts the 9 significant digits of an ISBN-10 to the
// 978-prefixed ISBN-13 with its own check digit.
func isbn10To13(d9 []byte) string {
	var b [13]byte
	b[0], b[1], b[2] = '9', '7', '8'
	copy(b[3:12], d9)
	b[12] = isbn13Check(b[:12])
	return string(b[:])
}

// NormalizeISXNQuery prepares an ISSN or ISBN typed into a search for
// comparison with stored identifiers: hyphens and spaces are removed and
// letters upper-cased; a valid ISBN-10 is converted to its ISBN-13 digits.
func NormalizeISXNQuery(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-' || c == ' ' || c == '\t':
			continue
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		}
		b = append(b, c)
	}
	if len(b) == 10 {
		var d [13]byte
		if isbnDigits(string(b), &d) == 10 && isbn10Check(d[:9]) == d[9] {
			return isbn10To13(d[:9])
		}
	}
	return string(b)
}

// trimASCIISpace removes leading and trailing ASCII spaces and tabs.
func trimASCIISpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}
