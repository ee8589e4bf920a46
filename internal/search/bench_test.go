package search

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/sqlite"
)

var benchCustomer = flag.String("search-bench-customer", "bench", "the customer the search benchmarks search as (BenchmarkCatchUp changes one of its custom titles)")

var benchDelta = flag.Int("search-bench-delta", 1, "BenchmarkCatchUp: how many of the customer's custom titles each round renames (made on first use)")

var benchDB = flag.String("search-bench-db", filepath.Join(os.TempDir(), "kbserver-search-300k.db"),
	"the SQLite knowledge base the search benchmarks read; generated (300,000 titles, seed 1, customer bench) when absent")

// benchKB opens the benchmark's knowledge base, generating it on first use.
func benchKB(b *testing.B) (*sqlite.Store, *sql.DB) {
	b.Helper()
	ctx := context.Background()
	_, statErr := os.Stat(*benchDB)
	s, err := sqlite.Open(ctx, *benchDB)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if os.IsNotExist(statErr) {
		b.Logf("generating %s (300,000 titles): a few minutes, once", *benchDB)
		if _, err := gen.Generate(ctx, s, gen.Options{Titles: 300_000, Seed: 1}, nil); err != nil {
			os.Remove(*benchDB)
			b.Fatal(err)
		}
		if _, err := gen.Customers(ctx, s, 1, []gen.CustomerSpec{{ID: "bench", Holdings: 100_000}}, nil); err != nil {
			os.Remove(*benchDB)
			b.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", "file:"+*benchDB+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return s, db
}

// heapInUse returns the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkBuild measures building the index from the benchmark knowledge
// base's titles (read from the database once, outside the timing) and
// reports the heap the index keeps per title.
func BenchmarkBuild(b *testing.B) {
	s, _ := benchKB(b)
	start := time.Now()
	titles, pkgs, err := readKB(context.Background(), s)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("read %d titles from SQLite in %v", len(titles), time.Since(start))
	var x *Index
	for b.Loop() {
		x = nil
		before := heapInUse()
		x = buildIndex(titles, pkgs)
		b.StopTimer()
		after := heapInUse()
		b.ReportMetric(float64(after-before)/float64(x.Len()), "heap-B/title")
		b.StartTimer()
	}
	b.ReportMetric(float64(x.Len()), "titles")
	b.Log(x.sizeReport())
}

// benchSearches are broad searches (a common word, a one-letter prefix:
// tens of thousands of matches) and narrow ones (a rare word, a phrase,
// an exact name or identifier).
var benchSearches = []struct {
	name string
	q    kb.TitleQuery
}{
	{"broad/contains-journal", kb.TitleQuery{Search: "journal", Type: kb.SearchContains}},
	{"broad/contains-journal-byname", kb.TitleQuery{Search: "journal", Type: kb.SearchContains, OrderBy: kb.OrderName}},
	{"broad/any-journal-review", kb.TitleQuery{Search: "journal review", Type: kb.SearchAny}},
	{"broad/beginswith-j", kb.TitleQuery{Search: "j", Type: kb.SearchBeginsWith}},
	{"broad/exactphrase-journal-of", kb.TitleQuery{Search: "journal of", Type: kb.SearchExactPhrase}},
	{"broad/proximity-of-journal", kb.TitleQuery{Search: "of journal", Type: kb.SearchProximity}},
	{"broad/advanced", kb.TitleQuery{Search: "(oncology OR neurology OR histor*) AND journal NOT europe", Type: kb.SearchAdvanced}},
	{"broad/publisher-contains-press", kb.TitleQuery{Search: "press", Type: kb.SearchContains, Field: kb.FieldPublisher}},
	{"broad/subject-contains-medicine", kb.TitleQuery{Search: "medicine", Type: kb.SearchContains, Field: kb.FieldSubject}},
	{"broad/subject-any-medical-general", kb.TitleQuery{Search: "MEDICAL / General", Type: kb.SearchAny, Field: kb.FieldSubject}},
	{"broad/publisher-any-university-press", kb.TitleQuery{Search: "university press", Type: kb.SearchAny, Field: kb.FieldPublisher}},
	{"broad/contains-journal-selected", kb.TitleQuery{Search: "journal", Type: kb.SearchContains, Selection: kb.SelectionSelected}},
	{"narrow/contains-cardiology", kb.TitleQuery{Search: "cardiology", Type: kb.SearchContains}},
	{"narrow/exactphrase-marine-biology", kb.TitleQuery{Search: "marine biology", Type: kb.SearchExactPhrase}},
	{"narrow/exactmatch", kb.TitleQuery{Search: "marine biology advances", Type: kb.SearchExactMatch}},
	{"narrow/isxn", kb.TitleQuery{Search: "0889-98", Type: kb.SearchContains, Field: kb.FieldISXN}},
}

// BenchmarkTitleSearch runs each search through the index and through the
// SQLite store's Titles (the baseline, in the same run) over the
// benchmark knowledge base, first page of 25, and reports the median and
// 99th percentile latency and the total. The store's time includes
// reading the page's title rows, which the index leaves to its caller.
func BenchmarkTitleSearch(b *testing.B) {
	s, db := benchKB(b)
	ctx := context.Background()
	x, err := loadIndex(ctx, s)
	if err != nil {
		b.Fatal(err)
	}
	sel, err := selectedSet(ctx, db, x, *benchCustomer, 0)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range benchSearches {
		q := c.q
		q.Page = kb.Page{Count: 25, Number: 1}
		run := func(b *testing.B, search func() (int, error)) {
			b.ReportAllocs()
			var lat []time.Duration
			total := 0
			for b.Loop() {
				start := time.Now()
				n, err := search()
				lat = append(lat, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				total = n
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(total), "total")
		}
		b.Run("index/"+c.name, func(b *testing.B) {
			run(b, func() (int, error) {
				r, err := x.Titles(*benchCustomer, q, sel)
				return r.Total, err
			})
		})
		b.Run("store/"+c.name, func(b *testing.B) {
			run(b, func() (int, error) {
				l, err := s.Titles(ctx, *benchCustomer, q)
				return l.Total, err
			})
		})
	}
}

// BenchmarkBuildFromStore measures what a server start without an index
// file costs: the index built from the store's feed, then its English
// view from the store's names, as Live.Build does.
func BenchmarkBuildFromStore(b *testing.B) {
	s, _ := benchKB(b)
	ctx := context.Background()
	for b.Loop() {
		start := time.Now()
		x, err := loadIndex(ctx, s)
		if err != nil {
			b.Fatal(err)
		}
		index := time.Since(start)
		if _, err := x.NewView(ctx, defaultLocale, s.FeedNames); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(index.Seconds(), "index-s")
		b.ReportMetric((time.Since(start) - index).Seconds(), "view-s")
		b.ReportMetric(float64(x.Len()), "titles")
	}
}

// BenchmarkCatchUp measures what a change of a custom title costs the
// title searches that follow it: the change itself (the store's write),
// the first search after it (the index catches up: the changed titles
// read again and a delta built, then the search over both) and a second
// search (over the index and its delta), against the same search of the
// index built anew (no delta); then the same for a publication search
// with facets (whose first search after the change places the delta in
// the view and derives the customer's collection again). The knowledge
// base keeps one custom package, "Delta benchmark", with the custom
// titles that each round renames (one, or -search-bench-delta: a larger
// change, one write a title, caught up with at once).
func BenchmarkCatchUp(b *testing.B) {
	s, cust, c, pkg, titles := benchChange(b, *benchDelta)
	ctx := context.Background()
	l := NewLive(ctx, s, Options{Inline: true})
	start := time.Now()
	if err := l.Build(ctx, 0); err != nil {
		b.Fatal(err)
	}
	b.Logf("index of %d titles built in %v", l.cur.Load().x.Len(), time.Since(start))
	q := kb.TitleQuery{Search: "journal", Type: kb.SearchContains, Page: kb.Page{Count: 25, Number: 1}}
	search := func() time.Duration {
		t0 := time.Now()
		if _, _, err := l.SearchTitles(ctx, cust, nowAt(ctx, l, cust), q); err != nil {
			b.Fatalf("search: %v", err)
		}
		return time.Since(t0)
	}
	pq := kb.PubQuery{Search: "journal", Type: kb.SearchContains, Facets: true, Page: kb.Page{Count: 25, Number: 1}}
	pub := func() time.Duration {
		t0 := time.Now()
		if _, err := l.SearchCollection(ctx, cust, nowAt(ctx, l, cust), defaultLocale, pq); err != nil {
			b.Fatalf("publication search: %v", err)
		}
		return time.Since(t0)
	}
	search() // the customer's selection read
	pub()    // its collection derived
	var base, write, first, second, pubBase, pubFirst, pubSecond []time.Duration
	for i := 0; b.Loop(); i++ {
		base = append(base, search())
		pubBase = append(pubBase, pub())
		t0 := time.Now()
		for _, title := range titles {
			name := fmt.Sprintf("Delta Benchmark Journal %d %d", title, i%2) // unique: the title's id
			if err := s.UpdateResource(ctx, cust, c.VendorID, pkg, title, kb.ResourceUpdate{Selected: true,
				Title: &kb.TitleFields{Name: name, PubType: kb.ResourceJournal}}); err != nil {
				b.Fatal(err)
			}
		}
		write = append(write, time.Since(t0)/time.Duration(len(titles)))
		first = append(first, search())
		second = append(second, search())
		pubFirst = append(pubFirst, pub())
		pubSecond = append(pubSecond, pub())
		if d := l.cur.Load().d; d == nil || d.x.Len() != len(titles) {
			b.Fatalf("the search did not catch up with a delta of %d titles", len(titles))
		}
		b.StopTimer()
		// The next round starts from an index without a delta, as after
		// a rebuild (the one title's name aside): only what the change
		// costs is measured.
		cur := l.cur.Load()
		l.cur.Store(&built{x: cur.x, base: cur.base, version: cur.version})
		search() // the selection read and the collection derived for it
		pub()
		b.StartTimer()
	}
	for _, m := range []struct {
		unit string
		lat  []time.Duration
	}{{"base-ms", base}, {"write-ms", write} /* one title's */, {"first-ms", first}, {"second-ms", second},
		{"pub-base-ms", pubBase}, {"pub-first-ms", pubFirst}, {"pub-second-ms", pubSecond}} {
		sort.Slice(m.lat, func(i, j int) bool { return m.lat[i] < m.lat[j] })
		b.ReportMetric(float64(m.lat[len(m.lat)/2].Microseconds())/1000, m.unit)
	}
}

// benchChange opens the benchmark's knowledge base and returns the
// customer that searches, and its custom package and n of its titles
// that a benchmark changes.
func benchChange(b *testing.B, n int) (s *sqlite.Store, cust string, c kb.Customer, pkg int64, titles []int64) {
	b.Helper()
	s, _ = benchKB(b)
	cust = *benchCustomer
	c, err := s.Customer(context.Background(), cust)
	if err != nil {
		b.Fatal(err)
	}
	pkg, titles = benchCustomTitles(b, s, cust, c.VendorID, n)
	return s, cust, c, pkg, titles
}

// benchCustomTitles returns the custom package "Delta benchmark" of the
// customer and n of its custom titles, made on first use.
func benchCustomTitles(b *testing.B, s *sqlite.Store, cust string, vendor int64, n int) (pkg int64, titles []int64) {
	b.Helper()
	ctx := context.Background()
	ps, err := s.Packages(ctx, cust, kb.PackageQuery{Search: "Delta benchmark", Page: kb.Page{Count: 10, Number: 1}})
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range ps.Packages {
		if p.Name == "Delta benchmark" {
			pkg = p.ID
		}
	}
	if pkg == 0 {
		if pkg, err = s.CreateCustomPackage(ctx, cust, vendor, kb.CustomPackage{Name: "Delta benchmark", ContentType: kb.ContentEJournal}); err != nil {
			b.Fatal(err)
		}
	}
	for page := 1; len(titles) < n; page++ {
		ts, err := s.Titles(ctx, cust, kb.TitleQuery{PackageID: pkg, VendorID: vendor, Page: kb.Page{Count: kb.MaxCount, Number: page}})
		if err != nil {
			b.Fatalf("the titles of package %d: %v", pkg, err)
		}
		for _, t := range ts.Titles {
			titles = append(titles, t.ID)
		}
		if len(ts.Titles) < kb.MaxCount {
			break
		}
	}
	titles = titles[:min(n, len(titles))]
	for k := len(titles); k < n; k++ {
		title, err := s.CreateCustomTitle(ctx, cust, vendor, pkg, kb.CustomTitle{TitleFields: kb.TitleFields{
			Name: fmt.Sprintf("Delta Benchmark Journal %d new", k), PubType: kb.ResourceJournal}})
		if err != nil {
			b.Fatal(err)
		}
		titles = append(titles, title)
	}
	return pkg, titles
}

// BenchmarkStartAfterChange measures a start after a change of a custom
// title: the index read from its file, written by a build from the store
// before the change, and caught up with the change; against that build
// (index and English view from the store), timed once in the same run.
func BenchmarkStartAfterChange(b *testing.B) {
	s, cust, c, pkg, titles := benchChange(b, 1)
	title := titles[0]
	ctx := context.Background()
	file := filepath.Join(b.TempDir(), "index")
	start := time.Now()
	l := NewLive(ctx, s, Options{Inline: true, File: file})
	if err := l.Build(ctx, 0); err != nil {
		b.Fatal(err)
	}
	l.Wait()
	build := time.Since(start)
	l = nil
	var starts []time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		if err := s.UpdateResource(ctx, cust, c.VendorID, pkg, title, kb.ResourceUpdate{Selected: true,
			Title: &kb.TitleFields{Name: fmt.Sprintf("Delta Benchmark Journal %d", i%2), PubType: kb.ResourceJournal}}); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		b.StartTimer()
		t0 := time.Now()
		l := NewLive(ctx, s, Options{Inline: true, File: file})
		if err := l.Build(ctx, 0); err != nil {
			b.Fatal(err)
		}
		starts = append(starts, time.Since(t0))
		if d := l.cur.Load().d; d == nil || d.x.Len() != 1 {
			b.Fatal("the start did not read the file and catch up with one title")
		}
		l.Wait()
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	b.ReportMetric(starts[len(starts)/2].Seconds(), "start-s")
	b.ReportMetric(build.Seconds(), "build-s")
}
