package sqlite_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/sqlite"
)

// fullDatabase caps the database of s at the pages it has, none of them
// free: a write that needs another page then fails with SQLITE_FULL, as
// on a full disk. The returned function lifts the cap.
func fullDatabase(t *testing.T, s *sqlite.Store) (lift func()) {
	t.Helper()
	w := s.Writer()
	if _, err := w.ExecContext(t.Context(), `VACUUM`); err != nil {
		t.Fatal(err)
	}
	var pages int64
	if err := w.QueryRowContext(t.Context(), `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ExecContext(t.Context(), fmt.Sprintf("PRAGMA max_page_count = %d", pages)); err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		if _, err := w.ExecContext(t.Context(), `PRAGMA max_page_count = 4294967294`); err != nil {
			t.Fatal(err)
		}
	}
}

// bigLicense is a license whose body (256 KiB) needs pages of its own.
func bigLicense(id string) kb.ERMObject {
	return kb.ERMObject{ID: id, CustomerID: "c1", Kind: kb.KindLicense, Status: kb.StatusActive, Description: "Big",
		Body: []byte(`{"license":{"note":"` + strings.Repeat("x", 256<<10) + `"}}`)}
}

// TestDiskFullWrite: a write the database has no room for is refused
// with kb.DiskFull (CodeUnavailable, the full disk's message) and leaves
// nothing behind, and the store is not ready, saying why; once there is
// room the write succeeds and the store is ready.
func TestDiskFullWrite(t *testing.T) {
	s := open(t).(*sqlite.Store)
	ctx := t.Context()
	if _, err := s.AddCustomer(ctx, "c1", "Customer 1"); err != nil {
		t.Fatal(err)
	}
	lift := fullDatabase(t, s)
	err := s.CreateERMObject(ctx, bigLicense("l1"))
	if !errors.Is(err, kb.ErrDiskFull) || kb.ErrorCode(err) != kb.CodeUnavailable || kb.ErrorMessage(err) != kb.DiskFullMessage {
		t.Fatalf("a write on a full database: %v (code %d); want kb.DiskFull", err, kb.ErrorCode(err))
	}
	if _, err := s.ERMObject(ctx, "c1", kb.KindLicense, "l1"); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("the refused license reads back: %v", err)
	}
	// Not ready while the disk is full (its probe write fails too).
	if err := s.Ready(ctx); !errors.Is(err, kb.ErrDiskFull) || kb.ErrorMessage(err) != kb.DiskFullMessage {
		t.Errorf("Ready on a full database: %v; want the full disk", err)
	}
	lift()
	if err := s.CreateERMObject(ctx, bigLicense("l1")); err != nil {
		t.Fatalf("the write once there is room: %v", err)
	}
	// A write that succeeds makes the store ready again at once.
	if err := s.Ready(ctx); err != nil {
		t.Errorf("Ready after a successful write: %v", err)
	}
}
