package kbart

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, "bestppn")
	v := make([]string, NumFields+1)
	v[PublicationTitle] = "A\ttitle\r\nwith breaks"
	v[OnlineIdentifier] = "2434-561X"
	v[NumFields] = "123456789"
	if err := w.Write(v); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(v[:NumFields]); err == nil || !strings.Contains(err.Error(), "25 values, want 26") {
		t.Errorf("short row: err = %v", err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := stdHeader + "\tbestppn\n" +
		"A title  with breaks\t\t2434-561X" + strings.Repeat("\t", int(NumFields)-3) + "\t123456789\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

func TestWriterEmpty(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != stdHeader+"\n" {
		t.Errorf("got %q", got)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterError(t *testing.T) {
	w := NewWriter(failWriter{})
	v := make([]string, NumFields)
	v[PublicationTitle] = "A"
	_ = w.Write(v)
	if err := w.Flush(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Flush() = %v", err)
	}
	if err := w.Write(v); err == nil {
		t.Error("Write after a failure succeeded")
	}
}

// TestRoundTrip writes rows read from a messy file and reads them back:
// the values must survive unchanged and the second read must need no
// repairs.
func TestRoundTrip(t *testing.T) {
	messy := "\xEF\xBB\xBF\"publication_title\"\tprint_identifier\tonline_identifier\tdate_first_issue_online\tpublication_type\tembargo_info\taccess_type\tcoverage_notes\r\n" +
		"  Monatshefte fÃ¼r Mathematik \t00269255\t1436-5081\t15/11/2010\tSerial\tp1y\tf\t\"a \"\"note\"\"\"\r\n" +
		"John Wiley &amp;amp; Sons\t978-0-306-40615-7\t\t\tbook\t\t\t\r\n" +
		"\"\"\"Quoted\"\" title\"\t\t\t2008-05-19 00:00:00\t\tMoving Wall\tfree\t\r\n" +
		"Caf\xe9\t0317-8472\t\t43214.0\t\t\t\t\r\n"
	first := mustRead(t, messy)
	if len(first.rows) != 4 {
		t.Fatalf("rows %d rejected %v", len(first.rows), first.rejected)
	}
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, row := range first.rows {
		if err := w.Write(row.Values[:]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	second := mustRead(t, b.String())
	if len(second.rows) != len(first.rows) {
		t.Fatalf("second read: %d rows, rejected %v", len(second.rows), second.rejected)
	}
	for i := range first.rows {
		if diff := cmp.Diff(first.rows[i].Values, second.rows[i].Values); diff != "" {
			t.Errorf("row %d (-first +second):\n%s", i, diff)
		}
	}
	wantTitles := []string{"Monatshefte für Mathematik", "John Wiley & Sons", `"Quoted" title`, "Café"}
	for i, want := range wantTitles {
		if got := second.rows[i].Values[PublicationTitle]; got != want {
			t.Errorf("row %d title %q, want %q", i, got, want)
		}
	}
	// Only the warnings about values kept as they are remain.
	for _, row := range second.rows {
		for _, rep := range row.Repairs {
			if !strings.Contains(rep, "(kept)") {
				t.Errorf("line %d: repair on re-read: %s", row.Line, rep)
			}
		}
	}
	if got := second.rows[0].Values; got[PrintIdentifier] != "0026-9255" || got[DateFirstIssueOnline] != "2010-11-15" ||
		got[PublicationType] != "serial" || got[EmbargoInfo] != "P1Y" || got[AccessType] != "F" || got[Notes] != `a "note"` {
		t.Errorf("values %q", got)
	}
}
