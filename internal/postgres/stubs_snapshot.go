package postgres

import (
	"context"

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
