package kbreport

import (
	"context"
	"fmt"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// A delta is computed by one merge of the two transactions' rows in
// resource order (package id, title id), a chunk of each at a time, so its
// memory does not grow with the transactions: each resource's rows in the
// two are compared by kb.ResourceChange, and the rows of a changed
// resource (the current ones; the previous ones for a deletion) are
// written with its change.

// StartDelta implements kb.ReportStore.
func (s *Reports) StartDelta(ctx context.Context, custID, current, previous string) (kb.Delta, error) {
	now := time.Now().UTC().Truncate(time.Second)
	d := kb.Delta{ID: kb.NewUUID(), Customer: custID, Current: current, Previous: previous, Status: kb.DeltaInProgress, Created: now}
	l := newLease()
	ids := []struct{ name, id string }{{"currentSnapshotId", current}, {"previousSnapshotId", previous}}
	for _, f := range ids {
		if f.id == "" {
			return d, kb.Errorf(kb.CodeMissing, "%s is missing: give the id of a complete holdings transaction.", f.name)
		}
	}
	err := s.e.Write(ctx, custID, func(tx kbsql.Tx) error {
		for i, f := range ids {
			t, _, err := transaction(ctx, tx, custID, f.id)
			if err != nil && kb.ErrorCode(err) == kb.CodeNotFound {
				return kb.Errorf(kb.CodeInvalid, "%s %q names no holdings transaction of this customer (unknown or expired).", f.name, f.id)
			}
			if err != nil {
				return err
			}
			if t.Status != kb.TransactionComplete {
				return kb.Errorf(kb.CodeInvalid, "%s %q is not Complete (it is %s).", f.name, f.id, t.Status)
			}
			if i == 0 || t.Expires.Before(d.Expires) {
				d.Expires = t.Expires
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO report_deltas(id, customer_id, current_id, previous_id, status, created, expires, lease)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			d.ID, custID, current, previous, d.Status, d.Created, d.Expires, l.until)
		return err
	})
	if err != nil {
		return d, fmt.Errorf("start holdings delta of %s: %w", custID, err)
	}
	s.startReport(deltaReports, d.ID, l)
	return d, nil
}

// Delta implements kb.ReportStore.
func (s *Reports) Delta(ctx context.Context, custID, id string) (kb.Delta, error) {
	d, _, err := delta(ctx, s.e.Read(), custID, id)
	return d, err
}

// reportDeltaColumns are the columns scanDelta reads.
const reportDeltaColumns = `id, customer_id, current_id, previous_id, status, created, expires, total`

// scanDelta reads reportDeltaColumns, then the columns of more.
func scanDelta(r kbsql.Row, more ...any) (kb.Delta, error) {
	var d kb.Delta
	var created, expires kbsql.Time
	err := r.Scan(append([]any{&d.ID, &d.Customer, &d.Current, &d.Previous, &d.Status, &created, &expires, &d.Total}, more...)...)
	d.Created, d.Expires = created.T.UTC(), expires.T.UTC()
	return d, err
}

// delta reads one of the customer's unexpired deltas and its num through
// q; kb.NotFound when there is none.
func delta(ctx context.Context, q kbsql.Querier, custID, id string) (kb.Delta, int64, error) {
	return readReport(ctx, q, deltaReports, reportDeltaColumns, scanDelta, custID, id)
}

// DeltaHoldings implements kb.ReportStore.
func (s *Reports) DeltaHoldings(ctx context.Context, custID, id string, offset, count int, fn func(*kb.ReportHolding) error) error {
	return s.e.ReadTx(ctx, func(q kbsql.Querier) error {
		d, num, err := delta(ctx, q, custID, id)
		if err != nil {
			return err
		}
		switch d.Status {
		case kb.DeltaInProgress:
			return kb.Errorf(kb.CodeConflict, "The holdings delta %s is in progress; GET its status until it is COMPLETED.", id)
		case kb.DeltaFailed:
			return kb.Errorf(kb.CodeNotFound, "The holdings delta %s failed: POST reports/holdings/deltas again.", id)
		}
		return readReportRows(ctx, q, deltaReports, num, offset, count, fn)
	})
}

// buildDelta computes delta id, whose lease this process holds.
func (s *Reports) buildDelta(ctx context.Context, id string, l *lease) error {
	var num int64
	var current, previous, status string
	err := s.e.Read().QueryRow(ctx, `SELECT num, current_id, previous_id, status FROM report_deltas WHERE id = $1`, id).
		Scan(&num, &current, &previous, &status)
	if kbsql.NoRows(err) {
		return nil // purged meanwhile
	}
	if err != nil {
		return fmt.Errorf("holdings delta %s: %w", id, err)
	}
	if status != kb.DeltaInProgress {
		return nil
	}
	var nums [2]int64
	for i, tid := range []string{current, previous} {
		err := s.e.Read().QueryRow(ctx, `SELECT num FROM report_transactions WHERE id = $1 AND status = $2`, tid, kb.TransactionComplete).
			Scan(&nums[i])
		if kbsql.NoRows(err) {
			return fmt.Errorf("holdings delta %s: transaction %s is gone", id, tid)
		}
		if err != nil {
			return fmt.Errorf("holdings delta %s: %w", id, err)
		}
	}
	if err := s.deleteReportRows(ctx, deltaReports, num, l); err != nil {
		return err
	}
	cur, prev := &reportCursor{s: s, num: nums[0]}, &reportCursor{s: s, num: nums[1]}
	w := reportWriter{s: s, k: deltaReports, num: num, lease: l}
	for {
		pk, pok, err := prev.peek(ctx)
		if err != nil {
			return err
		}
		ck, cok, err := cur.peek(ctx)
		if err != nil {
			return err
		}
		var p, c []cursorRow
		switch {
		case !pok && !cok:
			return w.finish(ctx, func(tx kbsql.Tx) error {
				_, err := tx.Exec(ctx, `UPDATE report_deltas SET status = $1, total = $2 WHERE num = $3`, kb.DeltaCompleted, w.seq, num)
				return err
			})
		case !cok || pok && pk.less(ck):
			p = prev.take(ctx)
		case !pok || ck.less(pk):
			c = cur.take(ctx)
		default:
			p, c = prev.take(ctx), cur.take(ctx)
		}
		if err := firstErr(prev.err, cur.err); err != nil {
			return err
		}
		if sameRows(p, c) {
			continue // the common case, decided without decoding
		}
		ph, err := decodeCursorRows(p)
		if err != nil {
			return err
		}
		ch, err := decodeCursorRows(c)
		if err != nil {
			return err
		}
		change := kb.ResourceChange(ph, ch)
		rows := c
		if change == kb.ChangeDeleted {
			rows = p
		}
		if change == kb.ChangeNone {
			continue
		}
		for i := range rows {
			if err := w.add(ctx, rows[i].key.pkg, rows[i].key.title, change, rows[i].vals); err != nil {
				return err
			}
		}
	}
}

// sameRows reports whether a resource's rows are the same, text for
// text and in the same order, in both transactions.
func sameRows(p, c []cursorRow) bool {
	if len(p) != len(c) {
		return false
	}
	for i := range p {
		if p[i].vals != c[i].vals {
			return false
		}
	}
	return true
}

// decodeCursorRows decodes a resource's stored rows.
func decodeCursorRows(rows []cursorRow) ([]kb.ReportHolding, error) {
	out := make([]kb.ReportHolding, len(rows))
	for i := range rows {
		out[i].TitleID = rows[i].key.title
		if err := decodeReportRow(rows[i].vals, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// firstErr returns the first error that is not nil.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// resourceKey orders the resources of a transaction.
type resourceKey struct{ pkg, title int64 }

func (a resourceKey) less(b resourceKey) bool {
	return a.pkg < b.pkg || a.pkg == b.pkg && a.title < b.title
}

// reportCursor reads a transaction's rows in order, reportBatch rows at a
// time, and gives them a resource at a time.
type reportCursor struct {
	s    *Reports
	num  int64
	seq  int64 // the seq of the last chunk read
	buf  []cursorRow
	at   int
	done bool // no rows after buf
	err  error
}

// cursorRow is a row read by a reportCursor: its resource and its stored
// text (decoded only when the resource changed).
type cursorRow struct {
	key  resourceKey
	vals string
}

// fill reads the next chunk when the buffer is used up.
func (c *reportCursor) fill(ctx context.Context) error {
	if c.at < len(c.buf) || c.done || c.err != nil {
		return c.err
	}
	c.buf, c.at = c.buf[:0], 0
	const chunks = reportBatch / reportChunk
	n := 0
	err := kbsql.EachRow(ctx, c.s.e.Read(), `SELECT seq, body FROM report_rows WHERE report_num = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
		[]any{c.num, c.seq, chunks}, func(r kbsql.Rows) error {
			var body string
			if err := r.Scan(&c.seq, &body); err != nil {
				return err
			}
			n++
			return eachReportLine(body, func(l reportLine) error {
				c.buf = append(c.buf, cursorRow{key: resourceKey{l.pkg, l.title}, vals: l.vals})
				return nil
			})
		})
	if err != nil {
		c.err = fmt.Errorf("rows of transaction %d: %w", c.num, err)
		return c.err
	}
	c.done = n < chunks
	return nil
}

// peek returns the resource of the next row; ok is false at the end.
func (c *reportCursor) peek(ctx context.Context) (k resourceKey, ok bool, err error) {
	if err := c.fill(ctx); err != nil {
		return k, false, err
	}
	if c.at == len(c.buf) {
		return k, false, nil
	}
	return c.buf[c.at].key, true, nil
}

// take returns the rows of the next resource (c.err tells a failed read).
func (c *reportCursor) take(ctx context.Context) []cursorRow {
	k, ok, err := c.peek(ctx)
	if err != nil || !ok {
		return nil
	}
	var rows []cursorRow
	for {
		rows = append(rows, c.buf[c.at])
		c.at++
		next, ok, err := c.peek(ctx)
		if err != nil || !ok || next != k {
			return rows
		}
	}
}
