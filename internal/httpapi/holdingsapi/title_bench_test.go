package holdingsapi

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kbserver/kbserver/internal/answercache"
	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// benchKey is the API key of the benchmarks' customer "bench".
const benchKey = "bench-key"

// openBenchStore generates a small knowledge base (5,000 titles, seed 1:
// the demo's generator at a twentieth of its size) and sets up the customer
// "bench" as serve --demo sets up "demo": one package in eight selected,
// one of them hidden, and an EZProxy proxy. It also customises three
// resources of the first page of titles (coverage, embargo, proxy,
// user-defined fields), so that the answers carry every kind of field.
func openBenchStore(b *testing.B) kb.Store {
	b.Helper()
	ctx := context.Background()
	s := storetest.Searched(b.Context(), testdb.Open(b))
	sum, err := gen.Generate(ctx, s, gen.Options{Titles: 5000, Seed: 1}, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.AddCustomer(ctx, "bench", "Bench Library"); err != nil {
		b.Fatal(err)
	}
	if err := s.AddAPIKey(ctx, "bench", kb.HashAPIKey(benchKey), kb.Production); err != nil {
		b.Fatal(err)
	}
	for i, id := range sum.PackageIDs {
		if i%8 == 0 {
			if err := s.SetPackageState(ctx, "bench", id, kb.PackageState{Selected: true, Hidden: i == 8}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := s.AddProxy(ctx, "bench", kb.Proxy{ID: "EZProxy", Name: "EZProxy", URLMask: "https://proxy.example/login?url={targetURL}"}); err != nil {
		b.Fatal(err)
	}
	l, err := s.Titles(ctx, "bench", kb.TitleQuery{Page: kb.Page{Count: 25, Number: 1}})
	if err != nil {
		b.Fatal(err)
	}
	customised := 0
	for _, t := range l.Titles {
		if len(t.Resources) == 0 || t.Resources[0].PackageType != kb.PackageSelectable || customised == 3 {
			continue
		}
		customised++
		r := t.Resources[0]
		u := kb.ResourceUpdate{
			Selected:          true,
			CustomCoverage:    []kb.Coverage{{Begin: "2010-01-01", End: ""}, {Begin: "2001-01-01", End: "2005-12-31"}},
			CoverageStatement: "Issues <2001–2005> & from 2010",
			CustomEmbargo:     kb.Embargo{Unit: kb.EmbargoMonths, Value: 6},
			Proxy:             &kb.ProxyRef{ID: "EZProxy"},
			UserDefined:       [5]string{"Room 4", "", "Shelf \"B\"", "", ""},
		}
		if err := s.UpdateResource(ctx, "bench", r.VendorID, r.PackageID, r.TitleID, u); err != nil {
			b.Fatal(err)
		}
	}
	if customised == 0 {
		b.Fatal("no resource of a selectable package on the first page to customise")
	}
	return s
}

// discardWriter is an http.ResponseWriter that counts the bytes of the
// body and drops them.
type discardWriter struct {
	header http.Header
	n      int64
}

func (d *discardWriter) Header() http.Header { return d.header }

func (d *discardWriter) WriteHeader(int) {}

func (d *discardWriter) Write(p []byte) (int, error) {
	d.n += int64(len(p))
	return len(p), nil
}

// BenchmarkTitlePageJSON measures the encoding of one page of GET titles
// (25 and 100 titles with all their resources, read from a generated
// store): the conversion to the wire types and the JSON writing, as the
// handler answers it. MB/s is the JSON written.
func BenchmarkTitlePageJSON(b *testing.B) {
	s := openBenchStore(b)
	for _, count := range []int{25, 100} {
		l, err := s.Titles(context.Background(), "bench", kb.TitleQuery{Page: kb.Page{Count: count, Number: 1}})
		if err != nil {
			b.Fatal(err)
		}
		if len(l.Titles) != count {
			b.Fatalf("page of %d titles, want %d", len(l.Titles), count)
		}
		b.Run(fmt.Sprint(count), func(b *testing.B) {
			w := &discardWriter{header: http.Header{}}
			if err := writeTitleList(w, l, titleListForm); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(w.n)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if err := writeTitleList(w, l, titleListForm); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTitleGET measures GET /rm/rmaccounts/{custid}/titles/{kbid} of a
// title with three resources through the whole handler chain of the
// server (request log, API-key check, store, JSON) over a real store,
// without the network: built at every request with no answer cache
// ("nocache"), served from the cache ("hit": the API-key check, the
// version read and the kept bytes), and built with a cache that keeps
// nothing ("miss": the version read and the copy of the answer on top of
// the build). Profile it with -cpuprofile.
func BenchmarkTitleGET(b *testing.B) {
	s := openBenchStore(b)
	ctx := context.Background()
	var titleID int64
	for page := 1; titleID == 0; page++ {
		l, err := s.Titles(ctx, "bench", kb.TitleQuery{Page: kb.Page{Count: kb.MaxCount, Number: page}})
		if err != nil {
			b.Fatal(err)
		}
		if len(l.Titles) == 0 {
			b.Fatal("no title with three resources")
		}
		for _, t := range l.Titles {
			if len(t.Resources) == 3 {
				titleID = t.ID
				break
			}
		}
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	path := fmt.Sprintf("/rm/rmaccounts/bench/titles/%d", titleID)
	for _, bc := range []struct {
		name    string
		answers *answercache.Cache
	}{
		{"nocache", nil},
		{"hit", answercache.New(1 << 20)},
		{"miss", answercache.New(answercache.MaxShare)}, // keeps no answer: each is larger than its share
	} {
		b.Run(bc.name, func(b *testing.B) {
			mux := web.MountSplit(web.V2Prefix, logger, Routes(s, storetest.SearchOf(b.Context(), s), web.RequireCustomerKey(web.KeyAuth{Keys: s}), bc.answers))
			h := web.Serve(mux, logger, 1<<20)
			get := func() *httptest.ResponseRecorder {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.Header.Set(web.APIKeyHeader, benchKey)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
				return rec
			}
			b.SetBytes(int64(get().Body.Len()))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				get()
			}
			b.StopTimer()
			st := bc.answers.Stats()
			if bc.name == "hit" && st.Hits < int64(b.N) || bc.name == "miss" && st.Hits != 0 {
				b.Fatalf("%s: cache stats %+v after %d requests", bc.name, st, b.N)
			}
		})
	}
}
