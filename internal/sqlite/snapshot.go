package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The freeze copies a customer's state into the snapshot_* tables in the
// POST's transaction: its selections and customisations, and its custom
// packages, which it edits. Its cost is the number of the customer's
// customisations and custom titles, not of its holdings.
var freezeStatements = []string{
	`DELETE FROM snapshot_packages WHERE customer_id = :c`,
	`DELETE FROM snapshot_resources WHERE customer_id = :c`,
	`DELETE FROM snapshot_vendors WHERE customer_id = :c`,
	`DELETE FROM snapshot_proxies WHERE customer_id = :c`,
	`DELETE FROM snapshot_custom_resources WHERE customer_id = :c`,
	`INSERT INTO snapshot_packages(customer_id, package_id, selected, hidden, proxy_id)
		SELECT customer_id, package_id, selected, hidden, proxy_id FROM customer_packages WHERE customer_id = :c`,
	`INSERT INTO snapshot_resources(customer_id, package_id, title_id, selected, hidden, custom_coverage, coverage_statement,
			embargo_unit, embargo_value, proxy_id)
		SELECT customer_id, package_id, title_id, selected, hidden, custom_coverage, coverage_statement, embargo_unit, embargo_value, proxy_id
		FROM customer_resources WHERE customer_id = :c`,
	`INSERT INTO snapshot_vendors(customer_id, vendor_id, proxy_id) SELECT customer_id, vendor_id, proxy_id FROM customer_vendors WHERE customer_id = :c`,
	`INSERT INTO snapshot_proxies(customer_id, id, url_mask) SELECT customer_id, id, url_mask FROM proxies WHERE customer_id = :c`,
	`INSERT INTO snapshot_custom_resources(customer_id, package_id, title_id, url, name, pub_type, publisher, contributors, identifiers)
		SELECT :c, r.package_id, r.title_id, r.url, t.name, t.pub_type, t.publisher, t.contributors,
			(SELECT json_group_array(json_array(subtype, value)) FROM
				(SELECT subtype, value FROM title_identifiers WHERE title_id = r.title_id ORDER BY type, subtype, value))
		FROM packages p CROSS JOIN resources r ON r.package_id = p.id JOIN titles t ON t.id = r.title_id
		WHERE p.customer_id = :c`,
}

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
	return kbsql.WaitSnapshot(ctx, func(ctx context.Context) (kb.SnapshotStatus, error) { return s.SnapshotStatus(ctx, custID) })
}
