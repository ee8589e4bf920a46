package sqlite_test

import (
	"bytes"
	"context"
	"flag"
	"path/filepath"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/sqlite"
	"github.com/kbserver/kbserver/internal/storetest"
)

var importRows = flag.Int("importrows", 100_000, "rows of the generated KBART file BenchmarkImportKBART imports")

// BenchmarkImportKBART imports a generated KBART file (100,000 rows; set
// -importrows) into an empty store: reader and store together, as
// `kbserver import kbart` does.
func BenchmarkImportKBART(b *testing.B) {
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
		s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "kb.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		r, err := kbart.NewReader(bytes.NewReader(file.Bytes()))
		if err != nil {
			b.Fatal(err)
		}
		res, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: "V", PackageName: "P"}, storetest.KBARTRows(r))
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
