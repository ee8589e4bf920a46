package kb

import (
	"strings"
	"testing"
)

func TestParseERMKind(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ERMKind
		code Code // 0: accepted
	}{
		{"admin_access", KindAdminAccess, 0},
		{"contact", KindContact, 0},
		{"external_document", KindExternalDocument, 0},
		{"license", KindLicense, 0},
		{"", "", CodeInvalid},
		{"Contact", "", CodeInvalid},
		{" contact", "", CodeInvalid},
		{"licence", "", CodeInvalid},
		{"assignment", "", CodeInvalid},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseERMKind(tc.in)
			if ErrorCode(err) != tc.code || got != tc.want {
				t.Fatalf("ParseERMKind(%q) = %q, %v; want %q, code %d", tc.in, got, err, tc.want, tc.code)
			}
			if err == nil {
				return
			}
			msg := ErrorMessage(err)
			for _, w := range []string{"objectType", `"` + tc.in + `"`, "admin_access, contact, external_document, license"} {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestERMKindNoun(t *testing.T) {
	for _, tc := range []struct {
		kind ERMKind
		want string
	}{
		{KindAdminAccess, "Administrative access"},
		{KindContact, "Contact"},
		{KindExternalDocument, "External document"},
		{KindLicense, "License"},
		{KindAssignment, "Assignment"},
		{"", "Object"},
		{"widget", "Object"},
	} {
		if got := tc.kind.Noun(); got != tc.want {
			t.Errorf("ERMKind(%q).Noun() = %q, want %q", tc.kind, got, tc.want)
		}
	}
	err := KindContact.NotFound("abc")
	if ErrorCode(err) != CodeNotFound || ErrorMessage(err) != "Contact abc not found." {
		t.Errorf("KindContact.NotFound(abc) = %v (code %d), want CodeNotFound, \"Contact abc not found.\"", err, ErrorCode(err))
	}
}

func TestERMKindFields(t *testing.T) {
	all := []ERMField{FieldStatus, FieldDescription, FieldDateCreated, FieldDateUpdated, FieldAssignmentID,
		FieldContactName, FieldContactType, FieldTelephone, FieldEmail, FieldOrganization, FieldLicenseType, FieldDocumentURL, "", "name"}
	common := map[ERMField]bool{FieldStatus: true, FieldDescription: true, FieldDateCreated: true, FieldDateUpdated: true, FieldAssignmentID: true}
	contact := map[ERMField]bool{FieldContactName: true, FieldContactType: true, FieldTelephone: true, FieldEmail: true, FieldOrganization: true}
	for _, tc := range []struct {
		kind ERMKind
		has  func(ERMField) bool
	}{
		{KindAdminAccess, func(f ERMField) bool { return common[f] }},
		{KindExternalDocument, func(f ERMField) bool { return common[f] || f == FieldDocumentURL }},
		{KindContact, func(f ERMField) bool { return common[f] || contact[f] }},
		{KindLicense, func(f ERMField) bool { return common[f] || f == FieldLicenseType }},
		{KindAssignment, func(ERMField) bool { return false }},
		{"widget", func(ERMField) bool { return false }},
	} {
		for _, f := range all {
			filter, sort := tc.kind.CheckFilter(f), tc.kind.CheckSort(f)
			wantFilter, wantSort := tc.has(f), tc.has(f) && f != FieldAssignmentID
			if (filter == nil) != wantFilter {
				t.Errorf("%s.CheckFilter(%q) = %v, want accepted %v", tc.kind, f, filter, wantFilter)
			}
			if (sort == nil) != wantSort {
				t.Errorf("%s.CheckSort(%q) = %v, want accepted %v", tc.kind, f, sort, wantSort)
			}
			for _, err := range []error{filter, sort} {
				if err == nil {
					continue
				}
				if ErrorCode(err) != CodeInvalid || !strings.Contains(ErrorMessage(err), `"`+string(f)+`"`) {
					t.Errorf("%s: error %v (code %d): want CodeInvalid naming %q", tc.kind, err, ErrorCode(err), f)
				}
			}
		}
	}
	if msg := ErrorMessage(KindLicense.CheckSort(FieldEmail)); msg != `License lists cannot be sorted by "email": use one of status, description, dateCreated, dateLastUpdated, licenseType.` {
		t.Errorf("license sorted by email: message %q", msg)
	}
	if msg := ErrorMessage(KindContact.CheckFilter(FieldLicenseType)); !strings.Contains(msg, "Contact lists cannot be filtered by \"licenseType\": use one of status,") {
		t.Errorf("contact filtered by license type: message %q", msg)
	}
}
