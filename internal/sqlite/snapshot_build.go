package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// A snapshot is built in the background, in one write transaction: the one
// writer connection serialises builds with every other write, so no build
// needs a claim of its own (PostgreSQL's instances claim theirs).

// runBuild builds a snapshot in the background, for as long as the store
// is open. The store's build statistics count the builds it wrote or
// failed, timed from here (a wait for the write lock is part of it).
func (s *Store) runBuild(custID string, build int64) {
	s.builds.Add(1)
	go func() {
		defer s.builds.Done()
		start := time.Now()
		built, err := s.build(s.life, custID, build)
		if err != nil {
			if s.life.Err() != nil {
				return // closing: the build resumes when the store opens again
			}
			s.buildStats.Done(false, time.Since(start))
			slog.Error("holdings snapshot failed", "customer", custID, "build", build, "err", err)
			s.w.ExecContext(context.Background(), `UPDATE snapshots SET status = ?, error = ? WHERE customer_id = ? AND build = ? AND status = ?`,
				kb.SnapshotFailed, err.Error(), custID, build, kb.SnapshotInProgress)
			return
		}
		if built {
			s.buildStats.Done(true, time.Since(start))
		}
	}()
}

// build writes the segments and marks of build number build of the
// customer's snapshot (snapshot_marks.go), unless a later POST replaced it
// or another process built it: built says whether this call did.
func (s *Store) build(ctx context.Context, custID string, build int64) (built bool, err error) {
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		var current int64
		var status, root string
		err := tx.QueryRowContext(ctx, `SELECT build, status, root_proxy FROM snapshots WHERE customer_id = ?`, custID).Scan(&current, &status, &root)
		if err != nil {
			return fmt.Errorf("snapshot of %s: %w", custID, err)
		}
		if current != build || status != kb.SnapshotInProgress {
			return nil // replaced by a later POST
		}
		for _, q := range []string{`DELETE FROM snapshot_segments WHERE customer_id = ?`, `DELETE FROM snapshot_marks WHERE customer_id = ?`} {
			if _, err := tx.ExecContext(ctx, q, custID); err != nil {
				return fmt.Errorf("clear snapshot of %s: %w", custID, err)
			}
		}
		total, err := writeSegments(ctx, tx, custID, root)
		if err != nil {
			return fmt.Errorf("build snapshot of %s: %w", custID, err)
		}
		built = true
		_, err = tx.ExecContext(ctx, `UPDATE snapshots SET status = ?, total = ? WHERE customer_id = ? AND build = ?`,
			kb.SnapshotCompleted, total, custID, build)
		return err
	})
	return built && err == nil, err
}

// ResumeSnapshots restarts the builds a stopped process left in progress:
// their state was frozen at the POST, so the resumed build is exact. A
// build another process is running meanwhile is harmless: builds take the
// write lock, and the second one finds the snapshot built.
func (s *Store) ResumeSnapshots(ctx context.Context) error {
	rows, err := s.w.QueryContext(ctx, `SELECT customer_id, build FROM snapshots WHERE status = ?`, kb.SnapshotInProgress)
	if err != nil {
		return fmt.Errorf("resume snapshots: %w", err)
	}
	type job struct {
		cust  string
		build int64
	}
	var jobs []job
	for rows.Next() {
		var j job
		if err := rows.Scan(&j.cust, &j.build); err != nil {
			rows.Close()
			return err
		}
		jobs = append(jobs, j)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("resume snapshots: %w", err)
	}
	for _, j := range jobs {
		s.runBuild(j.cust, j.build)
	}
	return nil
}
