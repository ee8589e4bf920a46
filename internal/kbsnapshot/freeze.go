// Package kbsnapshot is the holdings snapshot of a customer (kb.SnapshotStore
// but the start of a build, which is the engine's): the freeze of the
// customer's state at the POST, the build of its segments and marks, its
// status and its pages, written once over the engine seam of
// internal/kbsql. An engine's store embeds a Snapshots and runs the builds
// its own way (internal/sqlite on its one writer, internal/postgres
// claimed among the instances over the database); the holdings reports
// (internal/kbreport) freeze and build under keys of their own.
package kbsnapshot

import (
	"context"
	"fmt"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// Snapshots reads and writes holdings snapshots over an engine.
type Snapshots struct {
	e kbsql.Engine
	d kbsql.Dialect
}

// New returns the snapshots over an engine.
func New(e kbsql.Engine) *Snapshots { return &Snapshots{e: e, d: e.Dialect()} }

// FreezeStatements copy a customer's state into the snapshot_* tables
// under key (the customer's id for its holdings snapshot; a holdings
// report's own key, reportKey, for a transaction), in the caller's
// transaction: its selections and customisations, and its custom
// packages, which it edits. Their cost is the number of the customer's
// customisations and custom titles, not of its holdings.
func (s *Snapshots) FreezeStatements(custID, key string) []kbsql.Stmt {
	clear := func(table string) kbsql.Stmt {
		return kbsql.Stmt{SQL: `DELETE FROM ` + table + ` WHERE customer_id = $1`, Args: []any{key}}
	}
	both := []any{custID, key}
	return []kbsql.Stmt{
		clear("snapshot_packages"), clear("snapshot_resources"), clear("snapshot_vendors"), clear("snapshot_proxies"),
		clear("snapshot_custom_resources"),
		{SQL: `INSERT INTO snapshot_packages(customer_id, package_id, selected, hidden, proxy_id)
			SELECT CAST($2 AS TEXT), package_id, selected, hidden, proxy_id FROM customer_packages WHERE customer_id = $1`, Args: both},
		{SQL: `INSERT INTO snapshot_resources(customer_id, package_id, title_id, selected, hidden, custom_coverage, coverage_statement,
				embargo_unit, embargo_value, proxy_id)
			SELECT CAST($2 AS TEXT), package_id, title_id, selected, hidden, custom_coverage, coverage_statement, embargo_unit, embargo_value, proxy_id
			FROM customer_resources WHERE customer_id = $1`, Args: both},
		{SQL: `INSERT INTO snapshot_vendors(customer_id, vendor_id, proxy_id)
			SELECT CAST($2 AS TEXT), vendor_id, proxy_id FROM customer_vendors WHERE customer_id = $1`, Args: both},
		{SQL: `INSERT INTO snapshot_proxies(customer_id, id, url_mask) SELECT CAST($2 AS TEXT), id, url_mask FROM proxies WHERE customer_id = $1`, Args: both},
		{SQL: `INSERT INTO snapshot_custom_resources(customer_id, package_id, title_id, url, name, pub_type, publisher, contributors, identifiers)
			SELECT CAST($2 AS TEXT), r.package_id, r.title_id, r.url, t.name, t.pub_type, t.publisher, t.contributors, ` + s.d.IdentifiersJSON("r.title_id") + `
			FROM packages p ` + s.d.FixedJoin() + ` resources r ON r.package_id = p.id JOIN titles t ON t.id = r.title_id
			WHERE p.customer_id = $1`, Args: both},
	}
}

// FreezeSnapshot starts build number build of the customer's snapshot: it
// freezes the customer's state and marks the snapshot in progress, in one
// write transaction under the customer's lock, so that two racing POSTs
// start one build and the frozen state is one state. The engine then
// builds it (BuildSnapshot) in the background.
func (s *Snapshots) FreezeSnapshot(ctx context.Context, custID string, force bool) (build int64, err error) {
	err = s.e.Write(ctx, custID, func(tx kbsql.Tx) error {
		var root string
		err := tx.QueryRow(ctx, `SELECT root_proxy FROM customers WHERE id = $1`, custID).Scan(&root)
		if kbsql.NoRows(err) {
			return kb.NotFound("Customer")
		}
		if err != nil {
			return fmt.Errorf("customer %s: %w", custID, err)
		}
		var status string
		err = tx.QueryRow(ctx, `SELECT build, status FROM snapshots WHERE customer_id = $1`, custID).Scan(&build, &status)
		if err != nil && !kbsql.NoRows(err) {
			return fmt.Errorf("snapshot of %s: %w", custID, err)
		}
		if status == kb.SnapshotInProgress && !force {
			return kb.Errorf(kb.CodeConflict, "A holdings snapshot is already in progress; POST with force=true to replace it.")
		}
		build++
		if err := kbsql.ExecAll(ctx, tx, s.FreezeStatements(custID, custID)...); err != nil {
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
		return 0, fmt.Errorf("start snapshot: %w", err)
	}
	return build, nil
}

// SnapshotStatus returns the state of the customer's snapshot, whichever
// server builds it.
func (s *Snapshots) SnapshotStatus(ctx context.Context, custID string) (kb.SnapshotStatus, error) {
	return snapshotStatus(ctx, s.e.Read(), custID)
}

// snapshotStatus reads the state of the customer's snapshot through q (the
// readers, or the transaction of a page).
func snapshotStatus(ctx context.Context, q kbsql.Querier, custID string) (kb.SnapshotStatus, error) {
	st := kb.SnapshotStatus{Status: kb.SnapshotNone}
	var status *string
	var created kbsql.Time
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
	st.Status, st.Created = *status, created.T.UTC().Format(time.DateTime)
	if st.Status == kb.SnapshotCompleted {
		st.Total = int(*total)
	}
	return st, nil
}

// WaitSnapshot polls the customer's snapshot until no build is in progress,
// whichever server builds it.
func (s *Snapshots) WaitSnapshot(ctx context.Context, custID string) (kb.SnapshotStatus, error) {
	return WaitSnapshot(ctx, func(ctx context.Context) (kb.SnapshotStatus, error) { return s.SnapshotStatus(ctx, custID) })
}

// BuildSnapshot writes the segments and marks of build number build of
// the customer's snapshot in the engine's transaction tx, unless it is
// built or a later POST replaced it: built says whether it wrote it.
// started, when not nil, is called once the build is found still to
// build, before it writes (tests stop a build there).
func BuildSnapshot(ctx context.Context, tx kbsql.Tx, custID string, build int64, started func()) (built bool, err error) {
	var current int64
	var status, root string
	err = tx.QueryRow(ctx, `SELECT build, status, root_proxy FROM snapshots WHERE customer_id = $1`, custID).Scan(&current, &status, &root)
	if err != nil {
		return false, fmt.Errorf("snapshot of %s: %w", custID, err)
	}
	if current != build || status != kb.SnapshotInProgress {
		return false, nil // built, or replaced by a later POST
	}
	if started != nil {
		started()
	}
	if err := kbsql.ExecAll(ctx, tx, kbsql.Stmt{SQL: `DELETE FROM snapshot_segments WHERE customer_id = $1`, Args: []any{custID}},
		kbsql.Stmt{SQL: `DELETE FROM snapshot_marks WHERE customer_id = $1`, Args: []any{custID}}); err != nil {
		return false, fmt.Errorf("clear snapshot of %s: %w", custID, err)
	}
	total, err := WriteSegments(ctx, tx, custID, root)
	if err != nil {
		return false, fmt.Errorf("build snapshot of %s: %w", custID, err)
	}
	if _, err := tx.Exec(ctx, `UPDATE snapshots SET status = $1, total = $2 WHERE customer_id = $3 AND build = $4`,
		kb.SnapshotCompleted, total, custID, build); err != nil {
		return false, fmt.Errorf("build snapshot of %s: %w", custID, err)
	}
	return true, nil
}

// FailSnapshot marks build number build of the customer's snapshot failed
// with the error's message, unless a later POST replaced it.
func FailSnapshot(ctx context.Context, e kbsql.Engine, custID string, build int64, cause error) error {
	return e.Write(ctx, "", func(tx kbsql.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE snapshots SET status = $1, error = $2 WHERE customer_id = $3 AND build = $4 AND status = $5`,
			kb.SnapshotFailed, cause.Error(), custID, build, kb.SnapshotInProgress)
		return err
	})
}

// InProgressSnapshots lists the builds left in progress (a stopped
// process's, or a build whose server died), by customer.
func (s *Snapshots) InProgressSnapshots(ctx context.Context) (map[string]int64, error) {
	jobs := map[string]int64{}
	err := kbsql.EachRow(ctx, s.e.Read(), `SELECT customer_id, build FROM snapshots WHERE status = $1`, []any{kb.SnapshotInProgress},
		func(r kbsql.Rows) error {
			var cust string
			var build int64
			if err := r.Scan(&cust, &build); err != nil {
				return err
			}
			jobs[cust] = build
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("resume snapshots: %w", err)
	}
	return jobs, nil
}
