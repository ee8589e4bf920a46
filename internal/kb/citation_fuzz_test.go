package kb

import (
	"net/url"
	"testing"
)

// FuzzParseCitation reads any query as an OpenURL: the parser never
// panics, and a citation it accepts holds only what Citation's comments
// allow.
func FuzzParseCitation(f *testing.F) {
	for _, s := range []string{
		"genre=article&issn=0317-8471&date=1995-03-01&volume=12&issue=3&spage=45&id=doi:10.1000/182&sid=x",
		"url_ver=Z39.88-2004&rft_val_fmt=info:ofi/fmt:kev:mtx:journal&rft.eissn=1050124x&rft.date=2016&rft_id=info:doi/10.1/x&rfr_id=info:sid/y",
		"isbn=0-306-40615-2&btitle=A+Book", "title=%C3%A9&date=20x5&volume=abc", "date=9999-99-99&issue=0&id=doi:10./",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		v, err := url.ParseQuery(q)
		if err != nil {
			return
		}
		c, err := ParseCitation(v, citationToday)
		if err != nil {
			if ErrorCode(err) != CodeInvalid {
				t.Fatalf("%q: %v, want CodeInvalid", q, err)
			}
			return
		}
		if c.Date != "" {
			if _, ok := expandDate(c.Date, false); !ok {
				t.Errorf("%q: date %q", q, c.Date)
			}
		}
		for _, n := range []string{c.Volume, c.Issue} {
			if n != "" && (!allDigits(n) || n[0] == '0') {
				t.Errorf("%q: number %q", q, n)
			}
		}
		for _, s := range c.ISSNs {
			if !ISSNShaped(s) || len(s) != 9 {
				t.Errorf("%q: ISSN %q", q, s)
			}
		}
		for _, s := range c.ISBNs {
			if len(s) != 10 && len(s) != 13 {
				t.Errorf("%q: ISBN %q", q, s)
			}
		}
		if len(c.DOI) > maxDOI {
			t.Errorf("%q: a DOI of %d bytes", q, len(c.DOI))
		}
	})
}
