package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/testdb"
)

// waitBuilt waits until l holds an index at the store's current version
// of the indexed data (the background build of a search that found it
// stale); it fails the test after a minute.
func waitBuilt(t *testing.T, l *Live, s kb.TitleFeed) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		want, err := s.TitlesVersion(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := l.Version(); ok && v >= want {
			return
		}
	}
	t.Fatal("the index was not rebuilt within a minute")
}

// TestLiveFollowsStore checks that a live index answers only at the
// store's current version: before its first build, and after a change
// whose titles the store did not record, it waits for a rebuild in the
// background and refuses the search when none is ready in time; a custom
// title's change and an import are caught up with at once by a delta,
// and a customer's selection change needs no rebuild: each shows in the
// next search; and its answers (title and publication searches) are
// those of an index built anew.
func TestLiveFollowsStore(t *testing.T) {
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	s := testdb.OpenDSN(t, dsn)
	if _, err := gen.Generate(ctx, s, gen.Options{Titles: 400, Seed: 3}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Customers(ctx, s, 3, []gen.CustomerSpec{{ID: "c1", Holdings: 100}}, nil); err != nil {
		t.Fatal(err)
	}
	// Builds wait while held is locked; a search waits 100 ms for them.
	held := &heldFeed{testFeed: s}
	l := NewLive(ctx, held, Options{Wait: 100 * time.Millisecond})
	q := kb.TitleQuery{Search: "journal", Type: kb.SearchContains, OrderBy: kb.OrderName, Page: kb.Page{Count: 20, Number: 1}}
	same := func(what string, q kb.TitleQuery) {
		t.Helper()
		ids, total, err := l.SearchTitles(ctx, "c1", nowAt(ctx, l, "c1"), q)
		if err != nil {
			t.Fatalf("%s: %v; want an answer from the index", what, err)
		}
		fresh := NewLive(ctx, s, Options{Inline: true})
		wids, wtotal, err := fresh.SearchTitles(ctx, "c1", nowAt(ctx, fresh, "c1"), q)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := fmt.Sprint(total, ids), fmt.Sprint(wtotal, wids); g != w {
			t.Errorf("%s: index %s, built anew %s", what, g, w)
		}
	}
	refused := func(what string) {
		t.Helper()
		held.mu.Lock()
		defer held.mu.Unlock()
		if _, _, err := l.SearchTitles(ctx, "c1", nowAt(ctx, l, "c1"), q); kb.ErrorCode(err) != kb.CodeUnavailable {
			t.Fatalf("%s, the build held: %v; want CodeUnavailable", what, err)
		}
	}

	// The index is not ready before the first build (the server's
	// /readyz says so), and is after.
	if l.Ready() {
		t.Error("the index is ready before its first build")
	}
	refused("before the first build")
	waitBuilt(t, l, s)
	if !l.Ready() {
		t.Error("the index is not ready after its first build")
	}
	same("after the build", q)

	// A selection change bumps only the customer's version.
	v0, _ := l.Version()
	c, err := s.Customer(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	sel := q
	sel.Selection = kb.SelectionSelected
	same("selected, before", sel)
	pkgs, err := s.Packages(ctx, "c1", kb.PackageQuery{Selection: kb.SelectionNotSelected, Page: kb.Page{Count: 1, Number: 1}})
	if err != nil || len(pkgs.Packages) == 0 {
		t.Fatalf("an unselected package: %v", err)
	}
	p := pkgs.Packages[0]
	if err := s.UpdatePackage(ctx, "c1", p.VendorID, p.ID, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	same("selected, after selecting a package", sel)
	notSel := q
	notSel.Selection = kb.SelectionNotSelected
	same("not selected, after selecting a package", notSel)
	inPkg := sel
	inPkg.VendorID, inPkg.PackageID, inPkg.Search = p.VendorID, p.ID, "a"
	same("in the package, selected", inPkg)
	if v, _ := l.Version(); v != v0 {
		t.Errorf("a selection change rebuilt the index (version %d → %d)", v0, v)
	}

	// Publication search, which waits for the view built in the
	// background.
	pubq := []kb.PubQuery{{Search: "zyzzyva", Type: kb.SearchContains, Facets: true, Page: kb.Page{Count: 5, Number: 1}},
		{Search: "journal", Type: kb.SearchContains, Facets: true, Page: kb.Page{Count: 20, Number: 1}},
		{Search: "journal", Type: kb.SearchContains, ByName: true, Page: kb.Page{Count: 20, Number: 2}},
		{Facets: true, AlphaMenu: "Z", Page: kb.Page{Count: 10, Number: 1}}}
	samePub := func(what string) {
		t.Helper()
		fresh := NewLive(ctx, s, Options{Inline: true})
		for _, pq := range pubq {
			got, err := l.SearchCollection(ctx, "c1", nowAt(ctx, l, "c1"), defaultLocale, pq)
			if err != nil {
				t.Fatalf("%s: publication search %+v: %v; want an answer from the index", what, pq, err)
			}
			want, err := fresh.SearchCollection(ctx, "c1", nowAt(ctx, fresh, "c1"), defaultLocale, pq)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := fmt.Sprint(got.Total, got.IDs, facetString(got.Counts, 0)), fmt.Sprint(want.Total, want.IDs, facetString(want.Counts, 0)); g != w {
				t.Errorf("%s: publication search %+v: index %s, built anew %s", what, pq, g, w)
			}
		}
		m1, _ := defaultLocale.NewMenu(26)
		m2, _ := defaultLocale.NewMenu(26)
		err1 := l.CollectionMenu(ctx, "c1", nowAt(ctx, l, "c1"), kb.ResourceAll, m1)
		err2 := fresh.CollectionMenu(ctx, "c1", nowAt(ctx, fresh, "c1"), kb.ResourceAll, m2)
		if g, w := fmt.Sprint(err1, m1.Result()), fmt.Sprint(err2, m2.Result()); g != w {
			t.Errorf("%s: alpha menu: index %s, built anew %s", what, g, w)
		}
	}
	samePub("before a change")

	// A custom title changes the indexed data: the index catches up with
	// a delta of that title at once, without a rebuild.
	x0 := l.cur.Load().x
	cp, err := s.CreateCustomPackage(ctx, "c1", c.VendorID, kb.CustomPackage{Name: "Local", ContentType: kb.ContentEBook})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateCustomTitle(ctx, "c1", c.VendorID, cp, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Zyzzyva Quarterly Journal", PubType: kb.ResourceJournal}}); err != nil {
		t.Fatal(err)
	}
	zyzzyva := kb.TitleQuery{Search: "zyzzyva", Type: kb.SearchContains, Page: kb.Page{Count: 5, Number: 1}}
	same("the custom title, at once", zyzzyva)
	same("after a custom title was created", q)
	same("selected, after a custom title was created", sel)
	same("not selected, after a custom title was created", notSel)
	samePub("after a custom title was created")
	if b := l.cur.Load(); b.x != x0 || b.d == nil || b.d.x.Len() != 1 {
		t.Errorf("after a custom title was created: want the same index with a delta of one title")
	}

	// An import changing a few hundred titles is caught up with too.
	// (Customer c9, who searches only before it, keeps a selection
	// entry, which must not keep the replaced delta.)
	if _, _, err := l.SearchTitles(ctx, "c9", nowAt(ctx, l, "c9"), sel); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Generate(ctx, s, gen.Options{Titles: 450, Seed: 3}, nil); err != nil {
		t.Fatal(err)
	}
	same("after an import", q)
	same("selected, after an import", sel)
	same("in a package, selected, after an import", inPkg)
	same("the custom title, after an import", zyzzyva)
	samePub("after an import")
	if b := l.cur.Load(); b.x != x0 || b.d == nil || b.d.x.Len() < 10 {
		t.Errorf("after an import: want the same index with a delta of its titles")
	}
	l.selMu.Lock()
	for id, e := range l.sel {
		if e.b != nil && e.b != l.cur.Load() {
			t.Errorf("customer %s's selection entry holds a replaced index and delta", id)
		}
	}
	l.selMu.Unlock()

	// Without the records of what changed (pruned, or an import of more
	// titles than are recorded), the index is rebuilt, searches waiting
	// for it.
	if _, err := testdb.DB(t, dsn).Exec(`DELETE FROM title_changes`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateCustomTitle(ctx, "c1", c.VendorID, cp, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Zyzzyva Annual", PubType: kb.ResourceJournal}}); err != nil {
		t.Fatal(err)
	}
	// The catch-up is tried once: the records since the index's build
	// will never name the changes.
	counted := &countingFeed{testFeed: s}
	l.feed = counted
	titlesV, err := s.TitlesVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if b, err := l.catchUp(ctx, titlesV); b != nil || err != nil {
			t.Fatalf("catch-up without the records: %v, %v", b, err)
		}
	}
	if counted.changes.Load() != 1 {
		t.Errorf("catch-up without the records read the store %d times, want once", counted.changes.Load())
	}
	l.feed = held
	refused("without the records of the changes")
	waitBuilt(t, l, s)
	if b := l.cur.Load(); b.x == x0 || b.d != nil {
		t.Errorf("without the records of the changes: want a new index without a delta")
	}
	same("after the rebuild", q)
	same("the custom titles, after the rebuild", zyzzyva)
}

// heldFeed is a feed whose builds (FeedTitles) wait while mu is locked.
type heldFeed struct {
	testFeed
	mu sync.RWMutex
}

func (f *heldFeed) FeedTitles(ctx context.Context, pkg func(kb.IndexedPackage), order func(id int64), title func(kb.IndexedTitle)) (int64, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.testFeed.FeedTitles(ctx, pkg, order, title)
}

// TestLiveWaitsForBuild checks that a search that finds no index waits for
// the build in the background and is answered once it ends; and that the
// waiting ends with the search's context.
func TestLiveWaitsForBuild(t *testing.T) {
	ctx := context.Background()
	f := &fakeFeed{titlesV: 1, state: kb.SelectionState{Packages: []int64{1}}}
	held := &heldFeed{testFeed: f}
	l := NewLive(ctx, held, Options{})
	q := kb.TitleQuery{Search: "alpha", OrderBy: kb.OrderName, Page: kb.Page{Count: 10, Number: 1}}
	held.mu.Lock()
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := l.SearchTitles(cctx, "c", nowAt(cctx, l, "c"), q); err != context.Canceled {
		t.Errorf("a search whose context ended: %v, want context.Canceled", err)
	}
	done := make(chan error)
	go func() {
		_, total, err := l.SearchTitles(ctx, "c", nowAt(ctx, l, "c"), q)
		if err == nil && total == 0 {
			err = fmt.Errorf("no titles found")
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the search ended (%v) before the build did", err)
	case <-time.After(50 * time.Millisecond):
	}
	if l.Ready() {
		t.Error("Ready before the first build ended")
	}
	held.mu.Unlock()
	if err := <-done; err != nil {
		t.Fatalf("the search that waited: %v", err)
	}
	if !l.Ready() {
		t.Error("not Ready after the first build")
	}
}

// countingFeed is a feed that counts its FeedChanges calls.
type countingFeed struct {
	testFeed
	changes atomic.Int32
}

func (f *countingFeed) FeedChanges(ctx context.Context, since int64, limit int, pkg func(kb.IndexedPackage), title func(kb.IndexedTitle)) (int64, []int64, bool, error) {
	f.changes.Add(1)
	return f.testFeed.FeedChanges(ctx, since, limit, pkg, title)
}

// fakeFeed is a store feed of two titles in package 1 whose versions and
// selection state the test sets; SelectionOf can be made to wait.
type fakeFeed struct {
	mu      sync.Mutex
	feeds   int    // FeedTitles calls
	print   string // added to the fingerprint
	titlesV int64
	state   kb.SelectionState
	hold    chan struct{} // when set, the next SelectionOf reads the state, then waits for it to close
	reading chan struct{} // closed when a held SelectionOf has read the state
	// namesHeld, when set, holds every FeedNames (a view's build) until
	// it closes.
	namesHeld chan struct{}
}

func (f *fakeFeed) TitlesVersion(context.Context) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.titlesV, nil
}

func (f *fakeFeed) CustomerVersions(ctx context.Context, custID string) (kb.CustomerAt, error) {
	v, err := f.TitlesVersion(ctx)
	return kb.CustomerAt{Root: "root", Titles: v, Customer: 1}, err
}

func (f *fakeFeed) FeedTitles(_ context.Context, pkg func(kb.IndexedPackage), order func(int64), title func(kb.IndexedTitle)) (int64, error) {
	f.mu.Lock()
	v := f.titlesV
	f.feeds++
	f.mu.Unlock()
	pkg(kb.IndexedPackage{ID: 1})
	order(1)
	order(2)
	title(kb.IndexedTitle{ID: 1, Name: "Alpha One", Type: kb.ResourceJournal, Packages: []int64{1}})
	title(kb.IndexedTitle{ID: 2, Name: "Alpha Two", Type: kb.ResourceJournal, Packages: []int64{1}})
	return v, nil
}

func (f *fakeFeed) IndexFingerprint(context.Context) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return "two titles" + f.print, nil
}

func (f *fakeFeed) StoreIdentity(context.Context) (string, error) { return "fake", nil }

// The fake feed has no vendors or packages by name.
func (f *fakeFeed) NamesVersion(context.Context) (int64, error) { return 0, nil }

func (f *fakeFeed) FeedEntityNames(context.Context, func(int64, string), func(int64, int64, string)) (int64, error) {
	return 0, nil
}

func (f *fakeFeed) FeedNames(_ context.Context, fn func(int64, string)) error {
	if f.namesHeld != nil {
		<-f.namesHeld
	}
	fn(1, "Alpha One")
	fn(2, "Alpha Two")
	return nil
}

func (f *fakeFeed) NamesOf(_ context.Context, ids []int64, fn func(int64, string)) error {
	return f.FeedNames(context.Background(), func(id int64, name string) {
		if slices.Contains(ids, id) {
			fn(id, name)
		}
	})
}

func (f *fakeFeed) SelectionOf(context.Context, string) (kb.SelectionState, error) {
	f.mu.Lock()
	st, hold, reading := f.state, f.hold, f.reading
	f.hold = nil
	f.mu.Unlock()
	if hold != nil {
		close(reading)
		<-hold
	}
	return st, nil
}

// TestLiveSelectionAcrossRebuild checks that a selection state read for
// an index that a rebuild then replaced is not kept for the new one: an
// import changes customers' title-level choices without bumping their
// versions, so the state must be read again for each index.
func TestLiveSelectionAcrossRebuild(t *testing.T) {
	ctx := context.Background()
	f := &fakeFeed{titlesV: 1, state: kb.SelectionState{Packages: []int64{1}}}
	l := NewLive(ctx, f, Options{Inline: true})
	q := kb.TitleQuery{Search: "alpha", Selection: kb.SelectionSelected, OrderBy: kb.OrderName, Page: kb.Page{Count: 10, Number: 1}}
	if err := l.Build(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// A search reads the state before the import and is slow to keep it.
	f.hold, f.reading = make(chan struct{}), make(chan struct{})
	hold, reading := f.hold, f.reading
	done := make(chan error)
	go func() {
		_, _, err := l.SearchTitles(ctx, "c", nowAt(ctx, l, "c"), q)
		done <- err
	}()
	<-reading
	// The import deselects title 2 at title level and bumps the index's
	// version; the next search rebuilds and reads the new state.
	f.mu.Lock()
	f.titlesV, f.state = 2, kb.SelectionState{Packages: []int64{1}, Titles: []kb.TitleChoice{{PackageID: 1, TitleID: 2, Selected: false}}}
	f.mu.Unlock()
	check := func(when string) {
		t.Helper()
		ids, total, err := l.SearchTitles(ctx, "c", nowAt(ctx, l, "c"), q)
		if err != nil || total != 1 || fmt.Sprint(ids) != "[1]" {
			t.Errorf("%s: %v %d %v, want [1] (title 2 deselected)", when, ids, total, err)
		}
	}
	check("after the rebuild")
	close(hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	check("after the slow search kept what it read")
}

// TestLiveViewBuildsInBackground checks that a publication search in a
// locale without a view waits for the view, built in the background, and
// is then answered from the index; that one which cannot wait long enough
// is refused with CodeUnavailable (503 with Retry-After), never answered
// otherwise; and that the default locale's view comes with the build.
func TestLiveViewBuildsInBackground(t *testing.T) {
	ctx := context.Background()
	f := &fakeFeed{titlesV: 1, state: kb.SelectionState{Packages: []int64{1}}}
	fr, err := alpha.ParseLocale("fr")
	if err != nil {
		t.Fatal(err)
	}
	q := kb.PubQuery{Search: "alpha", Page: kb.Page{Count: 10, Number: 1}}
	// A view held longer than a search waits: refused.
	hurried := NewLive(ctx, f, Options{Wait: 10 * time.Millisecond})
	if err := hurried.Build(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// The build makes the default locale's view, in the background, with
	// no search asking for it.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		hurried.viewMu.Lock()
		e := hurried.views[defaultLocale.Tag()]
		done := e != nil && e.view != nil
		hurried.viewMu.Unlock()
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the default view was not built within a minute")
		}
	}
	f.namesHeld = make(chan struct{})
	_, err = hurried.SearchCollection(ctx, "c", nowAt(ctx, hurried, "c"), fr, q)
	if kb.ErrorCode(err) != kb.CodeUnavailable {
		t.Errorf("a search that cannot wait for its view: %v, want CodeUnavailable", err)
	}
	close(f.namesHeld)
	hurried.Wait()
	f.namesHeld = nil

	l := NewLive(ctx, f, Options{Wait: time.Minute})
	if err := l.Build(ctx, 1); err != nil {
		t.Fatal(err)
	}
	for _, loc := range []*alpha.Locale{fr, defaultLocale} {
		page, err := l.SearchCollection(ctx, "c", nowAt(ctx, l, "c"), loc, q)
		if err != nil {
			t.Fatalf("%s: %v", loc.Tag(), err)
		}
		if page.Total != 2 || fmt.Sprint(page.IDs) != "[1 2]" {
			t.Errorf("%s: %+v, want titles 1 and 2", loc.Tag(), page)
		}
	}
}

// TestLiveFile checks that a build from the store writes the index file,
// that the next start reads it instead of building while the store is
// at the file's version, and builds from the store once the store moved on.
func TestLiveFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index")
	f := &fakeFeed{titlesV: 3, state: kb.SelectionState{Packages: []int64{1}}}
	start := func() *Live {
		l := NewLive(ctx, f, Options{Inline: true, File: path})
		if err := l.Build(ctx, 0); err != nil {
			t.Fatal(err)
		}
		page, err := l.SearchCollection(ctx, "c", nowAt(ctx, l, "c"), defaultLocale, kb.PubQuery{Search: "two", Page: kb.Page{Count: 5, Number: 1}})
		if err != nil || fmt.Sprint(page.IDs) != "[2]" {
			t.Fatalf("search after the start: %+v %v, want title 2", page, err)
		}
		return l
	}
	start()
	if _, err := os.Stat(path); err != nil || f.feeds != 1 {
		t.Fatalf("after a build from the store: file %v, %d feeds", err, f.feeds)
	}
	start()
	if f.feeds != 1 {
		t.Fatalf("a start with a current file read the store (%d feeds)", f.feeds)
	}
	f.titlesV = 4
	start()
	if f.feeds != 2 {
		t.Fatalf("a start with an older file did not build from the store (%d feeds)", f.feeds)
	}
	start()
	if f.feeds != 2 {
		t.Fatalf("the file was not written again at the new version (%d feeds)", f.feeds)
	}
	// Another database at the same version (made anew at the same path).
	f.print = " of another database"
	start()
	if f.feeds != 3 {
		t.Fatalf("a start over another store at the file's version read the file (%d feeds)", f.feeds)
	}
}

// TestLiveFileCatchUp starts a live index over a store from a file older
// than the store: it is read and caught up with the titles changed since
// (the same answers as an index built anew), unless the store's records
// of the changes are gone or the file is of another database, when the
// index is built from the store.
func TestLiveFileCatchUp(t *testing.T) {
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	s := testdb.OpenDSN(t, dsn)
	db := testdb.DB(t, dsn)
	if _, err := gen.Generate(ctx, s, gen.Options{Titles: 300, Seed: 4}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Customers(ctx, s, 4, []gen.CustomerSpec{{ID: "c1", Holdings: 100}}, nil); err != nil {
		t.Fatal(err)
	}
	c, err := s.Customer(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	cp, err := s.CreateCustomPackage(ctx, "c1", c.VendorID, kb.CustomPackage{Name: "Local", ContentType: kb.ContentEBook})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "index")
	start := func(what string, file string) *built {
		t.Helper()
		l := NewLive(ctx, s, Options{Inline: true, File: file})
		if err := l.Build(ctx, 0); err != nil {
			t.Fatal(err)
		}
		l.Wait()
		fresh := NewLive(ctx, s, Options{Inline: true})
		q := kb.TitleQuery{Search: "journal", Type: kb.SearchContains, Page: kb.Page{Count: 30, Number: 1}}
		pq := kb.PubQuery{Search: "journal", Type: kb.SearchContains, Facets: true, Page: kb.Page{Count: 30, Number: 1}}
		ids, total, err1 := l.SearchTitles(ctx, "c1", nowAt(ctx, l, "c1"), q)
		wids, wtotal, err2 := fresh.SearchTitles(ctx, "c1", nowAt(ctx, fresh, "c1"), q)
		page, err3 := l.SearchCollection(ctx, "c1", nowAt(ctx, l, "c1"), defaultLocale, pq)
		wpage, err4 := fresh.SearchCollection(ctx, "c1", nowAt(ctx, fresh, "c1"), defaultLocale, pq)
		if g, w := fmt.Sprint(total, ids, err1, page.Total, page.IDs, facetString(page.Counts, 0), err3),
			fmt.Sprint(wtotal, wids, err2, wpage.Total, wpage.IDs, facetString(wpage.Counts, 0), err4); g != w {
			t.Errorf("%s: started %s, built anew %s", what, g, w)
		}
		return l.cur.Load()
	}
	change := func(name string) {
		t.Helper()
		if _, err := s.CreateCustomTitle(ctx, "c1", c.VendorID, cp, kb.CustomTitle{TitleFields: kb.TitleFields{Name: name, PubType: kb.ResourceJournal}}); err != nil {
			t.Fatal(err)
		}
	}
	if b := start("the first start", path); b.d != nil {
		t.Fatal("the first start has a delta")
	}
	base := func() int64 {
		b, _ := os.ReadFile(path)
		return int64(len(b))
	}()
	change("Journal of Catching Up")
	change("Caught Up Journal")
	if b := start("an older file", path); b.d == nil || b.d.x.Len() != 2 || b.base >= b.version {
		t.Errorf("an older file: want its index caught up with the two titles changed since")
	}
	// A start in the background from an older file whose delta should
	// be folded builds a new index.
	defer func(n int) { foldDelta = n }(foldDelta)
	foldDelta = 1
	bg := NewLive(ctx, s, Options{File: path})
	bg.Start()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		bg.workMu.Lock()
		b := bg.cur.Load()
		bg.workMu.Unlock()
		if b != nil && b.d == nil && !bg.building.Load() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a start from a file with a delta to fold did not fold it within a minute")
		}
	}
	bg.Wait()
	foldDelta = 2000
	if base == 0 {
		t.Fatal("no file written")
	}
	// The records of the changes gone: built from the store (and the
	// file written again).
	change("Journal Past the Records")
	if _, err := db.Exec(`DELETE FROM title_changes`); err != nil {
		t.Fatal(err)
	}
	if b := start("a file older than the records", path); b.d != nil {
		t.Errorf("a file older than the records: want an index built from the store")
	}
	// Another database (the same data, a new identity).
	change("Journal of Another Database")
	if _, err := db.Exec(`UPDATE versions SET n = n + 1 WHERE name = 'store'`); err != nil {
		t.Fatal(err)
	}
	if b := start("a file of another database", path); b.d != nil {
		t.Errorf("a file of another database: want an index built from the store")
	}
}

// TestLiveViewsBounded asks for many locales in turn: views are built one
// at a time, at most maxViews are kept, and the default locale's stays.
func TestLiveViewsBounded(t *testing.T) {
	ctx := context.Background()
	f := &fakeFeed{titlesV: 1, state: kb.SelectionState{Packages: []int64{1}}}
	l := NewLive(ctx, f, Options{})
	if err := l.Build(ctx, 1); err != nil {
		t.Fatal(err)
	}
	q := kb.PubQuery{Search: "alpha", Page: kb.Page{Count: 10, Number: 1}}
	for i := range 400 {
		tag := []string{"fr", "de", "es", "it", "nl", "sv", "pl", "fi"}[i%8]
		loc, err := alpha.ParseLocale(tag)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.SearchCollection(ctx, "c", nowAt(ctx, l, "c"), loc, q); err != nil {
			t.Fatal(err)
		}
		l.viewMu.Lock()
		n, building := len(l.views), 0
		for _, e := range l.views {
			if e.view == nil {
				building++
			}
		}
		l.viewMu.Unlock()
		if n > maxViews || building > 1 {
			t.Fatalf("%d views kept, %d building", n, building)
		}
		time.Sleep(time.Millisecond)
	}
	l.Wait()
	if e := l.views[defaultLocale.Tag()]; e == nil || e.view == nil {
		t.Error("the default locale's view was let go")
	}
}

// FeedChanges cannot name the changes: the index is rebuilt after each.
func (f *fakeFeed) FeedChanges(context.Context, int64, int, func(kb.IndexedPackage), func(kb.IndexedTitle)) (int64, []int64, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.titlesV, nil, false, nil
}
