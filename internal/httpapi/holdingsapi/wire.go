package holdingsapi

// The wire types of the holdings service. Field order is the order clients
// see; pointer fields are the ones the service writes as null when empty.
// Build them with the functions in convert.go, never by hand in handlers.

// rootResponse is customLabelsProxy, the answer of GET {custid}/: the
// root proxy, the customer's own vendor (the vendor of its custom
// packages, as a decimal string, or null before it has one), its
// full-text finder tokens (none: kbserver has no full-text finder) and
// the labels.
type rootResponse struct {
	Proxy     proxyDetails    `json:"proxy"`
	VendorID  *string         `json:"vendorId"`
	FtfTokens []customerToken `json:"ftfTokens"`
	Labels    []labelWire     `json:"labels"`
}

// customerToken is a full-text finder token of the customer (CustomerToken).
type customerToken struct {
	Key    string `json:"key"`
	Token  string `json:"token"`
	Target string `json:"targetID"`
}

// proxyDetails is a proxy id alone.
type proxyDetails struct {
	ID string `json:"id"`
}

// labelWire is one custom title-field label.
type labelWire struct {
	ID                         int    `json:"id"`
	DisplayLabel               string `json:"displayLabel"`
	DisplayOnFullTextFinder    bool   `json:"displayOnFullTextFinder"`
	DisplayOnPublicationFinder bool   `json:"displayOnPublicationFinder"`
}

// proxyWithURL is one customer proxy.
type proxyWithURL struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	URLMask string `json:"urlMask"`
}

// proxyInfo is a proxy setting on a vendor, package or resource.
type proxyInfo struct {
	ID        string `json:"id"`
	Inherited bool   `json:"inherited"`
}

// proxiedInfo is the proxy of a vendor or a resource with the address
// its proxy makes of the object's URL: the URL passed through the proxy's
// mask, the URL itself without a proxy, null without a URL (a vendor has
// none).
type proxiedInfo struct {
	ID         string  `json:"id"`
	Inherited  bool    `json:"inherited"`
	ProxiedURL *string `json:"proxiedUrl"`
}

// tokenInfo is a vendor or package token; value is null until the
// customer fills it in.
type tokenInfo struct {
	FactName string  `json:"factName"`
	Prompt   string  `json:"prompt"`
	HelpText string  `json:"helpText"`
	Value    *string `json:"value"`
}

// vendorListResponse is a page of vendors.
type vendorListResponse struct {
	TotalResults int              `json:"totalResults"`
	Vendors      []vendorListItem `json:"vendors"`
}

// vendorListItem is a vendor in a list. Its vendorToken is the token's
// fact name (the text of the vendor's URLs that the customer's value
// replaces), or null when the vendor has no token: a string, as the
// spec's vendor list and the hosted service write it; the vendor detail
// carries the whole token.
type vendorListItem struct {
	VendorID         int64   `json:"vendorId"`
	VendorName       string  `json:"vendorName"`
	IsCustomer       bool    `json:"isCustomer"`
	PackagesTotal    int     `json:"packagesTotal"`
	PackagesSelected int     `json:"packagesSelected"`
	VendorToken      *string `json:"vendorToken"`
}

// vendorDetail is the answer of GET {custid}/vendors/{vendorid}.
type vendorDetail struct {
	VendorID         int64       `json:"vendorId"`
	VendorName       string      `json:"vendorName"`
	IsCustomer       bool        `json:"isCustomer"`
	PackagesTotal    int         `json:"packagesTotal"`
	PackagesSelected int         `json:"packagesSelected"`
	Proxy            proxiedInfo `json:"proxy"`
	VendorToken      *tokenInfo  `json:"vendorToken"`
}

// packageListResponse is a page of packages.
type packageListResponse struct {
	TotalResults int               `json:"totalResults"`
	PackagesList []packageListItem `json:"packagesList"`
}

// visibilityInfo says whether an object is hidden from patrons, and why.
type visibilityInfo struct {
	IsHidden bool   `json:"isHidden"`
	Reason   string `json:"reason"`
}

// coverageDates is a date range; an empty endCoverage runs to the present.
type coverageDates struct {
	BeginCoverage string `json:"beginCoverage"`
	EndCoverage   string `json:"endCoverage"`
}

// packageListItem is a package in a list.
type packageListItem struct {
	PackageID      int64          `json:"packageId"`
	PackageName    string         `json:"packageName"`
	IsCustom       bool           `json:"isCustom"`
	VendorID       int64          `json:"vendorId"`
	VendorName     string         `json:"vendorName"`
	TitleCount     int            `json:"titleCount"`
	IsSelected     bool           `json:"isSelected"`
	VisibilityData visibilityInfo `json:"visibilityData"`
	SelectedCount  int            `json:"selectedCount"`
	IsTokenNeeded  bool           `json:"isTokenNeeded"`
	ContentType    string         `json:"contentType"`
	CustomCoverage coverageDates  `json:"customCoverage"`
	PackageType    string         `json:"packageType"`
}

// packageDetail is packageIdDetails, the answer of
// GET {custid}/vendors/{vendorid}/packages/{packageid}: the list item's
// fields with the proxy, the operator flag and the token before
// packageType, where the hosted service puts them.
type packageDetail struct {
	PackageID                int64          `json:"packageId"`
	PackageName              string         `json:"packageName"`
	IsCustom                 bool           `json:"isCustom"`
	VendorID                 int64          `json:"vendorId"`
	VendorName               string         `json:"vendorName"`
	TitleCount               int            `json:"titleCount"`
	IsSelected               bool           `json:"isSelected"`
	VisibilityData           visibilityInfo `json:"visibilityData"`
	SelectedCount            int            `json:"selectedCount"`
	IsTokenNeeded            bool           `json:"isTokenNeeded"`
	ContentType              string         `json:"contentType"`
	CustomCoverage           coverageDates  `json:"customCoverage"`
	Proxy                    proxyInfo      `json:"proxy"`
	AllowOperatorToAddTitles bool           `json:"allowOperatorToAddTitles"`
	PackageToken             *tokenInfo     `json:"packageToken"`
	PackageType              string         `json:"packageType"`
}

// titleListResponse is a page of titles.
type titleListResponse struct {
	TotalResults int             `json:"totalResults"`
	Titles       []titleListItem `json:"titles"`
}

// titleListItem is a title in a list: the title list (titleROP) carries
// the contributors, the title list of a package (titlePackageId) the
// alternate titles instead, as the hosted service writes them; neither
// carries the description, edition, peer review flag or the resources'
// proxies, which the details do. A nil list pointer leaves its key out.
type titleListItem struct {
	TitleID               int64                 `json:"titleId"`
	TitleName             string                `json:"titleName"`
	PublisherName         *string               `json:"publisherName"`
	IdentifiersList       []identifierWire      `json:"identifiersList"`
	SubjectsList          []subjectListWire     `json:"subjectsList"`
	IsTitleCustom         bool                  `json:"isTitleCustom"`
	PubType               string                `json:"pubType"`
	ContributorsList      *[]contributorWire    `json:"contributorsList,omitempty"`
	CustomerResourcesList []resourceWire        `json:"customerResourcesList"`
	AlternateTitleList    *[]alternateTitleWire `json:"alternateTitleList,omitempty"`
}

// alternateTitleWire is another name of a title. kbserver keeps none yet
// (KBART carries none), so the lists are empty.
type alternateTitleWire struct {
	AlternateTitle string `json:"alternateTitle"`
	TitleType      string `json:"titleType"`
}

// titleWire is a title with its resources in the customer's context: the
// answer of title details and of resource details.
type titleWire struct {
	TitleID               int64                `json:"titleId"`
	TitleName             string               `json:"titleName"`
	PublisherName         *string              `json:"publisherName"`
	IdentifiersList       []identifierWire     `json:"identifiersList"`
	SubjectsList          []subjectListWire    `json:"subjectsList"`
	IsTitleCustom         bool                 `json:"isTitleCustom"`
	PubType               string               `json:"pubType"`
	CustomerResourcesList []resourceWire       `json:"customerResourcesList"`
	Description           *string              `json:"description"`
	Edition               *string              `json:"edition"`
	IsPeerReviewed        bool                 `json:"isPeerReviewed"`
	ContributorsList      []contributorWire    `json:"contributorsList"`
	AlternateTitleList    []alternateTitleWire `json:"alternateTitleList"`
}

// identifierWire is an ISSN or ISBN; subtype and type are wire numbers.
type identifierWire struct {
	ID      string `json:"id"`
	Source  string `json:"source"`
	Subtype int    `json:"subtype"`
	Type    int    `json:"type"`
}

// subjectListWire is a subject heading and its scheme. The title list
// repeats the heading as its name too, as the hosted service does; title
// details and a package's title list do not (nil Name).
type subjectListWire struct {
	Type    string  `json:"type"`
	Name    *string `json:"name,omitempty"`
	Subject string  `json:"subject"`
}

// contributorWire is an author, editor or illustrator.
type contributorWire struct {
	Type        string `json:"type"`
	Contributor string `json:"contributor"`
}

// embargoPeriod is an embargo; no embargo is a null unit and value 0.
type embargoPeriod struct {
	EmbargoUnit  *string `json:"embargoUnit"`
	EmbargoValue int     `json:"embargoValue"`
}

// resourceWire is a title in a package with the customer's state. The
// resources of list items carry no proxy (nil).
type resourceWire struct {
	TitleID              int64           `json:"titleId"`
	PackageID            int64           `json:"packageId"`
	PackageName          string          `json:"packageName"`
	PackageType          string          `json:"packageType"`
	Proxy                *proxiedInfo    `json:"proxy,omitempty"`
	IsPackageCustom      bool            `json:"isPackageCustom"`
	VendorID             int64           `json:"vendorId"`
	VendorName           string          `json:"vendorName"`
	LocationID           int             `json:"locationId"`
	IsSelected           bool            `json:"isSelected"`
	IsTokenNeeded        bool            `json:"isTokenNeeded"`
	VisibilityData       visibilityInfo  `json:"visibilityData"`
	ManagedCoverageList  []coverageDates `json:"managedCoverageList"`
	CustomCoverageList   []coverageDates `json:"customCoverageList"`
	CoverageStatement    *string         `json:"coverageStatement"`
	ManagedEmbargoPeriod embargoPeriod   `json:"managedEmbargoPeriod"`
	CustomEmbargoPeriod  embargoPeriod   `json:"customEmbargoPeriod"`
	URL                  *string         `json:"url"`
	UserDefinedField1    *string         `json:"userDefinedField1"`
	UserDefinedField2    *string         `json:"userDefinedField2"`
	UserDefinedField3    *string         `json:"userDefinedField3"`
	UserDefinedField4    *string         `json:"userDefinedField4"`
	UserDefinedField5    *string         `json:"userDefinedField5"`
}

// customPackageResponse is the answer of POST vendors/{vendorid}/packages.
type customPackageResponse struct {
	PackageID int64 `json:"packageId"`
}

// customTitleResponse is the answer of
// POST vendors/{vendorid}/packages/{packageid}/titles.
type customTitleResponse struct {
	TitleID int64 `json:"titleId"`
}
