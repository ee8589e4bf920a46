package kbart

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExtraColumns(t *testing.T) {
	tests := []struct {
		name   string
		header string
		row    string
		cols   []string
		extra  []string
		notes  []string // each must be among the file notes
	}{
		{
			name:   "none",
			header: "publication_title\tonline_identifier",
			row:    "A\t2434-561X",
		},
		{
			name:   "kept in header order",
			header: "publication_title\tbestppn\tonline_identifier\t\"DOI\"\t zdb_id ",
			row:    "A\t123456789\t2434-561X\t10.1/x\t 2345-6 ",
			cols:   []string{"bestppn", "DOI", "zdb_id"},
			extra:  []string{"123456789", "10.1/x", "2345-6"},
			notes:  []string{"non-standard columns kept as extra columns: bestppn, DOI, zdb_id"},
		},
		{
			name:   "variants and aliases are not extra",
			header: "publication_title\t#print_identifier\tcoverage_notes\tonlineidentifier\tcollection",
			row:    "A\t0317-8471\tnote\t2434-561X\tConfidential Print: Africa",
			cols:   []string{"collection"},
			extra:  []string{"Confidential Print: Africa"},
		},
		{
			name:   "duplicates made unique",
			header: "publication_title\tdoi\tDOI\tdoi_2\tdoi",
			row:    "A\ta\tb\tc\td",
			cols:   []string{"doi", "DOI_3", "doi_2", "doi_4"},
			extra:  []string{"a", "b", "c", "d"},
		},
		{
			name:   "unnamed column kept, trailing ones ignored",
			header: "publication_title\t\tnotes\t\t",
			row:    "A\tx\tn\ty\tz",
			cols:   []string{"column_2"},
			extra:  []string{"x"},
			notes:  []string{"columns without a name kept as extra columns: column_2", "2 empty column names at the end of the header ignored"},
		},
		{
			name:   "short row",
			header: "publication_title\tbestppn\tzdb_id",
			row:    "A\t123",
			cols:   []string{"bestppn", "zdb_id"},
			extra:  []string{"123", ""},
		},
		{
			name:   "cleaned like other values",
			header: "publication_title\tnote1\tnote2\tnote3",
			row:    "A\t\"quoted\"\t a\x01b \tAT&amp;T",
			cols:   []string{"note1", "note2", "note3"},
			extra:  []string{"quoted", "a b", "AT&amp;T"},
		},
		{
			name:   "a duplicate standard column is not extra",
			header: "publication_title\ttitle_url\ttitle_url",
			row:    "A\thttp://a\thttp://b",
			notes:  []string{`title_url (column 3, "title_url") is a duplicate of column 2: ignored`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewReader(strings.NewReader(tt.header + "\n" + tt.row + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.cols, r.ExtraColumns()); diff != "" {
				t.Errorf("ExtraColumns (-want +got):\n%s", diff)
			}
			res, err := readResult(r)
			if err != nil || len(res.rows) != 1 {
				t.Fatalf("rows %+v, rejected %v, err %v", res.rows, res.rejected, err)
			}
			if diff := cmp.Diff(tt.extra, res.rows[0].Extra); diff != "" {
				t.Errorf("Extra (-want +got):\n%s", diff)
			}
			for _, n := range tt.notes {
				if !hasNote(res.notes, n) {
					t.Errorf("file notes %q lack %q", res.notes, n)
				}
			}
		})
	}
}

// TestExtraColumnsLimit checks that columns beyond the 64th extra one are
// dropped with a file note.
func TestExtraColumnsLimit(t *testing.T) {
	var names, values []string
	for i := range 70 {
		names = append(names, fmt.Sprintf("x%d", i))
		values = append(values, fmt.Sprint(i))
	}
	in := "publication_title\t" + strings.Join(names, "\t") + "\nA\t" + strings.Join(values, "\t") + "\n"
	r, err := NewReader(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	cols := r.ExtraColumns()
	if len(cols) != maxExtraColumns || cols[63] != "x63" {
		t.Errorf("ExtraColumns %q", cols)
	}
	res, _ := readResult(r)
	if row := res.rows[0]; len(row.Extra) != maxExtraColumns || row.Extra[63] != "63" {
		t.Errorf("Extra %q", row.Extra)
	}
	if !hasNote(res.notes, "6 non-standard columns beyond the first 64 dropped: x64, x65, x66, x67, x68, x69") {
		t.Errorf("notes %q", res.notes)
	}
	// The caller gets a copy.
	cols[0] = "changed"
	if r.ExtraColumns()[0] != "x0" {
		t.Error("ExtraColumns returned the reader's own slice")
	}
}

// TestExtraValueCut checks that an extra value is cut at 10,000
// characters, with a repair.
func TestExtraValueCut(t *testing.T) {
	long := strings.Repeat("é", maxExtraLen) + " tail"
	res := mustRead(t, "publication_title\tpublication_type\tabstract\nA\tserial\t"+long+"\n")
	row := res.rows[0]
	if got := row.Extra[0]; got != strings.Repeat("é", maxExtraLen) {
		t.Errorf("Extra has %d characters", len([]rune(got)))
	}
	if !hasProblem(row.Problems, Problem{Kind: Repaired, Field: "abstract", Action: "cut to 10000 characters", Reason: "value too long"}) ||
		!hasNote(row.Repairs, "abstract (10005 characters) cut to 10000 characters") {
		t.Errorf("problems %+v repairs %q", row.Problems, row.Repairs)
	}
	checkProblems(t, row)
	if p := row.Problems[0]; len(p.Original) != maxOriginal {
		t.Errorf("Original is %d bytes", len(p.Original))
	}
}

// TestExtraRoundTrip writes rows with their extra columns and reads them
// back: the same extra columns and values, and no repair.
func TestExtraRoundTrip(t *testing.T) {
	in := "publication_title\tbestppn\tDOI\tonline_identifier\tdoi\t\tpublication_type\tcoverage_notes\tnotes\tzdb_id\n" +
		"A\t123\t\"10.1/x\"\t2434-561X\t10.1/y\tfree\tserial\tcov\tnote\t\"\"\"quoted\"\" id\"\n" +
		"B\t\t\t0317-8471\t\t\tSerial\t\tn\t" + strings.Repeat("z", maxExtraLen+3) + "\n" +
		"C\t456\n"
	r, err := NewReader(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	first, err := readResult(r)
	if err != nil || len(first.rows) != 3 {
		t.Fatalf("rows %+v rejected %v", first.rows, first.rejected)
	}
	cols := r.ExtraColumns()
	if want := []string{"bestppn", "DOI", "doi_2", "column_6", "zdb_id"}; !slices.Equal(cols, want) {
		t.Errorf("ExtraColumns %q, want %q", cols, want)
	}
	if got := first.rows[0].Extra; !slices.Equal(got, []string{"123", "10.1/x", "10.1/y", "free", `"quoted" id`}) {
		t.Errorf("Extra %q", got)
	}
	var b bytes.Buffer
	w := NewWriter(&b, cols...)
	for _, row := range first.rows {
		if err := w.Write(append(row.Values[:], row.Extra...)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	r2, err := NewReader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	second, err := readResult(r2)
	if err != nil || len(second.rows) != len(first.rows) {
		t.Fatalf("second read: rows %+v rejected %v", second.rows, second.rejected)
	}
	if diff := cmp.Diff(cols, r2.ExtraColumns()); diff != "" {
		t.Errorf("ExtraColumns (-first +second):\n%s", diff)
	}
	for i := range first.rows {
		a, b := first.rows[i], second.rows[i]
		if a.Values != b.Values || !slices.Equal(a.Extra, b.Extra) {
			t.Errorf("row %d changed:\n%q %q\n%q %q", i, a.Values, a.Extra, b.Values, b.Extra)
		}
		if b.Repairs != nil || b.Problems != nil {
			t.Errorf("row %d: problems on re-read: %+v", i, b.Problems)
		}
	}
}
