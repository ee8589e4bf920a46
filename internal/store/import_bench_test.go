package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/realdata"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// The import benchmarks of BENCHMARKS.md: re-importing a package while a
// customer writes, by another store over the same database (as `kbserver
// import kbart` runs beside the server). Each reports the import's rows/s,
// and the customer's write latencies (p50, p99, max) during the imports
// and, as the baseline, with no import running, in the same run.
//
//	go test -run '^$' -bench 'Reimport' -benchtime 3x ./internal/store
//	KBSERVER_TEST_STORE=postgres KBSERVER_TEST_POSTGRES=postgres://… go test -run '^$' -bench 'Reimport' -benchtime 3x ./internal/store

// BenchmarkReimportUnchanged re-imports the real 72,056-row EZB file
// unchanged.
func BenchmarkReimportUnchanged(b *testing.B) {
	rows := readRows(b, filepath.Join(realdata.Dir(b), "span/kbart.txt.gz"))
	benchReimport(b, rows, func(int) []kb.ImportRow { return rows })
}

// BenchmarkReimportTenth re-imports a generated 200,000-row package with a
// tenth of its rows changed (a different tenth each time).
func BenchmarkReimportTenth(b *testing.B) {
	const n = 200000
	gen := func(version int) []kb.ImportRow {
		rows := make([]kb.ImportRow, n)
		for i := range rows {
			r := storetest.Row{ID: fmt.Sprintf("t%d", i), Title: fmt.Sprintf("Generated Journal of Things %d", i), First: "1990-01-01",
				URL: fmt.Sprintf("https://gen.example/%d", i), Publisher: "Generated Press", Type: "serial", Print: storetest.ISSN(i)}
			if version > 0 && i%10 == version%10 {
				r.Last = fmt.Sprintf("20%02d-12-31", version)
			}
			rows[i] = r.KBART(i + 2)
		}
		return rows
	}
	benchReimport(b, gen(0), gen)
}

// benchReimport imports first, then re-imports version(i) b.N times while
// a customer writes, and reports the imports' speed and the write
// latencies.
func benchReimport(b *testing.B, first []kb.ImportRow, version func(int) []kb.ImportRow) {
	ctx := context.Background()
	dsn := testdb.NewDSN(b)
	server, importer := storetest.Searched(b.Context(), testdb.OpenDSN(b, dsn)), storetest.Searched(b.Context(), testdb.OpenDSN(b, dsn))
	spec := kb.PackageSpec{VendorName: "Bench Vendor", PackageName: "Bench Package"}
	src := func(rows []kb.ImportRow) func() (kb.ImportRow, error) {
		return storetest.RowsOf(len(rows), func(i int) kb.ImportRow { return rows[i] })
	}
	res, err := importer.ImportPackage(ctx, spec, src(first))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := server.AddCustomer(ctx, "lib", "Library"); err != nil {
		b.Fatal(err)
	}
	l, err := server.Titles(ctx, "lib", kb.TitleQuery{VendorID: res.VendorID, PackageID: res.PackageID, Page: kb.Page{Count: 100, Number: 1}})
	if err != nil {
		b.Fatal(err)
	}
	// The customer selects and deselects titles every 10 ms.
	writes := func(stop <-chan struct{}) []time.Duration {
		var lat []time.Duration
		for i := 0; ; i++ {
			select {
			case <-stop:
				return lat
			case <-time.After(10 * time.Millisecond):
			}
			t0 := time.Now()
			err := server.UpdateResource(ctx, "lib", res.VendorID, res.PackageID, l.Titles[i%len(l.Titles)].ID, kb.ResourceUpdate{Selected: i%2 == 0})
			if err != nil {
				b.Errorf("write during the import: %v", err)
			}
			lat = append(lat, time.Since(t0))
		}
	}
	measure := func(run func()) []time.Duration {
		stop := make(chan struct{})
		var lat []time.Duration
		var wg sync.WaitGroup
		wg.Go(func() { lat = writes(stop) })
		run()
		close(stop)
		wg.Wait()
		return lat
	}
	idle := measure(func() { time.Sleep(3 * time.Second) })
	inputs := make([][]kb.ImportRow, b.N)
	for i := range inputs {
		inputs[i] = version(i + 1)
	}
	var during []time.Duration
	rows := 0
	b.ResetTimer()
	for i := range b.N {
		during = append(during, measure(func() {
			r, err := importer.ImportPackage(ctx, spec, src(inputs[i]))
			if err != nil {
				b.Fatal(err)
			}
			rows += r.Rows
		})...)
	}
	b.StopTimer()
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	for _, m := range []struct {
		name string
		lat  []time.Duration
	}{{"idle", idle}, {"import", during}} {
		if len(m.lat) == 0 {
			continue
		}
		slices.Sort(m.lat)
		b.ReportMetric(ms(m.lat[len(m.lat)/2]), m.name+"-p50-ms")
		b.ReportMetric(ms(m.lat[len(m.lat)*99/100]), m.name+"-p99-ms")
		b.ReportMetric(ms(m.lat[len(m.lat)-1]), m.name+"-max-ms")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
