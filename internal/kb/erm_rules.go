package kb

import (
	"slices"
	"strings"
)

// KindAssignment names assignments in messages (Noun). It is not an
// objectType: ParseERMKind refuses it and no ERMObject has it.
const KindAssignment ERMKind = "assignment"

// ERMKinds returns the kinds of resource management objects, in the order
// messages list them.
func ERMKinds() []ERMKind {
	return []ERMKind{KindAdminAccess, KindContact, KindExternalDocument, KindLicense}
}

// ParseERMKind returns the object kind an extensionObject.objectType
// names, exactly as written ("contact", not "Contact"). Any other value,
// KindAssignment included, is CodeInvalid with a message that lists the
// allowed ones.
func ParseERMKind(s string) (ERMKind, error) {
	if k := ERMKind(s); slices.Contains(ERMKinds(), k) {
		return k, nil
	}
	return "", Errorf(CodeInvalid, "Attribute objectType %q is not an object type: use one of %s.", s, kindList())
}

// Noun returns the name of the kind for messages, capitalised to begin a
// sentence ("Contact"), or "Object" for a kind it does not know.
func (k ERMKind) Noun() string {
	switch k {
	case KindAdminAccess:
		return "Administrative access"
	case KindContact:
		return "Contact"
	case KindExternalDocument:
		return "External document"
	case KindLicense:
		return "License"
	case KindAssignment:
		return "Assignment"
	}
	return "Object"
}

// NotFound returns the CodeNotFound error for the object of kind k (or
// the assignment, for KindAssignment) with the given id, such as
// "Contact 0b7e… not found.".
func (k ERMKind) NotFound(id string) *Error {
	return Errorf(CodeNotFound, "%s %s not found.", k.Noun(), id)
}

// Fields returns the fields lists of kind k are filtered by, in the order
// messages list them: every kind has the status, description, date and
// assignment fields; contacts also have the contact point and
// organization fields, external documents the document URL, licenses the
// license type. A kind ParseERMKind refuses has none.
func (k ERMKind) Fields() []ERMField {
	if !slices.Contains(ERMKinds(), k) {
		return nil
	}
	fs := []ERMField{FieldStatus, FieldDescription, FieldDateCreated, FieldDateUpdated, FieldAssignmentID}
	switch k {
	case KindContact:
		fs = append(fs, FieldContactName, FieldContactType, FieldTelephone, FieldEmail, FieldOrganization)
	case KindExternalDocument:
		fs = append(fs, FieldDocumentURL)
	case KindLicense:
		fs = append(fs, FieldLicenseType)
	}
	return fs
}

// CheckFilter returns nil when lists of kind k can be filtered by f, and
// otherwise CodeInvalid naming f and the fields the kind has.
func (k ERMKind) CheckFilter(f ERMField) error {
	if slices.Contains(k.Fields(), f) {
		return nil
	}
	return k.fieldError("filtered", f, k.Fields())
}

// CheckSort returns nil when lists of kind k can be sorted by f: by any
// of its fields but FieldAssignmentID. Otherwise it returns CodeInvalid
// naming f and the fields the kind sorts by.
func (k ERMKind) CheckSort(f ERMField) error {
	sortable := slices.DeleteFunc(k.Fields(), func(g ERMField) bool { return g == FieldAssignmentID })
	if slices.Contains(sortable, f) {
		return nil
	}
	return k.fieldError("sorted", f, sortable)
}

// fieldError is the CodeInvalid error of CheckFilter and CheckSort.
func (k ERMKind) fieldError(verb string, f ERMField, allowed []ERMField) *Error {
	if len(allowed) == 0 {
		return Errorf(CodeInvalid, "Object type %q is not one of %s, so its list cannot be %s by %q.", string(k), kindList(), verb, string(f))
	}
	names := make([]string, len(allowed))
	for i, g := range allowed {
		names[i] = string(g)
	}
	return Errorf(CodeInvalid, "%s lists cannot be %s by %q: use one of %s.", k.Noun(), verb, string(f), strings.Join(names, ", "))
}

// kindList returns the object kinds as "a, b, c, d".
func kindList() string {
	kinds := ERMKinds()
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
