package httpapi_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

var snapshotDB = flag.String("snapshot-db", "",
	"database of BenchmarkSnapshotHTTP (SQLite file or postgres:// URL), kept between runs: the knowledge base is generated only when it has no packages (default: a new store of the test run's kind, see package testdb)")

var snapshotTitles = flag.Int("snapshot-titles", 760_000,
	"titles of the generated knowledge base of BenchmarkSnapshotHTTP (all its packages are selected: about 2 holdings a title)")

// BenchmarkSnapshotHTTP generates a knowledge base (760,000 titles: about
// 1,500,000 resources), selects every package for one customer, then times
// through the HTTP server: POST holdings until the status is Completed
// ("build"), and every row read through GET holdings pages of 5000
// ("serve"). It reports the peak RSS of the process. Slow to set up (the
// import of the generated KB takes minutes): run it alone, and keep the
// knowledge base between runs with -snapshot-db, e.g.
//
//	go test -run X -bench BenchmarkSnapshotHTTP -benchtime 3x ./internal/httpapi -args -snapshot-db /tmp/snap.db
func BenchmarkSnapshotHTTP(b *testing.B) {
	ctx := context.Background()
	st := openGeneratedKB(b, *snapshotDB, *snapshotTitles)
	if _, err := st.AddCustomer(ctx, "big", ""); err != nil && kb.ErrorCode(err) != kb.CodeDuplicate {
		b.Fatal(err)
	}
	if err := st.AddAPIKey(ctx, "big", kb.HashAPIKey("big-key"), kb.Production); err != nil {
		b.Fatal(err)
	}
	for page := 1; ; page++ {
		l, err := st.Packages(ctx, "big", kb.PackageQuery{Page: kb.Page{Count: kb.MaxCount, Number: page}})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range l.Packages {
			if err := st.UpdatePackage(ctx, "big", p.VendorID, p.ID, kb.PackageUpdate{Selected: true}); err != nil {
				b.Fatal(err)
			}
		}
		if len(l.Packages) < kb.MaxCount {
			break
		}
	}
	srv := httptest.NewServer(httpapi.NewServer(storetest.SearchOf(b.Context(), st), httpapi.Deps{Store: storetest.Raw(st), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	defer srv.Close()
	do := func(method, path string) *http.Response {
		req, _ := http.NewRequest(method, srv.URL+"/rm/rmaccounts/big"+path, nil)
		req.Header.Set("x-api-key", "big-key")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	var total int
	b.Run("build", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			start := time.Now()
			resp := do("POST", "/holdings?force=true")
			resp.Body.Close()
			if resp.StatusCode != http.StatusAccepted {
				b.Fatalf("POST holdings: %s", resp.Status)
			}
			for {
				resp := do("GET", "/holdings/status")
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if bytes.Contains(body, []byte(`"Completed"`)) {
					s := string(body)
					total, _ = strconv.Atoi(s[strings.LastIndex(s, ":")+1 : strings.LastIndex(s, "}")])
					break
				}
				if !bytes.Contains(body, []byte(`"In Progress"`)) {
					b.Fatalf("status: %s", body)
				}
				time.Sleep(20 * time.Millisecond)
			}
			b.ReportMetric(time.Since(start).Seconds(), "s/build")
		}
		b.ReportMetric(float64(total), "holdings")
	})
	b.Run("serve-5000", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			start := time.Now()
			rows := 0
			for offset := 1; offset <= total; offset += kb.MaxSnapshotPage {
				resp := do("GET", fmt.Sprintf("/holdings?format=kbart2&count=%d&offset=%d", kb.MaxSnapshotPage, offset))
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("GET holdings: %s", resp.Status)
				}
				if _, err := io.Copy(io.Discard, resp.Body); err != nil {
					b.Fatal(err)
				}
				resp.Body.Close()
				rows += min(kb.MaxSnapshotPage, total-offset+1)
			}
			b.ReportMetric(float64(rows)/time.Since(start).Seconds(), "rows/s")
		}
		b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
	})
}

// openGeneratedKB opens the database dsn (a SQLite file path or a
// postgres:// URL; a new store of the test run's kind when "") and
// generates a knowledge base of titles titles into it unless it has
// packages already. The store closes when the benchmark ends.
func openGeneratedKB(b *testing.B, dsn string, titles int) kb.Store {
	ctx := context.Background()
	if dsn == "" {
		dsn = testdb.NewDSN(b)
	}
	st := storetest.Searched(b.Context(), testdb.OpenDSN(b, dsn))
	if l, err := st.Packages(ctx, "", kb.PackageQuery{Page: kb.Page{Count: 1, Number: 1}}); err != nil || l.Total == 0 {
		if _, err := gen.Generate(ctx, st, gen.Options{Titles: titles, Seed: 1}, nil); err != nil {
			b.Fatal(err)
		}
	}
	return st
}

// peakRSSMiB reads the process's peak resident set size (Linux).
func peakRSSMiB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}
