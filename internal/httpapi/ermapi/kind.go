package ermapi

import (
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// kind is what differs between the object kinds of the service: their
// paths, names, bodies and list parameters.
type kind struct {
	kind    kb.ERMKind
	path    string // the path segment after {custid}/
	idParam string // the wildcard of the object id in the path
	// newPayload returns an empty request body of the kind.
	newPayload func() payload
	// updateNeedsIDs makes PUT require extensionObject.customerId and
	// extensionObject.id, as the specification does for external
	// documents.
	updateNeedsIDs bool
	// search maps the values of the list parameter searchfield, in lower
	// case, to the fields they filter; searchNames lists them as the
	// specification spells them. No search fields: the list takes none.
	search      map[string]kb.ERMField
	searchNames []string
	// sorts maps the field names of the sort parameter, in lower case, to
	// the fields; sortNames lists them as the specification spells them.
	sorts       map[string]kb.ERMField
	sortNames   []string
	defaultSort []kb.ERMSort
}

// kinds are the object kinds, in the order of their routes.
var kinds = []*kind{adminAccess, contact, externalDocument, license}

var (
	adminAccess = &kind{
		kind:       kb.KindAdminAccess,
		path:       "adminaccess",
		idParam:    "id",
		newPayload: func() payload { return &adminAccessPayload{} },
		search: map[string]kb.ERMField{
			"status":          kb.FieldStatus,
			"datecreated":     kb.FieldDateCreated,
			"datelastupdated": kb.FieldDateUpdated,
			"description":     kb.FieldDescription,
			"assignmentid":    kb.FieldAssignmentID,
		},
		searchNames: []string{"status", "datecreated", "datelastupdated", "description", "assignmentid"},
		sorts:       commonSorts(),
		sortNames:   []string{"status", "description", "dateCreated", "dateLastUpdated"},
		defaultSort: []kb.ERMSort{{Field: kb.FieldDateCreated, Desc: true}},
	}
	contact = &kind{
		kind:       kb.KindContact,
		path:       "contact",
		idParam:    "id",
		newPayload: func() payload { return &contactPayload{} },
		search: map[string]kb.ERMField{
			"name":            kb.FieldContactName,
			"type":            kb.FieldContactType,
			"phone":           kb.FieldTelephone,
			"email":           kb.FieldEmail,
			"organization":    kb.FieldOrganization,
			"status":          kb.FieldStatus,
			"description":     kb.FieldDescription,
			"datecreated":     kb.FieldDateCreated,
			"datelastupdated": kb.FieldDateUpdated,
			"assignmentid":    kb.FieldAssignmentID,
		},
		searchNames: []string{"name", "type", "phone", "email", "organization", "status", "description", "datecreated", "datelastupdated", "assignmentid"},
		sorts: map[string]kb.ERMField{
			"status":          kb.FieldStatus,
			"email":           kb.FieldEmail,
			"contactname":     kb.FieldContactName,
			"contacttype":     kb.FieldContactType,
			"datecreated":     kb.FieldDateCreated,
			"datelastupdated": kb.FieldDateUpdated,
		},
		sortNames:   []string{"status", "email", "contactName", "contactType", "dateCreated", "dateLastUpdated"},
		defaultSort: []kb.ERMSort{{Field: kb.FieldStatus}, {Field: kb.FieldDateCreated, Desc: true}},
	}
	// The specification shows no list of external documents: kbserver's
	// takes url (an exact match), paging and the sort keys of
	// administrative access details.
	externalDocument = &kind{
		kind:           kb.KindExternalDocument,
		path:           "externaldocument",
		idParam:        "id",
		newPayload:     func() payload { return &externalDocumentPayload{} },
		updateNeedsIDs: true,
		sorts:          commonSorts(),
		sortNames:      []string{"status", "description", "dateCreated", "dateLastUpdated"},
		defaultSort:    []kb.ERMSort{{Field: kb.FieldDateCreated, Desc: true}},
	}
	license = &kind{
		kind:       kb.KindLicense,
		path:       "license",
		idParam:    "licenseid",
		newPayload: func() payload { return &licensePayload{} },
		search: map[string]kb.ERMField{
			"assignment_id":     kb.FieldAssignmentID,
			"date_created":      kb.FieldDateCreated,
			"date_last_updated": kb.FieldDateUpdated,
			"description":       kb.FieldDescription,
			"license_type":      kb.FieldLicenseType,
			"status":            kb.FieldStatus,
		},
		searchNames: []string{"assignment_id", "date_created", "date_last_updated", "description", "license_type", "status"},
		sorts: func() map[string]kb.ERMField {
			m := commonSorts()
			m["licensetype"] = kb.FieldLicenseType
			return m
		}(),
		sortNames:   []string{"status", "description", "dateCreated", "dateLastUpdated", "licenseType"},
		defaultSort: []kb.ERMSort{{Field: kb.FieldDateCreated, Desc: true}},
	}
)

// commonSorts are the sort keys of administrative access details.
func commonSorts() map[string]kb.ERMField {
	return map[string]kb.ERMField{
		"status":          kb.FieldStatus,
		"description":     kb.FieldDescription,
		"datecreated":     kb.FieldDateCreated,
		"datelastupdated": kb.FieldDateUpdated,
	}
}

// kindOf returns the object kind whose objectType is s, in any case.
func kindOf(s string) (*kind, bool) {
	for _, k := range kinds {
		if strings.EqualFold(string(k.kind), s) {
			return k, true
		}
	}
	return nil, false
}

// kindNames lists the object types, for messages.
func kindNames() string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k.kind)
	}
	return strings.Join(names, ", ")
}
