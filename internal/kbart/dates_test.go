package kbart

import (
	"strings"
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		name  string
		field Field
		in    string
		want  string // "" for invalid
		how   string // part of the note; "" for a canonical value
	}{
		{"year", DateFirstIssueOnline, "2010", "2010", ""},
		{"year-month", DateFirstIssueOnline, "2010-11", "2010-11", ""},
		{"full date", DateFirstIssueOnline, "2010-11-15", "2010-11-15", ""},
		{"leap day", DateFirstIssueOnline, "2012-02-29", "2012-02-29", ""},
		{"bad leap day", DateFirstIssueOnline, "2011-02-29", "", "is not a valid date"},
		{"bad month", DateFirstIssueOnline, "2010-13", "", "is not a valid date"},
		{"month 00", DateFirstIssueOnline, "2010-00", "", "is not a valid date"},
		{"bad day", DateFirstIssueOnline, "2010-04-31", "", "is not a valid date"},
		{"day 00", DateFirstIssueOnline, "2010-04-00", "", "is not a valid date"},
		{"zeros", DateMonographPublishedOnline, "0000-00-00", "", "is not a valid date"},
		{"year too small", DateFirstIssueOnline, "0999", "", "is not a valid date"},
		{"year 7", DateFirstIssueOnline, "0007-02-27", "", "is not a valid date"},
		{"year too big", DateFirstIssueOnline, "2101", "", "is not a valid date"},
		{"zero", DateFirstIssueOnline, "0", "", "is not a valid date"},
		{"text", DateMonographPublishedPrint, "Serial", "", "is not a valid date"},
		{"issn in a date", DateFirstIssueOnline, "0886-3350", "", "is not a valid date"},
		{"timestamp", DateMonographPublishedPrint, "2008-05-19 00:00:00", "2008-05-19", "read as"},
		{"iso timestamp", DateMonographPublishedPrint, "2008-05-19T12:30:00Z", "2008-05-19", "read as"},
		{"timestamp bad date", DateMonographPublishedPrint, "2008-02-30 00:00:00", "", "is not a valid date"},
		{"dd/mm/yyyy", DateMonographPublishedPrint, "15/11/2010", "2010-11-15", "read as"},
		{"mm/dd/yyyy", DateMonographPublishedPrint, "11/15/2010", "2010-11-15", "read as"},
		{"ambiguous 4-digit year", DateMonographPublishedPrint, "05/11/2010", "2010-11-05", "is ambiguous (day/month or month/day): read as day/month (assumed)"},
		{"same day and month", DateFirstIssueOnline, "01/01/1997", "1997-01-01", "read as"},
		{"m/d/yy ambiguous", DateMonographPublishedPrint, "8/10/17", "2017-08-10", "read as month/day (assumed)"},
		{"m/d/yy", DateMonographPublishedPrint, "3/14/58", "1958-03-14", "read as"},
		{"two-digit year at pivot", DateMonographPublishedPrint, "7/7/26", "2026-07-07", "read as"},
		{"two-digit year after pivot", DateMonographPublishedPrint, "1/1/27", "1927-01-01", "read as"},
		{"d/m/y bad", DateMonographPublishedPrint, "32/13/2010", "", "is not a valid date"},
		{"d/m/y bad day", DateMonographPublishedPrint, "31/02/2010", "", "is not a valid date"},
		{"d.m.y", DateMonographPublishedPrint, "15.11.2010", "2010-11-15", "read as"},
		{"y/m/d", DateMonographPublishedPrint, "2010/11/05", "2010-11-05", "read as"},
		{"mm/yyyy", DateFirstIssueOnline, "11/2010", "2010-11", "read as"},
		{"loose iso", DateFirstIssueOnline, "2010-1-5", "2010-01-05", "read as"},
		{"yyyymm", DateFirstIssueOnline, "199306", "1993-06", "read as"},
		{"yyyymmdd", DateMonographPublishedOnline, "20150526", "2015-05-26", "read as"},
		{"yyyymm bad", DateFirstIssueOnline, "201513", "", "is not a valid date"},
		{"bracketed", DateMonographPublishedPrint, "[1840]", "1840", "read as"},
		{"bracketed text", DateMonographPublishedPrint, "[n.d.]", "", "is not a valid date"},
		{"float year", DateMonographPublishedPrint, "2013.0", "2013", "read as"},
		{"excel serial float", DateMonographPublishedOnline, "43214.0", "2018-04-24", "read as an Excel serial day number"},
		{"excel serial", DateMonographPublishedOnline, "28491", "1978-01-01", "read as an Excel serial day number"},
		{"excel serial fraction", DateMonographPublishedOnline, "42313.5", "2015-11-05", "read as an Excel serial day number"},
		{"too small serial", DateMonographPublishedOnline, "9999", "", "is not a valid date"},
		{"too big serial", DateMonographPublishedOnline, "80001", "", "is not a valid date"},
		{"other float", DateMonographPublishedOnline, "12.5", "", "is not a valid date"},
		{"range first", DateMonographPublishedPrint, "1848-1857", "1848", "is a range of years: read as its first year"},
		{"range first date", DateFirstIssueOnline, "1848 - 1857", "1848", "first year"},
		{"range last", DateLastIssueOnline, "1848-1857", "1857", "is a range of years: read as its last year"},
		{"range slash", DateLastIssueOnline, "1977/1978", "1978", "last year"},
		{"range bad", DateLastIssueOnline, "0886-3350", "", "is not a valid date"},
		{"text with year", DateMonographPublishedPrint, "1929 Jan.-June", "1929", "is not a date but names a year: read as"},
		{"text with years first", DateMonographPublishedPrint, "1901 September 21 - 1909", "1901", "names a year"},
		{"text with years last", DateLastIssueOnline, "1901 September 21 - 1909", "1909", "names a year"},
		// Archive lists (AM Digital): months with dots are not d.m.y.
		{"months with dots", DateMonographPublishedPrint, "1905 Jan.-Mar.", "1905", "names a year"},
		{"months with dots last", DateLastIssueOnline, "1905 Jan.-Mar.", "1905", "names a year"},
		{"months with dots, no dash", DateMonographPublishedPrint, "1900 Jan. Mar.", "1900", "names a year"},
		{"months across years", DateMonographPublishedPrint, "1853 Sept.-1854 Jan.", "1853", "names a year"},
		{"months across years last", DateLastIssueOnline, "1853 Sept.-1854 Jan.", "1854", "names a year"},
		{"spaced months across years", DateMonographPublishedPrint, "1865 Nov. - 1867 Mar.", "1865", "names a year"},
		{"days after months", DateMonographPublishedPrint, "1884 Nov.15-1885 Feb.26", "1884", "names a year"},
		{"days after months last", DateLastIssueOnline, "1884 Nov.15-1885 Feb.26", "1885", "names a year"},
		{"range then month", DateMonographPublishedPrint, "1883-1884 June", "1883", "names a year"},
		{"range then month last", DateLastIssueOnline, "1883-1884 June", "1884", "names a year"},
		{"list of years", DateMonographPublishedOnline, "1873, 1885-1887", "1873", "names a year"},
		{"list of years last", DateLastIssueOnline, "1873, 1885-1887", "1887", "names a year"},
		{"bracketed last year", DateMonographPublishedPrint, "1896-[1901]", "1896", "names a year"},
		{"bracketed last year last", DateLastIssueOnline, "1896-[1901]", "1901", "names a year"},
		{"months before year", DateMonographPublishedPrint, "Jul-Sep 1853", "1853", "names a year"},
		{"full month names", DateFirstIssueOnline, "March 1999 - October 2001", "1999", "names a year"},
		{"circa", DateMonographPublishedPrint, "ca. 1850", "1850", "names a year"},
		{"misspelt month after a year", DateMonographPublishedPrint, "1881 Julu-Dec.", "1881", "names a year"},
		{"word", DateMonographPublishedPrint, "Corwin", "", "is not a valid date"},
		{"words around a year", DateFirstIssueOnline, "Coverage from 1990", "", "is not a valid date"},
		{"word with month names only", DateFirstIssueOnline, "Jan.-Mar.", "", "is not a valid date"},
		{"year out of range in words", DateMonographPublishedPrint, "0905 Jan.-Mar.", "", "is not a valid date"},
		{"day number too big", DateMonographPublishedPrint, "Jan 45 1905", "", "is not a valid date"},
		{"midnight timestamp with zone", DateMonographPublishedPrint, "2008-05-19T00:00:00Z", "2008-05-19", "read as"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := dateParser{pivot: 26}
			got := p.parse(tt.field, tt.in)
			if got.norm != tt.want {
				t.Errorf("parse(%q) = %q, want %q", tt.in, got.norm, tt.want)
			}
			if got.invalid != (tt.want == "") {
				t.Errorf("parse(%q).invalid = %v", tt.in, got.invalid)
			}
			if tt.how == "" && got.how != "" || !strings.Contains(got.how, tt.how) {
				t.Errorf("parse(%q).how = %q, want %q", tt.in, got.how, tt.how)
			}
			if got.how != "" && got.reason == "" {
				t.Errorf("parse(%q) has no reason", tt.in)
			}
		})
	}
}

// TestDateProblems checks the kind and reason of the problem each date
// change gives: a midnight time of day is a normalisation, a word is
// flagged and cleared.
func TestDateProblems(t *testing.T) {
	tests := []struct {
		name  string
		field Field
		in    string
		want  Problem
	}{
		{"midnight", DateMonographPublishedPrint, "2008-05-19 00:00:00",
			Problem{Kind: Normalized, Action: "read as 2008-05-19", Reason: "time of day 00:00:00 is dropped"}},
		{"time of day", DateMonographPublishedPrint, "2008-05-19 12:30:00",
			Problem{Kind: Repaired, Action: "read as 2008-05-19", Reason: "a timestamp: its time of day is dropped"}},
		{"slash date", DateFirstIssueOnline, "15/11/2010",
			Problem{Kind: Repaired, Action: "read as 2010-11-15", Reason: "not written YYYY, YYYY-MM or YYYY-MM-DD"}},
		{"months in words", DateMonographPublishedPrint, "1905 Jan.-Mar.",
			Problem{Kind: Repaired, Action: "read as 1905", Reason: "not a date but names a year"}},
		{"years in words, last", DateLastIssueOnline, "1853 Sept.-1854 Jan.",
			Problem{Kind: Repaired, Action: "read as 1854", Reason: "names years: the last one is used"}},
		{"range", DateMonographPublishedPrint, "1848-1857",
			Problem{Kind: Repaired, Action: "read as 1848", Reason: "a range of years: its first year is used"}},
		{"word", DateMonographPublishedPrint, "Monograph",
			Problem{Kind: Flagged, Action: "cleared", Reason: "a word, not a date"}},
		{"impossible date", DateFirstIssueOnline, "0000-00-00",
			Problem{Kind: Flagged, Action: "cleared", Reason: "not a valid date"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row := readRow(t, map[Field]string{tt.field: tt.in, PublicationType: "serial"})
			want := tt.want
			want.Field, want.Original = tt.field.String(), tt.in
			if !hasProblem(row.Problems, want) {
				t.Errorf("problems %+v lack %+v", row.Problems, want)
			}
			if got, msg := len(row.Repairs), want.Kind != Normalized; msg != (got == 1) {
				t.Errorf("repairs %q", row.Repairs)
			}
			if want.Kind == Flagged && row.Values[tt.field] != "" {
				t.Errorf("%s kept: %q", tt.field, row.Values[tt.field])
			}
		})
	}
}

// TestDateOrderEvidence checks that ambiguous dates follow the order shown
// by the file's unambiguous ones.
func TestDateOrderEvidence(t *testing.T) {
	p := dateParser{pivot: 26}
	p.parse(DateMonographPublishedPrint, "11/15/2010") // month/day
	got := p.parse(DateMonographPublishedPrint, "05/11/2010")
	if got.norm != "2010-05-11" || !strings.Contains(got.how, "read as month/day (as in this file's other dates)") {
		t.Errorf("got %+v", got)
	}
	p = dateParser{pivot: 26}
	p.parse(DateMonographPublishedPrint, "15/11/2010") // day/month
	got = p.parse(DateMonographPublishedPrint, "8/10/17")
	if got.norm != "2017-10-08" || !strings.Contains(got.how, "read as day/month (as in this file's other dates)") {
		t.Errorf("got %+v", got)
	}
}

func TestNewDateParserPivot(t *testing.T) {
	p := newDateParser(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	if p.pivot != 27 {
		t.Errorf("pivot = %d, want 27", p.pivot)
	}
}

// TestDatesInRows checks the date notes and the reversed-range warning as
// the reader gives them.
func TestDatesInRows(t *testing.T) {
	in := stdHeader + "\n" + line(map[Field]string{
		PublicationTitle:     "A",
		OnlineIdentifier:     "2434-561X",
		DateFirstIssueOnline: "15/11/2010",
		DateLastIssueOnline:  "2009",
		PublicationType:      "serial",
	}) + "\n" + line(map[Field]string{
		PublicationTitle:            "B",
		OnlineIdentifier:            "9780306406157",
		DateMonographPublishedPrint: "0",
		PublicationType:             "monograph",
	}) + "\n"
	res := mustRead(t, in)
	if len(res.rows) != 2 {
		t.Fatalf("rows %v rejected %v", res.rows, res.rejected)
	}
	a, b := res.rows[0], res.rows[1]
	if a.Values[DateFirstIssueOnline] != "2010-11-15" || a.Values[DateLastIssueOnline] != "2009" {
		t.Errorf("values %q", a.Values)
	}
	for _, want := range []string{
		`date_first_issue_online "15/11/2010" read as 2010-11-15`,
		"date_last_issue_online 2009 is before date_first_issue_online 2010-11-15 (kept)",
	} {
		if !hasNote(a.Repairs, want) {
			t.Errorf("repairs %q lack %q", a.Repairs, want)
		}
	}
	if b.Values[DateMonographPublishedPrint] != "" {
		t.Errorf("invalid date kept: %q", b.Values[DateMonographPublishedPrint])
	}
	if !hasNote(b.Repairs, `date_monograph_published_print "0" is not a valid date`, "cleared") {
		t.Errorf("repairs %q", b.Repairs)
	}
}

func TestDateBefore(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"2009", "2010", true},
		{"2010", "2010-05", false},
		{"2010-04", "2010-05-01", true},
		{"2010-05-02", "2010-05-01", false},
	}
	for _, tt := range tests {
		if got := dateBefore(tt.a, tt.b); got != tt.want {
			t.Errorf("dateBefore(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}
