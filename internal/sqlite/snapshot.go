package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// The freeze copies a customer's state into the snapshot_* tables in the
// POST's transaction: its cost is the number of the customer's
// customisations, not of its holdings.
var freezeStatements = []string{
	`DELETE FROM snapshot_packages WHERE customer_id = :c`,
	`DELETE FROM snapshot_resources WHERE customer_id = :c`,
	`DELETE FROM snapshot_vendors WHERE customer_id = :c`,
	`DELETE FROM snapshot_proxies WHERE customer_id = :c`,
	`INSERT INTO snapshot_packages(customer_id, package_id, selected, hidden, proxy_id)
		SELECT customer_id, package_id, selected, hidden, proxy_id FROM customer_packages WHERE customer_id = :c`,
	`INSERT INTO snapshot_resources(customer_id, package_id, title_id, selected, hidden, custom_coverage, coverage_statement,
			embargo_unit, embargo_value, proxy_id)
		SELECT customer_id, package_id, title_id, selected, hidden, custom_coverage, coverage_statement, embargo_unit, embargo_value, proxy_id
		FROM customer_resources WHERE customer_id = :c`,
	`INSERT INTO snapshot_vendors(customer_id, vendor_id, proxy_id) SELECT customer_id, vendor_id, proxy_id FROM customer_vendors WHERE customer_id = :c`,
	`INSERT INTO snapshot_proxies(customer_id, id, url_mask) SELECT customer_id, id, url_mask FROM proxies WHERE customer_id = :c`,
}

// buildStatement materialises a snapshot from the frozen state and the
// knowledge base in one set-based statement: the selected, visible
// resources (of packages selected as a whole, less their title-level
// deselections, plus titles selected one by one), each with its row count,
// the running row offset, and the effective proxy's URL mask (rule 4:
// resource, package, vendor, root).
const buildStatement = `
INSERT INTO snapshot_rows(customer_id, seq, nrows, package_id, title_id, kbart, title_name, pub_type, package_name,
	vendor_id, vendor_name, url, custom_coverage, coverage_statement, embargo_unit, embargo_value, url_mask)
SELECT :c, 1 + COALESCE(SUM(n) OVER (ORDER BY package_id, title_id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0),
	n, package_id, title_id, kbart, title_name, pub_type, package_name, vendor_id, vendor_name, url, cov, stmt, eu, ev, mask
FROM (
	SELECT s.package_id, s.title_id, r.kbart, t.name AS title_name, t.pub_type, p.name AS package_name, p.vendor_id,
		v.name AS vendor_name, r.url, COALESCE(sr.custom_coverage, '') AS cov, COALESCE(sr.coverage_statement, '') AS stmt,
		COALESCE(sr.embargo_unit, 0) AS eu, COALESCE(sr.embargo_value, 0) AS ev,
		COALESCE((SELECT px.url_mask FROM snapshot_proxies px WHERE px.customer_id = :c
			AND px.id = COALESCE(sr.proxy_id, sp.proxy_id, sv.proxy_id, :root)), '') AS mask,
		CASE WHEN COALESCE(sr.custom_coverage, '') <> '' THEN json_array_length(sr.custom_coverage)
			WHEN r.kbart = '' THEN 1
			ELSE length(r.kbart) - length(replace(r.kbart, char(10), '')) + 1 END AS n
	FROM (
		SELECT r.package_id, r.title_id
		FROM snapshot_packages sp JOIN resources r ON r.package_id = sp.package_id
		LEFT JOIN snapshot_resources sr ON sr.customer_id = :c AND sr.package_id = r.package_id AND sr.title_id = r.title_id
		WHERE sp.customer_id = :c AND sp.selected = 1 AND sp.hidden = 0
			AND COALESCE(sr.selected, 1) = 1 AND COALESCE(sr.hidden, 0) = 0
		UNION ALL
		SELECT sr.package_id, sr.title_id
		FROM snapshot_resources sr
		LEFT JOIN snapshot_packages sp ON sp.customer_id = :c AND sp.package_id = sr.package_id
		WHERE sr.customer_id = :c AND sr.selected = 1 AND sr.hidden = 0
			AND COALESCE(sp.selected, 0) = 0 AND COALESCE(sp.hidden, 0) = 0
	) s
	JOIN resources r ON r.package_id = s.package_id AND r.title_id = s.title_id
	JOIN titles t ON t.id = r.title_id
	JOIN packages p ON p.id = r.package_id
	JOIN vendors v ON v.id = p.vendor_id
	LEFT JOIN snapshot_packages sp ON sp.customer_id = :c AND sp.package_id = s.package_id
	LEFT JOIN snapshot_resources sr ON sr.customer_id = :c AND sr.package_id = s.package_id AND sr.title_id = s.title_id
	LEFT JOIN snapshot_vendors sv ON sv.customer_id = :c AND sv.vendor_id = p.vendor_id
)`

// StartSnapshot freezes the customer's state and starts a build in the
// background. Two racing POSTs start one build: the check and the start are
// one write transaction.
func (s *Store) StartSnapshot(ctx context.Context, custID string, force bool) error {
	var build int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var root string
		err := tx.QueryRowContext(ctx, `SELECT root_proxy FROM customers WHERE id = ?`, custID).Scan(&root)
		if errors.Is(err, sql.ErrNoRows) {
			return kb.NotFound("Customer")
		}
		if err != nil {
			return fmt.Errorf("customer %s: %w", custID, err)
		}
		var status string
		err = tx.QueryRowContext(ctx, `SELECT build, status FROM snapshots WHERE customer_id = ?`, custID).Scan(&build, &status)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("snapshot of %s: %w", custID, err)
		}
		if status == kb.SnapshotInProgress && !force {
			return kb.Errorf(kb.CodeConflict, "A holdings snapshot is already in progress; POST with force=true to replace it.")
		}
		build++
		for _, q := range freezeStatements {
			if _, err := tx.ExecContext(ctx, q, sql.Named("c", custID)); err != nil {
				return fmt.Errorf("freeze holdings of %s: %w", custID, err)
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO snapshots(customer_id, build, status, created, total, error, root_proxy)
			VALUES (?, ?, ?, ?, 0, '', ?)
			ON CONFLICT (customer_id) DO UPDATE SET build = excluded.build, status = excluded.status, created = excluded.created,
				total = 0, error = '', root_proxy = excluded.root_proxy`,
			custID, build, kb.SnapshotInProgress, time.Now().UTC().Format(time.DateTime), root)
		return err
	})
	if err != nil {
		return fmt.Errorf("start snapshot: %w", err)
	}
	s.runBuild(custID, build)
	return nil
}

// runBuild builds a snapshot in the background, for as long as the store
// is open.
func (s *Store) runBuild(custID string, build int64) {
	s.builds.Add(1)
	go func() {
		defer s.builds.Done()
		if err := s.build(s.life, custID, build); err != nil {
			if s.life.Err() != nil {
				return // closing: the build resumes when the store opens again
			}
			slog.Error("holdings snapshot failed", "customer", custID, "build", build, "err", err)
			s.w.ExecContext(context.Background(), `UPDATE snapshots SET status = ?, error = ? WHERE customer_id = ? AND build = ? AND status = ?`,
				kb.SnapshotFailed, err.Error(), custID, build, kb.SnapshotInProgress)
		}
	}()
}

// build materialises build number build of the customer's snapshot, unless
// a later POST replaced it.
func (s *Store) build(ctx context.Context, custID string, build int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var current int64
		var status, root string
		err := tx.QueryRowContext(ctx, `SELECT build, status, root_proxy FROM snapshots WHERE customer_id = ?`, custID).Scan(&current, &status, &root)
		if err != nil {
			return fmt.Errorf("snapshot of %s: %w", custID, err)
		}
		if current != build || status != kb.SnapshotInProgress {
			return nil // replaced by a later POST
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM snapshot_rows WHERE customer_id = ?`, custID); err != nil {
			return fmt.Errorf("clear snapshot of %s: %w", custID, err)
		}
		if _, err := tx.ExecContext(ctx, buildStatement, sql.Named("c", custID), sql.Named("root", root)); err != nil {
			return fmt.Errorf("build snapshot of %s: %w", custID, err)
		}
		var total int
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(nrows), 0) FROM snapshot_rows WHERE customer_id = ?`, custID).Scan(&total); err != nil {
			return fmt.Errorf("count snapshot of %s: %w", custID, err)
		}
		_, err = tx.ExecContext(ctx, `UPDATE snapshots SET status = ?, total = ? WHERE customer_id = ? AND build = ?`,
			kb.SnapshotCompleted, total, custID, build)
		return err
	})
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

// SnapshotStatus returns the state of the customer's snapshot.
func (s *Store) SnapshotStatus(ctx context.Context, custID string) (kb.SnapshotStatus, error) {
	return snapshotStatus(ctx, s.r, custID)
}

func snapshotStatus(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, custID string) (kb.SnapshotStatus, error) {
	st := kb.SnapshotStatus{Status: kb.SnapshotNone}
	err := q.QueryRowContext(ctx, `SELECT status, created, total FROM snapshots WHERE customer_id = ?`, custID).Scan(&st.Status, &st.Created, &st.Total)
	if errors.Is(err, sql.ErrNoRows) {
		var n int
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM customers WHERE id = ?`, custID).Scan(&n); err != nil {
			return st, fmt.Errorf("snapshot status of %s: %w", custID, err)
		}
		if n == 0 {
			return st, kb.NotFound("Customer")
		}
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("snapshot status of %s: %w", custID, err)
	}
	if st.Status != kb.SnapshotCompleted {
		st.Total = 0
	}
	return st, nil
}

// WaitSnapshot polls the customer's snapshot until no build is in progress.
func (s *Store) WaitSnapshot(ctx context.Context, custID string) (kb.SnapshotStatus, error) {
	for {
		st, err := s.SnapshotStatus(ctx, custID)
		if err != nil || st.Status != kb.SnapshotInProgress {
			return st, err
		}
		select {
		case <-ctx.Done():
			return st, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
