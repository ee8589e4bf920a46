package sqlite

import (
	"context"
	"database/sql"
	"github.com/kbserver/kbserver/internal/kbsnapshot"
	"log/slog"
	"time"
)

// Holdings snapshots: the freeze, the build, the marks and the pages are
// internal/kbsnapshot's. A snapshot is built in the
// background, in one write transaction: the one writer connection
// serialises builds with every other write, so no build needs a claim of
// its own (PostgreSQL's instances claim theirs).

// StartSnapshot freezes the customer's state and starts a build in the
// background.
func (s *Store) StartSnapshot(ctx context.Context, custID string, force bool) error {
	build, err := s.FreezeSnapshot(ctx, custID, force)
	if err != nil {
		return err
	}
	s.runBuild(custID, build)
	return nil
}

// runBuild builds a snapshot in the background, for as long as the store
// is open. The store's build statistics count the builds it wrote or
// failed, timed from here (a wait for the write lock is part of it).
func (s *Store) runBuild(custID string, build int64) {
	s.builds.Add(1)
	go func() {
		defer s.builds.Done()
		start := time.Now()
		var built bool
		err := s.inTx(s.life, func(tx *sql.Tx) error {
			var err error
			built, err = kbsnapshot.BuildSnapshot(s.life, txQuerier{querier{q: tx}}, custID, build, nil)
			return err
		})
		if err != nil {
			if s.life.Err() != nil {
				return // closing: the build resumes when the store opens again
			}
			s.buildStats.Done(false, time.Since(start))
			slog.Error("holdings snapshot failed", "customer", custID, "build", build, "err", err)
			if err := kbsnapshot.FailSnapshot(context.Background(), engine{s}, custID, build, err); err != nil {
				slog.Error("holdings snapshot failed: record the failure", "customer", custID, "build", build, "err", err)
			}
			return
		}
		if built {
			s.buildStats.Done(true, time.Since(start))
		}
	}()
}

// ResumeSnapshots restarts the builds a stopped process left in progress:
// their state was frozen at the POST, so the resumed build is exact. A
// build another process is running meanwhile is harmless: builds take the
// write lock, and the second one finds the snapshot built.
func (s *Store) ResumeSnapshots(ctx context.Context) error {
	jobs, err := s.InProgressSnapshots(ctx)
	if err != nil {
		return err
	}
	for cust, build := range jobs {
		s.runBuild(cust, build)
	}
	return nil
}
