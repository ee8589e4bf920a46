package pages_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/finder"
	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/resolver"
	"github.com/kbserver/kbserver/internal/search"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

var (
	resolverDB       = flag.String("resolver-db", "", "database of BenchmarkResolve (SQLite file or postgres:// URL), such as one kbserver gen made; without it the demo's knowledge base is generated into a new store")
	resolverCustomer = flag.String("resolver-customer", "big", "the customer of -resolver-db whose collection BenchmarkResolve resolves over")
)

// BenchmarkResolve times the link resolver over a generated knowledge
// base: 1,000 citations drawn from the customer's collection (by ISSN with
// a date inside the coverage and a DOI, by ISSN before the coverage, by
// ISBN, by title alone, and unknown ISSNs), resolved in process
// (resolver.Service), through the server's handler chain as JSON and as
// the HTML menu (no network), and over a loopback HTTP connection. The
// baseline is the publication search of the same identifier through the
// search service (finder.Publications, 25 records): the closest thing the
// server did before. Each case reports its median and 99th percentile in
// milliseconds:
//
//	go test -run X -bench BenchmarkResolve -benchtime 2000x ./internal/httpapi/pages -args -resolver-db large.db -resolver-customer big
func BenchmarkResolve(b *testing.B) {
	ctx := context.Background()
	dsn, custID := *resolverDB, *resolverCustomer
	profile := kb.ProfileID{CustomerID: custID, GroupID: "bench", ProfileID: "resolver"}
	if dsn == "" {
		dsn = testdb.NewDSN(b)
		custID, profile.CustomerID = "demo", "demo"
	}
	st := storetest.Searched(b.Context(), testdb.OpenDSN(b, dsn))
	if _, err := st.LookupProfile(ctx, kb.ProfileID{CustomerID: "demo", GroupID: "main", ProfileID: "az"}); custID == "demo" && kb.ErrorCode(err) == kb.CodeNotFound {
		demoKB(ctx, b, st, kb.ProfileID{CustomerID: "demo", GroupID: "main", ProfileID: "az"})
	}
	if _, err := st.LookupProfile(ctx, profile); kb.ErrorCode(err) == kb.CodeNotFound {
		if err := st.SaveProfile(ctx, kb.Profile{ID: profile, Guest: true}); err != nil {
			b.Fatal(err)
		}
	} else if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	fs := finder.New(ctx, st, search.Options{})
	if err := fs.Index().Build(ctx, 0); err != nil {
		b.Fatal(err)
	}
	b.Logf("index built in %v", time.Since(start).Round(time.Millisecond))
	queries := citations(ctx, b, fs, custID)
	res := resolver.New(fs, storetest.Raw(st), nil)
	matched, full := 0, 0
	for _, q := range queries {
		c, _ := kb.ParseCitation(q, res.Today())
		ans, err := res.Resolve(ctx, custID, c)
		if err != nil {
			b.Fatal(err)
		}
		if len(ans.Results) > 0 {
			matched++
		}
		if ans.FullText() {
			full++
		}
	}
	b.Logf("%d citations: %d matched a held title, %d found the full text", len(queries), matched, full)
	h := httpapi.NewServer(fs, httpapi.Deps{Store: storetest.Raw(st), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	path := "/openurl/" + profile.String() + "?"
	today := res.Today()
	loc, _ := alpha.ParseLocale("en")
	timed := func(b *testing.B, one func(q url.Values) error) {
		var times []time.Duration
		i := 0
		for b.Loop() {
			q := queries[i%len(queries)]
			i++
			t0 := time.Now()
			if err := one(q); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(t0))
		}
		slices.Sort(times)
		ms := func(p float64) float64 { return float64(times[int(p*float64(len(times)-1))].Microseconds()) / 1000 }
		b.ReportMetric(ms(0.5), "p50-ms")
		b.ReportMetric(ms(0.99), "p99-ms")
	}
	serve := func(accept string) func(q url.Values) error {
		return func(q url.Values) error {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodGet, path+q.Encode(), nil)
			req.Header.Set("Accept", accept)
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				return fmt.Errorf("%s: %d %s", q.Encode(), rec.Code, rec.Body)
			}
			return nil
		}
	}
	b.Run("baseline-publication-search", func(b *testing.B) {
		timed(b, func(q url.Values) error {
			id := q.Get("issn") + q.Get("isbn")
			if id == "" {
				id = q.Get("title")
			}
			_, err := fs.Publications(ctx, custID, loc, kb.PubQuery{Search: id, Field: kb.FieldISXN, Type: kb.SearchExactMatch, ByName: true, Page: kb.Page{Count: 25, Number: 1}})
			return err
		})
	})
	b.Run("in-process", func(b *testing.B) {
		timed(b, func(q url.Values) error {
			c, err := kb.ParseCitation(q, today)
			if err != nil {
				return err
			}
			_, err = res.Resolve(ctx, custID, c)
			return err
		})
	})
	b.Run("handler-json", func(b *testing.B) { timed(b, serve("application/json")) })
	b.Run("handler-html", func(b *testing.B) { timed(b, serve("text/html")) })
	b.Run("http-json", func(b *testing.B) {
		client := srv.Client()
		timed(b, func(q url.Values) error {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+path+q.Encode(), nil)
			req.Header.Set("Accept", "application/json")
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("%s: %d", q.Encode(), resp.StatusCode)
			}
			return err
		})
	})
}

// citations draws 1,000 citations from the customer's collection: pages
// of its titles in name order, spread over the whole list, each title
// cited by ISSN with a date inside its first resource's coverage and a
// DOI (half of them), by ISSN before its coverage (a tenth), by ISBN, or
// by title alone (a tenth); and a few unknown ISSNs.
func citations(ctx context.Context, b *testing.B, fs *finder.Service, custID string) []url.Values {
	loc, _ := alpha.ParseLocale("en")
	first, err := fs.Publications(ctx, custID, loc, kb.PubQuery{ByName: true, Page: kb.Page{Count: 1, Number: 1}})
	if err != nil || first.Total == 0 {
		b.Fatalf("the collection of %s: %d titles, %v", custID, first.Total, err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var out []url.Values
	for len(out) < 1000 {
		page := 1 + r.IntN(max(1, first.Total/100))
		res, err := fs.Publications(ctx, custID, loc, kb.PubQuery{ByName: true, Page: kb.Page{Count: 100, Number: page}})
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range res.Titles {
			if len(out) >= 1000 || len(t.Resources) == 0 {
				continue
			}
			q := url.Values{}
			var issn, isbn string
			for _, id := range t.Identifiers {
				switch {
				case id.Type == kb.IdentISSN && issn == "":
					issn = id.ID
				case id.Type == kb.IdentISBN && isbn == "":
					isbn = id.ID
				}
			}
			cov := kb.EffectiveCoverage(t.Resources[0])
			n := len(out)
			switch {
			case n%10 == 9:
				q.Set("title", t.Name)
			case issn != "":
				q.Set("issn", issn)
			case isbn != "":
				q.Set("isbn", isbn)
			default:
				q.Set("title", t.Name)
			}
			switch {
			case len(cov) > 0 && n%10 == 3:
				q.Set("date", "1900")
			case len(cov) > 0:
				q.Set("date", cov[0].Begin[:4])
			}
			if n%2 == 0 {
				q.Set("id", fmt.Sprintf("doi:10.9999/bench.%d", t.ID))
			}
			out = append(out, q)
		}
	}
	for i := 0; i < 20; i++ {
		out[i*50] = url.Values{"issn": {"0000-0019"}, "date": {"2005"}}
	}
	return out
}
