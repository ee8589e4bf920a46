package kbart

import (
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// RowsWithCoverage returns the KBART row line (tab-separated fields, the
// standard ones first, then any non-standard columns' values) once for
// each coverage range of cs, with the range's dates and without volume
// and issue numbers, its other values as they are: a customer's custom
// coverage in place of the publisher's ranges. No ranges give no row.
func RowsWithCoverage(line string, cs []kb.Coverage) []string {
	var f [NumFields]string
	rest := line
	for i := range f {
		f[i], rest, _ = strings.Cut(rest, "\t")
	}
	tail := ""
	if n := strings.Count(line, "\t"); n >= int(NumFields) {
		// The non-standard columns' values, after the 25th field.
		i := 0
		for range NumFields {
			i += strings.IndexByte(line[i:], '\t') + 1
		}
		tail = "\t" + line[i:]
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		g := f
		g[DateFirstIssueOnline], g[DateLastIssueOnline] = c.Begin, c.End
		g[NumFirstVolOnline], g[NumFirstIssueOnline], g[NumLastVolOnline], g[NumLastIssueOnline] = "", "", "", ""
		out[i] = strings.Join(g[:], "\t") + tail
	}
	return out
}
