package kbreport

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestReportRowRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		values map[int]string
		ct     string
	}{
		{"empty", nil, ""},
		{"plain", map[int]string{0: "Journal of Things", 26: "12", 28: "3"}, "EJournal"},
		{"escapes", map[int]string{0: "a\tb", 14: "line\nnext", 15: `back\slash \t literal`, 29: `\`}, "E\\Book\t"},
		{"last value empty", map[int]string{0: "x"}, ""},
	}
	for _, tt := range tests {
		var in kb.ReportHolding
		for i, v := range tt.values {
			in.Values[i] = v
		}
		in.ContentType = tt.ct
		var out kb.ReportHolding
		if err := decodeReportRow(encodeReportRow(&in), &out); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if out.Values != in.Values || out.ContentType != in.ContentType {
			t.Errorf("%s: round trip gave %q %q, want %q %q", tt.name, out.Values, out.ContentType, in.Values, in.ContentType)
		}
	}
	var h kb.ReportHolding
	if err := decodeReportRow("too\tfew", &h); err == nil {
		t.Error("a row of two fields decoded without error")
	}
}

func TestChunkStart(t *testing.T) {
	for _, tt := range []struct{ row, want int64 }{
		{1, 1}, {2, 1}, {reportChunk, 1}, {reportChunk + 1, reportChunk + 1}, {2*reportChunk + 5, 2*reportChunk + 1},
	} {
		if got := chunkStart(tt.row); got != tt.want {
			t.Errorf("chunkStart(%d) = %d, want %d", tt.row, got, tt.want)
		}
	}
}

func TestReportLines(t *testing.T) {
	in := []reportLine{
		{pkg: 12, title: 345, change: kb.ChangeNone, vals: "a\tb\tc"},
		{pkg: 12, title: 346, change: kb.ChangeDeletedCoverage, vals: `escaped \n and \t`},
		{pkg: 9000000000, title: 1, change: kb.ChangeAdded, vals: ""},
	}
	var body []byte
	for i, l := range in {
		if i > 0 {
			body = append(body, '\n')
		}
		body = appendReportLine(body, l.pkg, l.title, l.change, l.vals)
	}
	var out []reportLine
	if err := eachReportLine(string(body), func(l reportLine) error {
		out = append(out, l)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("%d lines back, want %d", len(out), len(in))
	}
	for i := range in {
		if out[i] != in[i] {
			t.Errorf("line %d = %+v, want %+v", i, out[i], in[i])
		}
	}
	for _, bad := range []string{"12\t345", "x\t1\t0\tv", "1\t2\tz\tv"} {
		if err := eachReportLine(bad, func(reportLine) error { return nil }); err == nil {
			t.Errorf("line %q read without error", bad)
		}
	}
}
