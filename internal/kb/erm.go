package kb

import (
	"context"
	"time"
)

// ERMKind is the kind of a resource management object (its
// extensionObject.objectType), or an assignment.
type ERMKind string

// The kinds of resource management objects.
const (
	KindAdminAccess      ERMKind = "admin_access"
	KindContact          ERMKind = "contact"
	KindExternalDocument ERMKind = "external_document"
	KindLicense          ERMKind = "license"
)

// ERM object statuses.
const (
	StatusActive   = "active"
	StatusInactive = "inactive"
)

// ERMObject is a resource management object of one customer: the members
// of its kind's payload other than extensionObject, as JSON (Body), and
// the extension object's own fields.
type ERMObject struct {
	ID          string // a UUID
	CustomerID  string
	Kind        ERMKind
	Status      string // StatusActive or StatusInactive
	Description string // extensionObject.objectDescription
	Created     time.Time
	Updated     time.Time
	// Body is the payload without extensionObject, a JSON object.
	Body []byte
}

// ERMField names what a list of objects can be filtered or sorted by.
type ERMField string

// The fields of lists. Not every kind has every field: contacts have the
// contact ones, licenses LicenseType, external documents DocumentURL.
const (
	FieldStatus       ERMField = "status"
	FieldDescription  ERMField = "description"
	FieldDateCreated  ERMField = "dateCreated"
	FieldDateUpdated  ERMField = "dateLastUpdated"
	FieldAssignmentID ERMField = "assignmentId"
	// Contacts.
	FieldContactName  ERMField = "contactName"  // contactPoint.name
	FieldContactType  ERMField = "contactType"  // contactPoint.contactType
	FieldTelephone    ERMField = "telephone"    // contactPoint.telephone
	FieldEmail        ERMField = "email"        // contactPoint.email
	FieldOrganization ERMField = "organization" // organization.name
	// Licenses.
	FieldLicenseType ERMField = "licenseType" // license.licenseType
	// External documents.
	FieldDocumentURL ERMField = "documentUrl" // exact match on externalDocument.url
)

// ERMFilter keeps the objects whose Field matches: a status exactly; a
// date field within [From, To); AssignmentID the objects with that
// assignment; DocumentURL an external document's URL exactly; any other
// field when it contains Text, in any case (ASCII case folding).
type ERMFilter struct {
	Field    ERMField
	Text     string
	From, To time.Time
}

// ERMSort is one sort key.
type ERMSort struct {
	Field ERMField
	Desc  bool
}

// ERMQuery selects a page of one kind of a customer's objects.
type ERMQuery struct {
	Kind   ERMKind
	Filter *ERMFilter // nil: all
	// AssignedTo keeps the objects with an assignment whose relativeUrl
	// or link url is AssignedTo; "" keeps all.
	AssignedTo string
	Sort       []ERMSort // ties end in id order
	Page       Page
}

// ERMList is a page of objects and the number that match.
type ERMList struct {
	Total   int
	Objects []ERMObject
}

// Assignment links a customer's object to a reference: a knowledge base
// object by RelativeURL (e.g. /vendors/19/packages/123) or another
// system's object by LinkURL.
type Assignment struct {
	ID          string // a UUID
	CustomerID  string
	ObjectID    string
	ObjectKind  ERMKind
	RelativeURL string
	LinkURL     string
	Created     time.Time
	// Body is the AssignmentDto as given, a JSON object.
	Body []byte
}

// AssignmentQuery selects a page of a customer's assignments; empty
// fields do not filter.
type AssignmentQuery struct {
	ObjectID    string
	ObjectKind  ERMKind
	RelativeURL string
	Page        Page
}

// AssignmentList is a page of assignments and the number that match.
type AssignmentList struct {
	Total       int
	Assignments []Assignment
}

// ERMStore keeps customers' resource management objects and their
// assignments. Every method is scoped to one customer: another customer's
// object is CodeNotFound.
type ERMStore interface {
	// CreateERMObject stores a new object (its ID, times and fields set
	// by the caller).
	CreateERMObject(ctx context.Context, o ERMObject) error
	// ERMObject returns one object of a kind; CodeNotFound when the
	// customer has none with that id.
	ERMObject(ctx context.Context, custID string, kind ERMKind, id string) (ERMObject, error)
	// UpdateERMObject replaces an object's status, description, body and
	// update time, keeping its creation time; CodeNotFound when missing.
	UpdateERMObject(ctx context.Context, o ERMObject) error
	// DeleteERMObject deletes an object and its assignments, in one
	// transaction; CodeNotFound when missing.
	DeleteERMObject(ctx context.Context, custID string, kind ERMKind, id string) error
	// ERMObjects lists a page of objects.
	ERMObjects(ctx context.Context, custID string, q ERMQuery) (ERMList, error)
	// CreateAssignment stores an assignment of one of the customer's
	// objects (its ID set by the caller; a zero Created is now);
	// CodeNotFound when the object is missing. It fills a.ObjectKind from
	// the object.
	CreateAssignment(ctx context.Context, a Assignment) (Assignment, error)
	// Assignments lists a page of assignments, oldest first.
	Assignments(ctx context.Context, custID string, q AssignmentQuery) (AssignmentList, error)
	// DeleteAssignment deletes one assignment; CodeNotFound when missing.
	DeleteAssignment(ctx context.Context, custID, id string) error
}
