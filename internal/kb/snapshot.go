package kb

import "context"

// Snapshot statuses, as GET holdings/status spells them.
const (
	SnapshotNone       = "None"
	SnapshotInProgress = "In Progress"
	SnapshotCompleted  = "Completed"
	SnapshotFailed     = "Failed"
)

// MaxSnapshotPage is the largest count of GET holdings.
const MaxSnapshotPage = 5000

// SnapshotStatus is the state of a customer's holdings snapshot.
type SnapshotStatus struct {
	Status  string // SnapshotNone, SnapshotInProgress, SnapshotCompleted or SnapshotFailed
	Created string // "yyyy-mm-dd hh:mm:ss" (UTC) of the POST that started it; "" for none
	Total   int    // rows of a completed snapshot
}

// HoldingColumns names the columns of a holding row: the 25 KBART Phase II
// fields, then the package and vendor of the resource and its type.
var HoldingColumns = [...]string{
	"publication_title", "print_identifier", "online_identifier", "date_first_issue_online", "num_first_vol_online",
	"num_first_issue_online", "date_last_issue_online", "num_last_vol_online", "num_last_issue_online", "title_url",
	"first_author", "title_id", "embargo_info", "coverage_depth", "notes", "publisher_name", "publication_type",
	"date_monograph_published_print", "date_monograph_published_online", "monograph_volume", "monograph_edition",
	"first_editor", "parent_publication_title_id", "preceding_publication_title_id", "access_type",
	"package_name", "package_id", "vendor_name", "vendor_id", "resource_type",
}

// HoldingFieldCount is the number of columns of a holding row.
const HoldingFieldCount = len(HoldingColumns)

// Holding is one row of a holdings snapshot: its values in HoldingColumns
// order (vendor_id, index 28, holds a decimal integer), our id of its
// title, and the values of its package's non-standard KBART columns that
// it has. Values keeps the provider's KBART title_id (a KBART file of the
// holdings shows it, as link resolvers need); the JSON answers of the
// holdings service show TitleID as title_id instead, since FOLIO builds
// its resource ids from it.
type Holding struct {
	Values  [HoldingFieldCount]string
	TitleID int64 // the titleId of GET titles/{kbid}
	Extra   []ExtraValue
}

// ExtraValue is a row's value of a non-standard KBART column
// (PackageSpec.ExtraColumns).
type ExtraValue struct {
	Column, Value string
}

// SnapshotStore builds and serves holdings snapshots. A snapshot freezes
// the customer's selections and customisations when it is started; title
// metadata (a renamed title, package and vendor names) is read live when
// the snapshot is served.
type SnapshotStore interface {
	// StartSnapshot freezes the customer's state and starts a build in the
	// background. CodeConflict when a build is in progress, unless force,
	// which replaces it.
	StartSnapshot(ctx context.Context, custID string, force bool) error
	SnapshotStatus(ctx context.Context, custID string) (SnapshotStatus, error)
	// Holdings calls fn for count rows of the completed snapshot from the
	// 1-based row offset (count <= 0: all rows), streaming.
	// CodeConflict while a build is in progress, CodeNotFound when there is
	// no completed snapshot.
	Holdings(ctx context.Context, custID string, offset, count int, fn func(*Holding) error) error
	// HoldingsColumns returns the non-standard KBART columns of the
	// packages of the customer's completed snapshot, each once, in package
	// order: the columns of a KBART file of it after the standard ones.
	HoldingsColumns(ctx context.Context, custID string) ([]string, error)
	// WaitSnapshot blocks until the customer's build in progress ends.
	WaitSnapshot(ctx context.Context, custID string) (SnapshotStatus, error)
	// ResumeSnapshots restarts the builds a stopped process left in
	// progress, from the state frozen at their POST, in one pass. The
	// server runs it as a job (JobResumeSnapshots): when it starts, and
	// periodically on a store whose builds another instance may abandon.
	ResumeSnapshots(ctx context.Context) error
}
