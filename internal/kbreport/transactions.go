package kbreport

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsnapshot"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// A holdings transaction reuses the holdings snapshot's freeze and build:
// its POST freezes the customer's state under a key of its own
// (reportKey, which no customer id can be, so the customer's own snapshot
// is untouched); its build writes the snapshot's segments under that key,
// streams the snapshot's rows (Holdings) into report_rows in batches, and
// then deletes the frozen state. Its rows are therefore exactly what GET
// holdings would serve for a snapshot POSTed at the same moment.

// reportKey is the snapshot key of transaction id's frozen state: customer
// ids have no spaces.
func reportKey(id string) string { return "report " + id }

// reportBatch is the number of rows a build writes a transaction.
const reportBatch = 4096

// StartTransaction implements kb.ReportStore: in one write transaction
// under the customer's lock, so that two racing POSTs start one.
func (s *Reports) StartTransaction(ctx context.Context, custID string) (t kb.Transaction, running bool, err error) {
	now := time.Now().UTC().Truncate(time.Second)
	t = kb.Transaction{ID: kb.NewUUID(), Customer: custID, Status: kb.TransactionInProgress, Created: now,
		Expires: now.Add(s.reportRetention())}
	l := newLease()
	err = s.e.Write(ctx, custID, func(tx kbsql.Tx) error {
		var root string
		err := tx.QueryRow(ctx, `SELECT root_proxy FROM customers WHERE id = $1`, custID).Scan(&root)
		if kbsql.NoRows(err) {
			return kb.NotFound("Customer")
		}
		if err != nil {
			return err
		}
		var created, expires kbsql.Time
		err = tx.QueryRow(ctx, `SELECT id, created, expires FROM report_transactions
			WHERE customer_id = $1 AND status = $2 AND expires > $3 ORDER BY created DESC, num DESC LIMIT 1`,
			custID, kb.TransactionInProgress, now).Scan(&t.ID, &created, &expires)
		if err == nil {
			running = true
			t.Created, t.Expires = created.T.UTC(), expires.T.UTC()
			return nil
		}
		if !kbsql.NoRows(err) {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO report_transactions(id, customer_id, status, created, expires, root_proxy, lease)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			t.ID, custID, t.Status, t.Created, t.Expires, root, l.until); err != nil {
			return err
		}
		return kbsql.ExecAll(ctx, tx, s.snap.FreezeStatements(custID, reportKey(t.ID))...)
	})
	if err != nil {
		return t, false, fmt.Errorf("start holdings transaction of %s: %w", custID, err)
	}
	if !running {
		s.startReport(transactionReports, t.ID, l)
	}
	return t, running, nil
}

// transactionColumns are the columns scanTransaction reads.
const transactionColumns = `id, customer_id, status, created, expires, total`

// scanTransaction reads transactionColumns, then the columns of more.
func scanTransaction(r kbsql.Row, more ...any) (kb.Transaction, error) {
	var t kb.Transaction
	var created, expires kbsql.Time
	err := r.Scan(append([]any{&t.ID, &t.Customer, &t.Status, &created, &expires, &t.Total}, more...)...)
	t.Created, t.Expires = created.T.UTC(), expires.T.UTC()
	return t, err
}

// Transactions implements kb.ReportStore.
func (s *Reports) Transactions(ctx context.Context, custID string) ([]kb.Transaction, error) {
	ts, err := kbsql.QueryAll(ctx, s.e.Read(), `SELECT `+transactionColumns+` FROM report_transactions
		WHERE customer_id = $1 AND expires > $2 AND status <> $3 ORDER BY created DESC, num DESC`,
		[]any{custID, time.Now().UTC(), reportPurging}, func(r kbsql.Rows) (kb.Transaction, error) { return scanTransaction(r) })
	if err != nil {
		return nil, fmt.Errorf("holdings transactions of %s: %w", custID, err)
	}
	return ts, nil
}

// Transaction implements kb.ReportStore.
func (s *Reports) Transaction(ctx context.Context, custID, id string) (kb.Transaction, error) {
	t, _, err := transaction(ctx, s.e.Read(), custID, id)
	return t, err
}

// transaction reads one of the customer's unexpired transactions and its
// num through q; kb.NotFound when there is none.
func transaction(ctx context.Context, q kbsql.Querier, custID, id string) (kb.Transaction, int64, error) {
	return readReport(ctx, q, transactionReports, transactionColumns, scanTransaction, custID, id)
}

// readReport reads one of the customer's unexpired reports of kind k
// (cols, read by scan) and its num through q; kb.NotFound when there is
// none.
func readReport[R any](ctx context.Context, q kbsql.Querier, k reportKind, cols string, scan func(kbsql.Row, ...any) (R, error),
	custID, id string) (R, int64, error) {
	var num int64
	r, err := scan(q.QueryRow(ctx, `SELECT `+cols+`, num FROM `+k.table+`
		WHERE id = $1 AND customer_id = $2 AND expires > $3 AND status <> $4`, id, custID, time.Now().UTC(), reportPurging), &num)
	if kbsql.NoRows(err) {
		return r, 0, kb.NotFound(k.notFound)
	}
	if err != nil {
		return r, 0, fmt.Errorf("holdings %s %s of %s: %w", k.name, id, custID, err)
	}
	return r, num, nil
}

// TransactionHoldings implements kb.ReportStore: a seek on the rows' seq,
// in one read transaction.
func (s *Reports) TransactionHoldings(ctx context.Context, custID, id string, offset, count int, fn func(*kb.ReportHolding) error) error {
	return s.e.ReadTx(ctx, func(q kbsql.Querier) error {
		t, num, err := transaction(ctx, q, custID, id)
		if err != nil {
			return err
		}
		switch t.Status {
		case kb.TransactionInProgress:
			return kb.Errorf(kb.CodeConflict, "The holdings transaction %s is in progress; GET its status until it is Complete.", id)
		case kb.TransactionFailed:
			return kb.Errorf(kb.CodeNotFound, "The holdings transaction %s failed: POST reports/holdings again.", id)
		}
		return readReportRows(ctx, q, transactionReports, num, offset, count, fn)
	})
}

// readReportRows gives fn count rows (all when count <= 0) of report num
// from the 1-based row offset, in order: a seek to the chunk holding the
// offset, then the chunks the page needs.
func readReportRows(ctx context.Context, q kbsql.Querier, k reportKind, num int64, offset, count int, fn func(*kb.ReportHolding) error) error {
	row := int64(max(offset, 1))
	first := chunkStart(row)
	skip := row - first
	args := []any{num, first}
	limit := ""
	if count > 0 {
		limit = " LIMIT $3"
		args = append(args, (skip+int64(count)+reportChunk-1)/reportChunk)
	}
	var h kb.ReportHolding
	left := count // rows still to give; -1 for all
	if count <= 0 {
		left = -1
	}
	err := kbsql.EachRow(ctx, q, `SELECT body FROM `+k.rows+` WHERE `+k.rowsKey+` = $1 AND seq >= $2 ORDER BY seq`+limit, args,
		func(r kbsql.Rows) error {
			var body string
			if err := r.Scan(&body); err != nil {
				return err
			}
			return eachReportLine(body, func(l reportLine) error {
				switch {
				case skip > 0:
					skip--
					return nil
				case left == 0:
					return nil
				}
				if err := decodeReportRow(l.vals, &h); err != nil {
					return err
				}
				h.TitleID, h.Change = l.title, l.change
				left--
				return fn(&h)
			})
		})
	if err != nil {
		return fmt.Errorf("rows of %s %d: %w", k.name, num, err)
	}
	return nil
}

// clearSnapshotKey deletes the snapshot state kept under key, in the
// caller's transaction.
func clearSnapshotKey(ctx context.Context, tx kbsql.Tx, key string) error {
	var stmts []kbsql.Stmt
	for _, t := range []string{"snapshots", "snapshot_packages", "snapshot_resources", "snapshot_vendors", "snapshot_proxies",
		"snapshot_custom_resources", "snapshot_segments", "snapshot_marks"} {
		stmts = append(stmts, kbsql.Stmt{SQL: `DELETE FROM ` + t + ` WHERE customer_id = $1`, Args: []any{key}})
	}
	if err := kbsql.ExecAll(ctx, tx, stmts...); err != nil {
		return fmt.Errorf("clear the frozen state %q: %w", key, err)
	}
	return nil
}

// buildTransaction writes the rows of transaction id, whose lease this
// process holds: the segments of its frozen state, then its rows a batch
// (and a lease renewal) a write transaction, then its status. Rows of an
// earlier attempt are deleted first.
func (s *Reports) buildTransaction(ctx context.Context, id string, l *lease) error {
	var num int64
	var cust, status, root string
	err := s.e.Read().QueryRow(ctx, `SELECT num, customer_id, status, root_proxy FROM report_transactions WHERE id = $1`, id).
		Scan(&num, &cust, &status, &root)
	if kbsql.NoRows(err) {
		return nil // purged meanwhile
	}
	if err != nil {
		return fmt.Errorf("holdings transaction %s: %w", id, err)
	}
	if status != kb.TransactionInProgress {
		return nil
	}
	if err := s.deleteReportRows(ctx, transactionReports, num, l); err != nil {
		return err
	}
	key := reportKey(id)
	err = s.e.Write(ctx, "", func(tx kbsql.Tx) error {
		if err := l.renew(ctx, tx, transactionReports, num); err != nil {
			return err
		}
		if err := kbsql.ExecAll(ctx, tx, kbsql.Stmt{SQL: `DELETE FROM snapshot_segments WHERE customer_id = $1`, Args: []any{key}},
			kbsql.Stmt{SQL: `DELETE FROM snapshot_marks WHERE customer_id = $1`, Args: []any{key}}); err != nil {
			return err
		}
		total, err := kbsnapshot.WriteSegments(ctx, tx, key, root)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO snapshots(customer_id, build, status, created, total, error, root_proxy)
			VALUES ($1, 1, $2, $3, $4, '', $5)
			ON CONFLICT (customer_id) DO UPDATE SET status = excluded.status, total = excluded.total`,
			key, kb.SnapshotCompleted, time.Now().UTC().Truncate(time.Second), total, root)
		return err
	})
	if err != nil {
		return fmt.Errorf("build holdings transaction %s: %w", id, err)
	}
	types, err := s.segmentContentTypes(ctx, key)
	if err != nil {
		return err
	}
	w := reportWriter{s: s, k: transactionReports, num: num, lease: l}
	var rh kb.ReportHolding
	var pkgText string
	var pkg int64
	// One read transaction for the whole build: the rows are one
	// consistent view even when an import runs meanwhile (the frozen
	// state keeps the customer's side, the read transaction the
	// knowledge base's).
	err = s.snap.Holdings(ctx, key, 1, 0, func(h *kb.Holding) error {
		if h.Values[26] != pkgText {
			if pkg, err = strconv.ParseInt(h.Values[26], 10, 64); err != nil {
				return fmt.Errorf("package_id %q: %w", h.Values[26], err)
			}
			pkgText = h.Values[26]
		}
		rh.Holding = *h
		rh.ContentType = types[pkg]
		return w.add(ctx, pkg, h.TitleID, kb.ChangeNone, encodeReportRow(&rh))
	})
	if err != nil {
		return fmt.Errorf("build holdings transaction %s: %w", id, err)
	}
	return w.finish(ctx, func(tx kbsql.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE report_transactions SET status = $1, total = $2 WHERE num = $3`,
			kb.TransactionComplete, w.seq, num); err != nil {
			return err
		}
		return clearSnapshotKey(ctx, tx, key)
	})
}

// segmentContentTypes returns the content types (display form) of the
// packages of the snapshot kept under key, by package id.
func (s *Reports) segmentContentTypes(ctx context.Context, key string) (map[int64]string, error) {
	types := map[int64]string{}
	err := kbsql.EachRow(ctx, s.e.Read(), `SELECT sg.package_id, p.content_type FROM snapshot_segments sg JOIN packages p ON p.id = sg.package_id
		WHERE sg.customer_id = $1`, []any{key}, func(r kbsql.Rows) error {
		var id int64
		var ct int
		if err := r.Scan(&id, &ct); err != nil {
			return err
		}
		types[id] = kb.ContentType(ct).Display()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("content types of %q: %w", key, err)
	}
	return types, nil
}

// reportWriter writes a report's rows, reportChunk to a table row and
// reportBatch to a write transaction, each with a renewal of the report's
// lease.
type reportWriter struct {
	s      *Reports
	k      reportKind
	num    int64
	lease  *lease // the build's, renewed with every batch
	body   []byte // the chunk being filled
	inBody int    // its rows
	batch  [][]any
	seq    int64 // rows added
}

// add adds a row (its number is w.seq+1), writing the batch when it is
// full.
func (w *reportWriter) add(ctx context.Context, pkg, title int64, change kb.ChangeType, vals string) error {
	if w.inBody > 0 {
		w.body = append(w.body, '\n')
	}
	w.body = appendReportLine(w.body, pkg, title, change, vals)
	w.inBody++
	w.seq++
	if w.inBody < reportChunk {
		return nil
	}
	w.closeChunk()
	if len(w.batch)*reportChunk < reportBatch {
		return nil
	}
	return w.flush(ctx, nil)
}

// closeChunk moves the chunk being filled to the batch.
func (w *reportWriter) closeChunk() {
	if w.inBody == 0 {
		return
	}
	w.batch = append(w.batch, []any{w.num, w.seq - int64(w.inBody) + 1, w.inBody, string(w.body)})
	w.body, w.inBody = w.body[:0], 0
}

// flush writes the batch, and then runs then (when not nil) in the same
// transaction.
func (w *reportWriter) flush(ctx context.Context, then func(kbsql.Tx) error) error {
	err := w.s.e.Write(ctx, "", func(tx kbsql.Tx) error {
		if err := w.lease.renew(ctx, tx, w.k, w.num); err != nil {
			return err
		}
		if err := tx.CopyRows(ctx, w.k.rows, []string{w.k.rowsKey, "seq", "nrows", "body"}, w.batch); err != nil {
			return err
		}
		if then != nil {
			return then(tx)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("write the rows of %s %d: %w", w.k.name, w.num, err)
	}
	w.batch = w.batch[:0]
	return nil
}

// finish writes the last rows and completes the report with complete, in
// one transaction.
func (w *reportWriter) finish(ctx context.Context, complete func(kbsql.Tx) error) error {
	w.closeChunk()
	return w.flush(ctx, complete)
}
