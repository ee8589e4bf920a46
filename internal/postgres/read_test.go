package postgres_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/sqlite"
	"github.com/kbserver/kbserver/internal/storetest"
)

// readExtras are titles whose names hold what a search must treat as
// text, never as query syntax: quotes, backslashes, LIKE wildcards and
// tsquery operators.
var readExtras = []storetest.Row{
	{Title: "O'Reilly's Guide to C++", Publisher: "O'Reilly & Sons", Type: "monograph", Subjects: []string{"C++ (Programming)"}},
	{Title: "100% Pure_Data", Publisher: "Per%cent", Type: "serial"},
	{Title: `Back\slash Times`, Publisher: `A\B Press`, Type: "serial"},
	{Title: "Café Société", Publisher: "Éditions Æsop", Type: "serial", Subjects: []string{"Éducation"}},
	{Title: "alpha one two three four five six seven eight nine ten omega", Type: "serial"},
	{Title: "alpha one two three four five six seven eight nine ten eleven omega", Type: "serial"},
	{Title: "omega before alpha", Type: "serial"},
	{Title: "Go Go Gadget", Publisher: "Go", Type: "monograph"},
}

// TestSearchLikeSQLite runs a matrix of title, vendor and package searches
// on both stores over the same knowledge base, each with its title index,
// and wants the same pages, totals and errors in both orders: what the
// index is fed, and the name searches' SQL, must not depend on the engine.
func TestSearchLikeSQLite(t *testing.T) {
	ctx := context.Background()
	lite, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "kb.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	pg := open(t)
	stores := []kb.Store{storetest.Searched(ctx, lite), storetest.Searched(ctx, pg)}
	for _, s := range stores {
		storetest.LoadFixture(t, s)
		storetest.Import(t, s, "Gamma Ltd", "Gamma: The Set (100%)", kb.ContentUnknown, readExtras)
	}
	searches := []string{"go", "journal", "of testing", "ebra", "Zébra", "cafe societe", "société", "O'Reilly", "reilly's", "it's",
		`a\b`, `back\slash`, `'`, `''`, `\`, `:*`, `&`, `|`, `!go`, `go:*`, `go:A`, `"quoted"`, `(`, `)`, "zeb*", "quality assurance",
		"software engineering", "computer", "st", "studies zebra", "x", "newsletter weekly", "100%", "100", "%", "_", "pure_data",
		"pure data", "annals quality", "journal testing", "alpha omega", "omega alpha", "alpha ten omega", "go go", "c++",
		"programming", "education", "aesop", "editions", "<->", "a <-> b", "0317", "978", "1050-124X", "0-306-40615-2", "!!", "   "}
	advanced := []string{`(zebra OR annals) AND studies`, `go NOT practice`, `"weekly news"* OR zeb*`, `zebra OR`, `AND zebra`,
		`"unclosed`, `(((`, `()`, `NOT zebra`, `go (gadget OR practice)`, `go NOT (gadget OR practice)`, `"go go"`,
		`alpha NOT omega OR zebra`, `o'reilly*`, `c++ OR "100%"`, `a\b*`, `':*' OR go`, `(go) (gadget)`, `"" go`, `!!`, `* OR go`}
	fields := []kb.SearchField{kb.FieldTitleName, kb.FieldPublisher, kb.FieldSubject, kb.FieldISXN}
	types := []kb.SearchType{kb.SearchContains, kb.SearchAny, kb.SearchExactMatch, kb.SearchBeginsWith, kb.SearchProximity, kb.SearchExactPhrase}
	var queries []kb.TitleQuery
	for _, f := range fields {
		for _, typ := range types {
			for _, search := range searches {
				queries = append(queries, kb.TitleQuery{Search: search, Field: f, Type: typ, Page: kb.Page{Count: 100, Number: 1}})
			}
		}
		for _, search := range advanced {
			queries = append(queries, kb.TitleQuery{Search: search, Field: f, Type: kb.SearchAdvanced, Page: kb.Page{Count: 100, Number: 1}})
		}
	}
	nonEmpty := 0
	for _, q := range queries {
		var got [2]string
		for i, s := range stores {
			l, err := s.Titles(ctx, "c1", q)
			got[i] = titleResult(l, err, true)
		}
		if !strings.HasPrefix(got[0], "0 ") && !strings.HasPrefix(got[0], "error") {
			nonEmpty++
		}
		if got[0] != got[1] {
			t.Errorf("Titles(%q field %d type %d):\n sqlite   %s\n postgres %s", q.Search, q.Field, q.Type, got[0], got[1])
		}
		q.OrderBy = kb.OrderName
		for i, s := range stores {
			l, err := s.Titles(ctx, "c1", q)
			got[i] = titleResult(l, err, true)
		}
		if got[0] != got[1] {
			t.Errorf("Titles(%q field %d type %d, by name):\n sqlite   %s\n postgres %s", q.Search, q.Field, q.Type, got[0], got[1])
		}
	}
	if nonEmpty < len(queries)/10 {
		t.Errorf("only %d of %d searches found titles: the matrix tests too little", nonEmpty, len(queries))
	}
	t.Logf("%d of %d searches found titles", nonEmpty, len(queries))
	for _, q := range searches {
		var got [2]string
		for i, s := range stores {
			vs, err := s.Vendors(ctx, "c1", kb.VendorQuery{Search: q, Page: kb.Page{Count: 100, Number: 1}})
			ps, perr := s.Packages(ctx, "c1", kb.PackageQuery{Search: q, Page: kb.Page{Count: 100, Number: 1}})
			var names []string
			for _, v := range vs.Vendors {
				names = append(names, v.Name)
			}
			for _, p := range ps.Packages {
				names = append(names, p.Name)
			}
			got[i] = fmt.Sprintf("%d %d %v %v %v", vs.Total, ps.Total, names, kb.ErrorCode(err), kb.ErrorCode(perr))
		}
		if got[0] != got[1] {
			t.Errorf("Vendors/Packages(%q):\n sqlite   %s\n postgres %s", q, got[0], got[1])
		}
	}
}

// titleResult describes a title list for comparison: total, names (sorted
// unless ordered) and error code.
func titleResult(l kb.TitleList, err error, ordered bool) string {
	if err != nil {
		return fmt.Sprintf("error code %d", kb.ErrorCode(err))
	}
	var names []string
	for _, t := range l.Titles {
		names = append(names, t.Name)
	}
	if !ordered {
		slices.Sort(names)
	}
	return fmt.Sprintf("%d %q", l.Total, names)
}
