package kbart

import (
	"slices"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestRowsWithCoverage(t *testing.T) {
	f := make([]string, NumFields)
	f[PublicationTitle], f[DateFirstIssueOnline], f[NumFirstVolOnline], f[DateLastIssueOnline], f[TitleID] = "J", "1990-01-01", "1", "1999-12-31", "j1"
	line := strings.Join(f, "\t")
	cs := []kb.Coverage{{Begin: "2001-01-01", End: "2004-12-31"}, {Begin: "2010-01-01"}}
	for _, c := range []struct {
		name, line string
		tail       string
	}{
		{"standard fields only", line, ""},
		{"with non-standard values", line + "\tx\ty", "\tx\ty"},
	} {
		got := RowsWithCoverage(c.line, cs)
		if len(got) != 2 {
			t.Fatalf("%s: %d rows", c.name, len(got))
		}
		for i, r := range got {
			g := strings.Split(strings.TrimSuffix(r, c.tail), "\t")
			if len(g) != int(NumFields) || !strings.HasSuffix(r, c.tail) || g[DateFirstIssueOnline] != cs[i].Begin || g[DateLastIssueOnline] != cs[i].End ||
				g[NumFirstVolOnline] != "" || g[PublicationTitle] != "J" || g[TitleID] != "j1" {
				t.Errorf("%s: row %d = %q", c.name, i, r)
			}
		}
	}
	if got := RowsWithCoverage(line, nil); !slices.Equal(got, []string{}) {
		t.Errorf("no ranges: %q", got)
	}
}
