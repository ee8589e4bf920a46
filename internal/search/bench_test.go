package search

import (
	"context"
	"database/sql"
	"flag"
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
	sel, err := selectedSet(ctx, db, x, "bench", 0)
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
				r, err := x.Titles("bench", q, sel)
				return r.Total, err
			})
		})
		b.Run("store/"+c.name, func(b *testing.B) {
			run(b, func() (int, error) {
				l, err := s.Titles(ctx, "bench", q)
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
