package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
)

// TestFileRoundTrip writes an index with a view to a file, reads it back
// and requires the same answers from both: random title searches, and
// publication searches with facets over customer c1's collection.
func TestFileRoundTrip(t *testing.T) {
	p := newPropertyKB(t, 1500, 21)
	ctx := context.Background()
	loc, err := alpha.ParseLocale("de")
	if err != nil {
		t.Fatal(err)
	}
	v, err := p.x.NewView(ctx, loc, p.store.(kb.TitleFeed).FeedNames)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "index")
	stamp := Stamp{Version: 42, Store: "3 titles"}
	if err := p.x.WriteFile(ctx, path, stamp, []*View{v}); err != nil {
		t.Fatal(err)
	}
	for _, other := range []Stamp{{Version: 41, Store: "3 titles"}, {Version: 42, Store: "4 titles"}} {
		if _, _, err := ReadFile(path, other); !errors.Is(err, errStale) {
			t.Fatalf("read at %+v: %v, want errStale", other, err)
		}
	}
	// ReadFileSince reads a file of the same database at the store's
	// version when the fingerprints agree, at an older version without
	// asking for the fingerprint (counting tables is slow), and nothing
	// newer or of another database.
	for _, c := range []struct {
		db      string
		version int64
		fp      string
		ok      bool
		asked   bool
	}{
		{"", 42, "3 titles", true, true},
		{"", 42, "4 titles", false, true},
		{"", 43, "", true, false},
		{"", 41, "", false, false},
		{"other", 43, "", false, false},
	} {
		asked := false
		_, _, _, err := ReadFileSince(path, c.db, c.version, func() (string, error) { asked = true; return c.fp, nil })
		if (err == nil) != c.ok || err != nil && !errors.Is(err, errStale) || asked != c.asked {
			t.Errorf("ReadFileSince(%q, %d, %q): %v, fingerprint asked %v; want ok %v, asked %v", c.db, c.version, c.fp, err, asked, c.ok, c.asked)
		}
	}
	x, views, err := ReadFile(path, stamp)
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != 1 || views[0].locale != "de" {
		t.Fatalf("read %d views, want the view of de", len(views))
	}
	if fi, err := os.Stat(path); err == nil {
		t.Logf("%d titles, file of %d bytes", x.Len(), fi.Size())
	}
	sel, err := p.store.(kb.TitleFeed).SelectionOf(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	c1, c2 := p.x.Collection(sel), x.Collection(sel)
	r := rand.New(rand.NewPCG(3, 3))
	for range 1500 {
		q := p.randomQuery(r)
		want, werr := p.x.Titles("c1", q, p.selected)
		got, gerr := x.Titles("c1", q, p.selected)
		if !reflect.DeepEqual(want, got) || (werr == nil) != (gerr == nil) {
			t.Fatalf("%+v: read back %v %v, built %v %v", q, got, gerr, want, werr)
		}
		pq := kb.PubQuery{Search: q.Search, Field: q.Field, Type: q.Type, ByName: r.IntN(2) == 0, Facets: true,
			Page: kb.Page{Count: 10, Number: 1 + r.IntN(3)}}
		if r.IntN(4) == 0 {
			pq.Search = ""
		}
		pw, werr := p.x.SearchCollection("c1", c1, v, pq)
		pg, gerr := x.SearchCollection("c1", c2, views[0], pq)
		if !reflect.DeepEqual(pw, pg) || (werr == nil) != (gerr == nil) {
			t.Fatalf("%+v: read back %+v %v, built %+v %v", pq, pg, gerr, pw, werr)
		}
	}
}

// TestFileOfBadTokenLists: a file whose token lists disagree with
// themselves or with the terms is refused (an error, which makes Live
// build from the store), not read into an index that panics.
func TestFileOfBadTokenLists(t *testing.T) {
	p := newPropertyKB(t, 300, 5)
	ctx := context.Background()
	for name, spoil := range map[string]func(f *fieldFile){
		"list past the tokens": func(f *fieldFile) { f.TokStart[len(f.TokStart)-1] += 1000 },
		"lists out of order":   func(f *fieldFile) { f.TokStart[1], f.TokStart[2] = f.TokStart[2]+1, f.TokStart[1] },
		"token of no term":     func(f *fieldFile) { f.RankTerm[0] = uint32(len(f.Terms)) },
		"title of no list":     func(f *fieldFile) { f.ListOf[0] = uint32(len(f.TokStart)) },
	} {
		x := *p.x
		ff := x.publisher.file()
		ff.TokStart, ff.RankTerm, ff.ListOf = slices.Clone(ff.TokStart), slices.Clone(ff.RankTerm), slices.Clone(ff.ListOf)
		spoil(&ff)
		x.publisher = ff.field()
		path := filepath.Join(t.TempDir(), "index")
		stamp := Stamp{Version: 1, Store: "s"}
		if err := x.WriteFile(ctx, path, stamp, nil); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ReadFile(path, stamp); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
	// The unspoilt index reads back.
	path := filepath.Join(t.TempDir(), "index")
	if err := p.x.WriteFile(ctx, path, Stamp{Version: 1, Store: "s"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadFile(path, Stamp{Version: 1, Store: "s"}); err != nil {
		t.Fatal(err)
	}
}
