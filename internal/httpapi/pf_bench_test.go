package httpapi_test

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
)

var pfDB = flag.String("pf-db", "",
	"database of BenchmarkPublicationSearchHTTP (SQLite file or postgres:// URL), kept between runs: the knowledge base is generated only when it has no packages (default: a new store of the test run's kind, see package testdb)")

var pfTitles = flag.Int("pf-titles", 600_000,
	"titles of the generated knowledge base of BenchmarkPublicationSearchHTTP; the customer selects packages holding about 5/6 of them")

// BenchmarkPublicationSearchHTTP times GET publications with
// includefacets=true through the HTTP server for a customer whose
// collection holds about 500,000 titles (of a generated 600,000-title
// knowledge base): a broad search ("a", about half the collection), a
// medium one ("review"), a narrow one ("nursing"), a browse of the whole
// collection by title name, and the alpha menu. Each reports its median
// and 99th percentile in milliseconds. "rebuild" is the first search
// after a change of the customer's holdings on the default server, which
// waits for the rebuild of the in-memory collection; "after-change" the
// same search on a server that answers from the previous collection
// meanwhile (serve --pf-stale). Slow to set up (generating the knowledge base takes
// minutes): keep it between runs with -pf-db, e.g.
//
//	go test -run X -bench BenchmarkPublicationSearchHTTP -benchtime 100x ./internal/httpapi -args -pf-db /tmp/pf.db
func BenchmarkPublicationSearchHTTP(b *testing.B) {
	ctx := context.Background()
	st := openGeneratedKB(b, *pfDB, *pfTitles)
	if _, err := st.AddCustomer(ctx, "pf500k", ""); err == nil {
		selectFiveSixths(ctx, b, st)
	} else if kb.ErrorCode(err) != kb.CodeDuplicate {
		b.Fatal(err)
	}
	profile := kb.ProfileID{CustomerID: "pf500k", GroupID: "main", ProfileID: "az"}
	if err := st.SaveProfile(ctx, kb.Profile{ID: profile, Guest: true}); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.NewServer(storetest.SearchOf(ctx, st), httpapi.Deps{Store: storetest.Raw(st), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	defer srv.Close()
	get := func(b *testing.B, query string) int {
		resp, err := http.Get(srv.URL + "/pf/pfaccount/" + profile.String() + "/" + query)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			SearchResult struct{ Statistics struct{ TotalHits int } }
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("%s: %s, %v", query, resp.Status, err)
		}
		return out.SearchResult.Statistics.TotalHits
	}
	collection := get(b, "publications?count=1")
	b.Logf("the collection holds %d titles", collection)
	// The first title of the collection's first package: hiding and
	// showing it is a change of the customer's holdings.
	var firstPkg, firstTitle int64
	if l, err := st.CollectionPackages(ctx, "pf500k", kb.CollectionPackageQuery{Page: kb.Page{Count: 1, Number: 1}}); err != nil || len(l.Packages) == 0 {
		b.Fatalf("no package selected: %v", err)
	} else if tl, err := st.Titles(ctx, "pf500k", kb.TitleQuery{VendorID: l.Packages[0].VendorID, PackageID: l.Packages[0].ID, Page: kb.Page{Count: 1, Number: 1}}); err != nil || len(tl.Titles) == 0 {
		b.Fatalf("no title in package %d: %v", l.Packages[0].ID, err)
	} else {
		firstPkg, firstTitle = l.Packages[0].ID, tl.Titles[0].ID
	}
	// "rebuild": a search after a change of the customer's holdings
	// (the index reads the selection again at the new version).
	for _, c := range []struct {
		name string
		srv  *httptest.Server
	}{{"rebuild", srv}} {
		b.Run(c.name, func(b *testing.B) {
			var times []time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if err := st.SetResourceState(ctx, "pf500k", firstPkg, firstTitle, kb.ResourceState{Hidden: i%2 == 0}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				resp, err := http.Get(c.srv.URL + "/pf/pfaccount/" + profile.String() + "/publications?search=nursing&includefacets=true")
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				times = append(times, time.Since(start))
			}
			reportQuantiles(b, times)
		})
	}
	for _, c := range []struct{ name, query string }{
		{"broad", "publications?search=a&includefacets=true"},
		{"broad-by-name", "publications?search=a&includefacets=true&orderby=titlename"},
		{"medium", "publications?search=review&includefacets=true"},
		{"narrow", "publications?search=nursing&includefacets=true"},
		{"browse-by-name", "publications?includefacets=true&orderby=titlename"},
		{"alpha-menu", "alphabrowser/menu/en-US?menuid=2"},
	} {
		b.Run(c.name, func(b *testing.B) {
			hits := 0
			if c.name != "alpha-menu" {
				hits = get(b, c.query) // also warms the collection
			}
			var times []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				resp, err := http.Get(srv.URL + "/pf/pfaccount/" + profile.String() + "/" + c.query)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("%s: %s", c.query, resp.Status)
				}
				times = append(times, time.Since(start))
			}
			reportQuantiles(b, times)
			b.ReportMetric(float64(hits), "hits")
			b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
		})
	}
}

// selectFiveSixths selects whole packages for customer pf500k: 71% of
// the packages, in a fixed random order, which hold about 5/6 of the
// generator's titles (about 500,000 of 600,000; a title is in about two
// packages).
func selectFiveSixths(ctx context.Context, b *testing.B, st kb.Store) {
	var ids []int64
	for page := 1; ; page++ {
		l, err := st.Packages(ctx, "pf500k", kb.PackageQuery{Page: kb.Page{Count: kb.MaxCount, Number: page}})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range l.Packages {
			if !p.IsCustom {
				ids = append(ids, p.ID)
			}
		}
		if len(l.Packages) < kb.MaxCount {
			break
		}
	}
	slices.Sort(ids)
	r := rand.New(rand.NewPCG(1, 1))
	r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, id := range ids[:len(ids)*71/100] {
		if err := st.SetPackageState(ctx, "pf500k", id, kb.PackageState{Selected: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// reportQuantiles reports the median and 99th percentile of times in
// milliseconds.
func reportQuantiles(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	q := func(p float64) float64 {
		return float64(times[min(len(times)-1, int(p*float64(len(times))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}
