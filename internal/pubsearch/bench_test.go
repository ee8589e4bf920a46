package pubsearch

import (
	"context"
	"flag"
	"testing"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
	"github.com/kbserver/kbserver/internal/sqlite"
)

var (
	benchDB       = flag.String("pub-bench-db", "", "a SQLite knowledge base (kbserver gen) that BenchmarkPublicationSearch searches; the benchmark skips without one")
	benchCustomer = flag.String("pub-bench-customer", "big", "the customer whose collection BenchmarkPublicationSearch searches")
)

// BenchmarkPublicationSearch runs publication searches with facets (as
// kbbench's pf operation asks them) over a customer's collection answered
// from the title index: the index's part alone (SearchCollection) and
// the whole search (the facets' package names and the page's records read
// from the store).
func BenchmarkPublicationSearch(b *testing.B) {
	if *benchDB == "" {
		b.Skip("no -pub-bench-db given")
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, *benchDB)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	// The index file serve keeps beside the database, when it is there
	// and current, saves the build.
	live := search.NewLive(ctx, st, search.Options{Inline: true, File: *benchDB + ".search-index"})
	if err := live.Build(ctx, 0); err != nil {
		b.Fatal(err)
	}
	st.UseTitleIndex(live)
	loc, _ := alpha.ParseLocale("en")
	x := NewIndex(0, true)
	for _, word := range []string{"", "of", "the", "and", "journal", "review", "health", "quantum", "zzzz"} {
		q := kb.PubQuery{Search: word, Type: kb.SearchContains, Facets: true, Page: kb.Page{Count: 25, Number: 1}}
		b.Run("index/"+word, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok, err := st.SearchCollection(ctx, *benchCustomer, loc, q); err != nil || !ok {
					b.Fatal(ok, err)
				}
			}
		})
		b.Run("whole/"+word, func(b *testing.B) {
			for b.Loop() {
				if _, err := x.Search(ctx, st, *benchCustomer, loc, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
