package holdingsapi

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/kbserver/kbserver/internal/kb"
)

// The request bodies of the holdings service's write operations. Every
// optional member is a pointer (or a slice), so that an absent member and
// an explicit null, which real clients send ("isHidden":null,
// "packageToken":null), read the same: as not given. web.DecodeJSON
// refuses members that are not listed here. validate.go turns them into kb
// types.

// rootPayload is customLabels, the body of PUT {custid}/. Clients that
// write back the root they read also send its read-only members, vendorId
// (a string or a number) and ftfTokens: they are taken and ignored.
type rootPayload struct {
	Proxy     *proxyDetailsPayload `json:"proxy"`
	Labels    []labelPayload       `json:"labels"`
	VendorID  json.RawMessage      `json:"vendorId"`
	FtfTokens json.RawMessage      `json:"ftfTokens"`
}

// proxyDetailsPayload is the root proxy: an id, and inherited, which
// clients send as null or false (the root proxy inherits from nothing).
type proxyDetailsPayload struct {
	ID        *string `json:"id" limit:"id"`
	Inherited *bool   `json:"inherited"`
}

// labelPayload is one custom label to set. Its id is a string in the
// specification (labelid) and an integer in the answers; both are taken.
type labelPayload struct {
	ID                         *labelID `json:"id"`
	DisplayLabel               *string  `json:"displayLabel" limit:"label"`
	DisplayOnFullTextFinder    *bool    `json:"displayOnFullTextFinder"`
	DisplayOnPublicationFinder *bool    `json:"displayOnPublicationFinder"`
}

// labelID is a label id sent as a JSON string ("2") or number (2).
type labelID int

// UnmarshalJSON reads a label id from a string or a number.
func (id *labelID) UnmarshalJSON(b []byte) error {
	s := string(bytes.TrimSpace(b))
	if s == "null" {
		return nil
	}
	if unquoted, err := strconv.Unquote(s); err == nil {
		s = unquoted
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return kb.Errorf(kb.CodeInvalid, "Attribute labels.id must be an integer from 1 to 5 (a number or a string), not %s.", kb.Abbrev(string(b), 40))
	}
	*id = labelID(n)
	return nil
}

// proxyPayload is proxyInfo / proxyInfoIn: a proxy id, or inherited.
type proxyPayload struct {
	ID        *string `json:"id" limit:"id"`
	Inherited *bool   `json:"inherited"`
}

// tokenPayload is a vendor or package token. Only the value is the
// customer's; clients send the whole token back as they read it, so the
// other members are taken and ignored.
type tokenPayload struct {
	Value    *string `json:"value" limit:"short"`
	FactName *string `json:"factName"`
	Prompt   *string `json:"prompt"`
	HelpText *string `json:"helpText"`
}

// coveragePayload is coverageDates.
type coveragePayload struct {
	BeginCoverage *string `json:"beginCoverage" limit:"id"`
	EndCoverage   *string `json:"endCoverage" limit:"id"`
}

// embargoPayload is embargoPeriod; a null or zero value means no embargo.
type embargoPayload struct {
	EmbargoUnit  *string `json:"embargoUnit" limit:"id"`
	EmbargoValue *int    `json:"embargoValue"`
}

// vendorPayload is the body of PUT vendors/{vendorid}.
type vendorPayload struct {
	Proxy       *proxyPayload `json:"proxy"`
	VendorToken *tokenPayload `json:"vendorToken"`
}

// packagePayload is the union of the package payload shapes of the
// specification: selectPayload, packagesPartialSelectedPayload,
// setHidePayload, setCustomCoverage…Payload, setCustomPackagePayload and
// setManagedPackagePayload. Two aliases are taken (aliases): selected,
// which Java clients write beside isSelected, and allowEbscoToAddTitles,
// the hosted service's branded name of allowOperatorToAddTitles.
type packagePayload struct {
	IsSelected               *bool            `json:"isSelected"`
	Selected                 *bool            `json:"selected"`
	AllowEbscoToAddTitles    *bool            `json:"allowEbscoToAddTitles"`
	IsFullPackage            *bool            `json:"isFullPackage"`
	IsHidden                 *bool            `json:"isHidden"`
	CustomCoverage           *coveragePayload `json:"customCoverage"`
	Proxy                    *proxyPayload    `json:"proxy"`
	AllowOperatorToAddTitles *bool            `json:"allowOperatorToAddTitles"`
	PackageToken             *tokenPayload    `json:"packageToken"`
	PackageName              *string          `json:"packageName" limit:"name"`
	ContentType              *int             `json:"contentType"`
}

// customPackagePayload is the body of POST vendors/{vendorid}/packages.
// Clients of the hosted service also send members kbserver does not keep
// (notKept): they are taken when null or empty.
type customPackagePayload struct {
	PackageName       *string           `json:"packageName" limit:"name"`
	ContentType       *int              `json:"contentType"`
	CustomCoverage    *coveragePayload  `json:"customCoverage"`
	Proxy             *proxyPayload     `json:"proxy"`
	CustomAltNames    []json.RawMessage `json:"customAltNames"`
	Subjects          []json.RawMessage `json:"subjects"`
	CustomDescription *string           `json:"customDescription" limit:"text"`
	CustomDisplayName *string           `json:"customDisplayName" limit:"name"`
	URL               *string           `json:"url" limit:"url"`
	PackageFreeAccess *bool             `json:"packageFreeAccess"`
}

// titleFieldsPayload holds the fields of a custom title.
// PeerReviewed is the second key Java clients write for isPeerReviewed.
type titleFieldsPayload struct {
	TitleName      *string `json:"titleName" limit:"name"`
	PubType        *string `json:"pubType" limit:"id"`
	PublisherName  *string `json:"publisherName" limit:"name"`
	IsPeerReviewed *bool   `json:"isPeerReviewed"`
	PeerReviewed   *bool   `json:"peerReviewed"`
	Edition        *string `json:"edition" limit:"short"`
	Description    *string `json:"description"`
	URL            *string `json:"url" limit:"url"`
	// ContributorsList is the schema's name; the specification's example
	// body calls it contributorIdList. Both are taken.
	ContributorsList  []contributorPayload `json:"contributorsList"`
	ContributorIDList []contributorPayload `json:"contributorIdList"`
	IdentifiersList   []identifierPayload  `json:"identifiersList"`
}

// contributorPayload is contributorID: an author, editor or illustrator.
type contributorPayload struct {
	Type        *string `json:"type" limit:"id"`
	Contributor *string `json:"contributor" limit:"short"`
}

// identifierPayload is identifierCustom: an ISSN or ISBN.
type identifierPayload struct {
	ID      *string `json:"id" limit:"id"`
	Type    *int    `json:"type"`
	Subtype *int    `json:"subtype"`
}

// customisationPayload holds a resource's customisation: custom coverage,
// coverage statement, custom embargo and the user-defined fields.
type customisationPayload struct {
	CustomCoverageList  []coveragePayload `json:"customCoverageList"`
	CoverageStatement   *string           `json:"coverageStatement" limit:"short"`
	CustomEmbargoPeriod *embargoPayload   `json:"customEmbargoPeriod"`
	UserDefinedField1   *string           `json:"userDefinedField1" limit:"short"`
	UserDefinedField2   *string           `json:"userDefinedField2" limit:"short"`
	UserDefinedField3   *string           `json:"userDefinedField3" limit:"short"`
	UserDefinedField4   *string           `json:"userDefinedField4" limit:"short"`
	UserDefinedField5   *string           `json:"userDefinedField5" limit:"short"`
}

// customTitlePayload is the body of POST …/packages/{packageid}/titles.
type customTitlePayload struct {
	titleFieldsPayload
	customisationPayload
}

// resourcePayload is the union of the title PUT payload shapes of the
// specification: select, hide, custom coverage, un-select, un-hide,
// user-defined fields, the combined payload, the custom title update and
// the three proxy payloads. Selected is the second key Java clients write
// for isSelected.
type resourcePayload struct {
	IsSelected *bool         `json:"isSelected"`
	Selected   *bool         `json:"selected"`
	IsHidden   *bool         `json:"isHidden"`
	Proxy      *proxyPayload `json:"proxy"`
	titleFieldsPayload
	customisationPayload
}

// Compile-time check that labelID decodes itself.
var _ json.Unmarshaler = (*labelID)(nil)
