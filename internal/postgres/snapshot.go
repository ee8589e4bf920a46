package postgres

import (
	"context"
)

// Holdings snapshots: the freeze, the build, the marks and the pages are
// internal/kbsnapshot's; snapshot_build.go claims and runs
// the builds among the instances over the database.

// StartSnapshot freezes the customer's state and starts a build in the
// background.
func (s *Store) StartSnapshot(ctx context.Context, custID string, force bool) error {
	build, err := s.FreezeSnapshot(ctx, custID, force)
	if err != nil {
		return err
	}
	s.runBuild(custID, build, true)
	return nil
}
