package kb

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// citationToday is the resolver's date in the citation tests.
var citationToday = time.Date(2025, 6, 15, 0, 0, 0, 0, time.UTC)

// values reads a query string, failing the test when it is not one.
func values(t *testing.T, q string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", q, err)
	}
	return v
}

func TestParseCitation(t *testing.T) {
	tests := []struct {
		name  string
		query string
		want  Citation
		notes []string // substrings, one a note, in order
	}{
		{"OpenURL 0.1 journal article",
			"genre=article&issn=0317-8471&title=Journal+of+Testing&atitle=On+Tests&aulast=Smith&date=1995-03-01&volume=12&issue=3&spage=45&sid=EBSCO:MEDLINE&id=doi:10.1000/182",
			Citation{Genre: "article", ISSNs: []string{"0317-8471"}, Title: "Journal of Testing", ArticleTitle: "On Tests", Author: "Smith",
				Date: "1995-03-01", Volume: "12", Issue: "3", StartPage: "45", DOI: "10.1000/182", Source: "EBSCO:MEDLINE"}, nil},
		{"Z39.88-2004 KEV journal article",
			"url_ver=Z39.88-2004&rft_val_fmt=info:ofi/fmt:kev:mtx:journal&rft.genre=Article&rft.issn=0317-8471&rft.eissn=1050-124X" +
				"&rft.jtitle=Journal+of+Testing&rft.atitle=On+Tests&rft.aulast=Smith&rft.date=1995&rft.volume=12&rft.issue=3&rft.spage=45" +
				"&rft_id=info:doi/10.1000/182&rft_id=info:pmid/123456&rfr_id=info:sid/google",
			Citation{Genre: "article", ISSNs: []string{"1050-124X", "0317-8471"}, Title: "Journal of Testing", ArticleTitle: "On Tests", Author: "Smith",
				Date: "1995", Volume: "12", Issue: "3", StartPage: "45", DOI: "10.1000/182", Source: "google"}, nil},
		{"KEV book", "url_ver=Z39.88-2004&rft_val_fmt=info:ofi/fmt:kev:mtx:book&rft.genre=book&rft.btitle=Learning+Go&rft.isbn=978-0-306-40615-7&rft.au=Gopher,+G.",
			Citation{Genre: "book", ISBNs: []string{"9780306406157"}, Title: "Learning Go", Author: "Gopher, G."}, nil},
		{"ISSN without hyphen", "issn=03178471", Citation{ISSNs: []string{"0317-8471"}}, nil},
		{"ISSN lower-case x", "eissn=1050-124x", Citation{ISSNs: []string{"1050-124X"}}, nil},
		{"ISSN lower-case x without hyphen", "rft.eissn=1050124x", Citation{ISSNs: []string{"1050-124X"}}, nil},
		{"ISSN with a space", "issn=0317+8471", Citation{ISSNs: []string{"0317-8471"}}, nil},
		// Keys are read in the order of their names (eissn before issn).
		{"print and online ISSN, one twice", "issn=0317-8471&eissn=1050-124X&rft.issn=03178471",
			Citation{ISSNs: []string{"1050-124X", "0317-8471"}}, nil},
		{"ISSN with a wrong check digit is matched as given", "issn=0317-8472",
			Citation{ISSNs: []string{"0317-8472"}}, []string{`The ISSN "0317-8472" (issn) has a wrong check digit`}},
		{"not an ISSN", "issn=abc&title=T", Citation{Title: "T"}, []string{`The ISSN "abc" (issn) is not an ISSN and was ignored.`}},
		{"ISBN-13 with hyphens", "isbn=978-0-306-40615-7", Citation{ISBNs: []string{"9780306406157"}}, nil},
		{"ISBN-13 without hyphens", "isbn=9780306406157", Citation{ISBNs: []string{"9780306406157"}}, nil},
		{"ISBN-10 with hyphens", "isbn=0-306-40615-2", Citation{ISBNs: []string{"9780306406157"}}, nil},
		{"ISBN-10 without hyphens", "rft.isbn=0306406152", Citation{ISBNs: []string{"9780306406157"}}, nil},
		{"ISBN-10 with a lower-case x", "isbn=0-8044-2957-x", Citation{ISBNs: []string{"9780804429573"}}, nil},
		{"ISBN-10 and its ISBN-13 are one", "isbn=0306406152&rft.isbn=978-0-306-40615-7", Citation{ISBNs: []string{"9780306406157"}}, nil},
		{"eISBN", "eisbn=978-0-306-40615-7", Citation{ISBNs: []string{"9780306406157"}}, nil},
		{"ISBN with a wrong check digit is matched as given", "isbn=0306406153",
			Citation{ISBNs: []string{"0306406153"}}, []string{`The ISBN "0306406153" (isbn) has a wrong check digit`}},
		{"not an ISBN", "isbn=12345&title=T", Citation{Title: "T"}, []string{`The ISBN "12345" (isbn) is not an ISBN and was ignored.`}},
		{"DOI id=doi:", "id=doi:10.1016/j.cell.2009.01.002", Citation{DOI: "10.1016/j.cell.2009.01.002"}, nil},
		{"DOI rft_id=info:doi/", "rft_id=info:doi/10.1016/j.cell.2009.01.002", Citation{DOI: "10.1016/j.cell.2009.01.002"}, nil},
		{"DOI escaped", "rft_id=info:doi/10.1002%2F%28SICI%291097-4636", Citation{DOI: "10.1002/(SICI)1097-4636"}, nil},
		{"DOI as an address", "id=https://doi.org/10.1000/182", Citation{DOI: "10.1000/182"}, nil},
		{"DOI in upper case prefix", "id=DOI:10.1000/182", Citation{DOI: "10.1000/182"}, nil},
		{"not a DOI", "id=pmid:123&rft_id=info:doi/11.1/x&id=doi:10.1000/", Citation{}, nil},
		{"a DOI longer than a real one", "id=doi:10.1000/" + strings.Repeat("x", 293), Citation{},
			[]string{"The DOI (id) is 301 bytes long, more than a real one (300); it was ignored."}},
		{"the 0.1 key before its rft. twin", "rft.date=2001&date=1999&rft.volume=9&volume=3", Citation{Date: "1999", Volume: "3"}, nil},
		{"title keys: title, then the short title", "stitle=J+Test&title=Journal+of+Testing", Citation{Title: "Journal of Testing"}, nil},
		{"short title alone", "rft.stitle=J+Test", Citation{Title: "J Test"}, nil},
		{"aulast before au", "rft.au=Someone+Else&aulast=Smith", Citation{Author: "Smith"}, nil},
		{"blank values are none", "issn=+&title=+&date=", Citation{}, nil},
		{"sid", "sid=info:sid/Entrez:PubMed", Citation{Source: "Entrez:PubMed"}, nil},
		{"unknown keys are ignored", "foo=bar&rft.foo=baz&pid=x", Citation{}, nil},

		// Dates.
		{"year and month", "date=1995-03", Citation{Date: "1995-03"}, nil},
		{"yyyymmdd", "date=19950301", Citation{Date: "1995-03-01"}, nil},
		{"yyyymm", "date=199503", Citation{Date: "1995-03"}, nil},
		{"a time is dropped", "date=1995-03-01T10:00:00Z", Citation{Date: "1995-03-01"}, nil},
		{"garbage date", "date=spring", Citation{}, []string{`The date "spring" is not a date`}},
		{"year followed by words", "date=1995+Spring", Citation{}, []string{`The date "1995 Spring" is not a date`}},
		{"month 13", "date=1995-13", Citation{Date: "1995"}, []string{`The month of the date "1995-13" is not a month; its year 1995 was used.`}},
		{"month 00", "date=1995-00-01", Citation{Date: "1995"}, []string{"is not a month"}},
		{"February 30", "date=1995-02-30", Citation{Date: "1995-02"}, []string{`The day of the date "1995-02-30" is not a day of its month; its month 1995-02 was used.`}},
		{"February 29 of a leap year", "date=2024-02-29", Citation{Date: "2024-02-29"}, nil},
		{"a day cut short", "date=1995-03-1", Citation{Date: "1995-03"}, []string{"its month 1995-03 was used"}},
		{"a month cut short", "date=1995-3", Citation{Date: "1995"}, []string{"its year 1995 was used"}},
		{"year 999", "date=0999", Citation{}, []string{"The year 999 of the date"}},
		{"next year is possible", "date=2026-01", Citation{Date: "2026-01"}, nil},
		{"the year after next is not", "date=2027", Citation{}, []string{`The year 2027 of the date "2027" is impossible and was ignored.`}},

		// Volumes and issues.
		{"leading zeros", "volume=007&issue=03", Citation{Volume: "7", Issue: "3"}, nil},
		{"a volume with words", "volume=12+Suppl", Citation{Volume: "12"}, []string{`The volume "12 Suppl" was read as 12.`}},
		{"an issue range", "issue=3-4", Citation{Issue: "3"}, []string{`The issue "3-4" was read as 3.`}},
		{"volume 0", "volume=0", Citation{}, []string{`The volume "0" is impossible and was ignored.`}},
		{"a huge volume", "volume=100001", Citation{}, []string{`The volume "100001" is impossible and was ignored.`}},
		{"a volume past int64", "volume=99999999999999999999999", Citation{}, []string{"is impossible and was ignored"}},
		{"the biggest volume", "volume=100000", Citation{Volume: "100000"}, nil},
		{"a volume that is not a number", "volume=XII&issue=-2", Citation{}, []string{
			`The volume "XII" is not a number and was ignored.`, `The issue "-2" is not a number and was ignored.`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseCitation(values(t, tt.query), citationToday)
			if err != nil {
				t.Fatalf("ParseCitation(%q): %v", tt.query, err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Citation{}, "Notes"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ParseCitation(%q) (-want +got):\n%s", tt.query, diff)
			}
			if len(got.Notes) != len(tt.notes) {
				t.Fatalf("notes = %q, want %d like %q", got.Notes, len(tt.notes), tt.notes)
			}
			for i, n := range tt.notes {
				if !strings.Contains(got.Notes[i], n) {
					t.Errorf("note %d = %q, want it to contain %q", i, got.Notes[i], n)
				}
			}
		})
	}
}

// TestParseCitationSameEveryTime checks that a citation with several
// values for one field reads the same whatever the order of the map.
func TestParseCitationSameEveryTime(t *testing.T) {
	q := "jtitle=B&btitle=A&rft.title=C&date=1999&rft.date=2001&id=doi:10.1/a&rft_id=info:doi/10.2/b&genre=book&rft.genre=article&sid=x&rfr_id=info:sid/y"
	first, err := ParseCitation(values(t, q), citationToday)
	if err != nil {
		t.Fatal(err)
	}
	want := Citation{Genre: "book", Title: "A", Date: "1999", DOI: "10.1/a", Source: "x"}
	if diff := cmp.Diff(want, first, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("ParseCitation (-want +got):\n%s", diff)
	}
	for range 50 {
		again, _ := ParseCitation(values(t, q), citationToday)
		if diff := cmp.Diff(first, again, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("a second reading differs (-first +again):\n%s", diff)
		}
	}
}

func TestParseCitationLimits(t *testing.T) {
	long := strings.Repeat("a", MaxCitationValue+1)
	tests := []struct {
		name string
		v    url.Values
		msg  string // the message, or "" for none
	}{
		{"a value at the limit", url.Values{"title": {strings.Repeat("é", MaxCitationValue)}}, ""},
		{"a title past the limit", url.Values{"title": {long}}, `Parameter title is 1001 characters long; the limit is 1000.`},
		{"an rft. key past the limit", url.Values{"rft.atitle": {"ok", long}}, `Parameter rft.atitle is 1001 characters long`},
		{"an unknown key past the limit", url.Values{"whatever": {long}}, `Parameter whatever is 1001 characters long`},
		{"a long key's name is cut", url.Values{strings.Repeat("k", 60): {long}}, `Parameter "` + strings.Repeat("k", 40) + `…" is 1001`},
		{"not UTF-8", url.Values{"aulast": {"M\xfcller"}}, `Parameter aulast is not valid UTF-8.`},
		{"a NUL", url.Values{"sid": {"a\x00b"}}, `Parameter sid holds a NUL character.`},
		{"too many values", url.Values{"x": make([]string, MaxCitationParams+1)}, "The citation has 201 parameter values; the limit is 200."},
		{"many values at the limit", url.Values{"x": make([]string, MaxCitationParams)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseCitation(tt.v, citationToday)
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("ParseCitation: %v, want no error", err)
				}
				return
			}
			if ErrorCode(err) != CodeInvalid {
				t.Fatalf("ParseCitation: %v (code %d), want CodeInvalid", err, ErrorCode(err))
			}
			if !strings.Contains(ErrorMessage(err), tt.msg) {
				t.Errorf("message = %q, want it to contain %q", ErrorMessage(err), tt.msg)
			}
		})
	}
}

func TestCitationMatchable(t *testing.T) {
	for _, tt := range []struct {
		c    Citation
		want bool
	}{
		{Citation{}, false},
		{Citation{Title: "  "}, false},
		{Citation{DOI: "10.1/x", Date: "2001", Volume: "3"}, false},
		{Citation{Title: "T"}, true},
		{Citation{ISSNs: []string{"0317-8471"}}, true},
		{Citation{ISBNs: []string{"9780306406157"}}, true},
	} {
		if got := tt.c.Matchable(); got != tt.want {
			t.Errorf("%+v.Matchable() = %v, want %v", tt.c, got, tt.want)
		}
	}
}

// TestParseCitationNeverFails feeds values of every kind to every key:
// below the limits and without NUL (refused, as in a query), nothing is
// refused and every field holds only what its comment allows.
func TestParseCitationNeverFails(t *testing.T) {
	vals := []string{"", " ", "0", "-1", "x", "1995", "1995-02-29", "2024-02-29", "99999-01", "12a", "0317-8471", "1050-124x",
		"0-306-40615-2", "doi:10.1/x", "info:doi/10.1/x|y", "10.", "\x01", "é", "%zz", "9999999999999999999999", "T", "1995-1-1"}
	for k := range citationKeys {
		for _, s := range vals {
			c, err := ParseCitation(url.Values{k: {s}}, citationToday)
			if err != nil {
				t.Fatalf("%s=%q: %v", k, s, err)
			}
			if c.Date != "" {
				if _, ok := expandDate(c.Date, false); !ok {
					t.Errorf("%s=%q: date %q is not a date", k, s, c.Date)
				}
			}
			for _, n := range []string{c.Volume, c.Issue} {
				if n != "" && (!allDigits(n) || n[0] == '0') {
					t.Errorf("%s=%q: volume or issue %q", k, s, n)
				}
			}
			for _, issn := range c.ISSNs {
				if !ISSNShaped(issn) || len(issn) != 9 {
					t.Errorf("%s=%q: ISSN %q", k, s, issn)
				}
			}
			if slices.ContainsFunc(c.ISBNs, func(s string) bool { return !ISBNShaped(s) || strings.ContainsAny(s, "- ") }) {
				t.Errorf("%s=%q: ISBNs %q", k, s, c.ISBNs)
			}
			if c.DOI != "" && !strings.HasPrefix(c.DOI, "10.") {
				t.Errorf("%s=%q: DOI %q", k, s, c.DOI)
			}
		}
	}
}
