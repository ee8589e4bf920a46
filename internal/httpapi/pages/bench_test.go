package pages_test

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/finder"
	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/pages"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

var azDB = flag.String("az-db", "",
	"database of BenchmarkAZPage (SQLite file or postgres:// URL), such as the one serve --demo made; without it the demo's knowledge base is generated into a new store (100,000 titles, about a minute)")

// BenchmarkAZPage times the patron A–Z page in the server (the handler
// chain, no network) on the demo knowledge base: 100,000 titles, the demo
// customer selecting one package in eight (about 25,000 titles), with
// the title index answering as serve runs it; and, as the baseline, the
// publication search each page makes, asked of the API (page/… and
// api/…). Each case reports its median and 99th percentile in
// milliseconds and the answer's size:
//
//	go test -run X -bench BenchmarkAZPage ./internal/httpapi/pages -args -az-db kbserver.db
func BenchmarkAZPage(b *testing.B) {
	ctx := context.Background()
	dsn := *azDB
	if dsn == "" {
		dsn = testdb.NewDSN(b)
	}
	st := storetest.Searched(b.Context(), testdb.OpenDSN(b, dsn))
	profile := kb.ProfileID{CustomerID: "demo", GroupID: "main", ProfileID: "az"}
	if _, err := st.LookupProfile(ctx, profile); kb.ErrorCode(err) == kb.CodeNotFound {
		demoKB(ctx, b, st, profile)
	} else if err != nil {
		b.Fatal(err)
	}
	finder := finder.New(ctx, st, search.Options{})
	if err := finder.Index().Build(ctx, 0); err != nil {
		b.Fatal(err)
	}
	h := httpapi.NewServer(finder, httpapi.Deps{Store: storetest.Raw(st), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	az := pages.AZPath(profile)
	api := "/pf/pfaccount/" + profile.String() + "/publications"
	type run struct{ name, path string }
	var runs []run
	for _, c := range []struct{ name, query, apiOrder string }{
		{"browse", "", "&orderby=titlename"},
		{"search-journal", "?search=journal", ""},
		{"search-narrow", "?search=nursing+review", ""},
		{"letter", "?alphamenufacet=B", "&orderby=titlename"},
		{"facet", "?search=journal&resourcetypefacet=book", ""},
		{"page-100", "?offset=100", "&orderby=titlename"},
	} {
		// The page, and as a baseline the publication search it makes,
		// through the API (facets, 25 records, JSON).
		q := strings.TrimPrefix(c.query, "?")
		runs = append(runs, run{"page/" + c.name, az + c.query},
			run{"api/" + c.name, api + "?includefacets=true&count=25" + c.apiOrder + "&" + q})
	}
	for _, c := range runs {
		b.Run(c.name, func(b *testing.B) {
			var times []time.Duration
			size := 0
			for b.Loop() {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodGet, c.path, nil)
				start := time.Now()
				h.ServeHTTP(rec, req)
				times = append(times, time.Since(start))
				if rec.Code != http.StatusOK {
					b.Fatalf("GET %s: %d", c.path, rec.Code)
				}
				size = rec.Body.Len()
			}
			slices.Sort(times)
			ms := func(q float64) float64 { return float64(times[int(q*float64(len(times)-1))].Microseconds()) / 1000 }
			b.ReportMetric(ms(0.5), "p50-ms")
			b.ReportMetric(ms(0.99), "p99-ms")
			b.ReportMetric(float64(size), "page-bytes")
		})
	}
}

// demoKB generates the knowledge base serve --demo makes: 100,000
// titles, and customer demo selecting one package in eight, with a guest
// profile.
func demoKB(ctx context.Context, b *testing.B, st kb.Store, profile kb.ProfileID) {
	sum, err := gen.Generate(ctx, st, gen.Options{Titles: 100_000, Seed: 1}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.AddCustomer(ctx, profile.CustomerID, "Demo Library"); err != nil {
		b.Fatal(err)
	}
	for i, id := range sum.PackageIDs {
		if i%8 == 0 {
			if err := st.SetPackageState(ctx, profile.CustomerID, id, kb.PackageState{Selected: true}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := st.SaveProfile(ctx, kb.Profile{ID: profile, Guest: true}); err != nil {
		b.Fatal(err)
	}
}
