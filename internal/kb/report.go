package kb

import (
	"context"
	"time"
)

// Holdings reports: the transactions and deltas of the hosted service,
// which FOLIO's transaction loader calls and the spec does not describe. A
// transaction is a holdings snapshot of a customer kept as its rows (later
// imports and customer changes do not alter it); a delta compares two of a
// customer's transactions, resource by resource.

// Transaction statuses, as GET reports/holdings/transactions/{id}/status
// spells them (note Complete, not the snapshot's Completed).
const (
	TransactionInProgress = "In Progress"
	TransactionComplete   = "Complete"
	TransactionFailed     = "Failed"
)

// Delta statuses, as GET reports/holdings/deltas/{id}/status spells them.
const (
	DeltaInProgress = "IN_PROGRESS"
	DeltaCompleted  = "COMPLETED"
	DeltaFailed     = "FAILED"
)

// MaxReportPage is the largest count of a page of a transaction or a
// delta: FOLIO reads 4,000 rows a page; the limit is GET holdings' own.
const MaxReportPage = MaxSnapshotPage

// DefaultReportRetention is how long transactions (and the deltas between
// them) are kept by default. FOLIO loads every 5 days and asks for a delta
// from the transaction it loaded last, which must still be listed: 14 days
// outlive one missed load (10 days) with margin for its retries, and keep
// about three transactions a customer.
const DefaultReportRetention = 14 * 24 * time.Hour

// Transaction is a holdings transaction of a customer.
type Transaction struct {
	ID       string
	Customer string
	Status   string    // TransactionInProgress, TransactionComplete or TransactionFailed
	Created  time.Time // UTC, seconds
	Expires  time.Time // UTC, seconds: when it is deleted
	Total    int       // rows of a complete transaction
}

// Delta is a report of the changes between two transactions of a customer.
type Delta struct {
	ID                string
	Customer          string
	Current, Previous string // transaction ids
	Status            string // DeltaInProgress, DeltaCompleted or DeltaFailed
	Created, Expires  time.Time
	Total             int // rows of a completed delta
}

// ReportHolding is one row of a transaction or a delta: a holding, the
// content type of its package (display form, e.g. "EJournal") and, in a
// delta, how its resource changed.
type ReportHolding struct {
	Holding
	ContentType string
	Change      ChangeType // ChangeNone in a transaction's rows
}

// ReportStore keeps holdings transactions and deltas.
type ReportStore interface {
	// StartTransaction freezes the customer's holdings and starts
	// materialising them in the background. While another transaction of
	// the customer is in progress it starts none and returns that one
	// with running true.
	StartTransaction(ctx context.Context, custID string) (t Transaction, running bool, err error)
	// Transactions lists the customer's transactions that have not
	// expired, newest first.
	Transactions(ctx context.Context, custID string) ([]Transaction, error)
	// Transaction returns one of the customer's transactions;
	// CodeNotFound for an unknown or expired id or another customer's.
	Transaction(ctx context.Context, custID, id string) (Transaction, error)
	// TransactionHoldings calls fn for count rows of a complete
	// transaction from the 1-based row offset, in resource order (package
	// id, title id). CodeConflict while it is in progress, CodeNotFound
	// when it failed or is unknown.
	TransactionHoldings(ctx context.Context, custID, id string, offset, count int, fn func(*ReportHolding) error) error
	// StartDelta starts computing the delta between two complete
	// transactions of the customer in the background. CodeInvalid naming
	// the field (currentSnapshotId, previousSnapshotId) for an id that is
	// unknown, another customer's or not complete.
	StartDelta(ctx context.Context, custID, current, previous string) (Delta, error)
	// Delta returns one of the customer's deltas; CodeNotFound otherwise.
	Delta(ctx context.Context, custID, id string) (Delta, error)
	// DeltaHoldings calls fn for count rows of a completed delta from the
	// 1-based row offset. CodeConflict while it is in progress.
	DeltaHoldings(ctx context.Context, custID, id string, offset, count int, fn func(*ReportHolding) error) error
	// SetReportRetention sets how long new transactions are kept
	// (DefaultReportRetention until set).
	SetReportRetention(d time.Duration)
	// PurgeReports deletes the expired transactions and deltas, with
	// their rows, and returns how many reports it deleted.
	PurgeReports(ctx context.Context) (int, error)
	// ResumeReports purges the expired reports and restarts the
	// transactions and deltas a stopped process left in progress, in one
	// pass. The server runs it as a job (JobReports): when it starts,
	// and periodically.
	ResumeReports(ctx context.Context) error
}
