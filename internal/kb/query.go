package kb

// MaxCount is the largest page size of vendor, package and title lists.
const MaxCount = 100

// DefaultCount is the page size when a request names none.
const DefaultCount = 25

// Page is a page of a list: Count items per page, Number counted from 1.
type Page struct {
	Count  int
	Number int
}

// Offset returns the zero-based index of the page's first item.
func (p Page) Offset() int { return (p.Number - 1) * p.Count }

// VendorQuery selects a page of vendors.
type VendorQuery struct {
	Search  string
	OrderBy Order
	Page    Page
	// Names are the vendors whose names Search matches, as the search
	// service found them; nil: the store matches the names itself.
	Names *NameMatches
}

// PackageQuery selects a page of packages, optionally of one vendor.
type PackageQuery struct {
	VendorID    int64 // 0: all vendors
	Search      string
	Selection   Selection
	ContentType ContentType
	OrderBy     Order
	Page        Page
	// Filters of the hosted service's package lists (package_lists.go);
	// their zero values filter nothing and search as the lists of the
	// specification do.
	Match      PackageMatch     // how Search matches
	Keyword    bool             // Search also matches the vendor's name
	Visibility VisibilityFilter // hidden or visible packages only
	// Names are the packages whose names Search matches, as the search
	// service found them; nil: the store matches the names itself.
	Names *NameMatches
}

// TitleQuery selects a page of titles, optionally inside one package.
type TitleQuery struct {
	VendorID  int64 // with PackageID: the package's vendor
	PackageID int64 // 0: all packages
	// PackageIDs, when not empty, keeps the titles that are in at least
	// one of these packages (the title list's packageidfilter).
	PackageIDs   []int64
	Search       string
	Field        SearchField
	Type         SearchType
	Selection    Selection
	ResourceType ResourceType
	OrderBy      Order
	Page         Page
}

// VendorList is a page of vendors and the total number that match.
type VendorList struct {
	Total   int
	Vendors []Vendor
}

// PackageList is a page of packages and the total number that match.
type PackageList struct {
	Total    int
	Packages []Package
}

// TitleList is a page of titles and the total number that match.
type TitleList struct {
	Total  int
	Titles []Title
}
