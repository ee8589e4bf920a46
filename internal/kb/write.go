package kb

import "context"

// HoldingsWriter changes a customer's holdings: selections and
// customisations of vendors, packages and resources, custom packages and
// titles, and the root settings. A PUT of the holdings service replaces the
// customer's state of its object: a field the update leaves empty is
// cleared, as the specification's "a body with only isSelected true clears
// all earlier customization" requires. Every method is one transaction and
// records one change in the customer's history; the actor is taken from the
// context (WithActor).
type HoldingsWriter interface {
	UpdateVendor(ctx context.Context, custID string, vendorID int64, u VendorUpdate) error
	UpdatePackage(ctx context.Context, custID string, vendorID, packageID int64, u PackageUpdate) error
	CreateCustomPackage(ctx context.Context, custID string, vendorID int64, p CustomPackage) (packageID int64, err error)
	// DeleteCustomPackage deletes a custom package and its titles;
	// CodeNotAllowed for a managed package.
	DeleteCustomPackage(ctx context.Context, custID string, vendorID, packageID int64) error
	UpdateResource(ctx context.Context, custID string, vendorID, packageID, titleID int64, u ResourceUpdate) error
	CreateCustomTitle(ctx context.Context, custID string, vendorID, packageID int64, t CustomTitle) (titleID int64, err error)
	UpdateRoot(ctx context.Context, custID string, r RootSettings) error
	// Changes lists recorded changes, a customer's or the knowledge
	// base's, newest first.
	Changes(ctx context.Context, q ChangeQuery) ([]Change, error)
}

// VendorUpdate is a customer's state of a vendor.
type VendorUpdate struct {
	Proxy      ProxyRef // Inherited: the root proxy applies
	TokenValue *string  // nil: unchanged
}

// PackageUpdate is a customer's state of a package. Deselecting a managed
// package clears its package- and title-level customisation; deselecting a
// custom package deletes it.
type PackageUpdate struct {
	Selected bool
	// FullPackage false selects the package without selecting its titles
	// (they are selected one by one); nil or true selects them all.
	FullPackage              *bool
	Hidden                   bool
	CustomCoverage           Coverage // Begin "" for none
	Proxy                    *ProxyRef
	TokenValue               *string
	AllowOperatorToAddTitles bool
	// Custom packages only.
	Name        string      // "" keeps the name
	ContentType ContentType // ContentAll keeps the content type
}

// CustomPackage describes a new custom package.
type CustomPackage struct {
	Name           string
	ContentType    ContentType
	CustomCoverage Coverage
	Proxy          *ProxyRef
}

// ResourceUpdate is a customer's state of a title in a package.
type ResourceUpdate struct {
	Selected          bool
	Hidden            bool
	CustomCoverage    []Coverage // newest first
	CoverageStatement string
	CustomEmbargo     Embargo
	Proxy             *ProxyRef // nil: inherited
	UserDefined       [5]string
	// Title fields: they update a custom title, and give the name, type
	// and URL of a managed title added to a custom package.
	Title *TitleFields
}

// TitleFields are the fields of a custom title.
type TitleFields struct {
	Name         string
	PubType      ResourceType
	Publisher    string
	PeerReviewed bool
	Edition      string
	Description  string
	URL          string
	Contributors []Contributor
	Identifiers  []Identifier
}

// CustomTitle describes a new custom title in a custom package.
type CustomTitle struct {
	TitleFields
	CustomCoverage    []Coverage
	CoverageStatement string
	CustomEmbargo     Embargo
	UserDefined       [5]string
}

// Change is one recorded change: of a customer's holdings, made through
// the API or the command line, or of the knowledge base, made by an
// import (CustomerID "", ImportID set).
type Change struct {
	ID         int64
	At         string // RFC 3339, UTC
	CustomerID string // "" for a change of the knowledge base
	KeyID      int64  // the API key that made it; 0 from the command line or an import
	ImportID   int64  // the import that made it; 0 for a customer's change
	FeedID     int64  // the feed whose run made it (an import it applied, a holdings file it set); 0 for none
	PackageID  int64  // the package it concerns; 0 for none (or a change older than the column)
	Object     string // e.g. "package 12", "resource 12/345", "title 345", "vendor 3", "root"
	Action     string // e.g. "update", "create", "delete"; for an import's, ImportAction
	Before     string // JSON of the state before; "" for a creation
	After      string // JSON of the state after; "" for a deletion
}

// ChangeQuery selects recorded changes, newest first.
type ChangeQuery struct {
	CustomerID string // the customer's own changes
	KB         bool   // the knowledge base's changes (an import's)
	Everyone   bool   // every customer's and the knowledge base's (with PackageID: the package's whole history)
	PackageID  int64  // only those of this package (0: any)
	ImportID   int64  // only those of this import (0: any)
	FeedID     int64  // only those of this feed's runs (0: any)
	Limit      int    // at most this many; negative: all
}

type actorKey struct{}

// WithActor returns a context that attributes the changes made with it to
// the API key keyID.
func WithActor(ctx context.Context, keyID int64) context.Context {
	return context.WithValue(ctx, actorKey{}, keyID)
}

// ActorFrom returns the API key id WithActor stored in ctx, or 0.
func ActorFrom(ctx context.Context) int64 {
	id, _ := ctx.Value(actorKey{}).(int64)
	return id
}
