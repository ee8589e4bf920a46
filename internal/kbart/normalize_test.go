package kbart

import (
	"testing"
)

// readRow reads a standard file with one row made of kv.
func readRow(t *testing.T, kv map[Field]string) Row {
	t.Helper()
	if _, ok := kv[PublicationTitle]; !ok {
		kv[PublicationTitle] = "T"
	}
	res := mustRead(t, stdHeader+"\n"+line(kv)+"\n")
	if len(res.rows) != 1 {
		t.Fatalf("got %d rows, rejected %v", len(res.rows), res.rejected)
	}
	return res.rows[0]
}

func TestPublicationType(t *testing.T) {
	tests := []struct {
		name   string
		kv     map[Field]string
		want   string
		repair string // "" = no repair
	}{
		{"serial", map[Field]string{PublicationType: "serial"}, "serial", ""},
		{"monograph", map[Field]string{PublicationType: "monograph"}, "monograph", ""},
		// A change of case is a normalisation (see TestNormalized), not a repair.
		{"Serial", map[Field]string{PublicationType: "Serial"}, "serial", ""},
		{"MONOGRAPH", map[Field]string{PublicationType: "MONOGRAPH"}, "monograph", ""},
		{"handbook with ISBN", map[Field]string{PublicationType: "handbook", OnlineIdentifier: "978-0-306-40615-7"}, "monograph",
			`publication_type "handbook" is not serial or monograph: read as monograph (ISBN identifier)`},
		{"book with ISSN", map[Field]string{PublicationType: "book", PrintIdentifier: "0317-8471"}, "serial",
			`publication_type "book" is not serial or monograph: read as serial (ISSN identifier)`},
		{"bad ISBN still ISBN-shaped", map[Field]string{PublicationType: "other", PrintIdentifier: "978-0-306-40615-8"}, "monograph", "(ISBN identifier)"},
		{"empty with date", map[Field]string{DateFirstIssueOnline: "1997"}, "serial",
			"publication_type is empty: inferred serial (has date_first_issue_online)"},
		{"empty without anything", map[Field]string{}, "monograph",
			"publication_type is empty: inferred monograph (no ISSN and no date_first_issue_online)"},
		{"empty with both kinds", map[Field]string{PrintIdentifier: "0317-8471", OnlineIdentifier: "9780306406157"}, "monograph",
			"(no ISSN and no date_first_issue_online)"},
		{"invalid date does not count", map[Field]string{DateFirstIssueOnline: "Serial"}, "monograph", "inferred monograph"},
		{"shifted value", map[Field]string{PublicationType: "Wolters Kluwer Health", DateFirstIssueOnline: "2000"}, "serial",
			`publication_type "Wolters Kluwer Health" is not serial or monograph: read as serial (has date_first_issue_online)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row := readRow(t, tt.kv)
			if got := row.Values[PublicationType]; got != tt.want {
				t.Errorf("publication_type = %q, want %q", got, tt.want)
			}
			switch {
			case tt.repair == "" && hasNote(row.Repairs, "publication_type"):
				t.Errorf("unexpected repairs %q", row.Repairs)
			case tt.repair != "" && !hasNote(row.Repairs, tt.repair):
				t.Errorf("repairs %q lack %q", row.Repairs, tt.repair)
			}
		})
	}
}

func TestIdentifiers(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   string
		repair string // "" = no repair
	}{
		{"issn", "0317-8471", "0317-8471", ""},
		{"issn X", "2434-561X", "2434-561X", ""},
		{"issn without hyphen", "12345679", "1234-5679", `print_identifier "12345679" read as 1234-5679`},
		{"issn lowercase x", "2434-561x", "2434-561X", ""}, // normalised: see TestNormalized
		{"issn with space", "0317 8471", "0317-8471", "read as 0317-8471"},
		{"issn bad check digit", "0317-8472", "0317-8472", `print_identifier "0317-8472": invalid ISSN check digit (kept)`},
		{"issn bad check digit unhyphenated", "03178472", "03178472", "invalid ISSN check digit (kept)"},
		{"isbn-13", "978-0-306-40615-7", "978-0-306-40615-7", ""},
		{"isbn-13 bare", "9780306406157", "9780306406157", ""},
		{"isbn-10", "0-306-40615-2", "0-306-40615-2", ""},
		{"isbn bad check digit", "978-0-306-40615-8", "978-0-306-40615-8", `print_identifier "978-0-306-40615-8": invalid ISBN check digit (kept)`},
		{"doi", "10.1079/9780851991283.0000", "10.1079/9780851991283.0000", `print_identifier "10.1079/9780851991283.0000" is neither an ISSN nor an ISBN (kept)`},
		{"free text", "EN COURS", "EN COURS", "is neither an ISSN nor an ISBN (kept)"},
		{"two issns", "1390-7794;1390-440X", "1390-7794;1390-440X", "is neither an ISSN nor an ISBN (kept)"},
		{"hash prefix", "#1413-4703", "1413-4703", `print_identifier "#1413-4703": leading # removed`},
		{"hash prefix bad text", "#ISSN", "#ISSN", "is neither"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row := readRow(t, map[Field]string{PrintIdentifier: tt.in, PublicationType: "serial"})
			if got := row.Values[PrintIdentifier]; got != tt.want {
				t.Errorf("print_identifier = %q, want %q", got, tt.want)
			}
			switch {
			case tt.repair == "" && len(row.Repairs) > 0:
				t.Errorf("unexpected repairs %q", row.Repairs)
			case tt.repair != "" && !hasNote(row.Repairs, tt.repair):
				t.Errorf("repairs %q lack %q", row.Repairs, tt.repair)
			}
		})
	}
	// The online identifier gets the same treatment.
	row := readRow(t, map[Field]string{OnlineIdentifier: "2167177X", PublicationType: "serial"})
	if row.Values[OnlineIdentifier] != "2167-177X" || !hasNote(row.Repairs, `online_identifier "2167177X" read as 2167-177X`) {
		t.Errorf("online_identifier %q, repairs %q", row.Values[OnlineIdentifier], row.Repairs)
	}
}

func TestEmbargoAndAccessType(t *testing.T) {
	tests := []struct {
		name   string
		field  Field
		in     string
		want   string
		repair string
	}{
		{"embargo", EmbargoInfo, "P1Y", "P1Y", ""},
		{"embargo both", EmbargoInfo, "R10Y;P30D", "R10Y;P30D", ""},
		{"embargo lower case", EmbargoInfo, "r6m", "R6M", ""}, // normalised: see TestNormalized
		{"embargo spaces", EmbargoInfo, "P 1 Y ; R 2 Y", "R2Y;P1Y", ""},
		{"embargo date", EmbargoInfo, "2018-05-01", "2018-05-01", `embargo_info "2018-05-01" is not KBART embargo notation`},
		{"embargo text", EmbargoInfo, "Moving Wall: 3 years", "Moving Wall: 3 years", "is not KBART embargo notation"},
		{"embargo publisher", EmbargoInfo, "Elsevier", "Elsevier", "(kept)"},
		{"access F", AccessType, "F", "F", ""},
		{"access p", AccessType, "p", "P", ""}, // normalised: see TestNormalized
		{"access pf", AccessType, "pf", "PF", ""},
		{"access h", AccessType, "H", "H", ""},
		{"access free", AccessType, "free", "F", ""},
		{"access escaped CR", AccessType, `P\r`, "P", `access_type "P\\r" read as P`},
		{"access other", AccessType, "Open Access", "Open Access", `access_type "Open Access" is not F (free) or P (paid) (kept)`},
		{"coverage depth kept", CoverageDepth, "Volltext", "Volltext", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row := readRow(t, map[Field]string{tt.field: tt.in, PublicationType: "serial"})
			if got := row.Values[tt.field]; got != tt.want {
				t.Errorf("%s = %q, want %q", tt.field, got, tt.want)
			}
			switch {
			case tt.repair == "" && len(row.Repairs) > 0:
				t.Errorf("unexpected repairs %q", row.Repairs)
			case tt.repair != "" && !hasNote(row.Repairs, tt.repair):
				t.Errorf("repairs %q lack %q", row.Repairs, tt.repair)
			}
		})
	}
}

// TestCleanRowHasNoRepairs checks that a clean row carries a nil Repairs
// slice.
func TestCleanRowHasNoRepairs(t *testing.T) {
	row := readRow(t, map[Field]string{
		PublicationTitle:     "Journal für Mathematik",
		PrintIdentifier:      "0317-8471",
		OnlineIdentifier:     "2434-561X",
		DateFirstIssueOnline: "1997-01-01",
		DateLastIssueOnline:  "2010",
		EmbargoInfo:          "P1Y",
		PublicationType:      "serial",
		AccessType:           "P",
	})
	if row.Repairs != nil {
		t.Errorf("Repairs = %q, want nil", row.Repairs)
	}
}
