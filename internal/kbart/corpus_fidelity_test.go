package kbart

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/realdata"
)

// These tests check, on the real corpus, the defects the reader once had:
// dates in words cleared, shifted rows read unflagged, "#N/A" titles,
// quotes lost after entity decoding, coverage_notes lost beside notes,
// non-standard columns dropped, and normalisations counted as repairs.

// corpusRow returns the row of a corpus file at a line.
func corpusRow(t *testing.T, cf *corpusFile, line int) Row {
	t.Helper()
	for _, row := range cf.rows {
		if row.Line == line {
			return row
		}
	}
	t.Fatalf("no row at line %d", line)
	return Row{}
}

// corpusFileNamed returns a file of the corpus that the reader read.
func corpusFileNamed(t *testing.T, name string) *corpusFile {
	t.Helper()
	files, _ := readCorpus(t, corpusDir(t))
	cf := files[name]
	if cf == nil || cf.refused != nil {
		t.Fatalf("%s: not read", name)
	}
	return cf
}

// TestRealAmdigitalDates: no date of the AM Digital lists is cleared any
// more (188 values were, such as "1905 Jan.-Mar."), and the years read
// follow the rules for ranges.
func TestRealAmdigitalDates(t *testing.T) {
	const dir = "ezpaarse-platforms/amdigital/"
	files, _ := readCorpus(t, corpusDir(t))
	n, read := 0, 0
	for name, cf := range files {
		if !strings.HasPrefix(name, dir) {
			continue
		}
		n++
		for _, row := range cf.rows {
			for _, p := range row.Problems {
				if strings.HasPrefix(p.Field, "date_") && p.Action == "cleared" {
					t.Errorf("%s:%d: %s %q cleared", name, row.Line, p.Field, p.Original)
				}
				if strings.HasPrefix(p.Field, "date_") && p.Reason == "not a date but names a year" || strings.Contains(p.Reason, "names years") {
					read++
				}
			}
		}
	}
	if n != 2 {
		t.Fatalf("%d AM Digital files", n)
	}
	if read < 188 {
		t.Errorf("only %d dates read out of words", read)
	}
	checks := []struct {
		file  string
		line  int
		field Field
		orig  string
		want  string
	}{
		{"amdigital_Confidential_Print_Middle_East_2016-11-15.txt", 409, DateMonographPublishedPrint, "1905 Jan.-Mar.", "1905"},
		{"amdigital_Confidential_Print_Middle_East_2016-11-15.txt", 576, DateMonographPublishedPrint, "1853 Sept.-1854 Jan.", "1853"},
		{"amdigital_Confidential_Print_Middle_East_2016-11-15.txt", 565, DateMonographPublishedPrint, "Jul-Sep 1853", "1853"},
		{"amdigital_Confidential_Print_Middle_East_2016-11-15.txt", 321, DateMonographPublishedPrint, "1883-1884 June", "1883"},
		{"amdigital_Confidential_Print_Africa_2016-11-15.txt", 857, DateMonographPublishedOnline, "1873, 1885-1887", "1873"},
		{"amdigital_Confidential_Print_Africa_2016-11-15.txt", 135, DateMonographPublishedPrint, "1896-[1901]", "1896"},
		{"amdigital_Confidential_Print_Africa_2016-11-15.txt", 342, DateMonographPublishedPrint, "1884 Nov.15-1885 Feb.26", "1884"},
		{"amdigital_Confidential_Print_Africa_2016-11-15.txt", 2, DateMonographPublishedPrint, "1848-1857", "1848"},
	}
	for _, c := range checks {
		row := corpusRow(t, corpusFileNamed(t, dir+c.file), c.line)
		if got := row.Values[c.field]; got != c.want {
			t.Errorf("%s:%d: %s = %q, want %q", c.file, c.line, c.field, got, c.want)
		}
		if !hasProblem(row.Problems, Problem{Kind: Repaired, Field: c.field.String(), Original: c.orig, Action: "read as " + c.want}) {
			t.Errorf("%s:%d: problems %+v", c.file, c.line, row.Problems)
		}
	}
}

// TestRealShiftedRows: the Sage row whose values are two columns to the
// right is rejected, the HeinOnline row split by a tab inside quotes is
// repaired, and no other row of the corpus is taken for a shifted one.
func TestRealShiftedRows(t *testing.T) {
	const sage = "ezpaarse-platforms/sk/Sage_AllTitles_2018-01-24.txt"
	const hein = "ezpaarse-platforms/heinonline/HEINONLINE_journals_2016-06-29.txt"
	files, _ := readCorpus(t, corpusDir(t))
	var shifted, joined []string
	for name, cf := range files {
		for _, re := range cf.rejected {
			if strings.HasPrefix(re.Problem.Reason, "values do not line up with the header") {
				shifted = append(shifted, name+":"+strconv.Itoa(re.Line))
			}
		}
		for _, row := range cf.rows {
			for _, p := range row.Problems {
				if p.Action == "fields joined, later values moved left" {
					joined = append(joined, name+":"+strconv.Itoa(row.Line))
				}
			}
		}
	}
	if want := []string{sage + ":2280"}; !slices.Equal(shifted, want) {
		t.Errorf("rows rejected as shifted: %q, want %q", shifted, want)
	}
	if want := []string{hein + ":972"}; !slices.Equal(joined, want) {
		t.Errorf("rows joined: %q, want %q", joined, want)
	}

	var e *RowError
	for _, re := range corpusFileNamed(t, sage).rejected {
		if re.Line == 2280 {
			e = re
		}
	}
	if e == nil {
		t.Fatal("Sage line 2280 not rejected")
	}
	for _, want := range []string{
		"values do not line up with the header: they sit 2 columns to the right of their header column from somewhere between column 4 (first_author) and column 10 (publication_type) on",
		`publication_type value "Monograph" under column 12 (date_monograph_published_online)`,
		`besides, its publication_title is "#N/A", a spreadsheet error value`,
		`(row has online_identifier "9781452205786", title_id "motivating-defiant-and-disruptive-students-to-learn")`,
	} {
		if !strings.Contains(e.Reason, want) {
			t.Errorf("reason %q lacks %q", e.Reason, want)
		}
	}
	// Values from publication_type on are put back under their header;
	// before, where the stray fields are is unknown.
	if e.Problem.Kind != Rejected || e.Problem.Field != "" || e.Values[OnlineIdentifier] != "9781452205786" ||
		e.Values[PublicationType] != "Monograph" || e.Values[DateMonographPublishedPrint] != "10/01/2012" {
		t.Errorf("problem %+v, values %q", e.Problem, e.Values)
	}

	row := corpusRow(t, corpusFileNamed(t, hein), 972)
	want := map[Field]string{PublicationTitle: "Irish Law Journal", DateFirstIssueOnline: "2012", TitleID: "irlajor",
		PublisherName: "National University of Ireland, Maynooth", PublicationType: "serial", DateMonographPublishedPrint: ""}
	for f, v := range want {
		if row.Values[f] != v {
			t.Errorf("HeinOnline 972: %s = %q, want %q", f, row.Values[f], v)
		}
	}
	if !hasProblem(row.Problems, Problem{Kind: Repaired, Field: "publisher_name", Action: "fields joined, later values moved left"}) {
		t.Errorf("HeinOnline 972: problems %+v", row.Problems)
	}
}

// TestRealSpreadsheetErrors: the 15 Sage rows titled "#N/A" are rejected,
// saying so, with the values that identify them.
func TestRealSpreadsheetErrors(t *testing.T) {
	files, _ := readCorpus(t, corpusDir(t))
	var got []string
	for name, cf := range files {
		for _, re := range cf.rejected {
			if strings.Contains(re.Reason, `publication_title is "#N/A", a spreadsheet error value`) {
				got = append(got, name+":"+strconv.Itoa(re.Line))
				if re.Values[PublicationTitle] != "#N/A" {
					t.Errorf("%s:%d: values %q", name, re.Line, re.Values)
				}
			}
		}
		for _, row := range cf.rows {
			if isSpreadsheetError(row.Values[PublicationTitle]) {
				t.Errorf("%s:%d: title %q read", name, row.Line, row.Values[PublicationTitle])
			}
		}
	}
	slices.Sort(got)
	var want []string
	for _, l := range []int{1545, 1546, 1669, 2280, 2509, 2627, 2888, 2898, 3207, 3209, 3491, 3961, 3962, 397, 619} {
		want = append(want, "ezpaarse-platforms/sk/Sage_AllTitles_2018-01-24.txt:"+strconv.Itoa(l))
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows rejected for #N/A:\n%q\nwant\n%q", got, want)
	}
	for _, re := range corpusFileNamed(t, "ezpaarse-platforms/sk/Sage_AllTitles_2018-01-24.txt").rejected {
		if re.Line == 397 {
			if re.Problem.Field != "publication_title" || re.Values[OnlineIdentifier] != "9781473914803" ||
				re.Values[TitleURL] != "http://knowledge.sagepub.com/view/circle-time-for-the-very-young/SAGE.xml" {
				t.Errorf("line 397: problem %+v values %q", re.Problem, re.Values)
			}
		}
	}
}

// TestRealQuotes: the Askews title written "&quot;Ihre Werte, bitte!&quot;"
// inside CSV quotes keeps its quotes.
func TestRealQuotes(t *testing.T) {
	row := corpusRow(t, corpusFileNamed(t, "gokb/ebooks/askews/KB_20160118220355.csv"), 2863)
	if got, want := row.Values[PublicationTitle], `"Ihre Werte, bitte!"`; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	if row.Values[OnlineIdentifier] != "9783834965141" {
		t.Errorf("values %q", row.Values)
	}
}

// TestRealNotesColumns: in files with both notes and coverage_notes
// columns the filled one is kept. No file of the corpus fills
// coverage_notes beside notes (TestHeader and TestRowLevelNormalized cover
// that case); the AM Digital lists fill notes and leave coverage_notes
// empty.
func TestRealNotesColumns(t *testing.T) {
	cf := corpusFileNamed(t, "ezpaarse-platforms/amdigital/amdigital_Confidential_Print_Africa_2016-11-15.txt")
	if !hasNote(cf.notes, `columns 15 ("coverage_notes") and 27 ("notes") are read as notes`) {
		t.Errorf("notes %q", cf.notes)
	}
	if got := corpusRow(t, cf, 2).Values[Notes]; got != "See individual sections for details of contents." {
		t.Errorf("notes %q", got)
	}
	filled := 0
	for _, row := range cf.rows {
		if row.Values[Notes] != "" {
			filled++
		}
	}
	if filled != 138 {
		t.Errorf("%d rows with notes, want 138", filled)
	}
	cf = corpusFileNamed(t, "ezpaarse-platforms/jstor/jstor_AllTitles_2016-08-26.txt")
	filled = 0
	for _, row := range cf.rows {
		if row.Values[Notes] != "" {
			filled++
		}
	}
	if filled != 3016 {
		t.Errorf("jstor: %d rows with notes, want 3016", filled)
	}
}

// TestRealExtraColumns: the non-standard columns of real files are kept.
func TestRealExtraColumns(t *testing.T) {
	files, _ := readCorpus(t, corpusDir(t))
	withExtra := 0
	for name, cf := range files {
		if cf.refused != nil {
			continue
		}
		if len(cf.extra) > 0 {
			withExtra++
		}
		for _, row := range cf.rows {
			if len(row.Extra) != len(cf.extra) {
				t.Fatalf("%s:%d: %d extra values for %d extra columns", name, row.Line, len(row.Extra), len(cf.extra))
			}
		}
	}
	t.Logf("%d files with extra columns", withExtra)
	tests := []struct {
		file  string
		cols  []string
		line  int
		extra map[string]string
	}{
		{"gokb/ebooks/askews/KB_20151028145707.csv", []string{"DOI", "title_image"}, 2,
			map[string]string{"title_image": "http://www.askewsandholts.com/EBookImages/9789382473008.jpg"}},
		{"ezpaarse-platforms/amdigital/amdigital_Confidential_Print_Africa_2016-11-15.txt",
			[]string{"collection", "department_code", "continent", "country", "places", "people", "topics"}, 2,
			map[string]string{"collection": "Confidential Print: Africa", "department_code": "CO", "continent": "Africa"}},
		{"span/kbart.txt.gz", nil, 0, nil},
	}
	for _, tt := range tests {
		cf := files[tt.file]
		if cf == nil || cf.refused != nil {
			t.Fatalf("%s: not read", tt.file)
		}
		if tt.cols != nil && !slices.Equal(cf.extra, tt.cols) {
			t.Errorf("%s: extra columns %q, want %q", tt.file, cf.extra, tt.cols)
		}
		if tt.line == 0 {
			continue
		}
		row := corpusRow(t, cf, tt.line)
		for col, want := range tt.extra {
			i := slices.Index(cf.extra, col)
			if i < 0 || row.Extra[i] != want {
				t.Errorf("%s:%d: %s = %q, want %q", tt.file, tt.line, col, row.Extra, want)
			}
		}
	}
	// span: the EZB columns.
	span := files["span/kbart.txt.gz"]
	for _, c := range []string{"own_anchor", "all_issns", "zdb_id"} {
		if !slices.Contains(span.extra, c) {
			t.Errorf("span: extra columns %q lack %q", span.extra, c)
		}
	}
	// BACON files: bestppn.
	bacon := 0
	for name, cf := range files {
		if strings.Contains(name, "_GLOBAL_") && slices.Contains(cf.extra, "bestppn") {
			bacon++
		}
	}
	if bacon == 0 {
		t.Error("no BACON file with a bestppn extra column")
	}
}

// TestRealCorpusProblems checks the problems of every row of the corpus
// (see checkProblems) and counts them: a file whose only quirks are
// normalisations must not report its rows as repaired.
func TestRealCorpusProblems(t *testing.T) {
	files, _ := readCorpus(t, corpusDir(t))
	var rows, flagged, normRows, everyRow int
	kinds := make(map[ProblemKind]int)
	reasons := make(map[string]int)
	for _, cf := range files {
		if cf.refused != nil {
			continue
		}
		n := 0
		for _, row := range cf.rows {
			checkProblems(t, row)
			rows++
			if len(row.Repairs) > 0 {
				flagged++
				n++
			}
			hasNorm := false
			for _, p := range row.Problems {
				kinds[p.Kind]++
				if p.Kind == Normalized {
					hasNorm = true
					reasons[p.Reason]++
				}
			}
			if hasNorm {
				normRows++
			}
		}
		if n > 0 && n == len(cf.rows) {
			everyRow++
		}
		for _, re := range cf.rejected {
			if re.Problem.Kind != Rejected {
				t.Errorf("rejected row of kind %v", re.Problem.Kind)
			}
		}
	}
	t.Logf("%d rows: %d with a repaired or flagged problem, %d with a normalisation; %d files report every row; problems: %d repaired, %d flagged, %d normalized",
		rows, flagged, normRows, everyRow, kinds[Repaired], kinds[Flagged], kinds[Normalized])
	logTop(t, "normalisations", reasons, 20)

	// Files whose rows are clean but for normalisations.
	for _, name := range []string{
		"gokb/ebooks/CambridgeBooks_EdinburghUniversityPress.tsv",      // 00:00:00 timestamps
		"gokb/ebooks/CambridgeBooks_EdinburghUniversityPress_utf8.tsv", // the same in UTF-8
	} {
		cf := corpusFileNamed(t, name)
		repaired := 0
		for _, row := range cf.rows {
			if len(row.Repairs) > 0 {
				repaired++
			}
		}
		if repaired > len(cf.rows)/10 {
			t.Errorf("%s: %d of %d rows repaired", name, repaired, len(cf.rows))
		}
	}
	if everyRow > 40 {
		t.Errorf("%d files report every row as repaired or flagged", everyRow)
	}
}

// TestRealShiftSimulation measures how many shifted rows detectShift
// catches: in up to 10 rows of each file with a publication_type column,
// one field is inserted or deleted at a random column, and the damaged row
// is read after its intact copy. Of the damaged rows that read with other
// values than the intact one, at least half must be rejected as shifted
// (the rest are rows too sparse to tell; about 58% were caught when this
// test was written).
func TestRealShiftSimulation(t *testing.T) {
	root := realdata.Dir(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var damaged, caught, otherReject int
	for _, name := range realdata.Files(t) {
		if strings.HasSuffix(name, ".gz") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(data))
		if err != nil || r.m.owner[PublicationType] < 0 || !utf8.Valid(data) {
			continue
		}
		lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
		header := lines[0]
		if !strings.Contains(strings.ToLower(header), "publication_title") || len(lines) < 3 {
			continue
		}
		width := strings.Count(header, "\t") + 1
		for range 10 {
			intact := lines[1+rng.IntN(len(lines)-2)]
			fields := strings.Split(intact, "\t")
			if len(fields) != width {
				continue
			}
			c := 1 + rng.IntN(width-1)
			var bad []string
			if rng.IntN(2) == 0 {
				bad = insertAt(fields, c, "")
			} else {
				bad = deleteAt(fields, c)
			}
			rr, err := NewReader(strings.NewReader(header + "\n" + intact + "\n" + strings.Join(bad, "\t") + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := rr.Next()
			if err != nil {
				continue // the intact row is rejected for reasons of its own
			}
			got, err := rr.Next()
			var re *RowError
			switch {
			case errors.As(err, &re) && strings.HasPrefix(re.Problem.Reason, "values do not line up"):
				damaged++
				caught++
			case err != nil:
				damaged++
				otherReject++
			case got.Values != want.Values:
				damaged++
			}
		}
	}
	t.Logf("%d damaged rows: %d rejected as shifted, %d rejected for another reason", damaged, caught, otherReject)
	if damaged < 1000 || caught*2 < damaged {
		t.Errorf("%d of %d damaged rows rejected as shifted", caught, damaged)
	}
}
