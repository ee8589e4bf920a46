package sqlite

import (
	"context"

	"github.com/kbserver/kbserver/internal/kb"
)

// StartSnapshot is being written.
func (s *Store) StartSnapshot(ctx context.Context, custID string, force bool) error {
	return kb.Errorf(kb.CodeNotImplemented, "Not implemented yet: snapshots")
}

// SnapshotStatus is being written.
func (s *Store) SnapshotStatus(ctx context.Context, custID string) (kb.SnapshotStatus, error) {
	return kb.SnapshotStatus{}, kb.Errorf(kb.CodeNotImplemented, "Not implemented yet: snapshots")
}

// Holdings is being written.
func (s *Store) Holdings(ctx context.Context, custID string, offset, count int, fn func(*kb.Holding) error) error {
	return kb.Errorf(kb.CodeNotImplemented, "Not implemented yet: snapshots")
}

// WaitSnapshot is being written.
func (s *Store) WaitSnapshot(ctx context.Context, custID string) (kb.SnapshotStatus, error) {
	return kb.SnapshotStatus{}, kb.Errorf(kb.CodeNotImplemented, "Not implemented yet: snapshots")
}
