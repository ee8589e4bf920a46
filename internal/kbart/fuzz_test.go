package kbart

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// FuzzReader feeds arbitrary input to the Reader. The seed corpus is in
// testdata/fuzz/FuzzReader. For every input: no panic; NewReader either
// accepts it or refuses it with ErrNotKBART; every row has a title and no
// tab or line break in its values; and writing the rows with Writer and
// reading them again gives the same values, with no row rejected.
func FuzzReader(f *testing.F) {
	f.Add([]byte(stdHeader + "\nA\t0317-8471\n"))
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
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, row := range rows {
		if err := w.Write(row.Values[:]); err != nil {
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
	again := readRows(t, r2, true)
	if len(again) != len(rows) {
		t.Fatalf("re-read %d rows, wrote %d\n%q", len(again), len(rows), b.String())
	}
	for i := range rows {
		if rows[i].Values != again[i].Values {
			t.Fatalf("row %d changed in the round trip:\nfirst  %q\nsecond %q", i, rows[i].Values, again[i].Values)
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
	}
	for _, in := range inputs {
		t.Run(in[len(h):], func(t *testing.T) { checkRoundTrip(t, []byte(in)) })
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
			if re.Reason == "" || re.Line <= 0 {
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
		rows = append(rows, row)
	}
}
