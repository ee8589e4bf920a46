package kb

import (
	"context"
	"time"
)

// Store is everything the server and the command line need from a store.
// Every method is scoped to one customer where it takes a custID: an object
// of another customer (a custom package or title) is "not found".
type Store interface {
	KBReader
	HoldingsWriter
	SnapshotStore
	ReportStore
	CustomerStore
	ProfileStore
	SessionStore
	PublicationStore
	ScholarStore
	FeedStore
	HoldingsStore
	HeldCoverageReader
	CoverageReader
	LinkUseReader
	NoteStore
	LinkStore
	ResolverStore
	ResolverStatsStore
	ERMStore
	Importer
	Loader
	RetiredPurger
	StateWriter
	OpsStore
	SearchedStore
	NameFeed
	Background
	Close() error
}

// APIKey is a stored API key: its id (for the change history), its
// customer and the environment it belongs to.
type APIKey struct {
	ID          int64
	CustomerID  string
	Environment Environment
	Created     time.Time // filled by APIKeys
	// At is the customer's root proxy and versions, read with the key
	// (zero when the store does not): a request reads them once, and
	// the holdings service's cache of answers and the search service
	// take them from its context (WithCustomerAt).
	At CustomerAt
}

// KBReader reads the knowledge base in one customer's context.
type KBReader interface {
	Vendors(ctx context.Context, custID string, q VendorQuery) (VendorList, error)
	Vendor(ctx context.Context, custID string, vendorID int64) (Vendor, error)
	// Packages lists packages; a q.VendorID of no vendor the customer may
	// see lists none (it is not an error: the caller tells the two apart
	// with Vendor).
	Packages(ctx context.Context, custID string, q PackageQuery) (PackageList, error)
	Package(ctx context.Context, custID string, vendorID, packageID int64) (Package, error)
	// PackageByID returns a package by its id alone (package ids are
	// unique across vendors), as the hosted service's v2 operations
	// address it; "Package not found" when the customer may not see it.
	PackageByID(ctx context.Context, custID string, packageID int64) (Package, error)
	// Titles lists titles. Each title carries its resources in the
	// customer's context: all of them, or only the one in q.PackageID.
	// A search (q.Search not blank) is the search service's (package
	// search, over TitlesAt): the store refuses one.
	Titles(ctx context.Context, custID string, q TitleQuery) (TitleList, error)
	// Title returns a title with all its resources.
	Title(ctx context.Context, custID string, titleID int64) (Title, error)
	// Resource returns a title with only its resource in the package.
	Resource(ctx context.Context, custID string, vendorID, packageID, titleID int64) (Title, error)
	Root(ctx context.Context, custID string) (RootSettings, error)
	// Proxies lists the customer's proxies, the built-in "no proxy" first.
	Proxies(ctx context.Context, custID string) ([]Proxy, error)
}

// CustomerStore manages customers, their API keys and proxies.
type CustomerStore interface {
	// AddCustomer creates a customer and its own vendor.
	AddCustomer(ctx context.Context, id, name string) (Customer, error)
	Customer(ctx context.Context, id string) (Customer, error)
	// Customers lists the customers in the order of their ids.
	Customers(ctx context.Context) ([]Customer, error)
	// APIKeys lists the customer's API keys (never the keys themselves:
	// their ids, environments and creation times), oldest first.
	APIKeys(ctx context.Context, custID string) ([]APIKey, error)
	// AddAPIKey stores the hash of a key for a customer, bound to one
	// environment; CodeInvalid for an environment that is not valid.
	AddAPIKey(ctx context.Context, custID string, hash KeyHash, env Environment) error
	// RevokeAPIKey deletes a key; CodeNotFound when no key has that hash.
	RevokeAPIKey(ctx context.Context, hash KeyHash) error
	// LookupAPIKey returns the stored key with the hash, comparing hashes
	// in constant time; CodeUnauthenticated when unknown.
	LookupAPIKey(ctx context.Context, hash KeyHash) (APIKey, error)
	AddProxy(ctx context.Context, custID string, p Proxy) error
	// RemoveProxy deletes a customer proxy; CodeNotFound when it has none
	// with that id. Settings that named it fall back to no proxy.
	RemoveProxy(ctx context.Context, custID, proxyID string) error
}

// StateWriter sets a customer's selection state directly, without the
// rules and the change history of HoldingsWriter: it seeds demo data and
// test fixtures. Requests from customers go through HoldingsWriter.
type StateWriter interface {
	SetPackageState(ctx context.Context, custID string, packageID int64, s PackageState) error
	SetResourceState(ctx context.Context, custID string, packageID, titleID int64, s ResourceState) error
}

// Importer loads KBART title lists into the knowledge base.
type Importer interface {
	// ImportPackage creates or reuses the vendor and the package by name
	// and makes the package's titles the rows that next yields (until it
	// returns io.EOF), keeping every customer's work (import_rules.go):
	// rows are matched to the package's titles by the provider's title_id,
	// then by identifier, then by name, publisher and type; new titles are
	// added, changed ones updated, and titles no longer listed leave the
	// package with the customers' state on them kept aside, to come back
	// with them. Every change is recorded with the import's id. The
	// package changes in one short transaction at the end: readers see it
	// before the import or after, and customers' writes are held up only
	// that long. A new package's first import may instead take the bulk
	// path (spec.Bulk), with the same result, in one transaction from its
	// first row to its last (on SQLite customers' writes wait that long).
	// With spec.DryRun nothing is changed, and the result counts what the
	// import would do.
	ImportPackage(ctx context.Context, spec PackageSpec, next func() (ImportRow, error)) (ImportResult, error)
}

// ImportFunc imports one package's rows, as Importer.ImportPackage does.
type ImportFunc func(ctx context.Context, spec PackageSpec, next func() (ImportRow, error)) (ImportResult, error)

// Loader fills an empty knowledge base with many packages as one load.
type Loader interface {
	// LoadPackages calls fn with the function that imports each package.
	// Into a knowledge base with no title and no package, every package fn
	// imports is loaded as a first load (PackageSpec.FirstLoad) in one
	// transaction: rows are matched against the titles the load created,
	// kept in memory, and the tables' secondary indexes are built once,
	// after fn returns. Readers see nothing of the load until it commits
	// (on PostgreSQL they wait for the commit, as for a first load), and
	// when fn or any of its imports fails nothing is kept, even if fn
	// returned nil. There a package may come only once, and a dry run is
	// refused; fn's imports run one at a time. Into any other knowledge
	// base each package is imported as by ImportPackage, committed on its
	// own. one reports which of the two it was.
	LoadPackages(ctx context.Context, fn func(importPackage ImportFunc) error) (one bool, err error)
}

// RetiredPurger forgets what imports kept aside.
type RetiredPurger interface {
	// PurgeRetired forgets the customers' state on titles that left their
	// packages before the given time, and returns how many titles' state
	// it forgot. (Each import purges what is older than RetiredKept.)
	PurgeRetired(ctx context.Context, before time.Time) (int, error)
}

// PackageSpec names the package an import fills, and how.
type PackageSpec struct {
	VendorName  string
	PackageName string
	ContentType ContentType // ContentAll is taken as ContentUnknown
	PackageType PackageType
	// ExtraColumns names the non-standard KBART columns whose values the
	// rows carry (ImportRow.Extra): kept with the rows and given back in
	// KBART files after the standard columns.
	ExtraColumns []string
	// DryRun reads and matches the rows and counts what the import would
	// do, changing nothing.
	DryRun bool
	// Bulk says whether the first import of a package that does not
	// exist yet takes the bulk path: its rows go straight into the store
	// in one transaction, faster than staging them, with the same result.
	Bulk BulkMode
	// FirstLoad lets the import of a new package into a knowledge base
	// with no title at all load it as databases load: by the bulk path
	// (SQLite too, unless Bulk is BulkOff), matching its rows against
	// its own titles in memory, with the tables' secondary indexes (and
	// on PostgreSQL their foreign keys) built once, after its last row.
	// Its transaction then holds SQLite's one writer, and on PostgreSQL
	// locks the titles, identifiers, resources and packages until it
	// commits (the requests that read them wait). The commands that fill
	// a knowledge base (import kbart, gen, serve --demo before it serves)
	// set it; a running server's imports (feeds) do not.
	FirstLoad bool
	// FeedID is the feed whose run imports the file: the import's
	// changes are recorded as the feed's. 0 for none.
	FeedID int64
	// Check, when set, sees what the import would do once every row is
	// read and matched, before anything is applied (on the bulk path,
	// before its transaction commits): an error from it ends the import
	// with nothing applied, and ImportPackage returns the counts with
	// that error wrapped. A package feed checks a fetched file so, in the
	// same import that applies it.
	Check func(ImportResult) error
}

// BulkMode says whether a new package's first import takes the bulk path.
// That path's one transaction holds SQLite's one writer from the first row
// to the last, so that other writers wait (a server answers their requests
// 503), while PostgreSQL's other writers go on beside it.
type BulkMode int

const (
	BulkAuto BulkMode = iota // on PostgreSQL; on SQLite only for a first load (PackageSpec.FirstLoad)
	BulkOn                   // on both
	BulkOff                  // the staged path always
)

// KBARTFieldCount is the number of fields of a KBART Phase II row.
const KBARTFieldCount = 25

// ImportRow is one KBART row (normalised by the reader) with the metadata a
// KBART file cannot carry, which the demo generator fills.
type ImportRow struct {
	Line         int // source line, for messages
	KBART        [KBARTFieldCount]string
	Extra        []string // values of PackageSpec.ExtraColumns, in order
	Subjects     []Subject
	Contributors []Contributor
	Description  string
	PeerReviewed bool
	// PubType overrides the resource type derived from the KBART
	// publication_type (serial → Journal, monograph → Book) when not
	// ResourceAll.
	PubType ResourceType
	// Rejected marks a row the reader could not read: KBART holds what
	// could be read of it. It adds and changes nothing; it keeps the
	// title it stands for (matched by title_id, identifier or URL) in the
	// package, and when it matches none, the import removes nothing.
	Rejected bool
}

// ImportResult counts what an import did, or with DryRun would do.
type ImportResult struct {
	ImportID           int64 // the id its recorded changes carry; 0 for a dry run
	VendorID           int64 // 0 for a dry run that would create the vendor
	PackageID          int64 // 0 for a dry run that would create the package
	Rows               int   // rows received, rejected ones included
	RowsRejected       int   // rows marked Rejected
	TitlesCreated      int
	TitlesMatched      int // rows matched to an existing title
	TitlesRenamed      int // titles whose name, publisher or type the import changed
	TitlesReidentified int // titles whose identifiers the import changed
	ResourcesAdded     int
	ResourcesUpdated   int
	ResourcesRemoved   int
	// Bulk: the import took the bulk path (PackageSpec.Bulk).
	Bulk bool
	// ResourcesKept counts the titles not listed that stay in the package
	// because rejected rows may stand for them (RemovalsHeld), or that a
	// rejected row stands for.
	ResourcesKept int
	// RemovalsHeld is set when a rejected row matched none of the
	// package's titles: then no title leaves the package.
	RemovalsHeld bool
	// CustomersAffected counts the customers who had selected or
	// customised a title the import removes; their state on it is kept.
	CustomersAffected int
	// ResourcesRestored counts the titles back in the package whose
	// customers' state came back with them.
	ResourcesRestored int
}
