package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The freeze copies a customer's state into the snapshot_* tables in the
// POST's transaction: its selections and customisations, and its custom
// packages, which it edits. Its cost is the number of the customer's
// customisations and custom titles, not of its holdings. $1 is the
// customer.
var freezeStatements = []string{
	`DELETE FROM snapshot_packages WHERE customer_id = $1`,
	`DELETE FROM snapshot_resources WHERE customer_id = $1`,
	`DELETE FROM snapshot_vendors WHERE customer_id = $1`,
	`DELETE FROM snapshot_proxies WHERE customer_id = $1`,
	`DELETE FROM snapshot_custom_resources WHERE customer_id = $1`,
	`INSERT INTO snapshot_packages(customer_id, package_id, selected, hidden, proxy_id)
		SELECT customer_id, package_id, selected, hidden, proxy_id FROM customer_packages WHERE customer_id = $1`,
	`INSERT INTO snapshot_resources(customer_id, package_id, title_id, selected, hidden, custom_coverage, coverage_statement,
			embargo_unit, embargo_value, proxy_id)
		SELECT customer_id, package_id, title_id, selected, hidden, custom_coverage, coverage_statement, embargo_unit, embargo_value, proxy_id
		FROM customer_resources WHERE customer_id = $1`,
	`INSERT INTO snapshot_vendors(customer_id, vendor_id, proxy_id)
		SELECT customer_id, vendor_id, proxy_id FROM customer_vendors WHERE customer_id = $1`,
	`INSERT INTO snapshot_proxies(customer_id, id, url_mask) SELECT customer_id, id, url_mask FROM proxies WHERE customer_id = $1`,
	`INSERT INTO snapshot_custom_resources(customer_id, package_id, title_id, url, name, pub_type, publisher, contributors, identifiers)
		SELECT $1, r.package_id, r.title_id, r.url, t.name, t.pub_type, t.publisher, t.contributors, ` + identifiersJSON("r.title_id") + `
		FROM packages p JOIN resources r ON r.package_id = p.id JOIN titles t ON t.id = r.title_id
		WHERE p.customer_id = $1`,
}

// identifiersJSON is the SQL of the identifiers of the title whose id is
// the expression title, as JSON [[subtype,value],...] in the order the
// SQLite store gives them (type, subtype, value).
func identifiersJSON(title string) string {
	return `COALESCE((SELECT json_agg(json_build_array(i.subtype, i.value) ORDER BY i.type, i.subtype, i.value)
		FROM title_identifiers i WHERE i.title_id = ` + title + `)::text, '[]')`
}

// StartSnapshot freezes the customer's state and starts a build in the
// background. Two racing POSTs start one build: the check and the start
// are one transaction under the customer's write lock, which the
// customer's other writes take too, so the frozen state is one state.
func (s *Store) StartSnapshot(ctx context.Context, custID string, force bool) error {
	var build int64
	err := s.customerTx(ctx, custID, func(tx pgx.Tx) error {
		var root string
		err := tx.QueryRow(ctx, `SELECT root_proxy FROM customers WHERE id = $1`, custID).Scan(&root)
		if noRows(err) {
			return kb.NotFound("Customer")
		}
		if err != nil {
			return fmt.Errorf("customer %s: %w", custID, err)
		}
		var status string
		err = tx.QueryRow(ctx, `SELECT build, status FROM snapshots WHERE customer_id = $1`, custID).Scan(&build, &status)
		if err != nil && !noRows(err) {
			return fmt.Errorf("snapshot of %s: %w", custID, err)
		}
		if status == kb.SnapshotInProgress && !force {
			return kb.Errorf(kb.CodeConflict, "A holdings snapshot is already in progress; POST with force=true to replace it.")
		}
		build++
		b := &pgx.Batch{}
		for _, q := range freezeStatements {
			b.Queue(q, custID)
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("freeze holdings of %s: %w", custID, err)
		}
		_, err = tx.Exec(ctx, `INSERT INTO snapshots(customer_id, build, status, created, total, error, root_proxy)
			VALUES ($1, $2, $3, $4, 0, '', $5)
			ON CONFLICT (customer_id) DO UPDATE SET build = excluded.build, status = excluded.status, created = excluded.created,
				total = 0, error = '', root_proxy = excluded.root_proxy`,
			custID, build, kb.SnapshotInProgress, time.Now().UTC().Truncate(time.Second), root)
		if err != nil {
			return fmt.Errorf("snapshot of %s: %w", custID, err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("start snapshot: %w", err)
	}
	s.runBuild(custID, build, true)
	return nil
}

// SnapshotStatus returns the state of the customer's snapshot, whichever
// server builds it.
func (s *Store) SnapshotStatus(ctx context.Context, custID string) (kb.SnapshotStatus, error) {
	return snapshotStatus(ctx, s.pool, custID)
}

// snapshotStatus reads the state of the customer's snapshot through q (the
// pool, or the transaction of a page).
func snapshotStatus(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, custID string) (kb.SnapshotStatus, error) {
	st := kb.SnapshotStatus{Status: kb.SnapshotNone}
	var status *string
	var created *time.Time
	var total *int64
	var customer bool
	err := q.QueryRow(ctx, `SELECT s.status, s.created, s.total, EXISTS (SELECT 1 FROM customers WHERE id = $1)
		FROM (SELECT 1) one LEFT JOIN snapshots s ON s.customer_id = $1`, custID).Scan(&status, &created, &total, &customer)
	if err != nil {
		return st, fmt.Errorf("snapshot status of %s: %w", custID, err)
	}
	if status == nil {
		if !customer {
			return st, kb.NotFound("Customer")
		}
		return st, nil
	}
	st.Status, st.Created = *status, created.UTC().Format(time.DateTime)
	if st.Status == kb.SnapshotCompleted {
		st.Total = int(*total)
	}
	return st, nil
}

// WaitSnapshot polls the customer's snapshot until no build is in progress,
// whichever server builds it.
func (s *Store) WaitSnapshot(ctx context.Context, custID string) (kb.SnapshotStatus, error) {
	return kbsql.WaitSnapshot(ctx, func(ctx context.Context) (kb.SnapshotStatus, error) { return s.SnapshotStatus(ctx, custID) })
}
