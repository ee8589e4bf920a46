package holdingsapi

import (
	"bufio"
	"fmt"
	"strconv"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// Wire shapes of the holdings reports (transactions and deltas), the hosted
// service's operations that FOLIO's transaction loader calls. packageIds
// and resourceTypeIds name a report's filters: kbserver's reports are of
// all the customer's holdings, so both are always "".

// transactionIDWire answers POST reports/holdings: 202 with the new
// transaction, or 409 with the one in progress.
type transactionIDWire struct {
	TransactionID string `json:"transactionId"`
}

// transactionWire is an item of GET reports/holdings/transactions.
type transactionWire struct {
	TransactionID   string `json:"transactionId"`
	Status          string `json:"status"`
	CreationDate    string `json:"creationDate"`
	ExpirationDate  string `json:"expirationDate"`
	PackageIDs      string `json:"packageIds"`
	ResourceTypeIDs string `json:"resourceTypeIds"`
}

// transactionListWire answers GET reports/holdings/transactions.
type transactionListWire struct {
	TransactionIDs []transactionWire `json:"transactionIds"`
}

// transactionStatusWire answers GET reports/holdings/transactions/{id}/status.
// totalCount is a numeric string: the row count of a complete transaction,
// "" (unknown) otherwise.
type transactionStatusWire struct {
	Status          string `json:"status"`
	CreationDate    string `json:"creationDate"`
	ExpirationDate  string `json:"expirationDate"`
	PackageIDs      string `json:"packageIds"`
	ResourceTypeIDs string `json:"resourceTypeIds"`
	TotalCount      string `json:"totalCount"`
}

// deltaStatusWire answers GET reports/holdings/deltas/{id}/status.
// totalCount as in transactionStatusWire.
type deltaStatusWire struct {
	Status             string `json:"status"`
	TotalCount         string `json:"totalCount"`
	CurrentSnapshotID  string `json:"currentSnapshotId"`
	PreviousSnapshotID string `json:"previousSnapshotId"`
	PackageIDs         string `json:"packageIds"`
	ResourceTypeIDs    string `json:"resourceTypeIds"`
}

// deltaRequestWire is the body of POST reports/holdings/deltas.
type deltaRequestWire struct {
	CurrentSnapshotID  string `json:"currentSnapshotId"`
	PreviousSnapshotID string `json:"previousSnapshotId"`
}

// reportDate formats a report's time as the hosted service does:
// "yyyy-MM-dd HH:mm:ss", UTC.
func reportDate(t time.Time) string { return t.UTC().Format(time.DateTime) }

func toTransactionWire(t kb.Transaction) transactionWire {
	return transactionWire{TransactionID: t.ID, Status: t.Status, CreationDate: reportDate(t.Created), ExpirationDate: reportDate(t.Expires)}
}

func toTransactionStatusWire(t kb.Transaction) transactionStatusWire {
	out := transactionStatusWire{Status: t.Status, CreationDate: reportDate(t.Created), ExpirationDate: reportDate(t.Expires)}
	if t.Status == kb.TransactionComplete {
		out.TotalCount = strconv.Itoa(t.Total)
	}
	return out
}

func toDeltaStatusWire(d kb.Delta) deltaStatusWire {
	out := deltaStatusWire{Status: d.Status, CurrentSnapshotID: d.Current, PreviousSnapshotID: d.Previous}
	if d.Status == kb.DeltaCompleted {
		out.TotalCount = strconv.Itoa(d.Total)
	}
	return out
}

// deltaJSON streams a page of a delta:
// {"count":N,"format":"kbart2","offset":P,"packageIds":"","resourceTypeIds":"","totalCount":T,"holdings":[…]},
// exactly these seven members (FOLIO refuses any other). Each record is a
// holding record (appendHolding) with package_content_type and
// change_type. As holdingsJSON, it writes nothing before the first record
// or close.
type deltaJSON struct {
	w                    *bufio.Writer
	count, offset, total int
	n                    int
	buf                  []byte
}

func newDeltaJSON(w *lazyWriter, count, offset, total int) *deltaJSON {
	return &deltaJSON{w: bufio.NewWriterSize(w, 64<<10), count: count, offset: offset, total: total}
}

// open appends the opening of the answer to b.
func (j *deltaJSON) open(b []byte) []byte {
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(j.count), 10)
	b = append(b, `,"format":"kbart2","offset":`...)
	b = strconv.AppendInt(b, int64(j.offset), 10)
	b = append(b, `,"packageIds":"","resourceTypeIds":"","totalCount":`...)
	b = strconv.AppendInt(b, int64(j.total), 10)
	return append(b, `,"holdings":[`...)
}

// row writes one record; it is the callback of kb.ReportStore.DeltaHoldings.
func (j *deltaJSON) row(h *kb.ReportHolding) error {
	b := j.buf[:0]
	if j.n == 0 {
		b = j.open(b)
	} else {
		b = append(b, ',')
	}
	b, err := appendHolding(b, &h.Holding)
	if err != nil {
		return err
	}
	b = append(b[:len(b)-1], `,"package_content_type":`...)
	b = appendJSONString(b, h.ContentType)
	b = append(b, `,"change_type":`...)
	b = appendJSONString(b, h.Change.String())
	b = append(b, '}')
	j.buf = b
	j.n++
	if _, err := j.w.Write(b); err != nil {
		return fmt.Errorf("write delta: %w", err)
	}
	return nil
}

// close ends the answer and flushes it.
func (j *deltaJSON) close() error {
	var b []byte
	if j.n == 0 {
		b = j.open(b)
	}
	b = append(b, "]}\n"...)
	if _, err := j.w.Write(b); err != nil {
		return fmt.Errorf("write delta: %w", err)
	}
	if err := j.w.Flush(); err != nil {
		return fmt.Errorf("write delta: %w", err)
	}
	return nil
}
