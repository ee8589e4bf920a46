package sqlite

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// waitCompleted waits for the customer's snapshot build to end and fails
// the benchmark unless it completed.
func waitCompleted(tb testing.TB, s *Store, cust string) kb.SnapshotStatus {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := s.WaitSnapshot(ctx, cust)
	if err != nil || st.Status != kb.SnapshotCompleted {
		tb.Fatalf("snapshot = %+v, %v; want Completed", st, err)
	}
	return st
}

// BenchmarkSnapshot builds a snapshot of a customer holding 1,500,000
// titles (one selected package) and serves it in GET pages of 5000 rows;
// then builds it again with one title of the package deselected, which
// makes the build count the package's rows instead of taking the marks of
// its import.
func BenchmarkSnapshot(b *testing.B) {
	const n = 1_500_000
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "kb.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	v, p := fillPackage(b, s, n)
	if _, err := s.w.ExecContext(ctx, `UPDATE resources SET kbart = 'Title ' || title_id || char(9) || '1234-5679' || char(9) ||
		char(9) || '2001-01-01' || char(9) || '1' || char(9) || '1' || char(9) || char(9) || char(9) || char(9) || 'https://example.org/t/' || title_id ||
		char(9) || char(9) || title_id || char(9) || char(9) || 'fulltext' || char(9) || char(9) || 'Press' || char(9) || 'serial' ||
		char(9) || char(9) || char(9) || char(9) || char(9) || char(9) || char(9) || char(9) || 'P'`); err != nil {
		b.Fatal(err)
	}
	if err := s.UpdatePackage(ctx, "c", v, p, kb.PackageUpdate{Selected: true}); err != nil {
		b.Fatal(err)
	}
	b.Run("build", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			start := time.Now()
			if err := s.StartSnapshot(ctx, "c", false); err != nil {
				b.Fatal(err)
			}
			st := waitCompleted(b, s, "c")
			if st.Total != n {
				b.Fatalf("total %d", st.Total)
			}
			b.ReportMetric(time.Since(start).Seconds(), "s/build")
		}
	})
	b.Run("serve-5000", func(b *testing.B) {
		var rows int
		start := time.Now()
		for i := 0; i < b.N; i++ {
			offset := 1 + (i*5000)%n
			if err := s.Holdings(ctx, "c", offset, 5000, func(h *kb.Holding) error { rows++; return nil }); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rows)/time.Since(start).Seconds(), "rows/s")
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MiB")
	})
	b.Run("build-with-exclusion", func(b *testing.B) {
		if err := s.UpdateResource(ctx, "c", v, p, 7, kb.ResourceUpdate{Selected: false}); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			start := time.Now()
			if err := s.StartSnapshot(ctx, "c", false); err != nil {
				b.Fatal(err)
			}
			if st := waitCompleted(b, s, "c"); st.Total != n-1 {
				b.Fatalf("total %d", st.Total)
			}
			b.ReportMetric(time.Since(start).Seconds(), "s/build")
		}
	})
}
