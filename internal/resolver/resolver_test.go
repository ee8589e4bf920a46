package resolver_test

import (
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/resolver"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// events is a kb.ResolverRecorder that keeps what it is given.
type events struct {
	mu  sync.Mutex
	all []kb.ResolverEvent
}

func (e *events) RecordResolution(ev kb.ResolverEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.all = append(e.all, ev)
}

// TestRecord: each resolution is recorded with its best result, or with
// what was sought when nothing gave the full text; the console's quiet
// tests and citations with nothing to match are not.
func TestRecord(t *testing.T) {
	ctx := t.Context()
	st := storetest.Searched(ctx, testdb.Open(t))
	if _, err := st.AddCustomer(ctx, "lib", "Library"); err != nil {
		t.Fatal(err)
	}
	res, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: "V", PackageName: "P", ContentType: kb.ContentEJournal},
		storetest.RowsOf(1, func(int) kb.ImportRow {
			var r kb.ImportRow
			r.Line = 1
			r.KBART[0], r.KBART[1], r.KBART[3], r.KBART[9], r.KBART[16] = "Journal", "0317-8471", "2001", "https://example.com/j", "serial"
			return r
		}))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetPackageState(ctx, "lib", res.PackageID, kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	rec := &events{}
	day := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	r := resolver.New(storetest.SearchOf(ctx, st), storetest.Raw(st), rec).WithClock(func() time.Time { return day })
	resolve := func(ctx2 func() kb.Citation, quiet bool) {
		c := ctx2()
		cx := ctx
		if quiet {
			cx = resolver.Quietly(ctx)
		}
		if _, err := r.Resolve(cx, "lib", c); err != nil {
			t.Fatal(err)
		}
	}
	citation := func(q string) func() kb.Citation {
		return func() kb.Citation {
			v, _ := url.ParseQuery(q)
			c, err := kb.ParseCitation(v, day)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
	}
	resolve(citation("issn=0317-8471&date=2005&sid=db1"), false)
	resolve(citation("issn=0317-8471&date=1990&title=Journal"), false)
	resolve(citation("issn=0317-8471&date=2005"), true)
	resolve(citation("date=2005"), false)
	if len(rec.all) != 2 {
		t.Fatalf("recorded %d events, want 2: %+v", len(rec.all), rec.all)
	}
	first, second := rec.all[0], rec.all[1]
	if !first.FullText || first.Source != "db1" || first.PackageID != res.PackageID || first.TitleID == 0 || first.SoughtID != "" || !first.Time.Equal(day) {
		t.Errorf("a full-text resolution recorded as %+v", first)
	}
	if second.FullText || second.SoughtID != "0317-8471" || second.SoughtTitle != "Journal" || second.TitleID != first.TitleID {
		t.Errorf("a resolution without full text recorded as %+v", second)
	}
}

// TestManySameName: a title cited by a name that more titles of the
// knowledge base share than the resolver keeps is still found when the
// customer holds a title of that name: the customer's selected titles
// are matched before the cap.
func TestManySameName(t *testing.T) {
	ctx := t.Context()
	st := storetest.Searched(ctx, testdb.Open(t))
	if _, err := st.AddCustomer(ctx, "lib", "Library"); err != nil {
		t.Fatal(err)
	}
	row := func(i int) kb.ImportRow {
		var r kb.ImportRow
		r.Line = i + 1
		r.KBART[0], r.KBART[9], r.KBART[16] = "Annual Report", "https://example.com/r"+strconv.Itoa(i), "serial"
		r.KBART[11] = "report-" + strconv.Itoa(i)
		return r
	}
	if _, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: "V", PackageName: "All reports", ContentType: kb.ContentEJournal},
		storetest.RowsOf(2*50, row)); err != nil {
		t.Fatal(err)
	}
	// The library's own report: a custom title, the newest of the name.
	cust, err := st.Customer(ctx, "lib")
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := st.CreateCustomPackage(ctx, "lib", cust.VendorID, kb.CustomPackage{Name: "Our reports", ContentType: kb.ContentEJournal})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateCustomTitle(ctx, "lib", cust.VendorID, pkg, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Annual Report", PubType: kb.ResourceJournal, URL: "https://example.com/ours"}}); err != nil {
		t.Fatal(err)
	}
	r := resolver.New(storetest.SearchOf(ctx, st), storetest.Raw(st), nil)
	c, err := kb.ParseCitation(url.Values{"title": {"annual report"}}, r.Today())
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Resolve(ctx, "lib", c)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 1 || res.Results[0].Resource.PackageID != pkg || !res.FullText() {
		t.Errorf("resolved to %+v, want the one report the library holds", res.Results)
	}
}
