package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// waitCompleted waits for the customer's snapshot build to end and fails
// the test unless it completed.
func waitCompleted(t testing.TB, s kb.Store, cust string) kb.SnapshotStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := s.WaitSnapshot(ctx, cust)
	if err != nil || st.Status != kb.SnapshotCompleted {
		t.Fatalf("snapshot = %+v, %v; want Completed", st, err)
	}
	return st
}

// fillPackage imports a package of n titles of one KBART row each and
// creates a customer "c".
func fillPackage(t testing.TB, s kb.Store, n int) (vendorID, packageID int64) {
	t.Helper()
	ctx := context.Background()
	res, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: "Bench", PackageName: "Big"}, storetest.RowsOf(n, func(i int) kb.ImportRow {
		var r kb.ImportRow
		r.Line = i + 2
		r.KBART[0] = fmt.Sprintf("Title %d", i+1)
		r.KBART[9] = fmt.Sprintf("https://example.org/t/%d", i+1)
		r.KBART[11] = fmt.Sprint(i + 1)
		r.KBART[15] = "Press"
		r.KBART[16] = "serial"
		return r
	}))
	if err != nil {
		t.Fatal(err)
	}
	if res.ResourcesAdded != n {
		t.Fatalf("import of %d rows added %d resources", n, res.ResourcesAdded)
	}
	if _, err := s.AddCustomer(ctx, "c", ""); err != nil {
		t.Fatal(err)
	}
	return res.VendorID, res.PackageID
}

// TestSnapshotConflictAndForce: a POST while a build is in progress is a
// conflict; force replaces the build.
func TestSnapshotConflictAndForce(t *testing.T) {
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	s := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	v, p := fillPackage(t, s, 50)
	if err := s.UpdatePackage(ctx, "c", v, p, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	// A build in progress, as a stuck one looks: nothing builds it, since
	// the test never calls ResumeSnapshots.
	testdb.Exec(t, dsn, `INSERT INTO snapshots(customer_id, build, status, created) VALUES ('c', 7, $1, '2000-01-01 00:00:00')`,
		kb.SnapshotInProgress)
	if err := s.StartSnapshot(ctx, "c", false); kb.ErrorCode(err) != kb.CodeConflict {
		t.Fatalf("POST during a build: %v, want CodeConflict", err)
	}
	if err := s.Holdings(ctx, "c", 1, 10, func(*kb.Holding) error { return nil }); kb.ErrorCode(err) != kb.CodeConflict {
		t.Errorf("GET during a build: %v, want CodeConflict", err)
	}
	if err := s.StartSnapshot(ctx, "c", true); err != nil {
		t.Fatal(err)
	}
	if st := waitCompleted(t, s, "c"); st.Total != 50 || strings.HasPrefix(st.Created, "2000-01-01") {
		t.Errorf("forced snapshot = %+v", st)
	}
}

// TestSnapshotResumesAfterRestart: a build the server stopped in is
// resumed from the state frozen at its POST when the store opens again.
func TestSnapshotResumesAfterRestart(t *testing.T) {
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	s := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	v, p := fillPackage(t, s, 30)
	if err := s.UpdatePackage(ctx, "c", v, p, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.StartSnapshot(ctx, "c", false); err != nil {
		t.Fatal(err)
	}
	waitCompleted(t, s, "c")
	// Put it back to the moment the server stopped: frozen, not built.
	testdb.Exec(t, dsn, `UPDATE snapshots SET status = $1, total = 0`, kb.SnapshotInProgress)
	testdb.Exec(t, dsn, `DELETE FROM snapshot_marks`)
	// A change after the POST must not enter the resumed build.
	if err := s.UpdatePackage(ctx, "c", v, p, kb.PackageUpdate{Selected: false}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
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
