package kb

import "context"

// Store is everything the server and the command line need from a store.
// Every method is scoped to one customer where it takes a custID: an object
// of another customer (a custom package or title) is "not found".
type Store interface {
	KBReader
	HoldingsWriter
	SnapshotStore
	CustomerStore
	ProfileStore
	PublicationStore
	NoteStore
	LinkStore
	ERMStore
	Importer
	StateWriter
	OpsStore
	Close() error
}

// APIKey is a stored API key: its id (for the change history), its
// customer and the environment it belongs to.
type APIKey struct {
	ID          int64
	CustomerID  string
	Environment Environment
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
	// Titles lists titles. Each title carries its resources in the
	// customer's context: all of them, or only the one in q.PackageID.
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
	// ImportPackage creates or reuses the vendor and package by name and
	// makes the package's titles exactly the rows that next yields (until
	// it returns io.EOF): new titles are added, changed ones updated, and
	// titles no longer listed removed from the package. It is one
	// transaction: on any error, nothing is changed.
	ImportPackage(ctx context.Context, spec PackageSpec, next func() (ImportRow, error)) (ImportResult, error)
}

// PackageSpec names the package an import fills.
type PackageSpec struct {
	VendorName  string
	PackageName string
	ContentType ContentType // ContentAll is taken as ContentUnknown
	PackageType PackageType
}

// KBARTFieldCount is the number of fields of a KBART Phase II row.
const KBARTFieldCount = 25

// ImportRow is one KBART row (normalised by the reader) with the metadata a
// KBART file cannot carry, which the demo generator fills.
type ImportRow struct {
	Line         int // source line, for messages
	KBART        [KBARTFieldCount]string
	Subjects     []Subject
	Contributors []Contributor
	Description  string
	PeerReviewed bool
	// PubType overrides the resource type derived from the KBART
	// publication_type (serial → Journal, monograph → Book) when not
	// ResourceAll.
	PubType ResourceType
}

// ImportResult counts what an import did.
type ImportResult struct {
	VendorID         int64
	PackageID        int64
	Rows             int // rows received
	TitlesCreated    int
	TitlesMatched    int // rows matched to an existing title
	ResourcesAdded   int
	ResourcesUpdated int
	ResourcesRemoved int
}
