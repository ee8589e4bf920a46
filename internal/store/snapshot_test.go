package sqlite

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

func waitCompleted(t testing.TB, s *Store, cust string) kb.SnapshotStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := s.WaitSnapshot(ctx, cust)
	if err != nil || st.Status != kb.SnapshotCompleted {
		t.Fatalf("snapshot = %+v, %v; want Completed", st, err)
	}
	return st
}

// TestSnapshotConflictAndForce: a POST while a build is in progress is a
// conflict; force replaces the build.
func TestSnapshotConflictAndForce(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "kb.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v, p := fillPackage(t, s, 50)
	if err := s.UpdatePackage(ctx, "c", v, p, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	// A build in progress, as a stuck one looks.
	if _, err := s.w.ExecContext(ctx, `INSERT INTO snapshots(customer_id, build, status, created) VALUES ('c', 7, ?, '2026-01-01 00:00:00')`,
		kb.SnapshotInProgress); err != nil {
		t.Fatal(err)
	}
	if err := s.StartSnapshot(ctx, "c", false); kb.ErrorCode(err) != kb.CodeConflict {
		t.Fatalf("POST during a build: %v, want CodeConflict", err)
	}
	if err := s.Holdings(ctx, "c", 1, 10, func(*kb.Holding) error { return nil }); kb.ErrorCode(err) != kb.CodeConflict {
		t.Errorf("GET during a build: %v, want CodeConflict", err)
	}
	if err := s.StartSnapshot(ctx, "c", true); err != nil {
		t.Fatal(err)
	}
	if st := waitCompleted(t, s, "c"); st.Total != 50 || st.Created == "2026-01-01 00:00:00" {
		t.Errorf("forced snapshot = %+v", st)
	}
}

// TestSnapshotResumesAfterRestart: a build the server stopped in is
// resumed from the state frozen at its POST when the store opens again.
func TestSnapshotResumesAfterRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kb.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	v, p := fillPackage(t, s, 30)
	if err := s.UpdatePackage(ctx, "c", v, p, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.StartSnapshot(ctx, "c", false); err != nil {
		t.Fatal(err)
	}
	waitCompleted(t, s, "c")
	// Put it back to the moment the server stopped: frozen, not built.
	if _, err := s.w.ExecContext(ctx, `UPDATE snapshots SET status = ?, total = 0`, kb.SnapshotInProgress); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM snapshot_marks`); err != nil {
		t.Fatal(err)
	}
	// A change after the POST must not enter the resumed build.
	if err := s.UpdatePackage(ctx, "c", v, p, kb.PackageUpdate{Selected: false}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if st, _ := s.SnapshotStatus(ctx, "c"); st.Status != kb.SnapshotInProgress {
		t.Fatalf("before resuming: %+v", st)
	}
	if err := s.ResumeSnapshots(ctx); err != nil {
		t.Fatal(err)
	}
	if st := waitCompleted(t, s, "c"); st.Total != 30 {
		t.Errorf("resumed snapshot has %d rows, want the 30 frozen at the POST", st.Total)
	}
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
