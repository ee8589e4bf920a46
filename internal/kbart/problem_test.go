package kbart

import (
	"strings"
	"testing"
)

// hasProblem reports whether problems has one that matches want: the same
// Kind, and the same Field, Original, Action and Reason where want sets
// them ("" matches anything but Field, which must match exactly when
// Action is set too).
func hasProblem(problems []Problem, want Problem) bool {
	for _, p := range problems {
		if p.Kind != want.Kind ||
			want.Field != "" && p.Field != want.Field ||
			want.Original != "" && p.Original != want.Original ||
			want.Action != "" && p.Action != want.Action ||
			want.Reason != "" && !strings.Contains(p.Reason, want.Reason) {
			continue
		}
		return true
	}
	return false
}

// checkProblems checks the invariants that tie a row's Problems to its
// Repairs: every problem has a kind, an action and a reason, an Original of
// at most maxOriginal bytes, and Repairs has one message per Repaired or
// Flagged problem.
func checkProblems(t *testing.T, row Row) {
	t.Helper()
	if (row.Problems == nil) != (len(row.Problems) == 0) {
		t.Errorf("line %d: empty non-nil Problems", row.Line)
	}
	msgs := 0
	for _, p := range row.Problems {
		switch p.Kind {
		case Repaired, Flagged:
			msgs++
		case Normalized:
		default:
			t.Errorf("line %d: problem of kind %v in a row: %+v", row.Line, p.Kind, p)
		}
		if p.Action == "" || p.Reason == "" || len(p.Original) > maxOriginal {
			t.Errorf("line %d: bad problem %+v", row.Line, p)
		}
	}
	if msgs != len(row.Repairs) {
		t.Errorf("line %d: %d repaired or flagged problems, %d repair messages: %+v %q", row.Line, msgs, len(row.Repairs), row.Problems, row.Repairs)
	}
}

func TestProblemKindString(t *testing.T) {
	tests := []struct {
		k    ProblemKind
		want string
	}{
		{Repaired, "repaired"},
		{Flagged, "flagged"},
		{Normalized, "normalized"},
		{Rejected, "rejected"},
		{0, "ProblemKind(0)"},
	}
	for _, tt := range tests {
		if got := tt.k.String(); got != tt.want {
			t.Errorf("%d.String() = %q, want %q", int(tt.k), got, tt.want)
		}
	}
}

func TestCutBytes(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "abc"},
		{"aé", 2, "a"}, // é is two bytes: not split
		{"aé", 3, "aé"},
	}
	for _, tt := range tests {
		if got := cutBytes(tt.in, tt.n); got != tt.want {
			t.Errorf("cutBytes(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// TestNormalized checks each kind of normalisation: a Normalized problem,
// and no message in Repairs.
func TestNormalized(t *testing.T) {
	tests := []struct {
		name  string
		field Field
		in    string
		want  string
		prob  Problem
	}{
		{"publication_type case", PublicationType, "Monograph", "monograph",
			Problem{Action: "read as monograph", Reason: "publication_type in lower case"}},
		{"access_type case", AccessType, "p", "P", Problem{Action: "read as P", Reason: "access_type written as its KBART code"}},
		{"access_type word", AccessType, "free", "F", Problem{Action: "read as F"}},
		{"coverage_depth case", CoverageDepth, "Fulltext", "fulltext", Problem{Action: "read as fulltext", Reason: "coverage_depth in lower case"}},
		{"coverage_depth selected articles", CoverageDepth, "Selected Articles", "selected articles", Problem{Action: "read as selected articles"}},
		{"embargo case", EmbargoInfo, "r6m", "R6M", Problem{Action: "read as R6M"}},
		{"embargo spaces and order", EmbargoInfo, "P 1 Y ; R 2 Y", "R2Y;P1Y", Problem{Action: "read as R2Y;P1Y"}},
		{"issn lower-case x", PrintIdentifier, "2434-561x", "2434-561X", Problem{Action: "read as 2434-561X", Reason: "ISSN check character x in lower case"}},
		{"midnight", DateFirstIssueOnline, "2008-05-19 00:00:00", "2008-05-19", Problem{Action: "read as 2008-05-19"}},
		{"spaces around", FirstAuthor, "  Dupont \u00a0", "Dupont", Problem{Original: "  Dupont \u00a0", Action: "trimmed", Reason: "white space around the value"}},
		{"space only", FirstAuthor, " ", "", Problem{Original: " ", Action: "trimmed"}},
		{"spaces in quotes", Notes, `" a note "`, "a note", Problem{Action: "trimmed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kv := map[Field]string{tt.field: tt.in}
			if tt.field != PublicationType {
				kv[PublicationType] = "serial"
			}
			row := readRow(t, kv)
			if got := row.Values[tt.field]; got != tt.want {
				t.Errorf("%s = %q, want %q", tt.field, got, tt.want)
			}
			want := tt.prob
			want.Kind, want.Field = Normalized, tt.field.String()
			if !hasProblem(row.Problems, want) {
				t.Errorf("problems %+v lack %+v", row.Problems, want)
			}
			if row.Repairs != nil {
				t.Errorf("repairs %q, want none", row.Repairs)
			}
			checkProblems(t, row)
		})
	}
}

// TestRowLevelNormalized checks the normalisations of a whole row.
func TestRowLevelNormalized(t *testing.T) {
	tests := []struct {
		name, in string
		prob     Problem
	}{
		{"byte order mark", "publication_title\tonline_identifier\tpublication_type\n\uFEFFA\t2434-561X\tserial\n",
			Problem{Kind: Normalized, Action: "removed", Reason: "byte order mark at the start of the line"}},
		{"short row", "publication_title\tonline_identifier\tpublication_type\nA\t2434-561X\n",
			Problem{Kind: Normalized, Action: "missing fields read as empty", Reason: "row has 2 fields where the header has 3"}},
		{"no publication_type column", "publication_title\tonline_identifier\nA\t2434-561X\n",
			Problem{Kind: Normalized, Field: "publication_type", Action: "inferred serial", Reason: "the file has no publication_type column: ISSN identifier"}},
		{"empty publication_type, ISBN", "publication_title\tonline_identifier\tpublication_type\nA\t9780306406157\t\n",
			Problem{Kind: Normalized, Field: "publication_type", Action: "inferred monograph", Reason: "publication_type is empty: ISBN identifier"}},
		{"notes joined", "publication_title\tcoverage_notes\tnotes\tpublication_type\nA\tcov\tnote\tserial\n",
			Problem{Kind: Normalized, Field: "notes", Original: "note", Action: "joined"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, tt.in)
			if len(res.rows) != 1 {
				t.Fatalf("rejected %v", res.rejected)
			}
			row := res.rows[0]
			if !hasProblem(row.Problems, tt.prob) {
				t.Errorf("problems %+v lack %+v", row.Problems, tt.prob)
			}
			if row.Repairs != nil {
				t.Errorf("repairs %q, want none", row.Repairs)
			}
			checkProblems(t, row)
		})
	}
}

// TestRepairedAndFlagged checks the kind of the problems that stay in
// Repairs.
func TestRepairedAndFlagged(t *testing.T) {
	tests := []struct {
		name string
		kv   map[Field]string
		prob Problem
	}{
		{"entities", map[Field]string{PublicationTitle: "A &amp; B"},
			Problem{Kind: Repaired, Field: "publication_title", Original: "A &amp; B", Action: `read as "A & B"`, Reason: "HTML entities decoded"}},
		{"slash date", map[Field]string{DateFirstIssueOnline: "15/11/2010"},
			Problem{Kind: Repaired, Field: "date_first_issue_online", Action: "read as 2010-11-15"}},
		{"issn without hyphen", map[Field]string{PrintIdentifier: "12345679"},
			Problem{Kind: Repaired, Field: "print_identifier", Action: "read as 1234-5679", Reason: "ISSN not written 1234-567X"}},
		{"hash", map[Field]string{PrintIdentifier: "#0317-8471"},
			Problem{Kind: Repaired, Field: "print_identifier", Action: "leading # removed"}},
		{"escaped CR", map[Field]string{AccessType: `P\r`},
			Problem{Kind: Repaired, Field: "access_type", Action: "read as P", Reason: "an escaped line ending"}},
		{"other publication_type", map[Field]string{PublicationType: "book", PrintIdentifier: "0317-8471"},
			Problem{Kind: Repaired, Field: "publication_type", Original: "book", Action: "read as serial"}},
		{"empty publication_type, guessed", map[Field]string{PublicationType: "", DateFirstIssueOnline: "1997"},
			Problem{Kind: Repaired, Field: "publication_type", Action: "inferred serial", Reason: "has date_first_issue_online"}},
		{"bad check digit", map[Field]string{PrintIdentifier: "0317-8472"},
			Problem{Kind: Flagged, Field: "print_identifier", Action: "kept", Reason: "invalid ISSN check digit"}},
		{"not an identifier", map[Field]string{OnlineIdentifier: "EN COURS"},
			Problem{Kind: Flagged, Field: "online_identifier", Action: "kept", Reason: "neither an ISSN nor an ISBN"}},
		{"embargo text", map[Field]string{EmbargoInfo: "Moving Wall: 3 years"},
			Problem{Kind: Flagged, Field: "embargo_info", Action: "kept"}},
		{"access other", map[Field]string{AccessType: "Open Access"},
			Problem{Kind: Flagged, Field: "access_type", Action: "kept"}},
		{"dates reversed", map[Field]string{DateFirstIssueOnline: "2010", DateLastIssueOnline: "2009"},
			Problem{Kind: Flagged, Field: "date_last_issue_online", Original: "2009", Action: "kept", Reason: "before date_first_issue_online 2010"}},
		{"control characters", map[Field]string{Notes: "a\x01b"},
			Problem{Kind: Repaired, Field: "notes", Reason: "control characters replaced by spaces"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := tt.kv[PublicationType]; !ok {
				tt.kv[PublicationType] = "serial"
			}
			row := readRow(t, tt.kv)
			if !hasProblem(row.Problems, tt.prob) {
				t.Errorf("problems %+v lack %+v", row.Problems, tt.prob)
			}
			if len(row.Repairs) == 0 {
				t.Error("no repair message")
			}
			checkProblems(t, row)
		})
	}
}

// TestRejectedProblems checks the Problem and Values of rejected rows.
func TestRejectedProblems(t *testing.T) {
	in := stdHeader + "\n" +
		line(map[Field]string{PrintIdentifier: "0317-8471", TitleURL: "http://x", TitleID: "t1"}) + "\n" +
		"A title on a line of its own\n" +
		stdHeader + "\n" +
		line(map[Field]string{PublicationTitle: strings.Repeat("t", 1001), TitleID: "t2"}) + "\n" +
		line(map[Field]string{PublicationTitle: "#N/A", OnlineIdentifier: "9781452205786", TitleID: "t3"}) + "\n"
	res := mustRead(t, in)
	want := []struct {
		line   int
		prob   Problem
		values map[Field]string
	}{
		{2, Problem{Kind: Rejected, Field: "publication_title", Action: "row rejected", Reason: "publication_title is empty"},
			map[Field]string{PrintIdentifier: "0317-8471", TitleURL: "http://x", TitleID: "t1"}},
		{3, Problem{Kind: Rejected, Field: "", Original: "A title on a line of its own", Action: "row rejected",
			Reason: "line has no tab (one field where the header has 25 columns): not a KBART row"},
			map[Field]string{PublicationTitle: "A title on a line of its own"}},
		{4, Problem{Kind: Rejected, Field: "", Action: "row rejected", Reason: "repeated header line"}, nil},
		{5, Problem{Kind: Rejected, Field: "publication_title", Action: "row rejected", Reason: "publication_title is 1,001 characters long"},
			map[Field]string{TitleID: "t2"}},
		{6, Problem{Kind: Rejected, Field: "publication_title", Original: "#N/A", Action: "row rejected",
			Reason: `publication_title is "#N/A", a spreadsheet error value, not a title`},
			map[Field]string{PublicationTitle: "#N/A", OnlineIdentifier: "9781452205786", TitleID: "t3"}},
	}
	if len(res.rejected) != len(want) {
		t.Fatalf("rejected %v", res.rejected)
	}
	for i, w := range want {
		e := res.rejected[i]
		if e.Line != w.line || !hasProblem([]Problem{e.Problem}, w.prob) || e.Problem.Reason != w.prob.Reason && w.line != 5 {
			t.Errorf("rejected[%d] = line %d %+v, want line %d %+v", i, e.Line, e.Problem, w.line, w.prob)
		}
		for f, v := range w.values {
			if e.Values[f] != v {
				t.Errorf("line %d: %s = %q, want %q", e.Line, f, e.Values[f], v)
			}
		}
	}
	if got := res.rejected[2].Reason; got != reasonRepeatedHeader {
		t.Errorf("repeated header reason %q", got)
	}
	if got := len(res.rejected[3].Problem.Original); got != maxOriginal {
		t.Errorf("Original is %d bytes, want %d", got, maxOriginal)
	}
}
