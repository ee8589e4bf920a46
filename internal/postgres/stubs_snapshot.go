package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
)

// Stubs of the methods not written yet: each returns kb.CodeNotImplemented.
// The file goes away when its last method is written.

// StartSnapshot is not written yet.
func (s *Store) StartSnapshot(ctx context.Context, custID string, force bool) error {
	return notYet("StartSnapshot")
}

// SnapshotStatus is not written yet.
func (s *Store) SnapshotStatus(ctx context.Context, custID string) (kb.SnapshotStatus, error) {
	return kb.SnapshotStatus{}, notYet("SnapshotStatus")
}

// Holdings is not written yet.
func (s *Store) Holdings(ctx context.Context, custID string, offset, count int, fn func(*kb.Holding) error) error {
	return notYet("Holdings")
}

// WaitSnapshot is not written yet.
func (s *Store) WaitSnapshot(ctx context.Context, custID string) (kb.SnapshotStatus, error) {
	return kb.SnapshotStatus{}, notYet("WaitSnapshot")
}

// ResumeSnapshots is not written yet.
func (s *Store) ResumeSnapshots(ctx context.Context) error {
	return notYet("ResumeSnapshots")
}

// refreshPackageMarks computes a managed package's snapshot marks and KBART
// row count, in the import's transaction. Until the snapshot build is
// written, it only marks them stale.
func refreshPackageMarks(ctx context.Context, tx pgx.Tx, packageID int64) error {
	_, err := tx.Exec(ctx, `UPDATE packages SET marks_ok = false WHERE id = $1`, packageID)
	return err
}
