package kb

// Coverage is a date range. Dates are yyyy-mm-dd (a KBART file may give only
// yyyy or yyyy-mm, kept as given); an empty End means "to the present".
type Coverage struct {
	Begin string
	End   string
}

// Embargo is an embargo period; Value 0 (or Unit EmbargoNone) means none.
type Embargo struct {
	Unit  EmbargoUnit
	Value int
}

// ProxyRef is a proxy setting on a vendor, package or resource.
type ProxyRef struct {
	ID        string // a customer proxy id; NoProxyID for none
	Inherited bool   // true when the setting comes from a higher level
}

// NoProxyID is the id of the built-in "no proxy" entry.
const NoProxyID = "<n>"

// Visibility says whether a package or resource is hidden from patrons.
type Visibility struct {
	Hidden bool
	Reason string // "Hidden by Customer" when the customer hid it
}

// ReasonHiddenByCustomer is the visibility reason of an object the customer hid.
const ReasonHiddenByCustomer = "Hidden by Customer"

// Token is a vendor or package token: a value the customer fills in that is
// substituted into link URLs.
type Token struct {
	FactName string
	Prompt   string
	HelpText string
	Value    string
}

// Vendor is a content provider seen by one customer.
type Vendor struct {
	ID               int64
	Name             string
	IsCustomer       bool // the customer's own vendor, which holds its custom packages
	PackagesTotal    int
	PackagesSelected int
	Proxy            ProxyRef
	Token            *Token
}

// Package is a package seen by one customer.
type Package struct {
	ID                       int64
	Name                     string
	VendorID                 int64
	VendorName               string
	IsCustom                 bool
	ContentType              ContentType
	PackageType              PackageType
	TitleCount               int
	IsSelected               bool // the whole package, or some of its titles one by one
	SelectedWhole            bool // the package itself: its titles follow it unless chosen one by one
	SelectedCount            int
	Visibility               Visibility
	IsTokenNeeded            bool
	CustomCoverage           Coverage
	Proxy                    ProxyRef
	AllowOperatorToAddTitles bool
	Token                    *Token
}

// IdentifierType is the type of a title identifier.
type IdentifierType int

// Identifier types (wire numbers).
const (
	IdentISSN IdentifierType = 0
	IdentISBN IdentifierType = 1
)

// IdentifierSubtype says which manifestation an identifier names.
type IdentifierSubtype int

// Identifier subtypes (wire numbers).
const (
	SubtypeEmpty  IdentifierSubtype = 0
	SubtypePrint  IdentifierSubtype = 1
	SubtypeOnline IdentifierSubtype = 2
)

// Identifier is an ISSN or ISBN of a title.
type Identifier struct {
	ID      string // as published, e.g. "0317-8471" or "978-0-306-40615-7"
	Source  string
	Type    IdentifierType
	Subtype IdentifierSubtype
}

// Subject is a subject heading of a title.
type Subject struct {
	Type string // scheme, e.g. "TLI" or "BISAC"
	Name string
}

// Contributor is an author, editor or illustrator of a title.
type Contributor struct {
	Type string // "Author", "Editor" or "Illustrator"
	Name string
}

// Title is a publication, with the resources that place it in packages, as
// seen by one customer.
type Title struct {
	ID           int64
	Name         string
	Publisher    string
	PubType      ResourceType
	IsCustom     bool
	Description  string
	Edition      string
	PeerReviewed bool
	Identifiers  []Identifier
	Subjects     []Subject
	Contributors []Contributor
	Resources    []Resource
}

// Resource is a title in a package, with the customer's state.
type Resource struct {
	TitleID           int64
	PackageID         int64
	PackageName       string
	PackageType       PackageType
	IsPackageCustom   bool
	VendorID          int64
	VendorName        string
	IsSelected        bool
	IsTokenNeeded     bool
	Visibility        Visibility
	Proxy             ProxyRef
	ManagedCoverage   []Coverage
	CustomCoverage    []Coverage
	CoverageStatement string
	ManagedEmbargo    Embargo
	CustomEmbargo     Embargo
	URL               string
	UserDefined       [5]string
	// VendorToken and PackageToken are filled by the publication search
	// service only, as are Notes.
	VendorToken, PackageToken *Token
	Notes                     []Note
}

// Label is one of a customer's five custom title-field labels.
type Label struct {
	ID                         int // 1-5
	DisplayLabel               string
	DisplayOnFullTextFinder    bool
	DisplayOnPublicationFinder bool
}

// RootSettings are a customer's root proxy and custom labels.
type RootSettings struct {
	ProxyID string
	Labels  [5]Label
	// VendorID is the customer's own vendor, which holds its custom
	// packages. It is read, never written.
	VendorID int64
}

// Proxy is a customer proxy definition.
type Proxy struct {
	ID      string
	Name    string
	URLMask string // holds {targetURL}
}

// Customer is a library account.
type Customer struct {
	ID       string // the custid of the API paths
	Name     string
	VendorID int64 // the customer's own vendor (isCustomer), holding its custom packages
}

// PackageState is a customer's package-level state.
type PackageState struct {
	Selected bool
	Hidden   bool
}

// ResourceState is a customer's title-level state inside a package.
// Selected nil means "as the package says".
type ResourceState struct {
	Selected *bool
	Hidden   bool
}
