package sqlite_test

import (
	"cmp"
	"context"
	"flag"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/finder"
	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
	"github.com/kbserver/kbserver/internal/sqlite"
)

var searchDB = flag.String("search-db", "", "BenchmarkTitleSearch: search this existing knowledge base (e.g. bench/large.db) instead of generating the demo one")

// BenchmarkTitleSearch measures GET titles' store call (the title index's
// answer and the page's rows) for every search type over the demo
// knowledge base (100,000 titles, seed 1), reporting the median and 99th
// percentile latency of a rotation of queries. Set -benchtime to a count
// (e.g. -benchtime=300x) for stable percentiles.
func BenchmarkTitleSearch(b *testing.B) {
	ctx := context.Background()
	_, finder := openSearchDB(b)
	// The index is built before the timed searches.
	if err := finder.Index().Build(ctx, 0); err != nil {
		b.Fatal(err)
	}
	type words struct {
		field kb.SearchField
		terms []string
	}
	cases := []struct {
		typ kb.SearchType
		words
	}{
		{kb.SearchContains, words{kb.FieldTitleName, []string{"cardiology", "journal of", "ecolo", "history", "quantum information"}}},
		{kb.SearchAny, words{kb.FieldTitleName, []string{"oncology botany", "review", "robotics"}}},
		{kb.SearchExactMatch, words{kb.FieldTitleName, []string{"marine biology advances", "journal of journalism policy"}}},
		{kb.SearchBeginsWith, words{kb.FieldTitleName, []string{"journal of", "annals", "intro"}}},
		{kb.SearchProximity, words{kb.FieldTitleName, []string{"journal cardiology", "review economics"}}},
		{kb.SearchExactPhrase, words{kb.FieldTitleName, []string{"marine biology", "public health"}}},
		{kb.SearchAdvanced, words{kb.FieldTitleName, []string{"(oncology OR neurology) AND journal", "histor* NOT europe"}}},
		{kb.SearchContains, words{kb.FieldPublisher, []string{"press", "university"}}},
		{kb.SearchContains, words{kb.FieldSubject, []string{"medicine", "computers"}}},
		{kb.SearchContains, words{kb.FieldISXN, []string{"0889-98", "97899932"}}},
		{kb.SearchExactMatch, words{kb.FieldISXN, []string{"0889-9878", "9789993219736"}}},
	}
	for _, c := range cases {
		name := c.typ.String()
		if c.field != kb.FieldTitleName {
			name = c.field.String() + "-" + name
		}
		b.Run(name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				q := kb.TitleQuery{Search: c.terms[i%len(c.terms)], Field: c.field, Type: c.typ, Page: kb.Page{Count: 25, Number: 1}}
				start := time.Now()
				if _, err := finder.Titles(ctx, "bench", q); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// BenchmarkNameSearch measures the vendor and package name searches
// (matched by the search engine, then read by the store) over the
// knowledge base of -search-db (the generated 3M one has 20,000 packages),
// or the demo one: words in relevance order, substrings and keyword
// searches in name order, one sub-benchmark a term, reporting the median
// and 99th percentile latency; beside them, the package list without a
// search.
func BenchmarkNameSearch(b *testing.B) {
	ctx := context.Background()
	s, finder := openSearchDB(b)
	page := kb.Page{Count: 25, Number: 1}
	// The engine's part alone: the names in memory, and a word's test of
	// every package name.
	b.Run("engine-match", func(b *testing.B) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var l kb.NameList
		if _, err := s.FeedEntityNames(ctx, l.AddVendor, l.AddPackage); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			l.Match(kb.NameSearch{Kind: kb.NamePackages, Search: "journal"})
		}
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "names-MB")
	})
	for _, c := range []struct {
		name  string
		terms []string
		run   func(search string) error
	}{
		// The list without a search: the floor of a search's cost.
		{"packages-no-search", []string{""}, func(search string) error {
			_, err := finder.Packages(ctx, "bench", kb.PackageQuery{Search: search, Page: page})
			return err
		}},
		{"packages", []string{"journal", "med", "science collection", "zz", "a"}, func(search string) error {
			_, err := finder.Packages(ctx, "bench", kb.PackageQuery{Search: search, Page: page})
			return err
		}},
		// The v2 lists' other matches: a broad substring matches most
		// names.
		{"packages-contains", []string{"a", "ourn", "zz"}, func(search string) error {
			_, err := finder.Packages(ctx, "bench", kb.PackageQuery{Search: search, Match: kb.PackageMatchContains, Page: page})
			return err
		}},
		{"packages-keyword", []string{"press", "a", "zz"}, func(search string) error {
			_, err := finder.Packages(ctx, "bench", kb.PackageQuery{Search: search, Keyword: true, Page: page})
			return err
		}},
		{"vendors", []string{"press", "uni", "zz"}, func(search string) error {
			_, err := finder.Vendors(ctx, "bench", kb.VendorQuery{Search: search, Page: page})
			return err
		}},
	} {
		for _, term := range c.terms {
			b.Run(c.name+"/"+strings.ReplaceAll(cmp.Or(term, "-"), " ", "_"), func(b *testing.B) {
				// The engine reads the names at the first search.
				if err := c.run(term); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				lat := make([]time.Duration, 0, b.N)
				for i := 0; i < b.N; i++ {
					start := time.Now()
					if err := c.run(term); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(start))
				}
				sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
			})
		}
	}
}

// openSearchDB opens the knowledge base of -search-db, or generates the
// demo one (100,000 titles, seed 1), with a customer "bench" and the
// search engine that answers its searches (inline); the store closes when
// the benchmark ends.
func openSearchDB(b *testing.B) (*sqlite.Store, *finder.Service) {
	b.Helper()
	ctx := context.Background()
	path := *searchDB
	if path == "" {
		path = filepath.Join(b.TempDir(), "demo.db")
	}
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	if *searchDB == "" {
		if _, err := gen.Generate(ctx, s, gen.Options{Titles: 100_000, Seed: 1}, nil); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.AddCustomer(ctx, "bench", ""); err != nil && kb.ErrorCode(err) != kb.CodeDuplicate {
		b.Fatal(err)
	}
	return s, finder.New(ctx, s, search.Options{Inline: true})
}
