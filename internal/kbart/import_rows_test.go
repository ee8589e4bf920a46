package kbart

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// sourceOf reads files given as text.
func sourceOf(t *testing.T, texts ...string) *Source {
	t.Helper()
	var files []SourceFile
	for i, s := range texts {
		r, err := NewReader(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, SourceFile{Name: string(rune('a' + i)), Reader: r})
	}
	return NewSource(files...)
}

// TestSource: the files' rows come in turn, each file's non-standard
// columns in the places ExtraColumns gives them, rejected rows marked,
// and the hooks see each row once.
func TestSource(t *testing.T) {
	s := sourceOf(t,
		"publication_title\ttitle_id\tdoi\nOne\t1\t10.1/one\n\t2\t10.1/two\n",
		"publication_title\tzdb_id\ttitle_id\tdoi\nThree\tz3\t3\t10.1/three\n")
	if got := s.ExtraColumns(); !slices.Equal(got, []string{"doi", "zdb_id"}) {
		t.Fatalf("extra columns %q", got)
	}
	var seen []string
	s.OnRow = func(file string, row Row) error {
		seen = append(seen, file+":"+row.Values[PublicationTitle])
		return nil
	}
	s.OnReject = func(file string, e *RowError) error { seen = append(seen, file+":rejected"); return nil }
	var rows []kb.ImportRow
	for {
		r, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	if len(rows) != 3 || rows[0].KBART[PublicationTitle] != "One" || !slices.Equal(rows[0].Extra, []string{"10.1/one", ""}) ||
		!rows[1].Rejected || rows[1].KBART[TitleID] != "2" ||
		rows[2].KBART[TitleID] != "3" || !slices.Equal(rows[2].Extra, []string{"10.1/three", "z3"}) {
		t.Errorf("rows %+v", rows)
	}
	if s.Read() != 3 || s.Rejected() != 1 || !slices.Equal(seen, []string{"a:One", "a:rejected", "b:Three"}) {
		t.Errorf("read %d, rejected %d, hooks saw %q", s.Read(), s.Rejected(), seen)
	}
}

// TestSourceNoRows: a file whose rows are all rejected ends with
// ErrNoRows, not io.EOF, so that an import stops rather than empty its
// package; a hook's error ends the rows.
func TestSourceNoRows(t *testing.T) {
	s := sourceOf(t, "publication_title\ttitle_id\n\t1\n")
	if r, err := s.Next(); err != nil || !r.Rejected {
		t.Fatalf("first row: %+v, %v", r, err)
	}
	if _, err := s.Next(); !errors.Is(err, ErrNoRows) {
		t.Errorf("end: %v, want ErrNoRows", err)
	}
	s = sourceOf(t, "publication_title\ttitle_id\nOne\t1\n")
	stop := errors.New("stop")
	s.OnRow = func(string, Row) error { return stop }
	if _, err := s.Next(); !errors.Is(err, stop) {
		t.Errorf("a hook's error: %v", err)
	}
}
