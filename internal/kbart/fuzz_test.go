package kbart

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReader feeds arbitrary input to the Reader. The seed corpus is in
// testdata/fuzz/FuzzReader. For every input: no panic; NewReader either
// accepts it or refuses it with ErrNotKBART; every row has a title, no tab
// or line break in its values or extra values, as many extra values as the
// reader has extra columns, none longer than 10,000 characters, and
// problems that agree with its repair messages (see checkProblems); every
// rejected row has a line, a reason and a Problem of kind Rejected; and
// writing the rows with Writer, extra columns included, and reading them
// again gives the same extra columns and the same values, with no row
// rejected.
func FuzzReader(f *testing.F) {
	f.Add([]byte(stdHeader + "\nA\t0317-8471\n"))
	f.Add([]byte("publication_title\tdoi\tDOI\t\tcoverage_notes\tnotes\nA\t\"x\"\t y \tz\tc\tn\n"))
	f.Add([]byte(stdHeader + "\tbestppn\n#N/A\t\t9781452205786\n\"A\tB\"\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t1\n"))
	f.Fuzz(checkRoundTrip)
}

// checkRoundTrip is the property FuzzReader checks for one input.
func checkRoundTrip(t *testing.T, data []byte) {
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		if !errors.Is(err, ErrNotKBART) {
			t.Fatalf("NewReader: unexpected error %v", err)
		}
		return
	}
	rows := readRows(t, r, false)
	extra := r.ExtraColumns()
	var b bytes.Buffer
	w := NewWriter(&b, extra...)
	for _, row := range rows {
		if len(row.Extra) != len(extra) {
			t.Fatalf("line %d: %d extra values for %d extra columns", row.Line, len(row.Extra), len(extra))
		}
		if err := w.Write(append(row.Values[:], row.Extra...)); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	r2, err := NewReader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatalf("re-reading the written file: %v\n%q", err, b.String())
	}
	if got := r2.ExtraColumns(); !slices.Equal(got, extra) {
		t.Fatalf("extra columns changed in the round trip:\nfirst  %q\nsecond %q", extra, got)
	}
	again := readRows(t, r2, true)
	if len(again) != len(rows) {
		t.Fatalf("re-read %d rows, wrote %d\n%q", len(again), len(rows), b.String())
	}
	for i := range rows {
		if rows[i].Values != again[i].Values {
			t.Fatalf("row %d changed in the round trip:\nfirst  %q\nsecond %q", i, rows[i].Values, again[i].Values)
		}
		if !slices.Equal(rows[i].Extra, again[i].Extra) {
			t.Fatalf("row %d: extra values changed in the round trip:\nfirst  %q\nsecond %q", i, rows[i].Extra, again[i].Extra)
		}
	}
}

// TestRoundTripTricky checks the FuzzReader property on values chosen to
// trip the lexical clean-up up.
func TestRoundTripTricky(t *testing.T) {
	const h = "publication_title\tprint_identifier\tnotes\taccess_type\n"
	inputs := []string{
		h + "A\t\t\t\"x\nB \"odd\t\t\t\n",
		h + "&quot;Hamlet&quot;\t\t\t\n",
		h + "&quot;&quot;Hamlet&quot;&quot;\t\t\t\n",
		h + "publication_title\t\tx\t\n",
		h + "\"publication_title\"\t\t\"notes\"\t\n",
		h + "\uFEFF x \uFEFF\t\t\t\n",
		h + "AcadÃƒÂ©mico &amp;amp;lt;\t\t\t\n",
		h + "&Atilde;&copy;t&eacute;\t\t\t\n",
		h + "\"\t\t\t\"\n",
		h + "a\x00b\t\t\x01\t\n",
		h + "x\t#0317-8471\t\t\n",
		h + "a&#9;b&#10;&#13;\t\t\t\n",
		h + "&#34;x&#34;\t\t&#34;y&#34;\t\n",
		h + "\"\"\"x\"\"\"\t\t\t\n",
		h + "\"a\"\"\t\t\t\n",
		h + "x\t\t\t\"\"\"\n",
		h + "x\t\t \"\t\"\n",
		h + "\"&quot;Ihre Werte, bitte!&quot;\"\t\t\t\n",
		h + "&quot;x\t\t\t\n",
		"publication_title\tx\tX\t\t\"\"\"y\"\ncolumn_4\t\"a\t b\"\t\t\n",
		"publication_title\tcoverage_notes\tnotes\tdoi\nx\tc\tn\td\ny\t\tn\t\"\n",
	}
	for _, in := range inputs {
		t.Run(strings.TrimPrefix(in, h), func(t *testing.T) { checkRoundTrip(t, []byte(in)) })
	}
}

// readRows reads r to the end, checking each row. When strict, a rejected
// row fails the test.
func readRows(t *testing.T, r *Reader, strict bool) []Row {
	t.Helper()
	var rows []Row
	for {
		row, err := r.Next()
		if err == io.EOF {
			return rows
		}
		var re *RowError
		if errors.As(err, &re) {
			if strict {
				t.Fatalf("re-read rejected a row: %v", re)
			}
			if re.Reason == "" || re.Line <= 0 || re.Problem.Kind != Rejected || re.Problem.Reason == "" ||
				re.Problem.Action == "" || len(re.Problem.Original) > maxOriginal {
				t.Fatalf("bad RowError %+v", re)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Next: fatal error %v", err)
		}
		if row.Values[PublicationTitle] == "" {
			t.Fatalf("line %d: row without a title", row.Line)
		}
		for f, v := range row.Values {
			if strings.ContainsAny(v, "\t\r\n") {
				t.Fatalf("line %d: %s %q holds a tab or line break", row.Line, Field(f), v)
			}
		}
		for i, v := range row.Extra {
			if strings.ContainsAny(v, "\t\r\n") || utf8.RuneCountInString(v) > maxExtraLen {
				t.Fatalf("line %d: extra value %d %q holds a tab or line break, or is too long", row.Line, i, v)
			}
		}
		checkProblems(t, row)
		rows = append(rows, row)
	}
}
