package kb

import (
	"context"
	"slices"
)

// IndexedTitle is what a title index knows of one title: the texts it
// searches, the filters it applies and the packages that hold it.
type IndexedTitle struct {
	ID   int64
	Name string
	// SortName is the folded name the store orders titles by
	// (titles.sort_name); "" when not known.
	SortName  string
	Publisher string
	// Subjects are the title's subjects in stored order: their names are
	// searched as one text, so a phrase may run from one subject into the
	// next (as it does in the SQLite store's subjects column).
	Subjects     []Subject
	Type         ResourceType
	PeerReviewed bool
	// CustomerID is the owner of a custom title; "" for a managed title.
	CustomerID string
	// Identifiers are the title's ISSNs and ISBNs in their matching form
	// (a valid ISSN as 1234-567X, a valid ISBN as its 13 digits, others
	// upper-cased).
	Identifiers []string
	// Packages are the ids of the packages that hold the title.
	Packages []int64
}

// IndexedPackage is what a title index knows of one package.
type IndexedPackage struct {
	ID int64
	// CustomerID is the owner of a custom package; "" for a managed one.
	CustomerID string
}

// TitleFeed is the store's side of a title index: what the index is
// built from and how it knows that it is current.
type TitleFeed interface {
	// TitlesVersion returns the version of the indexed data (bumped by
	// every import and every write of a custom title or of a custom
	// package's titles; CustomerAt.Titles).
	TitlesVersion(ctx context.Context) (int64, error)
	// FeedTitles calls pkg with every package, then order with every
	// title id in name order (sort_name, then id), then title with every
	// title (in any order), and returns a version of the indexed data
	// that the rows are at least as new as. The reads need not be one
	// snapshot: a change between them moves the version on.
	FeedTitles(ctx context.Context, pkg func(IndexedPackage), order func(id int64), title func(IndexedTitle)) (version int64, err error)
	// FeedChanges tells which titles the moves of the indexed data's
	// version after since changed and, when it can name them (at most
	// limit), calls pkg with every custom package (the owners are all
	// an index keeps of packages) and title with each of them that still
	// exists, as FeedTitles does; changed lists every title
	// named, deleted ones included. ok is false when it cannot (an
	// import changes more than it names): the index must be rebuilt.
	FeedChanges(ctx context.Context, since int64, limit int, pkg func(IndexedPackage), title func(IndexedTitle)) (version int64, changed []int64, ok bool, err error)
	// SelectionOf returns the customer's selection state, from which an
	// index derives the titles it has selected and its collection.
	SelectionOf(ctx context.Context, custID string) (SelectionState, error)
	// FeedNames calls fn with the id and name of every title, in id
	// order: an index orders them under a locale's collation.
	FeedNames(ctx context.Context, fn func(id int64, name string)) error
	// NamesOf calls fn with the id and name of each of the titles ids
	// that exists, in no order: an index places changed titles among
	// the others under a locale's collation.
	NamesOf(ctx context.Context, ids []int64, fn func(id int64, name string)) error
	// IndexFingerprint returns a short text that differs between two
	// stores of different titles or packages at the same version (the
	// counter starts again in every new database), such as their counts
	// and largest ids: an index kept in a file is read only into the
	// store it was built from.
	IndexFingerprint(ctx context.Context) (string, error)
	// StoreIdentity returns a random identity the database was given
	// when it was made: an index file is caught up only with the change
	// records of the database it was built from.
	StoreIdentity(ctx context.Context) (string, error)
}

// SelectionState is a customer's selection state as a store keeps it: the
// packages it selected whole and its title-level choices, which win over
// their package's. A resource is selected when its title-level choice
// says so, or when it has none and its package is selected.
//
// A customer's collection (what publication search searches) is its
// selected resources less the hidden ones: those of its hidden packages
// and those it hid one by one.
type SelectionState struct {
	Packages []int64
	Titles   []TitleChoice
	// HiddenPackages are the packages the customer hid.
	HiddenPackages []int64
	// HiddenTitles are the resources the customer hid one by one.
	HiddenTitles []ResourceKey
}

// Equal reports whether s and o hold the same choices in the same order
// (stores read them in a fixed order).
func (s SelectionState) Equal(o SelectionState) bool {
	return slices.Equal(s.Packages, o.Packages) && slices.Equal(s.Titles, o.Titles) &&
		slices.Equal(s.HiddenPackages, o.HiddenPackages) && slices.Equal(s.HiddenTitles, o.HiddenTitles)
}

// TitleChoice is a customer's title-level selection of one resource.
type TitleChoice struct {
	PackageID, TitleID int64
	Selected           bool
}

// SearchedStore is the store's side of the search service (package
// search): what its index is built from, and the rows of the titles a
// search found, read by id at the versions the request read once. The
// store never holds the index.
type SearchedStore interface {
	TitleFeed
	// CustomerVersions reads the customer's root proxy and versions in one
	// statement, or "Customer not found": what a request without an API
	// key reads once (a key's lookup reads the same, APIKey.At).
	CustomerVersions(ctx context.Context, custID string) (CustomerAt, error)
	// PackageAt returns the package as KBReader.Package does, with the
	// root proxy of at.
	PackageAt(ctx context.Context, custID string, at CustomerAt, vendorID, packageID int64) (Package, error)
	// TitlesAt returns the titles with the ids, in that order, each with
	// its resources in the customer's context (only the one in packageID
	// when not 0), at the versions of at; a title that no longer exists
	// is left out.
	TitlesAt(ctx context.Context, custID string, at CustomerAt, ids []int64, packageID int64) ([]Title, error)
	// CollectionTitlesAt is CollectionTitles at the versions of at.
	CollectionTitlesAt(ctx context.Context, custID string, at CustomerAt, ids []int64) ([]Title, error)
	// KeepTitles sets how many finished titles (with identifiers and
	// the customer's resources) of the pages of title and publication
	// searches the store keeps, each valid at the versions it was read
	// at; 0 keeps none.
	KeepTitles(n int)
}
