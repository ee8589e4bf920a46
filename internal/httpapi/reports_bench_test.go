package httpapi_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

var reportsDB = flag.String("reports-db", "",
	"database of BenchmarkReportsHTTP (SQLite file or postgres:// URL) with the customer -reports-customer, e.g. made by `kbserver gen --customer big=1500000` (default: a new store of the test run's kind with a generated knowledge base of -reports-titles titles, all selected)")

var reportsCustomer = flag.String("reports-customer", "big", "customer of BenchmarkReportsHTTP")

var reportsTitles = flag.Int("reports-titles", 20_000, "titles of the knowledge base BenchmarkReportsHTTP generates without -reports-db")

// reportPageSize is FOLIO's page of transaction and delta pages.
const reportPageSize = 4000

// BenchmarkReportsHTTP times FOLIO's transaction loader against the HTTP
// server: POST reports/holdings until the transaction is Complete
// ("build"), every page of it at FOLIO's page size, count=4000 and offset
// = page 1..N ("read-4000"), the same pages read with plain SQL as the
// baseline (the stored chunks of each page, not decoded: "sql-4000"), a delta of the last two transactions
// (a merge of both: "delta"), and the purge of the transactions
// ("purge"). It reports rows/s and the process's peak RSS. Keep a
// generated knowledge base between runs, e.g.
//
//	kbserver gen --titles 1600000 --resources 1700000 --customer big=1500000 --db /tmp/bench21.db
//	go test -run X -bench BenchmarkReportsHTTP -benchtime 3x -timeout 2h ./internal/httpapi -args -reports-db /tmp/bench21.db
//
// (for PostgreSQL, a postgres:// URL and KBSERVER_TEST_STORE=postgres).
func BenchmarkReportsHTTP(b *testing.B) {
	ctx := context.Background()
	cust := *reportsCustomer
	dsn := *reportsDB
	if dsn == "" {
		dsn = testdb.NewDSN(b)
	}
	st := openGeneratedKB(b, dsn, *reportsTitles)
	if *reportsDB == "" {
		selectAll(b, st, cust)
	}
	if err := st.AddAPIKey(ctx, cust, kb.HashAPIKey("bench21-key"), kb.Production); err != nil && kb.ErrorCode(err) != kb.CodeDuplicate {
		b.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.NewServer(storetest.SearchOf(b.Context(), st), httpapi.Deps{Store: storetest.Raw(st), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	defer srv.Close()
	do := func(method, path, body string) (int, []byte) {
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		req, _ := http.NewRequest(method, srv.URL+"/rm/rmaccounts/"+cust+path, r)
		req.Header.Set("x-api-key", "bench21-key")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		if err != nil {
			b.Fatal(err)
		}
		return resp.StatusCode, out
	}
	var ids []string
	total := 0
	var builds, reads, sqls, deltas []float64
	b.Run("build", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			start := time.Now()
			code, body := do("POST", "/reports/holdings?format=kbart2", "")
			var tid struct {
				TransactionID string `json:"transactionId"`
			}
			if err := json.Unmarshal(body, &tid); code != http.StatusAccepted || err != nil {
				b.Fatalf("POST reports/holdings: %d %s", code, body)
			}
			for {
				_, body := do("GET", "/reports/holdings/transactions/"+tid.TransactionID+"/status", "")
				var s struct{ Status, TotalCount string }
				if err := json.Unmarshal(body, &s); err != nil {
					b.Fatalf("status: %s", body)
				}
				if s.Status == kb.TransactionComplete {
					fmt.Sscan(s.TotalCount, &total)
					break
				}
				if s.Status != kb.TransactionInProgress {
					b.Fatalf("status: %s", body)
				}
				time.Sleep(50 * time.Millisecond)
			}
			builds = append(builds, time.Since(start).Seconds())
			ids = append(ids, tid.TransactionID)
		}
		b.ReportMetric(float64(total), "rows")
		b.ReportMetric(median(builds), "median-s/build")
		b.ReportMetric(float64(total)/median(builds), "rows/s")
		b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
	})
	if len(ids) == 0 {
		return
	}
	last := ids[len(ids)-1]
	b.Run("read-4000", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			start := time.Now()
			rows := 0
			for page := 1; ; page++ {
				code, body := do("GET", fmt.Sprintf("/reports/holdings/transactions/%s?format=kbart2&count=%d&offset=%d", last, reportPageSize, page), "")
				if code != http.StatusOK {
					b.Fatalf("page %d: %d %s", page, code, body)
				}
				n := strings.Count(string(body), `"publication_title":`)
				rows += n
				if n < reportPageSize {
					break
				}
			}
			if rows != total {
				b.Fatalf("read %d rows, the transaction has %d", rows, total)
			}
			reads = append(reads, float64(rows)/time.Since(start).Seconds())
		}
		b.ReportMetric(median(reads), "median-rows/s")
		b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
	})
	b.Run("sql-4000", func(b *testing.B) {
		db := openSQL(b, dsn)
		var num int64
		if err := db.QueryRow(`SELECT num FROM report_transactions WHERE id = $1`, last).Scan(&num); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			start := time.Now()
			rows := 0
			// Each page as the server reads it: the stored chunks (of 64
			// rows) that hold its rows, without decoding them.
			for first := 1; first <= total; first += reportPageSize {
				from := (first-1)/64*64 + 1
				chunks := (first - from + reportPageSize + 63) / 64
				r, err := db.Query(`SELECT body FROM report_rows WHERE report_num = $1 AND seq >= $2 ORDER BY seq LIMIT $3`,
					num, from, chunks)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for r.Next() {
					var body string
					if err := r.Scan(&body); err != nil {
						b.Fatal(err)
					}
					n += strings.Count(body, "\n") + 1
				}
				r.Close()
				rows += min(reportPageSize, n-(first-from), total-first+1)
			}
			if rows != total {
				b.Fatalf("read %d rows, the transaction has %d", rows, total)
			}
			sqls = append(sqls, float64(rows)/time.Since(start).Seconds())
		}
		b.ReportMetric(median(sqls), "median-rows/s")
	})
	if len(ids) >= 2 {
		b.Run("delta", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				start := time.Now()
				code, body := do("POST", "/reports/holdings/deltas",
					fmt.Sprintf(`{"currentSnapshotId":%q,"previousSnapshotId":%q}`, last, ids[len(ids)-2]))
				if code != http.StatusAccepted {
					b.Fatalf("POST deltas: %d %s", code, body)
				}
				for {
					_, st := do("GET", "/reports/holdings/deltas/"+string(body)+"/status", "")
					if strings.Contains(string(st), `"COMPLETED"`) {
						break
					}
					if !strings.Contains(string(st), `"IN_PROGRESS"`) {
						b.Fatalf("delta status: %s", st)
					}
					time.Sleep(50 * time.Millisecond)
				}
				deltas = append(deltas, time.Since(start).Seconds())
			}
			b.ReportMetric(median(deltas), "median-s/delta")
			b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
		})
	}
	// The purge of every report made: once, reported by each run.
	purged, purgeTime := 0, 0.0
	b.Run("purge", func(b *testing.B) {
		if purged == 0 {
			db := openSQL(b, dsn)
			for _, table := range []string{"report_transactions", "report_deltas"} {
				if _, err := db.Exec(`UPDATE `+table+` SET expires = created WHERE customer_id = $1`, cust); err != nil {
					b.Fatal(err)
				}
			}
			start := time.Now()
			n, err := st.PurgeReports(ctx)
			if err != nil {
				b.Fatal(err)
			}
			purged, purgeTime = n, time.Since(start).Seconds()
		}
		b.ReportMetric(float64(purged), "reports")
		b.ReportMetric(purgeTime, "s")
	})
}

// selectAll selects every package for the customer, created when missing.
func selectAll(b *testing.B, st kb.Store, cust string) {
	ctx := context.Background()
	if _, err := st.AddCustomer(ctx, cust, ""); err != nil && kb.ErrorCode(err) != kb.CodeDuplicate {
		b.Fatal(err)
	}
	for page := 1; ; page++ {
		l, err := st.Packages(ctx, cust, kb.PackageQuery{Page: kb.Page{Count: kb.MaxCount, Number: page}})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range l.Packages {
			if err := st.UpdatePackage(ctx, cust, p.VendorID, p.ID, kb.PackageUpdate{Selected: true}); err != nil {
				b.Fatal(err)
			}
		}
		if len(l.Packages) < kb.MaxCount {
			return
		}
	}
}

// openSQL opens the benchmark's database with database/sql, beside the
// store.
func openSQL(b *testing.B, dsn string) *sql.DB {
	driver := "sqlite"
	if strings.HasPrefix(dsn, "postgres") {
		driver = "pgx"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// median returns the median of xs (0 for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
