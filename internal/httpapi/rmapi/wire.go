package rmapi

// The wire types of the holdings service. Field order is the order clients
// see; pointer fields are the ones the service writes as null when empty.
// Build them with the functions in convert.go, never by hand in handlers.

// rootResponse is customLabelsProxy, the answer of GET {custid}/.
type rootResponse struct {
	Proxy  proxyDetails `json:"proxy"`
	Labels []labelWire  `json:"labels"`
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

// proxyListResponse is proxyList, the answer of GET {custid}/proxies.
type proxyListResponse struct {
	Proxies []proxyWithURL `json:"proxies"`
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

// vendorListItem is a vendor in a list.
type vendorListItem struct {
	VendorID         int64      `json:"vendorId"`
	VendorName       string     `json:"vendorName"`
	IsCustomer       bool       `json:"isCustomer"`
	PackagesTotal    int        `json:"packagesTotal"`
	PackagesSelected int        `json:"packagesSelected"`
	VendorToken      *tokenInfo `json:"vendorToken"`
}

// vendorDetail is the answer of GET {custid}/vendors/{vendorid}.
type vendorDetail struct {
	VendorID         int64      `json:"vendorId"`
	VendorName       string     `json:"vendorName"`
	IsCustomer       bool       `json:"isCustomer"`
	PackagesTotal    int        `json:"packagesTotal"`
	PackagesSelected int        `json:"packagesSelected"`
	Proxy            proxyInfo  `json:"proxy"`
	VendorToken      *tokenInfo `json:"vendorToken"`
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
	TotalResults int         `json:"totalResults"`
	Titles       []titleWire `json:"titles"`
}

// titleWire is a title with its resources in the customer's context; the
// same shape serves title details, resource details and list items.
type titleWire struct {
	TitleID               int64             `json:"titleId"`
	TitleName             string            `json:"titleName"`
	PublisherName         *string           `json:"publisherName"`
	IdentifiersList       []identifierWire  `json:"identifiersList"`
	SubjectsList          []subjectWire     `json:"subjectsList"`
	IsTitleCustom         bool              `json:"isTitleCustom"`
	PubType               string            `json:"pubType"`
	CustomerResourcesList []resourceWire    `json:"customerResourcesList"`
	Description           *string           `json:"description"`
	Edition               *string           `json:"edition"`
	IsPeerReviewed        bool              `json:"isPeerReviewed"`
	ContributorsList      []contributorWire `json:"contributorsList"`
}

// identifierWire is an ISSN or ISBN; subtype and type are wire numbers.
type identifierWire struct {
	ID      string `json:"id"`
	Source  string `json:"source"`
	Subtype int    `json:"subtype"`
	Type    int    `json:"type"`
}

// subjectWire is a subject heading and its scheme.
type subjectWire struct {
	Type    string `json:"type"`
	Subject string `json:"subject"`
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

// resourceWire is a title in a package with the customer's state.
type resourceWire struct {
	TitleID              int64           `json:"titleId"`
	PackageID            int64           `json:"packageId"`
	PackageName          string          `json:"packageName"`
	PackageType          string          `json:"packageType"`
	Proxy                proxyInfo       `json:"proxy"`
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
