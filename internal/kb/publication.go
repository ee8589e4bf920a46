package kb

import (
	"context"
)

// PubDefaultCount is the page size of publication and package lists of
// the publication search service when a request names none.
const PubDefaultCount = 50

// PubQuery is a publication search over one customer's collection: the
// titles of its selected, not hidden resources.
type PubQuery struct {
	Search string
	Field  SearchField
	Type   SearchType
	// ByName orders by title name (the Locale's collation, leading
	// articles ignored); false orders by relevance, which is by name when
	// there is no search.
	ByName bool
	Page   Page

	// Filters. Values of one filter are alternatives (OR); different
	// filters all apply (AND).
	ResourceType  ResourceType   // ResourceAll: any
	ResourceTypes []ResourceType // resourcetypefacet
	Subjects      []string       // subjectfacet: subject names, any case
	PackageIDs    []int64        // packagefacet
	AlphaMenu     string         // alphamenufacet: an alpha menu entry at any level as the menus spell it, e.g. "A", "Ab", "0-9", "A1"
	PeerReviewed  *bool          // ispeerreviewedfacet: only peer-reviewed titles, or only the others

	// Facets asks for facet counts over the whole filtered result.
	Facets bool
	// SubjectSchema keeps only subjects of one scheme (e.g. "TLI") in the
	// Subjects facet; "" keeps all.
	SubjectSchema string
	// Facet limits: the most entries of each facet, biggest counts first;
	// 0 means the default (FacetDefaultCount).
	SubjectFacetCount, ResourceTypeFacetCount, PackageFacetCount, AlphaMenuFacetCount int
}

// FacetDefaultCount is how many entries a facet holds when the request
// sets no limit.
const FacetDefaultCount = 25

// PubResult is a page of publications, the number of publications that
// match, and the facets when asked for.
type PubResult struct {
	Total  int
	Titles []Title // each with only its resources in the collection
	Facets *PubFacets
}

// PubFacets are the facet counts of a publication search: each counts
// titles of the whole filtered result.
type PubFacets struct {
	Subjects      []SubjectFacet
	ResourceTypes []ResourceTypeFacet
	Packages      []PackageFacet
	AlphaMenus    []AlphaMenuFacet
	PeerReviewed  []PeerReviewedFacet
}

// SubjectFacet counts the titles with a subject. ParentID is the subject
// one level up in a hierarchical name ("MEDICAL / Nursing" has parent
// "MEDICAL"), "" at the top.
type SubjectFacet struct {
	ID, Name, ParentID string
	Count              int
}

// ResourceTypeFacet counts the titles of a publication type.
type ResourceTypeFacet struct {
	Type  ResourceType
	Count int
}

// PackageFacet counts the titles a package of the collection holds.
type PackageFacet struct {
	ID    int64
	Name  string
	Count int
}

// AlphaMenuFacet counts the titles under a top-level alpha menu entry.
type AlphaMenuFacet struct {
	Menu  string
	Count int
}

// PeerReviewedFacet counts peer-reviewed or other titles.
type PeerReviewedFacet struct {
	PeerReviewed bool
	Count        int
}

// CollectionPackageQuery lists the packages of a customer's collection:
// those with at least one selected title, not hidden.
type CollectionPackageQuery struct {
	ContentType ContentType // ContentAll: any
	Search      string      // words matched against the package name
	ByName      bool        // order by name; false: relevance (by name without a search)
	Page        Page        // zero Page: all packages
	// Names are the packages whose names Search matches, as the search
	// service found them; nil: the store matches the names itself.
	Names *NameMatches
}

// PubHit is one title of a customer's collection, with what the filters,
// facets and ordering of a publication search need.
type PubHit struct {
	ID           int64
	Name         string
	PubType      ResourceType
	PeerReviewed bool
	Subjects     []Subject
	PackageIDs   []int64 // the title's packages in the collection
}

// PublicationStore answers the publication search service: everything is
// limited to the customer's collection (selected, not hidden resources).
type PublicationStore interface {
	// CollectionVersion returns a value that changes whenever the
	// customer's collection, or any answer in the customer's context, may
	// have changed (an import, a change of the customer's holdings, root
	// proxy, labels or proxies): a cache of the collection or of an answer
	// keyed by it is never stale.
	CollectionVersion(ctx context.Context, custID string) (string, error)
	// CollectionHits calls fn once for every title of the collection, in
	// ascending title id order, with its packages in the collection. fn
	// must not keep h.PackageIDs, which the next call may reuse.
	CollectionHits(ctx context.Context, custID string, fn func(PubHit)) error
	// CollectionTitles returns the titles with the ids, in that order,
	// each with only its resources in the collection, their tokens and
	// notes; a title not in the collection is left out.
	CollectionTitles(ctx context.Context, custID string, ids []int64) ([]Title, error)
	// Publication returns a title with only its resource in the package,
	// CodeNotFound unless that resource is in the collection.
	Publication(ctx context.Context, custID string, packageID, titleID int64) (Title, error)
	// CollectionPackages lists the packages of the collection.
	CollectionPackages(ctx context.Context, custID string, q CollectionPackageQuery) (PackageList, error)
	// PackageNames returns the names of the packages with the ids that
	// the customer may see (managed ones and its own custom ones); others
	// are left out.
	PackageNames(ctx context.Context, custID string, ids []int64) (map[int64]string, error)
}

// CollectionPage is a page of a publication search answered from a title
// index: the number of titles of the filtered result, the ids of the
// page's titles in order and, when asked for, the facet counts over the
// whole result.
type CollectionPage struct {
	Total  int
	IDs    []int64
	Counts *FacetCounts
}

// FacetCounts are the raw counts of a publication search's facets, each
// over the whole filtered result: a title counts once in each subject,
// type, package and first-level menu entry it has. Zero counts may be
// left out.
type FacetCounts struct {
	Subjects map[Subject]int
	Types    map[ResourceType]int
	// Packages holds the counts of the packages of the collection that
	// can enter a package facet of PubQuery.PackageFacetCount entries
	// (those counting at least as many titles as the last entry);
	// the others may be left out.
	Packages map[int64]int
	Menus    map[string]int
	// PeerReviewed counts titles not peer reviewed [0] and peer reviewed [1].
	PeerReviewed [2]int
}
