package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/kb"
)

// ermT0 is the first time of the resource management tests; its
// nanoseconds check that times keep their precision.
var ermT0 = time.Date(2024, 3, 1, 9, 0, 0, 123456789, time.UTC)

// ermHour returns ermT0 plus h hours.
func ermHour(h int) time.Time { return ermT0.Add(time.Duration(h) * time.Hour) }

// testERM: resource management objects are created, read, updated and
// deleted per kind and customer; lists filter, sort and page them; and
// assignments link them to references, go with their object and are kept
// apart per customer.
func testERM(t *testing.T, s Store) {
	ctx := context.Background()
	for _, c := range []string{"c1", "c2"} {
		must[kb.Customer](t)(s.AddCustomer(ctx, c, "Customer "+c))
	}
	t.Run("Objects", func(t *testing.T) { testERMObjects(t, s) })
	t.Run("Lists", func(t *testing.T) { testERMLists(t, s) })
}

// ermObject returns an object of c1 created and last updated at created.
func ermObject(kind kb.ERMKind, id, status, desc string, created time.Time, body string) kb.ERMObject {
	return kb.ERMObject{ID: id, CustomerID: "c1", Kind: kind, Status: status, Description: desc,
		Created: created, Updated: created, Body: []byte(body)}
}

// testERMObjects: create, read, update and delete of each kind, the
// refusals of each, and that customer c2 can do none of them to c1's
// objects.
func testERMObjects(t *testing.T, s Store) {
	ctx := context.Background()
	bodies := map[kb.ERMKind]string{
		kb.KindAdminAccess:      `{"hostURL":"https://admin.example","ipAddresses":"10.0.0.0/8"}`,
		kb.KindContact:          `{"contactPoint":{"name":"Ann","contactType":"Sales","telephone":"1","email":"ann@example.org"}}`,
		kb.KindExternalDocument: `{"externalDocument":{"externalDocumentType":"contract","url":"https://docs.example/c.pdf"}}`,
		kb.KindLicense:          `{"license":{"licenseType":"Site","licenseEndAdvanceNoticeRequired":30}}`,
	}
	for _, kind := range kb.ERMKinds() {
		t.Run(string(kind), func(t *testing.T) {
			id := "obj-" + string(kind)
			other := kb.KindContact // a kind the object is not
			if kind == other {
				other = kb.KindLicense
			}
			// Given in another zone, read back in UTC: the same instant.
			in := ermObject(kind, id, kb.StatusActive, "First "+string(kind), ermHour(0).In(time.FixedZone("UTC+5", 5*3600)), bodies[kind])
			in.Updated = ermHour(1)
			if err := s.CreateERMObject(ctx, in); err != nil {
				t.Fatalf("CreateERMObject: %v", err)
			}
			read := func(cust string, kind kb.ERMKind) (kb.ERMObject, error) {
				t.Helper()
				return s.ERMObject(ctx, cust, kind, id)
			}
			if got, err := read("c1", kind); err != nil {
				t.Fatalf("ERMObject: %v", err)
			} else if diff := cmp.Diff(in, got); diff != "" || got.Created.Location() != time.UTC {
				t.Fatalf("ERMObject (-want +got):\n%s\ncreated %v", diff, got.Created)
			}

			// Another kind, another customer: not found, and nothing
			// changes.
			for _, c := range []struct {
				cust string
				kind kb.ERMKind
			}{{"c2", kind}, {"c1", other}, {"nobody", kind}} {
				_, err := read(c.cust, c.kind)
				wantCode(t, err, kb.CodeNotFound)
				if want := c.kind.Noun() + " " + id + " not found."; kb.ErrorMessage(err) != want {
					t.Errorf("%s reading %s %s: message %q, want %q", c.cust, c.kind, id, kb.ErrorMessage(err), want)
				}
				o := in
				o.CustomerID, o.Kind, o.Description, o.Updated = c.cust, c.kind, "Taken over", ermHour(9)
				wantCode(t, s.UpdateERMObject(ctx, o), kb.CodeNotFound)
				wantCode(t, s.DeleteERMObject(ctx, c.cust, c.kind, id), kb.CodeNotFound)
			}
			if got, err := read("c1", kind); err != nil || !cmp.Equal(in, got) {
				t.Fatalf("after other customers' and kinds' changes ERMObject = %+v, %v; want it unchanged", got, err)
			}

			// An update keeps the creation time, whatever the caller gives.
			up := in
			up.Status, up.Description, up.Body = kb.StatusInactive, "Second "+string(kind), []byte(`{"changed":true}`)
			up.Created, up.Updated = ermHour(7), ermHour(2)
			if err := s.UpdateERMObject(ctx, up); err != nil {
				t.Fatalf("UpdateERMObject: %v", err)
			}
			want := up
			want.Created = in.Created
			if got, err := read("c1", kind); err != nil {
				t.Fatalf("ERMObject after update: %v", err)
			} else if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("ERMObject after update (-want +got):\n%s", diff)
			}

			if err := s.DeleteERMObject(ctx, "c1", kind, id); err != nil {
				t.Fatalf("DeleteERMObject: %v", err)
			}
			_, err := read("c1", kind)
			wantCode(t, err, kb.CodeNotFound)
			wantCode(t, s.DeleteERMObject(ctx, "c1", kind, id), kb.CodeNotFound)
			wantCode(t, s.UpdateERMObject(ctx, up), kb.CodeNotFound)
		})
	}

	// An empty body is stored as an empty object.
	bare := ermObject(kb.KindAdminAccess, "obj-bare", kb.StatusActive, "No details", ermHour(0), "")
	if err := s.CreateERMObject(ctx, bare); err != nil {
		t.Fatalf("CreateERMObject without a body: %v", err)
	}
	if got, err := s.ERMObject(ctx, "c1", kb.KindAdminAccess, "obj-bare"); err != nil || string(got.Body) != "{}" {
		t.Errorf("object created without a body: %+v, %v; want body {}", got, err)
	}

	for _, tc := range []struct {
		name string
		obj  kb.ERMObject
		code kb.Code
	}{
		{"unknown customer", func() kb.ERMObject {
			o := ermObject(kb.KindContact, "obj-x", kb.StatusActive, "x", ermHour(0), "{}")
			o.CustomerID = "nobody"
			return o
		}(), kb.CodeNotFound},
		{"unknown kind", ermObject("widget", "obj-x", kb.StatusActive, "x", ermHour(0), "{}"), kb.CodeInvalid},
		{"assignment kind", ermObject(kb.KindAssignment, "obj-x", kb.StatusActive, "x", ermHour(0), "{}"), kb.CodeInvalid},
		{"no id", ermObject(kb.KindContact, "", kb.StatusActive, "x", ermHour(0), "{}"), kb.CodeMissing},
		{"id taken by an object of another kind", ermObject(kb.KindContact, "obj-bare", kb.StatusActive, "x", ermHour(0), "{}"), kb.CodeDuplicate},
		{"id taken by an object of the kind", ermObject(kb.KindAdminAccess, "obj-bare", kb.StatusActive, "x", ermHour(0), "{}"), kb.CodeDuplicate},
		{"body not JSON", ermObject(kb.KindContact, "obj-x", kb.StatusActive, "x", ermHour(0), "{"), kb.CodeInvalid},
		{"body an array", ermObject(kb.KindContact, "obj-x", kb.StatusActive, "x", ermHour(0), "[]"), kb.CodeInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, s.CreateERMObject(ctx, tc.obj), tc.code)
		})
	}
	if _, err := s.ERMObject(ctx, "c1", kb.KindContact, "obj-x"); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("a refused creation stored an object: %v", err)
	}
	if got, err := s.ERMObject(ctx, "c1", kb.KindAdminAccess, "obj-bare"); err != nil || got.Description != "No details" {
		t.Errorf("a refused duplicate changed the object: %+v, %v", got, err)
	}
	// c2 may use the id c1 uses: ids are per customer.
	c2 := ermObject(kb.KindAdminAccess, "obj-bare", kb.StatusInactive, "c2's own", ermHour(1), "{}")
	c2.CustomerID = "c2"
	if err := s.CreateERMObject(ctx, c2); err != nil {
		t.Errorf("c2 creating an object with c1's id: %v", err)
	}
	bad := bare
	bad.Body = []byte("not json")
	wantCode(t, s.UpdateERMObject(ctx, bad), kb.CodeInvalid)
	for cust, want := range map[string]string{"c1": "No details", "c2": "c2's own"} {
		if got, err := s.ERMObject(ctx, cust, kb.KindAdminAccess, "obj-bare"); err != nil || got.Description != want || string(got.Body) != "{}" {
			t.Errorf("%s's obj-bare = %+v, %v; want %q with body {}", cust, got, err, want)
		}
	}
	for _, cust := range []string{"c1", "c2"} {
		if err := s.DeleteERMObject(ctx, cust, kb.KindAdminAccess, "obj-bare"); err != nil {
			t.Errorf("deleting %s's obj-bare: %v", cust, err)
		}
	}
}

// contact returns a contact of c1 with the fields that lists filter and
// sort by; an empty organization leaves out the organization member.
func contact(id, status, desc string, created, updated int, name, typ, tel, email, org string) kb.ERMObject {
	body := map[string]any{"contactPoint": map[string]string{"name": name, "contactType": typ, "telephone": tel, "email": email}}
	if org != "" {
		body["organization"] = map[string]any{"name": org, "address": map[string]string{"addressCountry": "NZ"}}
	}
	b, err := json.Marshal(body)
	if err != nil {
		panic(err)
	}
	o := ermObject(kb.KindContact, id, status, desc, ermHour(created), string(b))
	o.Updated = ermHour(updated)
	return o
}

// testERMLists: lists of one kind and customer, with each filter and sort
// field, paged; assignments, their lists and deletions, and the deletion
// of an object with its assignments.
func testERMLists(t *testing.T, s Store) {
	ctx := context.Background()
	// Ties: descriptions a and d, contact types a and c, b and e,
	// telephones a and e, emails a and d, organizations a and e (case
	// aside); creation times b and d, update times c and e. d has no
	// organization.
	objs := []kb.ERMObject{
		contact("ct-a", kb.StatusActive, "Main Office", 0, 5, "alice Smith", "Sales", "+1 555 0100", "desk@Example.org", "Acme Ltd"),
		contact("ct-b", kb.StatusInactive, "branch office", 1, 1, "Bob Jones", "support", "+44 20 7946 0000", "bob@vendor.test", "Vendor_Co 100%"),
		contact("ct-c", kb.StatusActive, "Renewals", 2, 3, "carol", "sales", "555-0199", "Acq@acme.example", "ACME Inc"),
		contact("ct-d", kb.StatusActive, "Main office", 1, 4, "Dan", "Billing", "555 0101", "desk@example.org", ""),
		contact("ct-e", kb.StatusInactive, "Zeta", 3, 3, "Eve", "Support", "+1 555 0100", "eve@lib.example", "Acme Ltd"),
		ermObject(kb.KindLicense, "li-1", kb.StatusActive, "Consortium deal", ermHour(0), `{"license":{"licenseType":"Consortium"}}`),
		ermObject(kb.KindLicense, "li-2", kb.StatusActive, "Campus", ermHour(1), `{"license":{"licenseType":"site"}}`),
		ermObject(kb.KindLicense, "li-3", kb.StatusInactive, "Old campus", ermHour(2), `{"license":{"licenseType":"Site","licenseNotes":"office"}}`),
		ermObject(kb.KindAdminAccess, "aa-1", kb.StatusActive, "Main office portal", ermHour(0), `{"hostURL":"https://admin.example"}`),
		ermObject(kb.KindExternalDocument, "ed-1", kb.StatusActive, "B", ermHour(0), `{"externalDocument":{"url":"https://docs.example/b.pdf"}}`),
		ermObject(kb.KindExternalDocument, "ed-2", kb.StatusActive, "A upper", ermHour(1), `{"externalDocument":{"url":"https://docs.example/A.pdf"}}`),
		ermObject(kb.KindExternalDocument, "ed-3", kb.StatusActive, "A lower", ermHour(2), `{"externalDocument":{"url":"https://docs.example/a.pdf"}}`),
	}
	// c2's objects have ids of c1's: ids are per customer, and only the
	// customer's own assignments count.
	c2 := contact("ct-a", kb.StatusActive, "Main office of c2", 1, 1, "alice c2", "Sales", "+1 555 0100", "desk@example.org", "Acme Ltd")
	c2.CustomerID = "c2"
	c2License := ermObject(kb.KindLicense, "ct-c", kb.StatusActive, "c2's license", ermHour(1), `{"license":{"licenseType":"Site"}}`)
	c2License.CustomerID = "c2"
	c2Doc := ermObject(kb.KindExternalDocument, "ed-9", kb.StatusActive, "c2's", ermHour(1), `{"externalDocument":{"url":"https://docs.example/a.pdf"}}`)
	c2Doc.CustomerID = "c2"
	for _, o := range append(objs, c2, c2License, c2Doc) {
		if err := s.CreateERMObject(ctx, o); err != nil {
			t.Fatalf("CreateERMObject(%s): %v", o.ID, err)
		}
	}

	// Assignments: ct-c has two to the same package (listed once), ct-b
	// one to another system's object. c2's as-1 has the id of one of c1's
	// and is on c2's object with the id of c1's ct-c.
	const pkgURL, crmURL, c2URL = "/vendors/19/packages/123", "https://crm.example/contacts/1", "/vendors/1/packages/2"
	assign := func(a kb.Assignment) kb.Assignment {
		t.Helper()
		got, err := s.CreateAssignment(ctx, a)
		if err != nil {
			t.Fatalf("CreateAssignment(%s): %v", a.ID, err)
		}
		return got
	}
	dto := func(url string) []byte {
		return []byte(fmt.Sprintf(`{"assignmentContext":"ctx","relativeUrl":%q}`, url))
	}
	as1 := assign(kb.Assignment{ID: "as-1", CustomerID: "c1", ObjectID: "ct-c", RelativeURL: pkgURL, Created: ermHour(10), Body: dto(pkgURL)})
	as2 := assign(kb.Assignment{ID: "as-2", CustomerID: "c1", ObjectID: "ct-b", LinkURL: crmURL, Created: ermHour(10), Body: dto("")})
	// The kind given is replaced by the object's.
	as3 := assign(kb.Assignment{ID: "as-3", CustomerID: "c1", ObjectID: "ct-c", ObjectKind: kb.KindLicense, RelativeURL: pkgURL, LinkURL: crmURL,
		Created: ermHour(9), Body: dto(pkgURL)})
	as4 := assign(kb.Assignment{ID: "as-4", CustomerID: "c1", ObjectID: "li-1", RelativeURL: pkgURL, Created: ermHour(11), Body: dto(pkgURL)})
	asX := assign(kb.Assignment{ID: "as-x", CustomerID: "c2", ObjectID: "ct-a", RelativeURL: pkgURL, Created: ermHour(10), Body: dto(pkgURL)})
	c2As1 := assign(kb.Assignment{ID: "as-1", CustomerID: "c2", ObjectID: "ct-c", RelativeURL: c2URL, Created: ermHour(8), Body: dto(c2URL)})
	if c2As1.ObjectKind != kb.KindLicense {
		t.Errorf("c2's assignment of its license ct-c: ObjectKind %q, want license", c2As1.ObjectKind)
	}
	for _, a := range []kb.Assignment{as1, as2, as3, asX} {
		if a.ObjectKind != kb.KindContact {
			t.Errorf("assignment %s of a contact: ObjectKind %q, want contact", a.ID, a.ObjectKind)
		}
	}
	if as4.ObjectKind != kb.KindLicense {
		t.Errorf("assignment of a license: ObjectKind %q, want license", as4.ObjectKind)
	}

	list := func(t *testing.T, cust string, q kb.ERMQuery) kb.ERMList {
		t.Helper()
		if q.Page == (kb.Page{}) {
			q.Page = kb.Page{Count: 50, Number: 1}
		}
		l, err := s.ERMObjects(ctx, cust, q)
		if err != nil {
			t.Fatalf("ERMObjects(%s, %+v): %v", cust, q, err)
		}
		if l.Objects == nil {
			t.Errorf("ERMObjects(%s, %+v): nil Objects, want a slice", cust, q)
		}
		return l
	}
	ids := func(l kb.ERMList) []string {
		out := []string{}
		for _, o := range l.Objects {
			out = append(out, o.ID)
		}
		return out
	}
	check := func(t *testing.T, cust string, q kb.ERMQuery, total int, want ...string) {
		t.Helper()
		l := list(t, cust, q)
		if want == nil {
			want = []string{}
		}
		if got := ids(l); l.Total != total || !cmp.Equal(got, want) {
			t.Errorf("ERMObjects(%s, %+v) = %d: %v; want %d: %v", cust, q, l.Total, got, total, want)
		}
	}
	contacts := func(f *kb.ERMFilter, sort ...kb.ERMSort) kb.ERMQuery {
		return kb.ERMQuery{Kind: kb.KindContact, Filter: f, Sort: sort}
	}

	t.Run("listed as read", func(t *testing.T) {
		l := list(t, "c1", contacts(nil))
		if len(l.Objects) != 5 {
			t.Fatalf("c1 has %d contacts, want 5", len(l.Objects))
		}
		for _, o := range l.Objects {
			got, err := s.ERMObject(ctx, "c1", kb.KindContact, o.ID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, o); diff != "" {
				t.Errorf("contact %s listed (-read +listed):\n%s", o.ID, diff)
			}
		}
		var want kb.ERMObject
		for _, o := range objs {
			if o.ID == "ct-d" {
				want = o
			}
		}
		got, err := s.ERMObject(ctx, "c1", kb.KindContact, "ct-d")
		if err != nil || !cmp.Equal(want, got) {
			t.Errorf("ERMObject(ct-d) = %+v, %v; want %+v", got, err, want)
		}
	})

	t.Run("kinds and customers", func(t *testing.T) {
		check(t, "c1", contacts(nil), 5, "ct-e", "ct-c", "ct-b", "ct-d", "ct-a") // newest first, ties by id
		check(t, "c1", kb.ERMQuery{Kind: kb.KindLicense}, 3, "li-3", "li-2", "li-1")
		check(t, "c1", kb.ERMQuery{Kind: kb.KindAdminAccess}, 1, "aa-1")
		check(t, "c1", kb.ERMQuery{Kind: kb.KindExternalDocument}, 3, "ed-3", "ed-2", "ed-1")
		check(t, "c2", contacts(nil), 1, "ct-a")
		check(t, "c2", kb.ERMQuery{Kind: kb.KindLicense}, 1, "ct-c")
		check(t, "nobody", contacts(nil), 0)
	})

	t.Run("filters", func(t *testing.T) {
		text := func(f kb.ERMField, s string) *kb.ERMFilter { return &kb.ERMFilter{Field: f, Text: s} }
		dates := func(f kb.ERMField, from, to time.Time) *kb.ERMFilter {
			return &kb.ERMFilter{Field: f, From: from, To: to}
		}
		var zero time.Time
		for _, tc := range []struct {
			name   string
			kind   kb.ERMKind
			filter *kb.ERMFilter
			want   []string // newest first
		}{
			{"status active", kb.KindContact, text(kb.FieldStatus, "active"), []string{"ct-c", "ct-d", "ct-a"}},
			{"status inactive", kb.KindContact, text(kb.FieldStatus, "inactive"), []string{"ct-e", "ct-b"}},
			{"status is exact", kb.KindContact, text(kb.FieldStatus, "activ"), nil},
			{"license status", kb.KindLicense, text(kb.FieldStatus, "inactive"), []string{"li-3"}},
			{"description contains, any case", kb.KindContact, text(kb.FieldDescription, "OFFICE"), []string{"ct-b", "ct-d", "ct-a"}},
			{"description of admin access", kb.KindAdminAccess, text(kb.FieldDescription, "portal"), []string{"aa-1"}},
			{"description is not the body", kb.KindLicense, text(kb.FieldDescription, "office"), nil},
			{"description of another customer", kb.KindContact, text(kb.FieldDescription, "c2"), nil},
			{"created from, to", kb.KindContact, dates(kb.FieldDateCreated, ermHour(1), ermHour(2)), []string{"ct-b", "ct-d"}},
			{"created from in another zone", kb.KindContact, dates(kb.FieldDateCreated, ermHour(1).In(time.FixedZone("UTC-7", -7*3600)), ermHour(2)),
				[]string{"ct-b", "ct-d"}},
			{"created from, to a nanosecond later", kb.KindContact, dates(kb.FieldDateCreated, ermHour(1), ermHour(1).Add(1)), []string{"ct-b", "ct-d"}},
			{"created from a nanosecond later", kb.KindContact, dates(kb.FieldDateCreated, ermHour(1).Add(1), ermHour(2)), nil},
			{"created from only", kb.KindContact, dates(kb.FieldDateCreated, ermHour(2), zero), []string{"ct-e", "ct-c"}},
			{"created to only", kb.KindContact, dates(kb.FieldDateCreated, zero, ermHour(1)), []string{"ct-a"}},
			{"created unbounded", kb.KindContact, dates(kb.FieldDateCreated, zero, zero), []string{"ct-e", "ct-c", "ct-b", "ct-d", "ct-a"}},
			{"updated from, to", kb.KindContact, dates(kb.FieldDateUpdated, ermHour(3), ermHour(5)), []string{"ct-e", "ct-c", "ct-d"}},
			{"updated to only", kb.KindContact, dates(kb.FieldDateUpdated, zero, ermHour(3)), []string{"ct-b"}},
			{"license created", kb.KindLicense, dates(kb.FieldDateCreated, ermHour(1), zero), []string{"li-3", "li-2"}},
			{"assignment id", kb.KindContact, text(kb.FieldAssignmentID, "as-1"), []string{"ct-c"}},
			{"assignment id of another kind's object", kb.KindContact, text(kb.FieldAssignmentID, "as-4"), nil},
			{"assignment id of a license", kb.KindLicense, text(kb.FieldAssignmentID, "as-4"), []string{"li-1"}},
			{"assignment id of another customer", kb.KindContact, text(kb.FieldAssignmentID, "as-x"), nil},
			{"unknown assignment id", kb.KindContact, text(kb.FieldAssignmentID, "as-"), nil},
			{"contact name", kb.KindContact, text(kb.FieldContactName, "O"), []string{"ct-c", "ct-b"}},
			{"contact name, any case", kb.KindContact, text(kb.FieldContactName, "ALICE"), []string{"ct-a"}},
			{"contact type", kb.KindContact, text(kb.FieldContactType, "SUPP"), []string{"ct-e", "ct-b"}},
			{"telephone", kb.KindContact, text(kb.FieldTelephone, "555 01"), []string{"ct-e", "ct-d", "ct-a"}},
			{"email", kb.KindContact, text(kb.FieldEmail, "EXAMPLE.ORG"), []string{"ct-d", "ct-a"}},
			{"organization", kb.KindContact, text(kb.FieldOrganization, "acme"), []string{"ct-e", "ct-c", "ct-a"}},
			{"organization, % is a character", kb.KindContact, text(kb.FieldOrganization, "%"), []string{"ct-b"}},
			{"organization, _ is a character", kb.KindContact, text(kb.FieldOrganization, "_"), []string{"ct-b"}},
			{"organization, quotes are characters", kb.KindContact, text(kb.FieldOrganization, `' OR 1=1 --`), nil},
			{"organization, not the address", kb.KindContact, text(kb.FieldOrganization, "NZ"), nil},
			{"license type", kb.KindLicense, text(kb.FieldLicenseType, "SITE"), []string{"li-3", "li-2"}},
			{"license type, part", kb.KindLicense, text(kb.FieldLicenseType, "sort"), []string{"li-1"}},
			{"document URL", kb.KindExternalDocument, text(kb.FieldDocumentURL, "https://docs.example/a.pdf"), []string{"ed-3"}},
			{"document URL is exact", kb.KindExternalDocument, text(kb.FieldDocumentURL, "https://docs.example/"), nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				check(t, "c1", kb.ERMQuery{Kind: tc.kind, Filter: tc.filter}, len(tc.want), tc.want...)
			})
		}
		check(t, "c2", contacts(text(kb.FieldContactName, "alice")), 1, "ct-a")
		check(t, "c2", kb.ERMQuery{Kind: kb.KindExternalDocument, Filter: text(kb.FieldDocumentURL, "https://docs.example/a.pdf")}, 1, "ed-9")
		check(t, "c2", contacts(text(kb.FieldAssignmentID, "as-x")), 1, "ct-a")
		check(t, "c2", kb.ERMQuery{Kind: kb.KindLicense, Filter: text(kb.FieldAssignmentID, "as-1")}, 1, "ct-c")
	})

	t.Run("assigned to", func(t *testing.T) {
		for _, tc := range []struct {
			cust string
			kind kb.ERMKind
			url  string
			want []string
		}{
			{"c1", kb.KindContact, pkgURL, []string{"ct-c"}}, // two assignments, listed once
			{"c1", kb.KindContact, crmURL, []string{"ct-c", "ct-b"}},
			{"c1", kb.KindLicense, pkgURL, []string{"li-1"}},
			{"c1", kb.KindContact, "/vendors/19", nil}, // exact
			{"c1", kb.KindAdminAccess, pkgURL, nil},
			{"c1", kb.KindContact, c2URL, nil},
			{"c2", kb.KindContact, pkgURL, []string{"ct-a"}},
			{"c2", kb.KindContact, crmURL, nil},
			{"c2", kb.KindLicense, c2URL, []string{"ct-c"}},
		} {
			check(t, tc.cust, kb.ERMQuery{Kind: tc.kind, AssignedTo: tc.url}, len(tc.want), tc.want...)
		}
		// With a filter and a sort.
		check(t, "c1", kb.ERMQuery{Kind: kb.KindContact, AssignedTo: crmURL, Filter: &kb.ERMFilter{Field: kb.FieldStatus, Text: "inactive"}}, 1, "ct-b")
		check(t, "c1", kb.ERMQuery{Kind: kb.KindContact, AssignedTo: crmURL, Sort: []kb.ERMSort{{Field: kb.FieldDateCreated}}}, 2, "ct-b", "ct-c")
	})

	t.Run("sorts", func(t *testing.T) {
		for _, tc := range []struct {
			kind      kb.ERMKind
			field     kb.ERMField
			asc, desc []string
		}{
			{kb.KindContact, kb.FieldStatus, []string{"ct-a", "ct-c", "ct-d", "ct-b", "ct-e"}, []string{"ct-b", "ct-e", "ct-a", "ct-c", "ct-d"}},
			{kb.KindContact, kb.FieldDescription, []string{"ct-b", "ct-a", "ct-d", "ct-c", "ct-e"}, []string{"ct-e", "ct-c", "ct-a", "ct-d", "ct-b"}},
			{kb.KindContact, kb.FieldDateCreated, []string{"ct-a", "ct-b", "ct-d", "ct-c", "ct-e"}, []string{"ct-e", "ct-c", "ct-b", "ct-d", "ct-a"}},
			{kb.KindContact, kb.FieldDateUpdated, []string{"ct-b", "ct-c", "ct-e", "ct-d", "ct-a"}, []string{"ct-a", "ct-d", "ct-c", "ct-e", "ct-b"}},
			{kb.KindContact, kb.FieldContactName, []string{"ct-a", "ct-b", "ct-c", "ct-d", "ct-e"}, []string{"ct-e", "ct-d", "ct-c", "ct-b", "ct-a"}},
			{kb.KindContact, kb.FieldContactType, []string{"ct-d", "ct-a", "ct-c", "ct-b", "ct-e"}, []string{"ct-b", "ct-e", "ct-a", "ct-c", "ct-d"}},
			{kb.KindContact, kb.FieldTelephone, []string{"ct-a", "ct-e", "ct-b", "ct-d", "ct-c"}, []string{"ct-c", "ct-d", "ct-b", "ct-a", "ct-e"}},
			{kb.KindContact, kb.FieldEmail, []string{"ct-c", "ct-b", "ct-a", "ct-d", "ct-e"}, []string{"ct-e", "ct-a", "ct-d", "ct-b", "ct-c"}},
			// No organization sorts first, ascending.
			{kb.KindContact, kb.FieldOrganization, []string{"ct-d", "ct-c", "ct-a", "ct-e", "ct-b"}, []string{"ct-b", "ct-a", "ct-e", "ct-c", "ct-d"}},
			{kb.KindLicense, kb.FieldLicenseType, []string{"li-1", "li-2", "li-3"}, []string{"li-2", "li-3", "li-1"}},
			{kb.KindLicense, kb.FieldDescription, []string{"li-2", "li-1", "li-3"}, []string{"li-3", "li-1", "li-2"}},
			{kb.KindLicense, kb.FieldStatus, []string{"li-1", "li-2", "li-3"}, []string{"li-3", "li-1", "li-2"}},
			{kb.KindExternalDocument, kb.FieldDocumentURL, []string{"ed-2", "ed-3", "ed-1"}, []string{"ed-1", "ed-2", "ed-3"}},
		} {
			for _, desc := range []bool{false, true} {
				want := tc.asc
				if desc {
					want = tc.desc
				}
				t.Run(fmt.Sprintf("%s %s desc=%v", tc.kind, tc.field, desc), func(t *testing.T) {
					check(t, "c1", kb.ERMQuery{Kind: tc.kind, Sort: []kb.ERMSort{{Field: tc.field, Desc: desc}}}, len(want), want...)
				})
			}
		}
		// Several keys: the contacts' default of the specification.
		check(t, "c1", contacts(nil, kb.ERMSort{Field: kb.FieldStatus}, kb.ERMSort{Field: kb.FieldDateCreated, Desc: true}), 5,
			"ct-c", "ct-d", "ct-a", "ct-e", "ct-b")
		check(t, "c1", contacts(nil, kb.ERMSort{Field: kb.FieldContactType, Desc: true}, kb.ERMSort{Field: kb.FieldDateUpdated}), 5,
			"ct-b", "ct-e", "ct-c", "ct-a", "ct-d")
	})

	t.Run("pages", func(t *testing.T) {
		page := func(q kb.ERMQuery, count, number int) kb.ERMQuery {
			q.Page = kb.Page{Count: count, Number: number}
			return q
		}
		check(t, "c1", page(contacts(nil), 2, 1), 5, "ct-e", "ct-c")
		check(t, "c1", page(contacts(nil), 2, 2), 5, "ct-b", "ct-d")
		check(t, "c1", page(contacts(nil), 2, 3), 5, "ct-a")
		check(t, "c1", page(contacts(nil), 2, 4), 5)
		check(t, "c1", page(contacts(nil), 5, 1), 5, "ct-e", "ct-c", "ct-b", "ct-d", "ct-a")
		check(t, "c1", page(contacts(&kb.ERMFilter{Field: kb.FieldStatus, Text: "active"}), 2, 2), 3, "ct-a")
		check(t, "c1", page(contacts(nil, kb.ERMSort{Field: kb.FieldContactName, Desc: true}), 3, 2), 5, "ct-b", "ct-a")
	})

	t.Run("refused", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			q    kb.ERMQuery
			word string // a word the message has
		}{
			{"license field on contacts", contacts(&kb.ERMFilter{Field: kb.FieldLicenseType, Text: "x"}), "licenseType"},
			{"contact field on licenses", kb.ERMQuery{Kind: kb.KindLicense, Filter: &kb.ERMFilter{Field: kb.FieldEmail, Text: "x"}}, "email"},
			{"contact field on admin access", kb.ERMQuery{Kind: kb.KindAdminAccess, Filter: &kb.ERMFilter{Field: kb.FieldOrganization}}, "organization"},
			{"document field on contacts", contacts(&kb.ERMFilter{Field: kb.FieldDocumentURL, Text: "x"}), "documentUrl"},
			{"no filter field", contacts(&kb.ERMFilter{Text: "x"}), `""`},
			{"unknown filter field", contacts(&kb.ERMFilter{Field: "name", Text: "x"}), "name"},
			{"sort by another kind's field", kb.ERMQuery{Kind: kb.KindExternalDocument, Sort: []kb.ERMSort{{Field: kb.FieldContactName}}}, "contactName"},
			{"sort by assignment id", contacts(nil, kb.ERMSort{Field: kb.FieldAssignmentID}), "assignmentId"},
			{"second sort key", contacts(nil, kb.ERMSort{Field: kb.FieldStatus}, kb.ERMSort{Field: kb.FieldLicenseType}), "licenseType"},
			{"unknown kind", kb.ERMQuery{Kind: "widget"}, "widget"},
			{"no kind", kb.ERMQuery{}, "objectType"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tc.q.Page = kb.Page{Count: 10, Number: 1}
				_, err := s.ERMObjects(ctx, "c1", tc.q)
				wantCode(t, err, kb.CodeInvalid)
				if !strings.Contains(kb.ErrorMessage(err), tc.word) {
					t.Errorf("message %q lacks %q", kb.ErrorMessage(err), tc.word)
				}
			})
		}
	})

	alist := func(t *testing.T, cust string, q kb.AssignmentQuery) kb.AssignmentList {
		t.Helper()
		if q.Page == (kb.Page{}) {
			q.Page = kb.Page{Count: 50, Number: 1}
		}
		l, err := s.Assignments(ctx, cust, q)
		if err != nil {
			t.Fatalf("Assignments(%s, %+v): %v", cust, q, err)
		}
		if l.Assignments == nil {
			t.Errorf("Assignments(%s, %+v): nil Assignments, want a slice", cust, q)
		}
		return l
	}
	acheck := func(t *testing.T, cust string, q kb.AssignmentQuery, total int, want ...kb.Assignment) {
		t.Helper()
		if want == nil {
			want = []kb.Assignment{}
		}
		l := alist(t, cust, q)
		if diff := cmp.Diff(want, l.Assignments); diff != "" || l.Total != total {
			t.Errorf("Assignments(%s, %+v): total %d, want %d; (-want +got):\n%s", cust, q, l.Total, total, diff)
		}
	}

	t.Run("assignments", func(t *testing.T) {
		if want := (kb.Assignment{ID: "as-3", CustomerID: "c1", ObjectID: "ct-c", ObjectKind: kb.KindContact, RelativeURL: pkgURL,
			LinkURL: crmURL, Created: ermHour(9), Body: dto(pkgURL)}); !cmp.Equal(want, as3) {
			t.Errorf("CreateAssignment returned %+v, want %+v", as3, want)
		}
		// Oldest first, then by id.
		acheck(t, "c1", kb.AssignmentQuery{}, 4, as3, as1, as2, as4)
		acheck(t, "c1", kb.AssignmentQuery{ObjectID: "ct-c"}, 2, as3, as1)
		acheck(t, "c1", kb.AssignmentQuery{ObjectKind: kb.KindLicense}, 1, as4)
		acheck(t, "c1", kb.AssignmentQuery{ObjectKind: kb.KindAdminAccess}, 0)
		acheck(t, "c1", kb.AssignmentQuery{RelativeURL: pkgURL}, 3, as3, as1, as4)
		acheck(t, "c1", kb.AssignmentQuery{RelativeURL: "/vendors/19"}, 0)
		acheck(t, "c1", kb.AssignmentQuery{ObjectID: "ct-c", RelativeURL: pkgURL, ObjectKind: kb.KindContact}, 2, as3, as1)
		acheck(t, "c1", kb.AssignmentQuery{ObjectKind: kb.KindContact, Page: kb.Page{Count: 2, Number: 2}}, 3, as2)
		acheck(t, "c1", kb.AssignmentQuery{Page: kb.Page{Count: 2, Number: 3}}, 4)
		acheck(t, "c1", kb.AssignmentQuery{RelativeURL: c2URL}, 0)
		acheck(t, "c2", kb.AssignmentQuery{}, 2, c2As1, asX)
		acheck(t, "c2", kb.AssignmentQuery{ObjectID: "ct-c"}, 1, c2As1)

		// Refusals change nothing.
		before := time.Now()
		for _, tc := range []struct {
			name string
			a    kb.Assignment
			code kb.Code
			word string
		}{
			{"another customer's object", kb.Assignment{ID: "as-9", CustomerID: "c2", ObjectID: "ct-b", RelativeURL: pkgURL}, kb.CodeNotFound, "ct-b"},
			{"unknown object", kb.Assignment{ID: "as-9", CustomerID: "c1", ObjectID: "ct-zz"}, kb.CodeNotFound, "ct-zz"},
			{"unknown customer", kb.Assignment{ID: "as-9", CustomerID: "nobody", ObjectID: "ct-c"}, kb.CodeNotFound, "ct-c"},
			{"id taken", kb.Assignment{ID: "as-1", CustomerID: "c1", ObjectID: "ct-a"}, kb.CodeDuplicate, "as-1"},
			{"no id", kb.Assignment{CustomerID: "c1", ObjectID: "ct-a"}, kb.CodeMissing, "id"},
			{"body not an object", kb.Assignment{ID: "as-9", CustomerID: "c1", ObjectID: "ct-a", Body: []byte(`"x"`)}, kb.CodeInvalid, "JSON"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := s.CreateAssignment(ctx, tc.a)
				wantCode(t, err, tc.code)
				if !strings.Contains(kb.ErrorMessage(err), tc.word) {
					t.Errorf("message %q lacks %q", kb.ErrorMessage(err), tc.word)
				}
			})
		}
		acheck(t, "c1", kb.AssignmentQuery{}, 4, as3, as1, as2, as4)
		acheck(t, "c2", kb.AssignmentQuery{}, 2, c2As1, asX)

		// A zero creation time is now; an empty body {}.
		as5 := assign(kb.Assignment{ID: "as-5", CustomerID: "c1", ObjectID: "aa-1", LinkURL: crmURL})
		if as5.Created.Before(before.Add(-time.Second)) || as5.Created.After(time.Now().Add(time.Second)) {
			t.Errorf("assignment without a time: Created %v, want about now (%v)", as5.Created, before)
		}
		l := alist(t, "c1", kb.AssignmentQuery{ObjectID: "aa-1"})
		if len(l.Assignments) != 1 || string(l.Assignments[0].Body) != "{}" || !l.Assignments[0].Created.Equal(as5.Created) {
			t.Errorf("assignment without a time or body listed as %+v, want created %v with body {}", l.Assignments, as5.Created)
		}
		check(t, "c1", kb.ERMQuery{Kind: kb.KindAdminAccess, AssignedTo: crmURL}, 1, "aa-1")

		// Deletion: by its own customer, once.
		wantCode(t, s.DeleteAssignment(ctx, "c2", "as-2"), kb.CodeNotFound)
		wantCode(t, s.DeleteAssignment(ctx, "c1", "as-x"), kb.CodeNotFound)
		if err := s.DeleteAssignment(ctx, "c1", "as-2"); err != nil {
			t.Fatalf("DeleteAssignment: %v", err)
		}
		err := s.DeleteAssignment(ctx, "c1", "as-2")
		wantCode(t, err, kb.CodeNotFound)
		if want := "Assignment as-2 not found."; kb.ErrorMessage(err) != want {
			t.Errorf("deleting a deleted assignment: message %q, want %q", kb.ErrorMessage(err), want)
		}
		acheck(t, "c1", kb.AssignmentQuery{ObjectKind: kb.KindContact}, 2, as3, as1)
		check(t, "c1", kb.ERMQuery{Kind: kb.KindContact, AssignedTo: crmURL}, 1, "ct-c")
		check(t, "c1", contacts(&kb.ERMFilter{Field: kb.FieldAssignmentID, Text: "as-2"}), 0)
		acheck(t, "c2", kb.AssignmentQuery{}, 2, c2As1, asX)
	})

	t.Run("delete an object with its assignments", func(t *testing.T) {
		// c2 cannot, and the assignments stay.
		wantCode(t, s.DeleteERMObject(ctx, "c2", kb.KindContact, "ct-c"), kb.CodeNotFound)
		wantCode(t, s.DeleteERMObject(ctx, "c1", kb.KindLicense, "ct-c"), kb.CodeNotFound)
		acheck(t, "c1", kb.AssignmentQuery{ObjectID: "ct-c"}, 2, as3, as1)

		if err := s.DeleteERMObject(ctx, "c1", kb.KindContact, "ct-c"); err != nil {
			t.Fatalf("DeleteERMObject: %v", err)
		}
		acheck(t, "c1", kb.AssignmentQuery{ObjectID: "ct-c"}, 0)
		acheck(t, "c1", kb.AssignmentQuery{RelativeURL: pkgURL}, 1, as4)
		check(t, "c1", contacts(nil), 4, "ct-e", "ct-b", "ct-d", "ct-a")
		check(t, "c1", kb.ERMQuery{Kind: kb.KindContact, AssignedTo: pkgURL}, 0)
		check(t, "c1", contacts(&kb.ERMFilter{Field: kb.FieldAssignmentID, Text: "as-1"}), 0)
		wantCode(t, s.DeleteAssignment(ctx, "c1", "as-1"), kb.CodeNotFound)
		// The id is free again, for an object and an assignment.
		again := ermObject(kb.KindLicense, "ct-c", kb.StatusActive, "Reused id", ermHour(4), "{}")
		if err := s.CreateERMObject(ctx, again); err != nil {
			t.Fatalf("CreateERMObject with a deleted object's id: %v", err)
		}
		assign(kb.Assignment{ID: "as-1", CustomerID: "c1", ObjectID: "ct-c", Created: ermHour(12)})
		acheck(t, "c2", kb.AssignmentQuery{}, 2, c2As1, asX)
		check(t, "c2", contacts(nil), 1, "ct-a")
		check(t, "c2", kb.ERMQuery{Kind: kb.KindLicense, AssignedTo: c2URL}, 1, "ct-c")
	})
}
