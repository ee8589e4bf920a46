package kbart

import (
	"errors"
	"strings"
	"testing"
)

// shiftHeader is a Phase II header with the standard columns and one
// extra column at the end.
var shiftHeader = stdHeader + "\tbestppn"

// cells builds a data line from field/value pairs, then the extra values.
func cells(kv map[Field]string, extra ...string) []string {
	v := make([]string, NumFields)
	for f, s := range kv {
		v[f] = s
	}
	return append(v, extra...)
}

// insertAt returns fs with the values ins inserted before position i.
func insertAt(fs []string, i int, ins ...string) []string {
	out := append([]string{}, fs[:i]...)
	out = append(out, ins...)
	return append(out, fs[i:]...)
}

// deleteAt returns fs without the value at position i.
func deleteAt(fs []string, i int) []string {
	out := append([]string{}, fs[:i]...)
	return append(out, fs[i+1:]...)
}

// book is a monograph row of a Sage-like list.
var book = map[Field]string{
	PublicationTitle:             "Motivating Every Learner",
	OnlineIdentifier:             "9781446269299",
	TitleURL:                     "http://knowledge.sagepub.com/view/motivating-every-learner/SAGE.xml",
	FirstAuthor:                  "McLean",
	TitleID:                      "motivating-every-learner",
	PublisherName:                "SAGE Publications Ltd",
	PublicationType:              "Monograph",
	DateMonographPublishedPrint:  "20/05/2009",
	DateMonographPublishedOnline: "18/01/2013",
	AccessType:                   "F",
}

// journal is a serial row.
var journal = map[Field]string{
	PublicationTitle:     "Irish Law Journal",
	PrintIdentifier:      "0317-8471",
	OnlineIdentifier:     "2434-561X",
	DateFirstIssueOnline: "2012",
	DateLastIssueOnline:  "2015-12",
	TitleURL:             "http://heinonline.org/HOL/Index?index=journals/irlajor",
	TitleID:              "irlajor",
	CoverageDepth:        "fulltext",
	PublisherName:        "National University of Ireland, Maynooth",
	PublicationType:      "serial",
	AccessType:           "P",
}

func TestShiftedRowsRejected(t *testing.T) {
	tests := []struct {
		name   string
		fields []string
		reason string // the start of the Problem reason
	}{
		{
			// As Sage line 2280: two values inserted before publisher_name,
			// the last two fields lost.
			name:   "two columns right",
			fields: insertAt(cells(book, "123"), int(PublisherName), "237486", "")[:NumFields+1],
			reason: "values do not line up with the header: they sit 2 columns to the right of their header column from somewhere between column 11 (first_author) and column 17 (publication_type) on",
		},
		{
			name:   "one column right",
			fields: insertAt(cells(book, "123"), int(Notes), "x"),
			reason: "values do not line up with the header: they sit 1 column to the right of their header column from somewhere between column 11 (first_author) and column 17 (publication_type) on",
		},
		{
			name:   "one column left",
			fields: deleteAt(cells(journal, "123"), int(NumFirstVolOnline)),
			reason: "values do not line up with the header: they sit 1 column to the left of their header column from somewhere between column 5 (num_first_vol_online) and column 7 (date_last_issue_online) on",
		},
		{
			name:   "identifiers left",
			fields: deleteAt(cells(journal, "123"), int(PrintIdentifier)),
			reason: "values do not line up with the header: they sit 1 column to the left of their header column from column 3 (online_identifier) on",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, shiftHeader+"\n"+strings.Join(tt.fields, "\t")+"\n")
			if len(res.rejected) != 1 {
				t.Fatalf("rows %+v, rejected %v", res.rows, res.rejected)
			}
			e := res.rejected[0]
			if e.Problem.Kind != Rejected || e.Problem.Field != "" || e.Problem.Action != "row rejected" ||
				!strings.HasPrefix(e.Problem.Reason, tt.reason) {
				t.Errorf("problem %+v, want reason %q…", e.Problem, tt.reason)
			}
			if !strings.Contains(e.Reason, "the row was not read: put its values back in their columns") {
				t.Errorf("reason %q", e.Reason)
			}
			// The values after the shift are put back under their header.
			if e.Values[PublicationTitle] == "" || e.Values[TitleID] == "" || e.Values[PublicationType] == "" {
				t.Errorf("values %q", e.Values)
			}
		})
	}
}

// TestShiftNoFalseAlarm checks rows that look odd but are not shifted.
func TestShiftNoFalseAlarm(t *testing.T) {
	with := func(base map[Field]string, kv map[Field]string) []string {
		m := make(map[Field]string)
		for f, v := range base {
			m[f] = v
		}
		for f, v := range kv {
			m[f] = v
		}
		return cells(m, "")
	}
	tests := []struct {
		name   string
		fields []string
	}{
		{"other publication_type", with(book, map[Field]string{PublicationType: "handbook"})},
		{"publisher in publication_type", with(journal, map[Field]string{PublicationType: "Wolters Kluwer Health"})},
		{"word in a date", with(book, map[Field]string{DateMonographPublishedPrint: "unknown"})},
		{"URL in title_id", with(journal, map[Field]string{TitleID: "http://library.cqpress.com/cqalmanac"})},
		{"print identifier empty", with(journal, map[Field]string{PrintIdentifier: "", PublicationType: "book"})},
		{"monograph edition", with(book, map[Field]string{MonographEdition: "monograph"})},
		{"columns swapped", with(journal, map[Field]string{TitleURL: "Splits into: A and B", Notes: "http://www.jstor.org/x"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, shiftHeader+"\n"+strings.Join(tt.fields, "\t")+"\n")
			if len(res.rows) != 1 {
				t.Fatalf("rejected %v", res.rejected)
			}
		})
	}
}

func TestQuotedTabRepaired(t *testing.T) {
	// As HeinOnline line 972: a tab inside the quoted publisher name.
	fields := cells(journal, "123")
	fields[PublisherName] = "\" \tNational University of Ireland, Maynooth\""
	split := strings.Split(strings.Join(fields, "\t"), "\t")
	res := mustRead(t, shiftHeader+"\n"+strings.Join(split, "\t")+"\n")
	if len(res.rows) != 1 {
		t.Fatalf("rejected %v", res.rejected)
	}
	row := res.rows[0]
	if got := row.Values[PublisherName]; got != "National University of Ireland, Maynooth" {
		t.Errorf("publisher_name %q", got)
	}
	if row.Values[PublicationType] != "serial" || row.Values[AccessType] != "P" || row.Extra[0] != "123" {
		t.Errorf("values %q, extra %q", row.Values, row.Extra)
	}
	want := Problem{Kind: Repaired, Field: "publisher_name", Original: "\" \tNational University of Ireland, Maynooth\"",
		Action: "fields joined, later values moved left", Reason: "a tab inside a quoted value split it in two fields"}
	if !hasProblem(row.Problems, want) {
		t.Errorf("problems %+v lack %+v", row.Problems, want)
	}
	if !hasNote(row.Repairs, `publisher_name "\" \tNational University of Ireland, Maynooth\"": a tab inside a quoted value split it in two fields`) {
		t.Errorf("repairs %q", row.Repairs)
	}
}

// TestQuotedTabNotRepaired checks that quotes that do not enclose a tab,
// or a row no longer than the header, are left alone.
func TestQuotedTabNotRepaired(t *testing.T) {
	const h = "publication_title\tnotes\tpublisher_name\n"
	tests := []struct {
		name, in string
		want     [3]string // title, notes, publisher
	}{
		{"row not longer than the header", "\"A\t b\"\tP\n", [3]string{`"A`, `b"`, "P"}},
		{"closing field too far", "\"A\tb\tc\"\tP\n", [3]string{`"A`, "b", `c"`}},
		{"wholly quoted values", "\"A\"\t\"b\"\t\"P\"\t\n", [3]string{"A", "b", "P"}},
		{"joined", "\"A\tb\"\tn\tP\n", [3]string{"A b", "n", "P"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, h+tt.in)
			if len(res.rows) != 1 {
				t.Fatalf("rejected %v", res.rejected)
			}
			v := res.rows[0].Values
			if got := [3]string{v[PublicationTitle], v[Notes], v[PublisherName]}; got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSpreadsheetErrors(t *testing.T) {
	for _, title := range []string{"#N/A", "#REF!", "#VALUE!", "#NAME?", "#n/a", "#DIV/0!"} {
		t.Run(title, func(t *testing.T) {
			res := mustRead(t, stdHeader+"\n"+line(map[Field]string{PublicationTitle: title, OnlineIdentifier: "9781452205786", TitleID: "motivating"})+"\n")
			if len(res.rejected) != 1 {
				t.Fatalf("rows %+v", res.rows)
			}
			e := res.rejected[0]
			want := `publication_title is "` + title + `", a spreadsheet error value, not a title (row has online_identifier "9781452205786", title_id "motivating")`
			if e.Reason != want {
				t.Errorf("reason %q, want %q", e.Reason, want)
			}
			if e.Problem.Field != "publication_title" || e.Problem.Original != title || e.Values[TitleID] != "motivating" {
				t.Errorf("problem %+v values %q", e.Problem, e.Values)
			}
		})
	}
	// Elsewhere the value is cleared, and flagged.
	row := readRow(t, map[Field]string{PublicationTitle: "#1 Your Pajamas Are Showing!", OnlineIdentifier: "#N/A", FirstAuthor: "#REF!",
		PublicationType: "monograph"})
	if row.Values[OnlineIdentifier] != "" || row.Values[FirstAuthor] != "" || row.Values[PublicationTitle] != "#1 Your Pajamas Are Showing!" {
		t.Errorf("values %q", row.Values)
	}
	if !hasProblem(row.Problems, Problem{Kind: Flagged, Field: "online_identifier", Original: "#N/A", Action: "cleared"}) ||
		!hasNote(row.Repairs, `first_author "#REF!" is a spreadsheet error value: cleared`) {
		t.Errorf("problems %+v repairs %q", row.Problems, row.Repairs)
	}
}

// TestShiftedAndSpreadsheetError checks that a shifted row whose title is
// a spreadsheet error says both.
func TestShiftedAndSpreadsheetError(t *testing.T) {
	kv := make(map[Field]string)
	for f, v := range book {
		kv[f] = v
	}
	kv[PublicationTitle] = "#N/A"
	fields := insertAt(cells(kv, ""), int(PublisherName), "237486", "")
	res := mustRead(t, shiftHeader+"\n"+strings.Join(fields, "\t")+"\n")
	if len(res.rejected) != 1 {
		t.Fatalf("rows %+v", res.rows)
	}
	var e *RowError
	if !errors.As(error(res.rejected[0]), &e) || !strings.HasPrefix(e.Reason, "values do not line up") ||
		!strings.Contains(e.Reason, `besides, its publication_title is "#N/A", a spreadsheet error value`) {
		t.Errorf("reason %q", res.rejected[0].Reason)
	}
}
