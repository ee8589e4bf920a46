package httpapi_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestWritesDuringImport: customers' writes (a title's selection, a
// holdings snapshot, a license) go on while a large package is imported
// and then re-imported with a tenth of its rows changed, by another store
// over the same database (as `kbserver import kbart` runs beside the
// server): none is answered 5xx. The latencies are logged; the benchmark
// in BENCHMARKS.md measures them at size.
func TestWritesDuringImport(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 20,000 rows twice; skipped with -short")
	}
	dsn := testdb.NewDSN(t)
	server := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	importer := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	ctx := t.Context()
	small := storetest.Import(t, server, "Vendor", "Package", kb.ContentEJournal, []storetest.Row{
		{Title: "Journal A", First: "2001-01-01", URL: "https://x.example/a", Type: "serial"},
		{Title: "Journal B", First: "2001-01-01", URL: "https://x.example/b", Type: "serial"},
	})
	if _, err := server.AddCustomer(ctx, "lib", "A Library"); err != nil {
		t.Fatal(err)
	}
	if err := server.AddAPIKey(ctx, "lib", kb.HashAPIKey("prod-key"), kb.Production); err != nil {
		t.Fatal(err)
	}
	titles, err := server.Titles(ctx, "lib", kb.TitleQuery{VendorID: small.VendorID, PackageID: small.PackageID, Page: kb.Page{Count: 10, Number: 1}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.NewServer(storetest.SearchOf(t.Context(), server), httpapi.Deps{Store: storetest.Raw(server), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	t.Cleanup(srv.Close)

	const n = 20000
	row := func(i, version int) kb.ImportRow {
		r := storetest.Row{ID: fmt.Sprintf("big-%d", i), Title: fmt.Sprintf("Big Package Title %d", i), First: "1990-01-01",
			URL: fmt.Sprintf("https://big.example/%d", i), Publisher: "Big Press", Type: "serial"}
		if version > 0 && i%10 == 0 {
			r.First = "1995-01-01" // a tenth of the rows changed
		}
		return r.KBART(i + 2)
	}
	type result struct {
		what    string
		status  int
		latency time.Duration
	}
	var (
		mu      sync.Mutex
		results []result
	)
	write := func(what, method, path, body string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("x-api-key", "prod-key")
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		mu.Lock()
		results = append(results, result{what, resp.StatusCode, time.Since(start)})
		mu.Unlock()
	}
	writers := []func(i int){
		func(i int) {
			title := titles.Titles[i%len(titles.Titles)].ID
			write("PUT title", "PUT", fmt.Sprintf("/rm/rmaccounts/lib/vendors/%d/packages/%d/titles/%d", small.VendorID, small.PackageID, title),
				fmt.Sprintf(`{"isSelected":%t}`, i%2 == 0))
		},
		func(i int) {
			write("POST license", "POST", "/rm/rmaccounts/lib/license", `{"extensionObject":{"objectDescription":"License `+fmt.Sprint(i)+
				`","objectType":"license","status":"active","customerId":"lib"},"license":{"licenseType":"consortial"}}`)
		},
		func(i int) {
			if i%20 == 0 {
				write("POST holdings", "POST", "/rm/rmaccounts/lib/holdings?force=true", "")
			}
		},
	}
	for version := range 2 {
		done := make(chan struct{})
		var wg sync.WaitGroup
		for _, w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-done:
						return
					case <-time.After(20 * time.Millisecond):
					}
					w(i)
				}
			}()
		}
		start := time.Now()
		res, err := importer.ImportPackage(ctx, kb.PackageSpec{VendorName: "Big Press", PackageName: "Big Package", ContentType: kb.ContentEJournal},
			storetest.RowsOf(n, func(i int) kb.ImportRow { return row(i, version) }))
		elapsed := time.Since(start)
		close(done)
		wg.Wait()
		if err != nil {
			t.Fatalf("import %d: %v", version, err)
		}
		if version == 1 && res.ResourcesUpdated != n/10 {
			t.Errorf("re-import updated %d resources, want %d", res.ResourcesUpdated, n/10)
		}
		t.Logf("import %d: %v, %+v", version, elapsed, res)
	}
	var lat []time.Duration
	for _, r := range results {
		if r.status >= 500 {
			t.Errorf("%s during the import: %d", r.what, r.status)
		}
		lat = append(lat, r.latency)
	}
	if len(lat) == 0 {
		t.Fatal("no write ran during the imports")
	}
	slices.Sort(lat)
	t.Logf("%d writes during the imports: p50 %v, p99 %v, max %v", len(lat), lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1])
}
