package ermapi

import (
	"regexp"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// The request and answer bodies of the objects. Each payload is the
// specification's, member for member; the same struct is decoded from a
// request (strictly: web.DecodeJSON refuses members it does not list) and
// written in an answer. Strings are omitted when empty, so an empty string
// is the same as an absent member. What the store keeps of an object is its
// payload without extensionObject (the object's Body), whose own fields
// are the object's status and description.

// payload is the body of one object kind.
type payload interface {
	// ext returns the payload's extensionObject, nil when absent.
	ext() *extensionObject
	setExt(*extensionObject)
	// check checks the members other than extensionObject: the required
	// ones present, dates well formed.
	check() error
}

// extensionObject is what every object carries. id, customerId,
// dateCreated and dateLastUpdated are set in answers; in a request,
// customerId and id must name the path's customer and object when given,
// and the two dates are ignored.
type extensionObject struct {
	ObjectDescription string `json:"objectDescription,omitempty" limit:"short"`
	ObjectType        string `json:"objectType,omitempty" limit:"id"`
	Status            string `json:"status,omitempty" limit:"id"`
	CustomerID        string `json:"customerId,omitempty" limit:"id"`
	ID                string `json:"id,omitempty" limit:"id"`
	DateCreated       string `json:"dateCreated,omitempty" limit:"id"`
	DateLastUpdated   string `json:"dateLastUpdated,omitempty" limit:"id"`
}

// adminAccessPayload is the specification's AdminAccessPayload.
type adminAccessPayload struct {
	ExtensionObject                         *extensionObject  `json:"extensionObject,omitempty"`
	AccessConfirmedStatus                   string            `json:"accessConfirmedStatus,omitempty"`
	AccessModel                             string            `json:"accessModel,omitempty"`
	AccessModelNotes                        string            `json:"accessModelNotes,omitempty"`
	AccessRestrictionNotes                  string            `json:"accessRestrictionNotes,omitempty"`
	AdminAccessInterface                    string            `json:"adminAccessInterface,omitempty"`
	AdminAccessInterfaceProvider            string            `json:"adminAccessInterfaceProvider,omitempty"`
	FederationAuthenticationSupported       string            `json:"federationAuthenticationSupported,omitempty"`
	AuthenticationNotes                     string            `json:"authenticationNotes,omitempty"`
	CustomerCanChoosePassword               string            `json:"customerCanChoosePassword,omitempty"`
	DateIPRegistered                        string            `json:"dateIPRegistered,omitempty" limit:"id"`
	HostID                                  string            `json:"hostID,omitempty"`
	HostURL                                 string            `json:"hostURL,omitempty" limit:"url"`
	IPAddressNotes                          string            `json:"ipAddressNotes,omitempty"`
	IPAddresses                             string            `json:"ipAddresses,omitempty"`
	IPAuthenticationSupported               string            `json:"ipAuthenticationSupported,omitempty"`
	PasswordSharingAllowed                  string            `json:"passwordSharingAllowed,omitempty"`
	ProxyAllowed                            string            `json:"proxyAllowed,omitempty"`
	RegistrationID                          string            `json:"registrationID,omitempty"`
	RegistrationInstructions                string            `json:"registrationInstructions,omitempty"`
	RegistrationStatus                      string            `json:"registrationStatus,omitempty"`
	RegistrationURL                         string            `json:"registrationURL,omitempty" limit:"url"`
	RemoteAccessAllowed                     string            `json:"remoteAccessAllowed,omitempty"`
	ShibbolethAuthenticationSupported       string            `json:"shibbolethAuthenticationSupported,omitempty"`
	UsernamePasswordAuthenticationSupported string            `json:"usernamePasswordAuthenticationSupported,omitempty"`
	OtherStatusKeyValue                     map[string]string `json:"otherStatusKeyValue,omitempty"`
	OtherStringKeyValue                     map[string]string `json:"otherStringKeyValue,omitempty"`
	OtherYesNoKeyValue                      map[string]string `json:"otherYesNoKeyValue,omitempty"`
}

func (p *adminAccessPayload) ext() *extensionObject     { return p.ExtensionObject }
func (p *adminAccessPayload) setExt(e *extensionObject) { p.ExtensionObject = e }

func (p *adminAccessPayload) check() error {
	return checkDate("dateIPRegistered", p.DateIPRegistered)
}

// contactPayload is the specification's ContactWrapperPayload.
type contactPayload struct {
	ExtensionObject *extensionObject `json:"extensionObject,omitempty"`
	Contact         *struct {
		Designation string `json:"designation,omitempty"`
	} `json:"contact,omitempty"`
	ContactPoint *struct {
		ContactType string `json:"contactType,omitempty"`
		Description string `json:"description,omitempty"`
		Email       string `json:"email,omitempty" limit:"short"`
		Name        string `json:"name,omitempty" limit:"short"`
		Telephone   string `json:"telephone,omitempty" limit:"short"`
	} `json:"contactPoint,omitempty"`
	Organization *struct {
		Name    string `json:"name,omitempty" limit:"short"`
		Address *struct {
			AddressCountry  string `json:"addressCountry,omitempty"`
			AddressLocality string `json:"addressLocality,omitempty"`
			AddressRegion   string `json:"addressRegion,omitempty"`
			PostalCode      string `json:"postalCode,omitempty"`
			StreetAddress   string `json:"streetAddress,omitempty"`
		} `json:"address,omitempty"`
	} `json:"organization,omitempty"`
}

func (p *contactPayload) ext() *extensionObject     { return p.ExtensionObject }
func (p *contactPayload) setExt(e *extensionObject) { p.ExtensionObject = e }

func (p *contactPayload) check() error {
	cp := p.ContactPoint
	if cp == nil {
		return missing("contactPoint")
	}
	return required(
		"contactPoint.name", cp.Name,
		"contactPoint.contactType", cp.ContactType,
		"contactPoint.telephone", cp.Telephone,
		"contactPoint.email", cp.Email)
}

// externalDocumentPayload is the specification's ExternalDocumentPayload.
type externalDocumentPayload struct {
	ExtensionObject  *extensionObject `json:"extensionObject,omitempty"`
	ExternalDocument *struct {
		ExternalDocumentType string `json:"externalDocumentType,omitempty"`
		FileFormat           string `json:"fileFormat,omitempty"`
		Notes                string `json:"notes,omitempty"`
		URL                  string `json:"url,omitempty" limit:"url"`
	} `json:"externalDocument,omitempty"`
}

func (p *externalDocumentPayload) ext() *extensionObject     { return p.ExtensionObject }
func (p *externalDocumentPayload) setExt(e *extensionObject) { p.ExtensionObject = e }

func (p *externalDocumentPayload) check() error {
	d := p.ExternalDocument
	if d == nil {
		return missing("externalDocument")
	}
	return required(
		"externalDocument.externalDocumentType", d.ExternalDocumentType,
		"externalDocument.url", d.URL)
}

// licensePayload is the specification's LicenseWrapperPayload.
type licensePayload struct {
	ExtensionObject *extensionObject `json:"extensionObject,omitempty"`
	License         *licenseTerms    `json:"license,omitempty"`
}

// licenseTerms is the license member of a LicenseWrapperPayload.
type licenseTerms struct {
	LicenseEndAdvanceNoticeRequired           *int64 `json:"licenseEndAdvanceNoticeRequired,omitempty"`
	LicenseStartDate                          string `json:"licenseStartDate,omitempty" limit:"id"`
	LicenseEndDate                            string `json:"licenseEndDate,omitempty" limit:"id"`
	AllRightsReserved                         string `json:"allRightsReserved,omitempty"`
	ApplicabaleCopyrightLaw                   string `json:"applicabaleCopyrightLaw,omitempty"` // sic, as the specification spells it
	ArchivingAllowed                          string `json:"archivingAllowed,omitempty"`
	ArchivingFormat                           string `json:"archivingFormat,omitempty"`
	AuthorizedUsers                           string `json:"authorizedUsers,omitempty"`
	ConcurrentUsers                           string `json:"concurrentUsers,omitempty"`
	ConfidentialityofAgreementRequired        string `json:"confidentialityofAgreementRequired,omitempty"`
	ConfidentialityofUserInformationProtected string `json:"confidentialityofUserInformationProtected,omitempty"`
	CopyDigital                               string `json:"copyDigital,omitempty"`
	CopyPrint                                 string `json:"copyPrint,omitempty"`
	CoursePackElectronic                      string `json:"coursePackElectronic,omitempty"`
	CoursePackPrint                           string `json:"coursePackPrint,omitempty"`
	DistanceEducation                         string `json:"distanceEducation,omitempty"`
	FairUseClause                             string `json:"fairUseClause,omitempty"`
	GoverningJurisdiction                     string `json:"governingJurisdiction,omitempty"`
	GoverningLaw                              string `json:"governingLaw,omitempty"`
	IllElectronic                             string `json:"illElectronic,omitempty"`
	IllPrint                                  string `json:"illPrint,omitempty"`
	IllSecureElectronic                       string `json:"illSecureElectronic,omitempty"`
	IndemnificationbyLicensee                 string `json:"indemnificationbyLicensee,omitempty"`
	IndemnificationbyLicensor                 string `json:"indemnificationbyLicensor,omitempty"`
	LicenseDuration                           string `json:"licenseDuration,omitempty"`
	LicenseLocation                           string `json:"licenseLocation,omitempty"`
	LicenseNotes                              string `json:"licenseNotes,omitempty"`
	LicenseStatus                             string `json:"licenseStatus,omitempty"`
	LicenseType                               string `json:"licenseType,omitempty"`
	LinkElectronic                            string `json:"linkElectronic,omitempty"`
	OtherRestrictions                         string `json:"otherRestrictions,omitempty"`
	OtherStatus1                              string `json:"otherStatus1,omitempty"`
	OtherStatus2                              string `json:"otherStatus2,omitempty"`
	OtherStatus3                              string `json:"otherStatus3,omitempty"`
	OtherString1                              string `json:"otherString1,omitempty"`
	OtherString2                              string `json:"otherString2,omitempty"`
	OtherString3                              string `json:"otherString3,omitempty"`
	OtherTerm1                                string `json:"otherTerm1,omitempty"`
	OtherTerm2                                string `json:"otherTerm2,omitempty"`
	OtherTerm3                                string `json:"otherTerm3,omitempty"`
	OtherYesNo1                               string `json:"otherYesNo1,omitempty"`
	OtherYesNo2                               string `json:"otherYesNo2,omitempty"`
	OtherYesNo3                               string `json:"otherYesNo3,omitempty"`
	PerpetualAccess                           string `json:"perpetualAccess,omitempty"`
	PublisherAcceptsSERU                      string `json:"publisherAcceptsSERU,omitempty"`
	ReservesElectronic                        string `json:"reservesElectronic,omitempty"`
	ReservesPrint                             string `json:"reservesPrint,omitempty"`
	Reviewer                                  string `json:"reviewer,omitempty"`
	ReviewerNotes                             string `json:"reviewerNotes,omitempty"`
	ScholarlySharing                          string `json:"scholarlySharing,omitempty"`
	URL1                                      string `json:"url1,omitempty" limit:"url"`
	URL2                                      string `json:"url2,omitempty" limit:"url"`
	URL3                                      string `json:"url3,omitempty" limit:"url"`
	URL4                                      string `json:"url4,omitempty" limit:"url"`
	WalkIns                                   string `json:"walkIns,omitempty"`
}

func (p *licensePayload) ext() *extensionObject     { return p.ExtensionObject }
func (p *licensePayload) setExt(e *extensionObject) { p.ExtensionObject = e }

func (p *licensePayload) check() error {
	l := p.License
	if l == nil {
		return missing("license")
	}
	if err := required("license.licenseType", l.LicenseType); err != nil {
		return err
	}
	if err := checkDate("license.licenseStartDate", l.LicenseStartDate); err != nil {
		return err
	}
	return checkDate("license.licenseEndDate", l.LicenseEndDate)
}

// objectFields are the object's own fields that a request's
// extensionObject gives.
type objectFields struct {
	status      string
	description string
}

// checkExtension checks the extensionObject of a request for kind k of
// customer custID: present with its objectDescription; on update (id is
// the path's object id) with its status too, and with customerId and id
// when the kind requires them. A given objectType must be k's, a given
// customerId the path's customer, a given id the path's object (a create
// takes none), a given status active or inactive. It returns the status
// (active when a create gives none) and the description.
func checkExtension(e *extensionObject, k *kind, custID, id string) (objectFields, error) {
	update := id != ""
	if e == nil {
		return objectFields{}, missing("extensionObject")
	}
	// The specification's order of the required members.
	var members []string
	switch {
	case update && k.updateNeedsIDs:
		members = []string{
			"extensionObject.customerId", e.CustomerID,
			"extensionObject.id", e.ID,
			"extensionObject.status", e.Status,
			"extensionObject.objectDescription", e.ObjectDescription}
	case update:
		members = []string{
			"extensionObject.objectDescription", e.ObjectDescription,
			"extensionObject.status", e.Status}
	default:
		members = []string{"extensionObject.objectDescription", e.ObjectDescription}
	}
	if err := required(members...); err != nil {
		return objectFields{}, err
	}
	if e.ObjectType != "" && e.ObjectType != string(k.kind) {
		return objectFields{}, kb.Errorf(kb.CodeInvalid, "Attribute extensionObject.objectType must be %s on this path (got %q).", k.kind, clip(e.ObjectType))
	}
	if e.CustomerID != "" && e.CustomerID != custID {
		return objectFields{}, kb.Errorf(kb.CodeInvalid, "Attribute extensionObject.customerId must be the customer in the path, %s (got %q).", custID, clip(e.CustomerID))
	}
	switch {
	case !update && e.ID != "":
		return objectFields{}, kb.Errorf(kb.CodeInvalid, "Attribute extensionObject.id is not allowed on create: the server gives the id.")
	case update && e.ID != "" && e.ID != id:
		return objectFields{}, kb.Errorf(kb.CodeInvalid, "Attribute extensionObject.id must be the id in the path, %s (got %q).", id, clip(e.ID))
	}
	f := objectFields{status: kb.StatusActive, description: e.ObjectDescription}
	if e.Status != "" {
		if e.Status != kb.StatusActive && e.Status != kb.StatusInactive {
			return objectFields{}, kb.Errorf(kb.CodeInvalid, "Attribute extensionObject.status must be active or inactive (got %q).", clip(e.Status))
		}
		f.status = e.Status
	}
	return f, nil
}

// missing is the error for a required member that a body lacks.
func missing(path string) error {
	return kb.Errorf(kb.CodeMissing, "Attribute %s is required.", path)
}

// required takes pairs of a member's path and its value and reports the
// first value that is empty (or only white space) as missing.
func required(pathValues ...string) error {
	for i := 0; i+1 < len(pathValues); i += 2 {
		if strings.TrimSpace(pathValues[i+1]) == "" {
			return missing(pathValues[i])
		}
	}
	return nil
}

// isoDate matches the ISO 8601 forms the service takes: a calendar date,
// or a date-time with seconds, optional fractions and an optional offset
// (Z, +hh:mm or +hhmm; none is local time of the sender).
var isoDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$`)

// isoLayouts are the layouts of the forms isoDate admits, to check that
// the date itself exists.
var isoLayouts = []string{time.DateOnly, time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700", "2006-01-02T15:04:05.999999999"}

// checkDate checks a date member when it is given (2024-01-31,
// 2024-01-31T00:00:00Z, 2024-01-31T00:00:00.000+0000,
// 2024-01-31T00:00:00). It is kept as given.
func checkDate(path, v string) error {
	if v == "" {
		return nil
	}
	if isoDate.MatchString(v) {
		for _, layout := range isoLayouts {
			if _, err := time.Parse(layout, v); err == nil {
				return nil
			}
		}
	}
	return kb.Errorf(kb.CodeInvalid, "Attribute %s must be an ISO 8601 date such as 2024-01-31 or date-time such as 2024-01-31T00:00:00Z (got %q).", path, clip(v))
}

// answerTime is the form of the dates of an answer: RFC 3339 in UTC.
func answerTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }
