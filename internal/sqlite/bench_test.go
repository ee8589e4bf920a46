package sqlite_test

import (
	"bytes"
	"context"
	"flag"
	"io"
	"path/filepath"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/sqlite"
	"github.com/kbserver/kbserver/internal/storetest"
)

var (
	importRows = flag.Int("importrows", 100_000, "rows of the generated KBART file BenchmarkImportKBART imports")
	importMmap = flag.Bool("importmmap", true, "the import benchmarks' store reads memory-mapped, as kbserver import kbart's does (sqlite.MemoryMapped)")
)

// BenchmarkImportKBART imports a generated KBART file (100,000 rows; set
// -importrows) into an empty store: reader and store together, by the
// staged path (`--bulk off`), by the bulk path (`--bulk on` without a
// first load) and as `kbserver import kbart` does by default (a first
// load: kb.PackageSpec.FirstLoad).
func BenchmarkImportKBART(b *testing.B) {
	for _, m := range []struct {
		name  string
		mode  kb.BulkMode
		first bool
	}{{"staged", kb.BulkOff, false}, {"bulk", kb.BulkOn, false}, {"first", kb.BulkAuto, true}} {
		b.Run(m.name, func(b *testing.B) { benchmarkImportKBART(b, m.mode, m.first) })
	}
}

func benchmarkImportKBART(b *testing.B, mode kb.BulkMode, first bool) {
	n := *importRows
	var file bytes.Buffer
	if err := gen.WriteKBART(&file, n, 1); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(int64(file.Len()))
	var elapsed time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := openEmpty(b)
		b.StartTimer()
		start := time.Now()
		r, err := kbart.NewReader(bytes.NewReader(file.Bytes()))
		if err != nil {
			b.Fatal(err)
		}
		res, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: "V", PackageName: "P", Bulk: mode, FirstLoad: first}, storetest.KBARTRows(r))
		elapsed += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		if res.Rows != n {
			b.Fatalf("imported %d rows, want %d", res.Rows, n)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/elapsed.Seconds(), "rows/s")
}

// BenchmarkImportUpdate imports a month's update of a package of
// -importrows rows that is already in the store, as a publisher's next
// file does: 2% of the rows gone, 2% new titles, 5% with a changed URL,
// 1% renamed. Only the update's import is timed; rows/s counts its rows.
func BenchmarkImportUpdate(b *testing.B) {
	base, update := updateRows(b, *importRows)
	ctx := context.Background()
	spec := kb.PackageSpec{VendorName: "V", PackageName: "P"}
	var elapsed time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := openEmpty(b)
		if _, err := s.ImportPackage(ctx, spec, rowsOf(base)); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		var res kb.ImportResult
		var err error
		// The label lets a CPU profile show the update alone
		// (go tool pprof -tagfocus phase=update).
		pprof.Do(ctx, pprof.Labels("phase", "update"), func(ctx context.Context) {
			res, err = s.ImportPackage(ctx, spec, rowsOf(update))
		})
		elapsed += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		if res.Rows != len(update) || res.TitlesCreated == 0 || res.ResourcesRemoved == 0 {
			b.Fatalf("the update imported %d rows (want %d), created %d titles, removed %d resources",
				res.Rows, len(update), res.TitlesCreated, res.ResourcesRemoved)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(len(update)*b.N)/elapsed.Seconds(), "rows/s")
}

// updateRows returns a generated package of n rows and its next month's
// file (see BenchmarkImportUpdate).
func updateRows(b *testing.B, n int) (base, update []kb.ImportRow) {
	b.Helper()
	base = readRows(b, n)
	for i, row := range base {
		switch {
		case i%50 == 49:
			continue // gone
		case i%20 == 18:
			row.KBART[kbart.TitleURL] += "?v=2"
		case i%100 == 0:
			row.KBART[kbart.PublicationTitle] += " (new series)"
		}
		update = append(update, row)
	}
	for _, row := range readSeedRows(b, n/50, 9) { // new titles: their own ids, no identifiers
		row.KBART[kbart.TitleID] = "n" + row.KBART[kbart.TitleID]
		row.KBART[kbart.PrintIdentifier], row.KBART[kbart.OnlineIdentifier] = "", ""
		update = append(update, row)
	}
	return base, update
}

// readRows returns the import rows of the generated KBART file of n rows
// (seed 1) that BenchmarkImportKBART imports.
func readRows(b *testing.B, n int) []kb.ImportRow { return readSeedRows(b, n, 1) }

// readSeedRows returns the import rows of a generated KBART file of n rows.
func readSeedRows(b *testing.B, n int, seed int64) []kb.ImportRow {
	b.Helper()
	var file bytes.Buffer
	if err := gen.WriteKBART(&file, n, seed); err != nil {
		b.Fatal(err)
	}
	r, err := kbart.NewReader(&file)
	if err != nil {
		b.Fatal(err)
	}
	next := storetest.KBARTRows(r)
	var out []kb.ImportRow
	for {
		row, err := next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, row)
	}
}

// rowsOf returns an import's row source over rows.
func rowsOf(rows []kb.ImportRow) func() (kb.ImportRow, error) {
	i := 0
	return func() (kb.ImportRow, error) {
		if i == len(rows) {
			return kb.ImportRow{}, io.EOF
		}
		i++
		return rows[i-1], nil
	}
}

// openEmpty opens a new, empty SQLite store in the benchmark's temporary
// directory.
func openEmpty(b *testing.B) *sqlite.Store {
	b.Helper()
	var opts []sqlite.Option
	if *importMmap {
		opts = append(opts, sqlite.MemoryMapped())
	}
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "kb.db"), opts...)
	if err != nil {
		b.Fatal(err)
	}
	return s
}
