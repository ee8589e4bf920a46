package kb

import (
	"testing"
	"unicode/utf8"
)

// TestISXNForms checks the two forms an identifier search compares: the
// normalised query and, for 5 to 8 ASCII characters, the ISSN's hyphenated
// form; neither is ever invalid UTF-8.
func TestISXNForms(t *testing.T) {
	for _, tc := range []struct{ in, n, issn string }{
		{"2049-3630", "20493630", "2049-3630"},
		{"2049 3630", "20493630", "2049-3630"},
		{"1234x", "1234X", "1234-X"},
		{"0-306-40615-2", "9780306406157", "9780306406157"},
		{"204", "204", "204"},
		{"000з", "000з", "000з"},
		{"0000з", "0000з", "0000з"},
	} {
		n, issn := ISXNForms(tc.in)
		if n != tc.n || issn != tc.issn {
			t.Errorf("ISXNForms(%q) = %q, %q, want %q, %q", tc.in, n, issn, tc.n, tc.issn)
		}
		if !utf8.ValidString(issn) {
			t.Errorf("ISXNForms(%q): issn form %q is not valid UTF-8", tc.in, issn)
		}
	}
}
