package postgres

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsnapshot"
)

// Several servers may share one database. A snapshot build is claimed by
// one of them: the builder holds a session advisory lock on the customer's
// snapshot, on a connection it keeps from the pool for the whole build, and
// builds in a transaction on that connection. Another server that tries the
// lock meanwhile does not build; if the builder dies, its session ends, the
// lock goes with it, and the next server to try (a POST waiting on it, or a
// resume pass) builds from the state frozen at the POST. Status and pages
// are read from the tables, so every server serves the same snapshot.

// snapshotLockSQL is the key of the claim on customer $1's snapshot build.
// Advisory locks are per database: the key names the schema too, so stores
// in different schemas of one database (tests) do not claim each other's.
const snapshotLockSQL = `hashtextextended('kbserver snapshot ' || current_schema() || ' ' || $1, 0)`

// claimPoll is how often a POST's build waiting on another claim (an
// earlier build of the customer's, or the same build another server
// resumed) looks again.
const claimPoll = 200 * time.Millisecond

// resumeEvery is how often the server resumes the builds left in
// progress (Jobs): it looks again for builds whose claimant died since.
const resumeEvery = 10 * time.Second

// codeSerializationFailure is the SQLSTATE of a repeatable read
// transaction that lost a race for a row: a build retries.
const codeSerializationFailure = "40001"

// buildRetries bounds the retries of a build that lost a race with an
// import or a POST: for the snapshot's row (a POST replaced the build),
// or for a package's marks, which a build refreshes when they are stale
// while an import of the package may be writing them too (a row updated
// meanwhile, or the same new mark inserted: a unique violation).
const buildRetries = 3

// lostRace reports whether a build failed for a concurrent write, which a
// new attempt, from a newer state, does not meet again.
func lostRace(err error) bool {
	return isCode(err, codeSerializationFailure) || isCode(err, codeUniqueViolation)
}

// buildStarted, when set (tests, through export_test), is called when a
// claimed build finds its snapshot still to build and starts writing it.
var buildStarted atomic.Pointer[func(s *Store, custID string, build int64)]

// runBuild builds a snapshot in the background, for as long as the store
// is open. wait: if another server holds the claim, wait until it is
// released or the build is no longer pending (a POST's build, which may be
// queued behind an earlier build); else give up (a resume pass, which
// looks again later). The store's build statistics count the builds this
// process wrote or failed, timed from here: a wait for a build slot or
// for the claim is part of it.
func (s *Store) runBuild(custID string, build int64, wait bool) {
	s.builds.Add(1)
	go func() {
		defer s.builds.Done()
		start := time.Now()
		built, err := s.claimAndBuild(s.life, custID, build, wait)
		if built {
			s.buildStats.Done(true, time.Since(start))
		}
		if err != nil {
			if s.life.Err() != nil {
				return // closing: the build resumes on a server that resumes builds
			}
			s.buildStats.Done(false, time.Since(start))
			slog.Error("holdings snapshot failed", "customer", custID, "build", build, "err", err)
			if err := kbsnapshot.FailSnapshot(context.Background(), engine{s}, custID, build, err); err != nil {
				slog.Error("holdings snapshot failed: record the failure", "customer", custID, "build", build, "err", err)
			}
		}
	}()
}

// claimAndBuild takes the claim on the customer's snapshot build and builds
// build number build unless it is built or replaced; built says whether
// this call wrote it.
func (s *Store) claimAndBuild(ctx context.Context, custID string, build int64, wait bool) (built bool, err error) {
	select { // a build slot first: at most half the pool builds at once
	case s.buildSlots <- struct{}{}:
		defer func() { <-s.buildSlots }()
	case <-ctx.Done():
		return false, ctx.Err()
	}
	for {
		conn, err := s.pool.Acquire(ctx)
		if err != nil {
			return false, fmt.Errorf("claim snapshot of %s: %w", custID, err)
		}
		var claimed bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(`+snapshotLockSQL+`)`, custID).Scan(&claimed); err != nil {
			conn.Release()
			return false, fmt.Errorf("claim snapshot of %s: %w", custID, err)
		}
		if claimed {
			built, err := s.buildClaimed(ctx, conn, custID, build)
			unclaim(conn, custID)
			return built, err
		}
		conn.Release()
		if !wait {
			return false, nil
		}
		pending, err := s.buildPending(ctx, custID, build)
		if err != nil || !pending {
			return false, err
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(claimPoll):
		}
	}
}

// unclaim releases the claim and gives the connection back to the pool; a
// connection that may still hold the claim is closed instead, which
// releases it.
func unclaim(conn *pgxpool.Conn, custID string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock(`+snapshotLockSQL+`)`, custID); err != nil {
		conn.Conn().Close(ctx)
	}
	conn.Release()
}

// buildPending reports whether build number build of the customer's
// snapshot is still the one to build.
func (s *Store) buildPending(ctx context.Context, custID string, build int64) (bool, error) {
	var pending bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM snapshots WHERE customer_id = $1 AND build = $2 AND status = $3)`,
		custID, build, kb.SnapshotInProgress).Scan(&pending)
	if err != nil {
		return false, fmt.Errorf("snapshot of %s: %w", custID, err)
	}
	return pending, nil
}

// buildClaimed builds under the claim held on conn, again if it lost a
// race to an import or a POST; built says whether it wrote the build.
func (s *Store) buildClaimed(ctx context.Context, conn *pgxpool.Conn, custID string, build int64) (built bool, err error) {
	for attempt := 0; ; attempt++ {
		built, err = s.buildOnce(ctx, conn, custID, build)
		if err == nil || attempt == buildRetries || !lostRace(err) {
			return built, err
		}
	}
}

// buildOnce writes the segments and marks of build number build of the
// customer's snapshot (kbsnapshot/segments.go), unless it is built or a later
// POST replaced it; built says whether it wrote it. It reads one state of
// the knowledge base (repeatable read): an import committing meanwhile is
// not half seen.
func (s *Store) buildOnce(ctx context.Context, conn *pgxpool.Conn, custID string, build int64) (built bool, err error) {
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		return false, fmt.Errorf("build snapshot of %s: %w", custID, err)
	}
	defer tx.Rollback(context.Background())
	var started func()
	if f := buildStarted.Load(); f != nil {
		started = func() { (*f)(s, custID, build) }
	}
	if built, err = kbsnapshot.BuildSnapshot(ctx, txQuerier{querier{tx}}, custID, build, started); err != nil || !built {
		return false, s.wrote(err)
	}
	if err := tx.Commit(ctx); err != nil {
		return false, s.wrote(fmt.Errorf("build snapshot of %s: %w", custID, err))
	}
	return true, s.wrote(nil)
}

// ResumeSnapshots starts the builds left in progress that no server is
// building (a stopped process's, or a build whose server died): their
// state was frozen at the POST, so the resumed build is exact. Each gives
// up at once if another build holds the claim. The server runs it again
// every resumeEvery (Jobs), so that a build whose claimant dies later is
// resumed without a restart.
func (s *Store) ResumeSnapshots(ctx context.Context) error {
	jobs, err := s.InProgressSnapshots(ctx)
	if err != nil {
		return err
	}
	for cust, build := range jobs {
		s.runBuild(cust, build, false)
	}
	return nil
}
