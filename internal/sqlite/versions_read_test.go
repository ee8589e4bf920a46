package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/finder"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbfeed"
	"github.com/kbserver/kbserver/internal/kbsql"
	"github.com/kbserver/kbserver/internal/search"
	"github.com/kbserver/kbserver/internal/storetest"
)

// countingEngine counts the statements of its engine's reader that read
// the version counters.
type countingEngine struct {
	kbsql.Engine
	versions atomic.Int64
}

func (e *countingEngine) Read() kbsql.Querier { return countingQuerier{e.Engine.Read(), e} }

// countedStore is a store over a countingEngine: kbsql's store and the
// title feed, each over the same counted engine, as Open composes them.
type countedStore struct {
	*kbsql.Store
	*kbfeed.Feed
}

// countingQuerier counts for countingEngine.
type countingQuerier struct {
	kbsql.Querier
	e *countingEngine
}

func (q countingQuerier) count(sql string) {
	if strings.Contains(sql, "FROM versions") {
		q.e.versions.Add(1)
	}
}

func (q countingQuerier) Query(ctx context.Context, sql string, args ...any) (kbsql.Rows, error) {
	q.count(sql)
	return q.Querier.Query(ctx, sql, args...)
}

func (q countingQuerier) QueryRow(ctx context.Context, sql string, args ...any) kbsql.Row {
	q.count(sql)
	return q.Querier.QueryRow(ctx, sql, args...)
}

// TestSearchReadsVersionsOnce counts the statements that read the version
// counters in a request that searches: a title search (of each kind: the
// whole knowledge base, one package, the selected titles) reads them once,
// with the API key, and the search service not again; a publication
// search and an alpha menu, whose profile has no key, read them once
// each, in the search service.
func TestSearchReadsVersionsOnce(t *testing.T) {
	ctx := t.Context()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "kb.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	f := storetest.LoadFixture(t, s)
	if err := s.SetPackageState(ctx, "c1", f.AlphaJournals, kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	counted := &countingEngine{Engine: engine{s}}
	st := countedStore{kbsql.New(counted), kbfeed.New(counted)}
	svc := finder.New(ctx, st, search.Options{Inline: true})
	request := func() context.Context { // the key check of each request
		key, err := st.LookupAPIKey(ctx, kb.HashAPIKey("key-c1"))
		if err != nil {
			t.Fatal(err)
		}
		return kb.WithCustomerAt(ctx, key.At)
	}
	page := kb.Page{Count: 5, Number: 1}
	searches := map[string]kb.TitleQuery{
		"all":       {Search: "journal", Type: kb.SearchContains, Page: page},
		"package":   {Search: "journal", Type: kb.SearchContains, VendorID: f.AlphaVendor, PackageID: f.AlphaJournals, Page: page},
		"selection": {Search: "journal", Type: kb.SearchContains, Selection: kb.SelectionSelected, Page: page},
	}
	for _, q := range searches { // the index is built, and the selection read, outside the counts
		if _, err := svc.Titles(request(), "c1", q); err != nil {
			t.Fatal(err)
		}
	}
	for name, q := range searches {
		counted.versions.Store(0)
		l, err := svc.Titles(request(), "c1", q)
		if err != nil || l.Total == 0 {
			t.Fatalf("%s: %d titles, %v", name, l.Total, err)
		}
		if n := counted.versions.Load(); n != 1 {
			t.Errorf("%s: a title search read the versions in %d statements, want 1 (the key's)", name, n)
		}
	}
	loc, err := alpha.ParseLocale("en")
	if err != nil {
		t.Fatal(err)
	}
	counted.versions.Store(0)
	if res, err := svc.Publications(ctx, "c1", loc, kb.PubQuery{Facets: true, Page: page}); err != nil || res.Total == 0 {
		t.Fatalf("publication search: %d titles, %v", res.Total, err)
	}
	if n := counted.versions.Load(); n != 1 {
		t.Errorf("a publication search read the versions in %d statements, want 1", n)
	}
	m, err := loc.NewMenu(26)
	if err != nil {
		t.Fatal(err)
	}
	counted.versions.Store(0)
	if err := svc.Menu(ctx, "c1", kb.ResourceAll, m); err != nil {
		t.Fatal(err)
	}
	if n := counted.versions.Load(); n != 1 {
		t.Errorf("an alpha menu read the versions in %d statements, want 1", n)
	}
}
