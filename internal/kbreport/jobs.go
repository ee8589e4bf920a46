package kbreport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The holdings reports' background work: the builds of transactions and
// deltas, and the pass that purges expired reports and resumes builds
// left behind (ResumeReports, which the server runs periodically). A
// build holds a lease on its report (the lease column), renewed with
// every batch it writes; a build whose lease has passed (its process
// stopped or died) is taken up again from the start by the next pass, on
// any server over the database: a transaction's customer state is frozen
// at its POST, so the resumed build is exact.

// reportLease is how long a build holds its report between two renewals.
const reportLease = 5 * time.Minute

// lease is the lease a build holds on its report: the time the lease
// runs to. Each one is taken afresh and stored exactly (to the
// microsecond, which both engines keep), so a renewal that finds another
// value knows that another build has taken the report over: a build whose
// lease lapsed (a long pause) then stops before it writes again, instead
// of writing beside its successor.
type lease struct{ until time.Time }

// newLease returns a lease that runs reportLease from now.
func newLease() *lease {
	return &lease{until: time.Now().UTC().Add(reportLease).Truncate(time.Microsecond)}
}

// renew extends the lease of report num in the caller's transaction;
// errLeaseLost when the report is no longer this build's (taken over by
// another build, purged, or failed meanwhile).
func (l *lease) renew(ctx context.Context, tx kbsql.Tx, k reportKind, num int64) error {
	next := newLease().until
	n, err := tx.Exec(ctx, `UPDATE `+k.table+` SET lease = $1 WHERE num = $2 AND status = $3 AND lease = $4`,
		next, num, k.inProgress, l.until)
	if err != nil {
		return fmt.Errorf("renew the lease of %s %d: %w", k.name, num, err)
	}
	if n != 1 {
		return errLeaseLost
	}
	l.until = next
	return nil
}

// SweepEvery is how often the server runs ResumeReports (kb.JobReports).
const SweepEvery = time.Minute

// reportJobs runs the report builds of one store, until it closes.
type reportJobs struct {
	ctx       context.Context // ends when the store closes
	stop      context.CancelFunc
	mu        sync.Mutex // orders run's wg.Add before StopReports' wg.Wait
	wg        sync.WaitGroup
	retention atomic.Int64 // nanoseconds; 0 for kb.DefaultReportRetention
}

func newReportJobs() *reportJobs {
	j := &reportJobs{}
	j.ctx, j.stop = context.WithCancel(context.Background())
	return j
}

// run runs fn in the background until it returns or the store closes;
// after StopReports it runs nothing (the report keeps its lease, which the
// next process takes up once it lapses).
func (j *reportJobs) run(name, id string, fn func(ctx context.Context) error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.ctx.Err() != nil {
		return
	}
	j.wg.Add(1)
	go func() {
		defer j.wg.Done()
		if err := fn(j.ctx); err != nil && j.ctx.Err() == nil {
			slog.Error("holdings report failed", "report", name, "id", id, "err", err)
		}
	}()
}

// StopReports stops the reports' background work and waits for it: a
// build stopped midway gives up its lease, so the next process to resume
// reports takes it up. An engine's Close calls it before closing the
// database.
func (s *Reports) StopReports() {
	s.jobs.mu.Lock()
	s.jobs.stop()
	s.jobs.mu.Unlock()
	s.jobs.wg.Wait()
}

// SetReportRetention implements kb.ReportStore.
func (s *Reports) SetReportRetention(d time.Duration) { s.jobs.retention.Store(int64(d)) }

// reportRetention is how long a new transaction is kept.
func (s *Reports) reportRetention() time.Duration {
	if d := time.Duration(s.jobs.retention.Load()); d > 0 {
		return d
	}
	return kb.DefaultReportRetention
}

// ResumeReports implements kb.ReportStore: one pass, which the server
// runs again every SweepEvery (kb.JobReports).
func (s *Reports) ResumeReports(ctx context.Context) error { return s.sweepReports(ctx) }

// sweepReports purges the expired reports and starts the builds in
// progress whose lease has passed, claiming each.
func (s *Reports) sweepReports(ctx context.Context) error {
	if _, err := s.PurgeReports(ctx); err != nil {
		return err
	}
	for _, k := range []reportKind{transactionReports, deltaReports} {
		ids, err := kbsql.QueryAll(ctx, s.e.Read(), `SELECT id FROM `+k.table+` WHERE status = $1 AND lease < $2`,
			[]any{k.inProgress, time.Now().UTC()}, func(r kbsql.Rows) (id string, err error) { return id, r.Scan(&id) })
		if err != nil {
			return fmt.Errorf("resume %s: %w", k.table, err)
		}
		for _, id := range ids {
			l, err := s.claimReport(ctx, k, id)
			if err != nil {
				return err
			}
			if l != nil {
				s.startReport(k, id, l)
			}
		}
	}
	return nil
}

// reportKind tells transactions and deltas apart in the shared work.
type reportKind struct {
	name, table, rows, rowsKey string
	inProgress, failed         string
	notFound                   string // the kind in kb.NotFound
}

var (
	transactionReports = reportKind{name: "transaction", table: "report_transactions", rows: "report_rows", rowsKey: "report_num",
		inProgress: kb.TransactionInProgress, failed: kb.TransactionFailed, notFound: "Transaction"}
	deltaReports = reportKind{name: "delta", table: "report_deltas", rows: "report_delta_rows", rowsKey: "delta_num",
		inProgress: kb.DeltaInProgress, failed: kb.DeltaFailed, notFound: "Delta"}
)

// claimReport takes a new lease of a report in progress whose lease has
// passed; nil when another process took it first.
func (s *Reports) claimReport(ctx context.Context, k reportKind, id string) (*lease, error) {
	l := newLease()
	var claimed bool
	err := s.e.Write(ctx, "", func(tx kbsql.Tx) error {
		n, err := tx.Exec(ctx, `UPDATE `+k.table+` SET lease = $1 WHERE id = $2 AND status = $3 AND lease < $4`,
			l.until, id, k.inProgress, time.Now().UTC())
		claimed = n == 1
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("claim %s %s: %w", k.name, id, err)
	}
	if !claimed {
		return nil, nil
	}
	return l, nil
}

// startReport runs the build of a report whose lease l this process holds.
func (s *Reports) startReport(k reportKind, id string, l *lease) {
	build := s.buildTransaction
	if k == deltaReports {
		build = s.buildDelta
	}
	s.jobs.run(k.name, id, func(ctx context.Context) error {
		err := build(ctx, id, l)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, errLeaseLost):
			// Another build took the report over (this one paused past
			// its lease), or it was purged: that build decides its end.
			slog.Info("holdings report: lease lost, the build stops", "report", k.name, "id", id)
			return nil
		case ctx.Err() != nil:
			// Closing: give the lease up, so that the next process resumes
			// the build at once.
			bg, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if lerr := s.e.Write(bg, "", func(tx kbsql.Tx) error {
				_, err := tx.Exec(bg, `UPDATE `+k.table+` SET lease = $1 WHERE id = $2 AND status = $3 AND lease = $4`,
					time.Time{}.UTC(), id, k.inProgress, l.until)
				return err
			}); lerr != nil {
				slog.Warn("holdings report: give the lease up", "report", k.name, "id", id, "err", lerr)
			}
			return err
		}
		if ferr := s.failReport(context.Background(), k, id, err); ferr != nil {
			slog.Error("holdings report failed: record the failure", "report", k.name, "id", id, "err", ferr)
		}
		return err
	})
}

// errLeaseLost stops a build whose report is gone or no longer in progress.
var errLeaseLost = fmt.Errorf("the report is no longer in progress")

// failReport marks a report in progress failed with the error's message
// and deletes its rows.
func (s *Reports) failReport(ctx context.Context, k reportKind, id string, cause error) error {
	var num int64
	err := s.e.Write(ctx, "", func(tx kbsql.Tx) error {
		err := tx.QueryRow(ctx, `UPDATE `+k.table+` SET status = $1, error = $2 WHERE id = $3 AND status = $4 RETURNING num`,
			k.failed, cause.Error(), id, k.inProgress).Scan(&num)
		if kbsql.NoRows(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if k == transactionReports {
			return clearSnapshotKey(ctx, tx, reportKey(id))
		}
		return nil
	})
	if err != nil || num == 0 {
		return err
	}
	return s.deleteReportRows(ctx, k, num, nil)
}

// reportDeleteChunk is the most table rows (of reportChunk report rows)
// one transaction of a report's deletion deletes: on SQLite, the writer is
// never held long.
const reportDeleteChunk = 500

// deleteReportRows deletes the rows of report num, a chunk a transaction;
// a build deleting an earlier attempt's rows renews its lease l in each
// (nil: the report is no longer in progress).
func (s *Reports) deleteReportRows(ctx context.Context, k reportKind, num int64, l *lease) error {
	for {
		var n int64
		err := s.e.Write(ctx, "", func(tx kbsql.Tx) error {
			if l != nil {
				if err := l.renew(ctx, tx, k, num); err != nil {
					return err
				}
			}
			var err error
			n, err = tx.Exec(ctx, `DELETE FROM `+k.rows+` WHERE `+k.rowsKey+` = $1 AND seq <= (
				SELECT seq FROM (SELECT seq FROM `+k.rows+` WHERE `+k.rowsKey+` = $1 ORDER BY seq LIMIT $2) f ORDER BY seq DESC LIMIT 1)`,
				num, reportDeleteChunk)
			return err
		})
		if err != nil {
			return fmt.Errorf("delete the rows of %s %d: %w", k.name, num, err)
		}
		if n == 0 {
			return nil
		}
	}
}

// reportPurging is the status of an expired report being deleted: a build
// still running on it can no longer renew its lease, so it writes no more
// rows.
const reportPurging = "Purging"

// PurgeReports implements kb.ReportStore. A delta expires with the earlier
// of its two transactions, so it never outlives either. An expired report
// is first marked purging (which stops its build), then its rows go a
// chunk at a time, then the report: a purge cut short is finished by the
// next.
func (s *Reports) PurgeReports(ctx context.Context) (int, error) {
	purged := 0
	for _, k := range []reportKind{deltaReports, transactionReports} {
		type expired struct {
			num int64
			id  string
		}
		gone, err := kbsql.QueryAll(ctx, s.e.Read(), `SELECT num, id FROM `+k.table+` WHERE expires <= $1`, []any{time.Now().UTC()},
			func(r kbsql.Rows) (g expired, err error) { return g, r.Scan(&g.num, &g.id) })
		if err != nil {
			return purged, fmt.Errorf("purge %s: %w", k.table, err)
		}
		for _, g := range gone {
			if err := s.e.Write(ctx, "", func(tx kbsql.Tx) error {
				_, err := tx.Exec(ctx, `UPDATE `+k.table+` SET status = $1 WHERE num = $2`, reportPurging, g.num)
				return err
			}); err != nil {
				return purged, fmt.Errorf("purge %s %s: %w", k.name, g.id, err)
			}
			if err := s.deleteReportRows(ctx, k, g.num, nil); err != nil {
				return purged, err
			}
			err := s.e.Write(ctx, "", func(tx kbsql.Tx) error {
				if k == transactionReports {
					if err := clearSnapshotKey(ctx, tx, reportKey(g.id)); err != nil {
						return err
					}
				}
				_, err := tx.Exec(ctx, `DELETE FROM `+k.table+` WHERE num = $1`, g.num)
				return err
			})
			if err != nil {
				return purged, fmt.Errorf("purge %s %s: %w", k.name, g.id, err)
			}
			purged++
		}
	}
	return purged, nil
}
