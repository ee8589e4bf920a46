package kbart

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// lineAndReason compares RowErrors by line and reason only; their Problem
// and Values are checked by TestRejectedProblems.
var lineAndReason = cmpopts.IgnoreFields(RowError{}, "Problem", "Values")

// result is everything a Reader returns for one input.
type result struct {
	rows     []Row
	rejected []*RowError
	notes    []string
}

// readAll reads s to the end, failing the test on a fatal error.
func readAll(t *testing.T, s string) (*result, error) {
	t.Helper()
	r, err := NewReader(strings.NewReader(s))
	if err != nil {
		return nil, err
	}
	res, err := readResult(r)
	if err != nil {
		t.Fatalf("fatal error: %v", err)
	}
	return res, nil
}

// readResult reads r to the end: its rows, rejected rows and file notes.
func readResult(r *Reader) (*result, error) {
	res := &result{}
	for {
		row, err := r.Next()
		if err == io.EOF {
			break
		}
		var re *RowError
		switch {
		case errors.As(err, &re):
			res.rejected = append(res.rejected, re)
		case err != nil:
			return nil, err
		default:
			res.rows = append(res.rows, row)
		}
	}
	res.notes = r.FileNotes()
	return res, nil
}

// mustRead is readAll for inputs that must be accepted.
func mustRead(t *testing.T, s string) *result {
	t.Helper()
	res, err := readAll(t, s)
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	return res
}

// stdHeader is the 25-column header line.
var stdHeader = strings.Join(Header[:], "\t")

// line builds a 25-field data line from field/value pairs.
func line(kv map[Field]string) string {
	var v [NumFields]string
	for f, s := range kv {
		v[f] = s
	}
	return strings.Join(v[:], "\t")
}

// hasNote reports whether one of notes contains all the given parts.
func hasNote(notes []string, parts ...string) bool {
	for _, n := range notes {
		ok := true
		for _, p := range parts {
			if !strings.Contains(n, p) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func TestRefused(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "not a KBART file: empty input"},
		{"blank lines only", "\n  \r\n\t\n", "not a KBART file: empty input"},
		{"html", "<!DOCTYPE html>\n<html><head></head></html>\n", "not a KBART file: an HTML page"},
		{"html tag", "\r\n<html lang=\"en\">\n", "not a KBART file: an HTML page"},
		{"comma-separated", "publication_title,print_identifier,online_identifier\nA,1234-5679,\n", "not a KBART file: comma-separated (KBART files are tab-separated)"},
		{"comma with preamble", "SO Name,JC American Chemical Society,,,\nProvider,ACS,,\npublication_title,print_identifier\nA,0001-4842\n", "comma-separated"},
		{"fixed width", "publicatioID.issn   ID.eissn  date_first\nGeologie  0246-0874 1638-5977\n", "not a KBART file: not tab-separated (fixed-width or space-separated)"},
		{"spaces for tabs", "publication_title print_identifier  online_identifier\nGGG 1525-2027\n", "not tab-separated (fixed-width or space-separated)"},
		{"no title column", "title\tissn\nA\t1234-5679\n", "not a KBART file: no publication_title column in the header line \"title\\tissn\""},
		{"only parent title id", "parent_publication_title_id\tprint_identifier\nA\t1\n", "no publication_title column"},
		{"header too late", strings.Repeat("preamble\n", 21) + stdHeader + "\n", "not tab-separated"},
		{"binary", "\x00\x01\x02\x03garbage", "not tab-separated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAll(t, tt.in)
			if !errors.Is(err, ErrNotKBART) {
				t.Fatalf("err = %v, want ErrNotKBART", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestEncodings(t *testing.T) {
	plain := "publication_title\tprint_identifier\nCafé für Ärzte\t0317-8471\n"
	utf16 := func(s string, bigEndian, bom bool) string {
		var b []byte
		if bom {
			if bigEndian {
				b = append(b, 0xFE, 0xFF)
			} else {
				b = append(b, 0xFF, 0xFE)
			}
		}
		for _, r := range s {
			if bigEndian {
				b = append(b, byte(r>>8), byte(r))
			} else {
				b = append(b, byte(r), byte(r>>8))
			}
		}
		return string(b)
	}
	tests := []struct {
		name, in, title, note, repair string
	}{
		{"utf-8", plain, "Café für Ärzte", "", ""},
		{"utf-8 bom", "\xEF\xBB\xBF" + plain, "Café für Ärzte", "UTF-8 byte order mark removed", ""},
		{"utf-16le bom", utf16(plain, false, true), "Café für Ärzte", "UTF-16LE (with byte order mark)", ""},
		{"utf-16be bom", utf16(plain, true, true), "Café für Ärzte", "UTF-16BE (with byte order mark)", ""},
		{"utf-16le no bom", utf16(plain, false, false), "Café für Ärzte", "UTF-16LE (no byte order mark)", ""},
		{"windows-1252", "publication_title\tprint_identifier\nCaf\xe9 \x96 f\xfcr \x80\t0317-8471\n", "Café – für €", "",
			`publication_title is not valid UTF-8: read as Windows-1252: "Café – für €"`},
		{"mac roman", "publication_title\tprint_identifier\nSoufri\x8Fre Hills \xd0 Montserrat\t0317-8471\n", "Soufrière Hills – Montserrat", "",
			`publication_title is not valid UTF-8: read as Mac OS Roman: "Soufrière Hills – Montserrat"`},
		{"mojibake", "publication_title\tprint_identifier\nMonatshefte fÃ¼r Mathematik\t0317-8471\n", "Monatshefte für Mathematik", "",
			`publication_title "Monatshefte fÃ¼r Mathematik": double-encoded UTF-8 repaired: "Monatshefte für Mathematik"`},
		{"mojibake cp1252 specials", "publication_title\tprint_identifier\nGraphic Universe â„¢ â€“ Ã‰tudes\t0317-8471\n", "Graphic Universe ™ – Études", "", "double-encoded UTF-8 repaired"},
		{"triple encoded", "publication_title\tprint_identifier\nAcadÃƒÂ©mico\t0317-8471\n", "Académico", "", "double-encoded UTF-8 repaired"},
		{"legit latin not mojibake", "publication_title\tprint_identifier\nSÃO PAULO Ãtica\t0317-8471\n", "SÃO PAULO Ãtica", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, tt.in)
			if len(res.rows) != 1 {
				t.Fatalf("got %d rows, %v rejected", len(res.rows), res.rejected)
			}
			row := res.rows[0]
			if got := row.Values[PublicationTitle]; got != tt.title {
				t.Errorf("title = %q, want %q", got, tt.title)
			}
			if got := row.Values[PrintIdentifier]; got != "0317-8471" {
				t.Errorf("print_identifier = %q", got)
			}
			if tt.note != "" && !hasNote(res.notes, tt.note) {
				t.Errorf("file notes %q lack %q", res.notes, tt.note)
			}
			if tt.repair != "" && !hasNote(row.Repairs, tt.repair) {
				t.Errorf("repairs %q lack %q", row.Repairs, tt.repair)
			}
			if tt.repair == "" && hasNote(row.Repairs, "UTF-8") {
				t.Errorf("unexpected encoding repair: %q", row.Repairs)
			}
		})
	}
}

func TestLineEndings(t *testing.T) {
	const h = "publication_title\tonline_identifier"
	tests := []struct {
		name  string
		in    string
		lines []int
	}{
		{"lf", h + "\nA\t\nB\t\n", []int{2, 3}},
		{"crlf", h + "\r\nA\t\r\nB\t\r\n", []int{2, 3}},
		{"cr", h + "\rA\t\rB\t\r", []int{2, 3}},
		{"mixed", h + "\r\nA\t\rB\t\nC\t\r\n", []int{2, 3, 4}},
		{"no final newline", h + "\nA\t\nB\t", []int{2, 3}},
		{"no final newline cr", h + "\rA\t\rB\t", []int{2, 3}},
		{"blank lines", h + "\n\nA\t\n \t \n\r\n\rB\t\n\n", []int{3, 7}},
		{"blank lines before header", "\n\r\n" + h + "\nA\t\n", []int{4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, tt.in)
			if len(res.rejected) > 0 {
				t.Fatalf("rejected: %v", res.rejected)
			}
			var got []int
			for _, row := range res.rows {
				got = append(got, row.Line)
			}
			if diff := cmp.Diff(tt.lines, got); diff != "" {
				t.Errorf("line numbers (-want +got):\n%s", diff)
			}
			for _, row := range res.rows {
				if strings.ContainsAny(row.Values[PublicationTitle], "\r\n") {
					t.Errorf("title %q holds a line break", row.Values[PublicationTitle])
				}
			}
		})
	}
}

// TestLongCROnlyFile checks that CR-only files are split in linear time.
func TestLongCROnlyFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("publication_title\tonline_identifier\r")
	const n = 200000
	for range n {
		b.WriteString("A\t\r")
	}
	res := mustRead(t, b.String())
	if len(res.rows) != n {
		t.Errorf("got %d rows, want %d", len(res.rows), n)
	}
}

func TestHeader(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   map[Field]string // values of the first row
		notes  []string         // each must be among the file notes
		noNote string           // no file note may contain this
	}{
		{
			name: "case, spaces and quotes",
			in:   "\"PUBLICATION_TITLE\"\t Print_Identifier \t\"online_identifier\"\nA\t0317-8471\t2434-561X\n",
			want: map[Field]string{PublicationTitle: "A", PrintIdentifier: "0317-8471", OnlineIdentifier: "2434-561X"},
		},
		{
			name: "reordered",
			in:   "title_url\tonline_identifier\tpublication_title\nhttp://x\t2434-561X\tA\n",
			want: map[Field]string{PublicationTitle: "A", OnlineIdentifier: "2434-561X", TitleURL: "http://x"},
		},
		{
			name: "phase I with coverage_notes",
			in: strings.Join(Header[:phaseIFields-2], "\t") + "\tcoverage_notes\tpublisher_name\n" +
				"A\t0317-8471\t\t1997\t1\t1\t\t\t\thttp://x\t\tid\tP1Y\tfulltext\tsome notes\tPub\n",
			want: map[Field]string{PublicationTitle: "A", PrintIdentifier: "0317-8471", DateFirstIssueOnline: "1997",
				NumFirstVolOnline: "1", NumFirstIssueOnline: "1", TitleURL: "http://x", TitleID: "id", EmbargoInfo: "P1Y",
				CoverageDepth: "fulltext", Notes: "some notes", PublisherName: "Pub", PublicationType: "serial"},
			notes:  []string{`column "coverage_notes" read as notes`, "KBART Phase I header"},
			noNote: "missing standard columns",
		},
		{
			name:  "extra columns kept",
			in:    "publication_title\tbestppn\tonline_identifier\tdoi\nA\t123456789\t2434-561X\t10.1/x\n",
			want:  map[Field]string{PublicationTitle: "A", OnlineIdentifier: "2434-561X"},
			notes: []string{"non-standard columns kept as extra columns: bestppn, doi"},
		},
		{
			name: "missing columns",
			in: strings.Join(Header[:NumFields-1], "\t") + "\n" +
				"A\t0317-8471" + strings.Repeat("\t", int(NumFields)-3) + "\n",
			want:  map[Field]string{PublicationTitle: "A", PrintIdentifier: "0317-8471", PublicationType: "serial"},
			notes: []string{"missing standard columns read as empty: access_type"},
		},
		{
			name:  "duplicate column: first wins",
			in:    "publication_title\ttitle_url\tonline_identifier\ttitle_url\nA\thttp://first\t2434-561X\thttp://second\n",
			want:  map[Field]string{PublicationTitle: "A", TitleURL: "http://first", OnlineIdentifier: "2434-561X"},
			notes: []string{`title_url (column 4, "title_url") is a duplicate of column 2: ignored`},
		},
		{
			name:  "notes and coverage_notes joined",
			in:    "publication_title\tcoverage_notes\tnotes\nA\tcov\tnote\n",
			want:  map[Field]string{PublicationTitle: "A", Notes: "cov; note", PublicationType: "monograph"},
			notes: []string{`columns 2 ("coverage_notes") and 3 ("notes") are read as notes: a row's values are joined with "; " when they differ`},
		},
		{
			name:  "trailing empty header columns",
			in:    "publication_title\tonline_identifier\t\t\t\nA\t2434-561X\t\t\t\n",
			want:  map[Field]string{PublicationTitle: "A", OnlineIdentifier: "2434-561X"},
			notes: []string{"3 empty column names at the end of the header ignored"},
		},
		{
			name:  "variant names",
			in:    "publication_title\t#PRINT_IDENTIFIER\tonlineidentifier\tpreceding_publication_title_id_\tmongraph_edition\nA\t0317-8471\t2434-561X\tP\t2\n",
			want:  map[Field]string{PublicationTitle: "A", PrintIdentifier: "0317-8471", OnlineIdentifier: "2434-561X", PrecedingPublicationTitleID: "P", MonographEdition: "2"},
			notes: []string{`column "#print_identifier" read as print_identifier`, `column "onlineidentifier" read as online_identifier`, `column "mongraph_edition" read as monograph_edition`},
		},
		{
			name:  "preamble",
			in:    "Provider\tACS\nPackage\tLegacy\n\npublication_title\tonline_identifier\nA\t2434-561X\n",
			want:  map[Field]string{PublicationTitle: "A", OnlineIdentifier: "2434-561X"},
			notes: []string{"3 lines before the header line (line 4) skipped"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, tt.in)
			if len(res.rows) != 1 {
				t.Fatalf("got %d rows, rejected %v", len(res.rows), res.rejected)
			}
			want := tt.want
			if _, ok := want[PublicationType]; !ok {
				want[PublicationType] = res.rows[0].Values[PublicationType] // inference is tested elsewhere
			}
			var wantV [NumFields]string
			for f, v := range want {
				wantV[f] = v
			}
			if diff := cmp.Diff(wantV, res.rows[0].Values); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			for _, n := range tt.notes {
				if !hasNote(res.notes, n) {
					t.Errorf("file notes %q lack %q", res.notes, n)
				}
			}
			if tt.noNote != "" && hasNote(res.notes, tt.noNote) {
				t.Errorf("file notes %q have %q", res.notes, tt.noNote)
			}
		})
	}
}

func TestRepeatedHeader(t *testing.T) {
	in := stdHeader + "\n" +
		line(map[Field]string{PublicationTitle: "A", OnlineIdentifier: "2434-561X"}) + "\n" +
		"\uFEFF" + strings.Replace(stdHeader, "print_identifier", "#PRINT_IDENTIFIER", 1) + "\n" +
		line(map[Field]string{PublicationTitle: "B", OnlineIdentifier: "0317-8471"}) + "\n" +
		line(map[Field]string{PublicationTitle: "publication_title", OnlineIdentifier: "0317-8471"}) + "\n"
	res := mustRead(t, in)
	want := []*RowError{{Line: 3, Reason: "repeated header line skipped"}}
	if diff := cmp.Diff(want, res.rejected, lineAndReason); diff != "" {
		t.Errorf("rejected (-want +got):\n%s", diff)
	}
	var titles []string
	for _, row := range res.rows {
		titles = append(titles, row.Values[PublicationTitle])
	}
	// A title that merely reads "publication_title" is not a header.
	if diff := cmp.Diff([]string{"A", "B", "publication_title"}, titles); diff != "" {
		t.Errorf("titles (-want +got):\n%s", diff)
	}
	if got := res.rejected[0].Error(); got != "line 3: repeated header line skipped" {
		t.Errorf("Error() = %q", got)
	}
}

func TestValues(t *testing.T) {
	tests := []struct {
		name   string
		field  Field
		in     string
		want   string
		repair string // a repair note must contain it ("" = no repair)
	}{
		{"trimmed", PublicationTitle, "  A title \u00a0", "A title", ""},
		{"whitespace only", FirstAuthor, "   ", "", ""},
		{"nbsp only", FirstAuthor, "\u00a0", "", ""},
		{"quoted", PublicationTitle, `"Maverick Heart"`, "Maverick Heart", ""},
		{"quoted with doubled quotes", PublicationTitle, `"""Wenn Du mein Bruder bist"" : Interaktion "`, `"Wenn Du mein Bruder bist" : Interaktion`, ""},
		{"quoted empty", FirstAuthor, `""`, "", ""},
		{"not csv quoting", PublicationTitle, `"Hamlet" and "Macbeth"`, `"Hamlet" and "Macbeth"`, ""},
		{"lone quote", PublicationTitle, `"`, `"`, ""},
		{"entities in title", PublicationTitle, "Harr&eacute; &amp; Sons &#8212; &#x26;", "Harré & Sons — &",
			`publication_title "Harr&eacute; &amp; Sons &#8212; &#x26;": HTML entities decoded: "Harré & Sons — &"`},
		{"entities in publisher", PublisherName, "John Wiley &amp; Sons", "John Wiley & Sons", "publisher_name"},
		{"entities elsewhere kept", Notes, "A &amp; B", "A &amp; B", ""},
		{"ampersand words kept", PublicationTitle, "AT&T R&D; Q&A", "AT&T R&D; Q&A", ""},
		{"misspelt entity kept", PublicationTitle, "Un &quote;me&quote; Migliore", "Un &quote;me&quote; Migliore", ""},
		{"double-escaped entity", PublicationTitle, "A &amp;amp; B", "A & B", "HTML entities decoded"},
		{"control characters", Notes, "a\x01b\x7fc", "a b c", "control characters replaced by spaces"},
		{"entity to tab", PublicationTitle, "a&#9;b&#10;c", "a b c", "HTML entities decoded"},
		// A quote that an entity stands for is text, not CSV quoting (Askews).
		{"quoted entity quotes", PublicationTitle, `"&quot;Ihre Werte, bitte!&quot;"`, `"Ihre Werte, bitte!"`, "HTML entities decoded"},
		{"entity quotes", PublicationTitle, `&quot;Hamlet&quot;`, `"Hamlet"`, "HTML entities decoded"},
		{"numeric entity quotes", PublicationTitle, `&#34;Hamlet&#34; and Macbeth`, `"Hamlet" and Macbeth`, "HTML entities decoded"},
		{"doubled quotes around the value", PublicationTitle, `"""Ihre Werte, bitte!"""`, `"Ihre Werte, bitte!"`, ""},
		{"entity quote inside", PublicationTitle, `"Der &quot;Fall&quot; X"`, `Der "Fall" X`, "HTML entities decoded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kv := map[Field]string{PublicationTitle: "T", tt.field: tt.in, PublicationType: "serial"}
			res := mustRead(t, stdHeader+"\n"+line(kv)+"\n")
			if len(res.rows) != 1 {
				t.Fatalf("got %d rows, rejected %v", len(res.rows), res.rejected)
			}
			row := res.rows[0]
			if got := row.Values[tt.field]; got != tt.want {
				t.Errorf("value = %q, want %q", got, tt.want)
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

func TestQuotedFileNote(t *testing.T) {
	res := mustRead(t, "publication_title\tprint_identifier\n\"A\"\t\"0317-8471\"\n\"B\"\t\"2434-561X\"\n")
	if !hasNote(res.notes, "values are wrapped in CSV-style double quotes (first on line 2): quotes removed") {
		t.Errorf("file notes %q", res.notes)
	}
	if n := strings.Count(strings.Join(res.notes, "\n"), "double quotes"); n != 1 {
		t.Errorf("quote note given %d times", n)
	}
	if res.rows[1].Values[PrintIdentifier] != "2434-561X" {
		t.Errorf("values %q", res.rows[1].Values)
	}
}

func TestRaggedRows(t *testing.T) {
	const h = "publication_title\tprint_identifier\tonline_identifier\tdate_first_issue_online\tlinking_issn\t"
	tests := []struct {
		name     string
		in       string
		want     map[Field]string
		repair   string
		noRepair string
		problem  Problem // when set, one of the row's problems
	}{
		{
			name:     "fewer fields",
			in:       "A\t0317-8471",
			want:     map[Field]string{PublicationTitle: "A", PrintIdentifier: "0317-8471"},
			problem:  Problem{Kind: Normalized, Action: "missing fields read as empty", Reason: "row has 2 fields where the header has 5"},
			noRepair: "row has",
		},
		{
			name:     "fewer fields, only extra columns missing",
			in:       "A\t0317-8471\t2434-561X\t1997",
			want:     map[Field]string{PublicationTitle: "A", PrintIdentifier: "0317-8471", OnlineIdentifier: "2434-561X", DateFirstIssueOnline: "1997"},
			noRepair: "row has",
		},
		{
			name:   "shifted by a leading empty field (Portico)",
			in:     "\tJournal of Cataract and Refractive Surgery\t1873-4502\t0886-3350\t2010\t\t",
			want:   map[Field]string{PublicationTitle: "Journal of Cataract and Refractive Surgery", PrintIdentifier: "1873-4502", OnlineIdentifier: "0886-3350", DateFirstIssueOnline: "2010"},
			repair: "row starts with an extra empty field: values moved one column to the left",
		},
		{
			name:     "extra empty trailing fields dropped silently",
			in:       "A\t0317-8471\t\t\t\t\t\t",
			want:     map[Field]string{PublicationTitle: "A", PrintIdentifier: "0317-8471"},
			noRepair: "row has",
		},
		{
			name:   "extra non-empty fields dropped with a note",
			in:     "A\t0317-8471\t\t\t\t\tstray\t",
			want:   map[Field]string{PublicationTitle: "A", PrintIdentifier: "0317-8471"},
			repair: `row has 8 fields where the header has 5: extra values dropped: "stray"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, h+"\n"+tt.in+"\n")
			if len(res.rows) != 1 {
				t.Fatalf("got %d rows, rejected %v", len(res.rows), res.rejected)
			}
			row := res.rows[0]
			var want [NumFields]string
			for f, v := range tt.want {
				want[f] = v
			}
			want[PublicationType] = "serial"
			if diff := cmp.Diff(want, row.Values); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			if tt.repair != "" && !hasNote(row.Repairs, tt.repair) {
				t.Errorf("repairs %q lack %q", row.Repairs, tt.repair)
			}
			if tt.noRepair != "" && hasNote(row.Repairs, tt.noRepair) {
				t.Errorf("repairs %q have %q", row.Repairs, tt.noRepair)
			}
			if tt.problem.Kind != 0 && !hasProblem(row.Problems, tt.problem) {
				t.Errorf("problems %+v lack %+v", row.Problems, tt.problem)
			}
		})
	}
}

func TestRejectedRows(t *testing.T) {
	in := stdHeader + "\n" +
		line(map[Field]string{PrintIdentifier: "0317-8471", TitleURL: "http://x"}) + "\n" +
		line(map[Field]string{PublicationTitle: "  ", TitleID: "ISSN_123"}) + "\n" +
		line(map[Field]string{PublicationTitle: `""`}) + "\n" +
		"A title on a line of its own\n" +
		line(map[Field]string{PublicationTitle: "Good"}) + "\n" +
		// A shifted row whose next field is an ISSN is not taken for a
		// Portico row: the title is missing.
		"\t0317-8471" + strings.Repeat("\t", int(NumFields)-1) + "\n"
	res := mustRead(t, in)
	want := []*RowError{
		{Line: 2, Reason: `publication_title is empty (row has print_identifier "0317-8471", title_url "http://x")`},
		{Line: 3, Reason: `publication_title is empty (row has title_id "ISSN_123")`},
		{Line: 4, Reason: "publication_title is empty (and the row has no identifier, title_id or title_url either)"},
		{Line: 5, Reason: `line has no tab (one field where the header has 25 columns): not a KBART row: "A title on a line of its own"`},
		{Line: 7, Reason: `publication_title is empty (row has print_identifier "0317-8471")`},
	}
	if diff := cmp.Diff(want, res.rejected, lineAndReason); diff != "" {
		t.Errorf("rejected (-want +got):\n%s", diff)
	}
	if len(res.rows) != 1 || res.rows[0].Line != 6 {
		t.Errorf("rows %+v", res.rows)
	}
	if got := want[0].Error(); got != `line 2: publication_title is empty (row has print_identifier "0317-8471", title_url "http://x")` {
		t.Errorf("Error() = %q", got)
	}
}

// TestOverlongValues: a title, publisher or URL longer than the stores
// index rejects its row, naming the field and the limit.
func TestOverlongValues(t *testing.T) {
	in := stdHeader + "\n" +
		line(map[Field]string{PublicationTitle: strings.Repeat("t", 1001), TitleID: "a"}) + "\n" +
		line(map[Field]string{PublicationTitle: "Fine", PublisherName: strings.Repeat("한", 700), TitleID: "b"}) + "\n" +
		line(map[Field]string{PublicationTitle: "Fine", TitleURL: "https://x/" + strings.Repeat("u", 2000), TitleID: "c"}) + "\n" +
		line(map[Field]string{PublicationTitle: strings.Repeat("t", 1000), TitleID: "d"}) + "\n"
	res := mustRead(t, in)
	want := []struct {
		line   int
		reason string // the start of the reason
	}{
		{2, "publication_title is 1,001 characters long: at most 1,000 are allowed (row has title_id \"a\""},
		{3, "publisher_name takes 6,300 bytes once folded for sorting and matching: at most 2,000 are allowed (row has title_id \"b\""},
		{4, "title_url is 2,010 characters long: at most 2,000 are allowed (row has title_id \"c\""},
	}
	if len(res.rejected) != len(want) {
		t.Fatalf("rejected %d rows, want %d: %v", len(res.rejected), len(want), res.rejected)
	}
	for i, w := range want {
		if got := res.rejected[i]; got.Line != w.line || !strings.HasPrefix(got.Reason, w.reason) {
			t.Errorf("rejected[%d] = line %d %q, want line %d %q…", i, got.Line, got.Reason, w.line, w.reason)
		}
	}
	if len(res.rows) != 1 || res.rows[0].Line != 5 {
		t.Errorf("rows %+v", res.rows)
	}
}

func TestQuotedLineBreak(t *testing.T) {
	const h = "publication_title\tprint_identifier\tonline_identifier\n"
	tests := []struct {
		name     string
		in       string
		titles   []string
		rejected int
		repair   string
	}{
		{
			name:   "two lines",
			in:     h + "\"The Andaman\u2013Nicobar Ridge\n\"\t978-1-78620-281-9\t\r\nNext\t0317-8471\t\n",
			titles: []string{"The Andaman\u2013Nicobar Ridge", "Next"},
			repair: "line break inside a quoted value: lines 2 to 3 joined",
		},
		{
			name:   "three lines",
			in:     h + "\"A\nB\nC\"\t0317-8471\t\n",
			titles: []string{"A B C"},
			repair: "lines 2 to 4 joined",
		},
		{
			name:     "never closed: lines kept",
			in:       h + "\"Open\t0317-8471\t\nNext\t2434-561X\t\nLast\t\t\n",
			titles:   []string{`"Open`, "Next", "Last"},
			rejected: 0,
		},
		{
			name:     "closed too late: lines kept",
			in:       h + "A\t0317-8471\t\"x\nb\nc\nd\ne\nf\"\t\nLast\t\t\n",
			titles:   []string{"A", `f"`, "Last"},
			rejected: 4, // b..e are lines without tabs
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRead(t, tt.in)
			var titles []string
			for _, row := range res.rows {
				titles = append(titles, row.Values[PublicationTitle])
			}
			if diff := cmp.Diff(tt.titles, titles); diff != "" {
				t.Errorf("titles (-want +got):\n%s", diff)
			}
			if len(res.rejected) != tt.rejected {
				t.Errorf("rejected %v, want %d", res.rejected, tt.rejected)
			}
			if tt.repair != "" && !hasNote(res.rows[0].Repairs, tt.repair) {
				t.Errorf("repairs %q lack %q", res.rows[0].Repairs, tt.repair)
			}
		})
	}
}

func TestFieldString(t *testing.T) {
	if got := PublicationTitle.String(); got != "publication_title" {
		t.Errorf("got %q", got)
	}
	if got := AccessType.String(); got != "access_type" {
		t.Errorf("got %q", got)
	}
	if got := NumFields.String(); got != "Field(25)" {
		t.Errorf("got %q", got)
	}
	if len(Header) != 25 {
		t.Errorf("len(Header) = %d", len(Header))
	}
}
