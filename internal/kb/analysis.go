package kb

import "context"

// Collection analysis (issue 38): how a customer's packages overlap, what
// a package would add to its holdings, which titles it holds more than
// once, and how they are used. These are the request's types and the
// rules of coverage that the counts follow (analysis_rules.go); the sets
// come from the search index, the rows from the store.

// The most and the fewest packages an overlap compares.
const (
	MinOverlapPackages = 2
	MaxOverlapPackages = 10
)

// OverlapListKind names a list of titles behind an overlap's count.
type OverlapListKind int

// The lists.
const (
	// ListNone asks for the counts only.
	ListNone OverlapListKind = iota
	// ListUnique: the titles of one package (OverlapList.PackageID) that
	// no other listed package has.
	ListUnique
	// ListShared: the titles every listed package has.
	ListShared
	// ListPartial: the shared titles whose effective coverage or embargo
	// differ between the packages.
	ListPartial
	// ListHeld: of the package compared with the holdings, the titles the
	// customer holds through another selected package.
	ListHeld
	// ListHeldFully: those of ListHeld whose coverage the other packages'
	// covers (CoveredBy).
	ListHeldFully
	// ListNotHeld: the titles the package would add to the holdings.
	ListNotHeld
)

// OverlapList is the list an overlap query asks for.
type OverlapList struct {
	Kind      OverlapListKind
	PackageID int64 // the package of ListUnique
}

// OverlapQuery is an overlap analysis as a customer asks for it: the
// packages compared with one another (MinOverlapPackages to
// MaxOverlapPackages), or one package compared with the customer's
// holdings (AgainstHoldings), and the list of titles wanted, if any.
type OverlapQuery struct {
	PackageIDs      []int64
	AgainstHoldings bool
	List            OverlapList
}

// HeldCoverageReader reads the coverage the analysis compares.
type HeldCoverageReader interface {
	// HeldCoverages returns the effective coverage (HeldCoverageOf) of
	// each of titleIDs in each of packageIDs that has it, for customer
	// custID.
	HeldCoverages(ctx context.Context, custID string, packageIDs, titleIDs []int64) (map[ResourceKey]HeldCoverage, error)
}

// CoverageReader reads the coverage the analysis compares, a package at a
// time: every title's managed coverage (which a reader may keep until the
// package's version moves) and, apart, the few resources a customer gave
// custom coverage or an embargo.
type CoverageReader interface {
	// PackageCoverage returns the managed coverage of every title of the
	// package; a package that does not exist has no titles.
	PackageCoverage(ctx context.Context, packageID int64) (PackageCoverage, error)
	// PackageVersions returns the version (PackageCoverage.Version) of
	// each of the packages that exists.
	PackageVersions(ctx context.Context, packageIDs []int64) (map[int64]int64, error)
	// CustomCoverages returns customer custID's custom coverage and
	// custom embargo of the resources of packageIDs that have either.
	CustomCoverages(ctx context.Context, custID string, packageIDs []int64) ([]CustomCoverage, error)
}

// PackageCoverage is the managed coverage of every title of one package,
// as classes of equal coverage: Classes[Class[i]] is Titles[i]'s.
type PackageCoverage struct {
	// Version is the package's version, read before the titles: it
	// moves with every change of the package's titles or their managed
	// coverage (a managed package's import number; a custom package's
	// customer's version), so the titles are at least as new as it says.
	Version int64
	Titles  []int64 // ascending
	Class   []uint32
	Classes []HeldCoverage
}

// CustomCoverage is a customer's custom coverage and embargo of one
// resource (either may be empty).
type CustomCoverage struct {
	ResourceKey
	Coverage []Coverage
	Embargo  Embargo
}

// Over returns the effective coverage (HeldCoverageOf) of a resource
// whose managed coverage is managed and whose customisation is c.
func (c CustomCoverage) Over(managed HeldCoverage) HeldCoverage {
	return HeldCoverageOf(Resource{ManagedCoverage: managed.Ranges, ManagedEmbargo: managed.Embargo,
		CustomCoverage: c.Coverage, CustomEmbargo: c.Embargo})
}

// OverlapPackage is one package of an overlap: its title count and the
// titles no other listed package has.
type OverlapPackage struct {
	PackageID   int64
	PackageName string
	VendorID    int64
	TitleCount  int
	UniqueCount int
}

// Overlap is what an overlap of packages counts: for each package its
// titles and its unique ones; the titles every package has (shared), and
// of those the ones whose effective coverage and embargo are the same in
// each (SameCoverage).
type Overlap struct {
	Packages          []OverlapPackage
	SharedCount       int
	SameCoverageCount int
}

// Against is what a package compared with the customer's holdings
// counts: of its titles, those the customer holds through another
// selected package, and of those the ones whose coverage there covers the
// package's (CoveredBy).
type Against struct {
	Package        OverlapPackage
	HeldCount      int
	HeldFullyCount int
}

// UseMonths is how many months of link-out clicks the analysis' lists
// show beside each resource: this month and the eleven before.
const UseMonths = 12

// LinkUse is the link-out clicks of one resource in one month, by where
// they were made: click-throughs from kbserver's own pages (the A–Z page
// and the publication search service, the link resolver's answers), not
// COUNTER usage.
type LinkUse struct {
	Key      ResourceKey
	Month    Month
	AZ       int64 // from the A–Z page and publication search
	Resolver int64 // from the link resolver's answers
}

// LinkUseReader reads the link-out clicks of titles by package and month.
type LinkUseReader interface {
	// LinkOutUse returns the customer's clicks on the titles' link-outs,
	// in every package, in the months from to to (inclusive), by
	// resource and month, in no order.
	LinkOutUse(ctx context.Context, custID string, titleIDs []int64, from, to Month) ([]LinkUse, error)
}
