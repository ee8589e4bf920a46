package pfapi

// The wire types of the publication search service. Member names and
// their case are the specification's, which differ from the holdings
// service's (SearchResult, Statistics and TotalHits are capitalised).

// publicationSearchResult is PublicationSearchResultWrapper.
type publicationSearchResult struct {
	SearchRequestGet searchRequestGet `json:"SearchRequestGet"`
	Facets           *facetsWire      `json:"Facets,omitempty"`
	SearchResult     searchResultWire `json:"SearchResult"`
}

type searchRequestGet struct {
	RequestParams             requestParams             `json:"RequestParams"`
	SearchCriteriaWithActions searchCriteriaWithActions `json:"SearchCriteriaWithActions"`
}

// requestParams echoes the session id; customerId is present only for a
// numeric customer id, since the member is an integer.
type requestParams struct {
	SessionID  string `json:"sessionId"`
	CustomerID int64  `json:"customerId"` // numericID
}

type searchCriteriaWithActions struct {
	QueriesWithAction []queryWithAction `json:"QueriesWithAction"`
}

type queryWithAction struct {
	Query queryWire `json:"Query"`
}

type queryWire struct {
	BooleanOperator string `json:"BooleanOperator"`
	Term            string `json:"Term"`
}

type facetsWire struct {
	Subjects       []subjectFacet      `json:"Subjects"`
	ResourceTypes  []resourceTypeFacet `json:"ResourceTypes"`
	Packages       []packageFacet      `json:"Packages"`
	AlphaMenus     []alphaMenuFacet    `json:"AlphaMenus"`
	IsPeerReviewed []peerReviewedFacet `json:"IsPeerReviewed"`
}

type subjectFacet struct {
	SubjectName string `json:"SubjectName"`
	Count       int    `json:"count"`
	ID          string `json:"id"`
	ParentID    string `json:"parentId"`
}

type resourceTypeFacet struct {
	ResourceTypes string `json:"ResourceTypes"`
	Count         int    `json:"count"`
}

type packageFacet struct {
	ID      string `json:"id"`
	Package string `json:"Package"`
	Count   int    `json:"count"`
}

type alphaMenuFacet struct {
	AlphaMenu string `json:"AlphaMenu"`
	Count     int    `json:"count"`
}

type peerReviewedFacet struct {
	IsPeerReviewed bool `json:"isPeerReviewed"`
	Count          int  `json:"count"`
}

type searchResultWire struct {
	Sessiondetails sessionDetails `json:"Sessiondetails"`
	Statistics     statistics     `json:"Statistics"`
	Data           dataWire       `json:"Data"`
}

type sessionDetails struct {
	SessionID string `json:"sessionid"`
}

type statistics struct {
	TotalHits       int   `json:"TotalHits"`
	TotalSearchTime int64 `json:"TotalSearchTime"` // milliseconds
}

type dataWire struct {
	RecordFormat string       `json:"RecordFormat"`
	Records      []recordWire `json:"Records"`
}

// recordWire is a publication record.
type recordWire struct {
	TitleID               string             `json:"titleId"`
	TitleName             string             `json:"titleName"`
	Edition               string             `json:"edition"`
	Description           string             `json:"description"`
	IsPeerReviewed        bool               `json:"isPeerReviewed"`
	PublisherName         string             `json:"publisherName"`
	IdentifiersList       []identifierWire   `json:"identifiersList"`
	SubjectsList          []subjectWire      `json:"subjectsList"`
	IsTitleCustom         bool               `json:"isTitleCustom"`
	PubType               string             `json:"pubType"`
	ContributorsList      []contributorWire  `json:"contributorsList"`
	CustomerResourcesList []customerResource `json:"customerResourcesList"`
	// Duration and Frequency are not kept (KBART has neither): always "".
	Duration           string           `json:"duration"`
	Frequency          string           `json:"frequency"`
	AlternateTitleList []alternateTitle `json:"alternateTitleList"`
}

type identifierWire struct {
	ID      string `json:"id"`
	Source  string `json:"source"`
	Subtype int    `json:"subtype"`
	Type    int    `json:"type"`
}

type subjectWire struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

type contributorWire struct {
	Contributor string `json:"contributor"`
	Type        string `json:"type"`
}

type alternateTitle struct {
	AlternateTitle string `json:"alternateTitle"`
	TitleType      string `json:"titleType"`
}

// customerResource is PfCustomerResource.
type customerResource struct {
	TitleID              int64              `json:"titleId"`
	PackageID            int64              `json:"packageId"`
	LocationID           int64              `json:"locationId"` // always 0: kbserver keeps no locations
	PackageName          string             `json:"packageName"`
	PackageType          string             `json:"packageType"`
	IsPackageCustom      bool               `json:"isPackageCustom"`
	VendorID             int64              `json:"vendorId"`
	VendorName           string             `json:"vendorName"`
	IsSelected           bool               `json:"isSelected"`
	IsTokenNeeded        bool               `json:"isTokenNeeded"`
	ManagedCoverageList  []coverage         `json:"managedCoverageList"`
	CustomCoverageList   []coverage         `json:"customCoverageList"`
	CoverageStatement    string             `json:"coverageStatement"`
	ManagedEmbargoPeriod embargo            `json:"managedEmbargoPeriod"`
	CustomEmbargoPeriod  embargo            `json:"customEmbargoPeriod"`
	URL                  string             `json:"url"`
	PackageToken         *pfToken           `json:"packageToken,omitempty"`
	VendorToken          *pfToken           `json:"vendorToken,omitempty"`
	Note                 []noteWire         `json:"note"`
	UserDefinedFields    []userDefinedField `json:"userDefinedFields"`
	VisibilityData       visibilityDataKbid `json:"visibilityData"`
	LinkOutTargetURL     string             `json:"linkOutTargetUrl"`
	TargetURL            string             `json:"targetUrl"`
}

type coverage struct {
	BeginCoverage string `json:"beginCoverage"`
	EndCoverage   string `json:"endCoverage"`
}

// embargo is PFEmbargoPeriod; no embargo has a null unit and value.
type embargo struct {
	EmbargoUnit  *string `json:"embargoUnit"`
	EmbargoValue *int    `json:"embargoValue"`
}

type pfToken struct {
	FactName string `json:"factName"`
	Value    string `json:"value"`
}

type noteWire struct {
	ID          int64    `json:"id"`
	CustID      int64    `json:"custId"` // numericID
	NoteName    string   `json:"noteName"`
	Rank        int      `json:"rank"`
	NoteText    string   `json:"noteText"`
	IconURL     *string  `json:"iconUrl"`
	IconID      int64    `json:"iconId"`
	AltText     string   `json:"altText"`
	HoverText   string   `json:"hoverText"`
	LinkURL     string   `json:"linkUrl"`
	ShowOnFlags []string `json:"showOnFlags"`
}

type userDefinedField struct {
	DisplayOnPublicationFinder bool   `json:"displayOnPublicationFinder"`
	ID                         int    `json:"id"`
	Label                      string `json:"label"`
	Value                      string `json:"value"`
}

type visibilityDataKbid struct {
	IsHidden bool `json:"isHidden"`
}

// allPackagesResult is GetAllPackagesResult.
type allPackagesResult struct {
	PackagesList []allPackage `json:"packagesList"`
	TotalResults int          `json:"totalResults"`
}

type allPackage struct {
	PackageID   int64  `json:"packageId"`
	PackageName string `json:"packageName"`
	ContentType string `json:"contentType"`
}

// packagesResult is GetPackagesResult.
type packagesResult struct {
	PackagesList []psmPackage `json:"packagesList"`
	TotalResults int          `json:"totalResults"`
}

type psmPackage struct {
	ContentType    string         `json:"contentType"`
	CustomCoverage coverage       `json:"customCoverage"`
	IsCustom       bool           `json:"isCustom"`
	IsSelected     bool           `json:"isSelected"`
	IsTokenNeeded  bool           `json:"isTokenNeeded"`
	PackageID      int64          `json:"packageId"`
	PackageName    string         `json:"packageName"`
	PackageType    string         `json:"packageType"`
	SelectedCount  int            `json:"selectedCount"`
	TitleCount     int            `json:"titleCount"`
	VendorID       int64          `json:"vendorId"`
	VendorName     string         `json:"vendorName"`
	VisibilityData visibilityData `json:"visibilityData"`
}

type visibilityData struct {
	IsHidden bool   `json:"isHidden"`
	Reason   string `json:"reason"`
}

// alphaMenuResult is AlphaBrowserMenuResult.
type alphaMenuResult struct {
	Position0 []alphaMenuItem `json:"position 0"`
	Position1 []alphaMenuItem `json:"position 1"`
	Position2 []alphaMenuItem `json:"position 2"`
	Position3 []alphaMenuItem `json:"position 3"`
}

type alphaMenuItem struct {
	MenuID     int    `json:"menuId"`
	Characters string `json:"characters"`
	Order      int    `json:"order"`
	Count      int    `json:"count"`
}
