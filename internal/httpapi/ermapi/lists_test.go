package ermapi_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// listFixture holds three objects of each kind of cust1, A, B and C,
// created in this order, whose text fields sort differently:
//
//	        description  status    email    contactName  contactType  licenseType
//	A       Beta         active    c@x.org  Ann          sales        site
//	B       alpha        inactive  a@x.org  Cid          billing      consortial
//	C       Gamma        active    b@x.org  bob          tech         national
//
// A is updated last, so the update order is B, C, A. Contacts A and B
// have organisations (Acme Library, Beta Press) and telephones +1 555
// 0100, +1 555 0200 (C: +44 20 7946). External documents A and C point
// to https://a.example/doc.pdf and that URL with ?v=2, B to
// https://b.example/doc.pdf. Assignment asg[kind] assigns C.
type listFixture struct {
	*fixture
	ids map[string]map[string]string // kind → label → id
	asg map[string]string            // kind → the id of C's assignment
}

func newListFixture(t *testing.T) *listFixture {
	t.Helper()
	f := &listFixture{fixture: newFixture(t), ids: map[string]map[string]string{}, asg: map[string]string{}}
	type row struct{ label, desc, status, email, name, ctype, phone, org, ltype, url string }
	rows := []row{
		{"A", "Beta", "active", "c@x.org", "Ann", "sales", "+1 555 0100", "Acme Library", "site", "https://a.example/doc.pdf"},
		{"B", "alpha", "inactive", "a@x.org", "Cid", "billing", "+1 555 0200", "Beta Press", "consortial", "https://b.example/doc.pdf"},
		{"C", "Gamma", "active", "b@x.org", "bob", "tech", "+44 20 7946", "", "national", "https://a.example/doc.pdf?v=2"},
	}
	bodyOf := func(kind string, r row) obj {
		b := bodies[kind]()
		b = set(b, "extensionObject.objectDescription", r.desc)
		b = set(b, "extensionObject.status", r.status)
		switch kind {
		case contact:
			b = set(b, "contactPoint", obj{"email": r.email, "name": r.name, "contactType": r.ctype, "telephone": r.phone})
			b = set(b, "organization", nil)
			if r.org != "" {
				b = set(b, "organization.name", r.org)
			}
		case license:
			b = set(b, "license.licenseType", r.ltype)
		case extDoc:
			b = set(b, "externalDocument.url", r.url)
		}
		return b
	}
	for _, kind := range []string{adminAccess, contact, extDoc, license} {
		f.ids[kind] = map[string]string{}
		for _, r := range rows {
			f.ids[kind][r.label] = f.create(t, kind, bodyOf(kind, r))
		}
	}
	for _, kind := range []string{adminAccess, contact, extDoc, license} {
		a := rows[0]
		body := bodyOf(kind, a)
		if kind == extDoc {
			body = set(body, "extensionObject.customerId", "cust1")
			body = set(body, "extensionObject.id", f.ids[kind]["A"])
		}
		f.ok(t, "PUT", kind+"/"+f.ids[kind]["A"], body, 200)
		res := f.ok(t, "POST", "assignment/"+f.ids[kind]["C"], assignmentBody(objectTypes[kind], "/vendors/9/packages/"+kind), 201)
		f.asg[kind] = checkResult(t, res, "assignmentId")
	}
	return f
}

// labels lists the labels of the objects of a list answer, in order, and
// checks totalResults.
func (f *listFixture) labels(t *testing.T, kind string, list obj) []string {
	t.Helper()
	byID := map[string]string{}
	for label, id := range f.ids[kind] {
		byID[id] = label
	}
	items, _ := list["items"].([]any)
	out := []string{}
	for _, it := range items {
		id := it.(obj)["extensionObject"].(obj)["id"].(string)
		label, ok := byID[id]
		if !ok {
			label = "?" + id
		}
		out = append(out, label)
	}
	if total, _ := list["totalResults"].(float64); int(total) < len(out) {
		t.Errorf("totalResults %v with %d items", list["totalResults"], len(out))
	}
	return out
}

// list gets a list of kind with the query and returns the labels of its
// items.
func (f *listFixture) list(t *testing.T, kind, query string) []string {
	t.Helper()
	rest := kind
	if query != "" {
		rest += "?" + query
	}
	return f.labels(t, kind, f.ok(t, "GET", rest, nil, http.StatusOK))
}

// TestSortKeys sorts each kind's list by each of its sort keys, both ways,
// and checks the default orders.
func TestSortKeys(t *testing.T) {
	f := newListFixture(t)
	common := map[string][]string{
		"sort=description,asc":                       {"B", "A", "C"},
		"sort=description,desc":                      {"C", "A", "B"},
		"sort=dateCreated,asc":                       {"A", "B", "C"},
		"sort=DATECREATED,DESC":                      {"C", "B", "A"},
		"sort=dateLastUpdated,asc":                   {"B", "C", "A"},
		"sort=dateLastUpdated,desc":                  {"A", "C", "B"},
		"sort=status,asc&sort=dateCreated,asc":       {"A", "C", "B"},
		"sort=status,desc&sort=dateCreated,asc":      {"B", "A", "C"},
		"sort=status,asc&sort=dateCreated,desc":      {"C", "A", "B"},
		"sort=status,asc&sort=dateLastUpdated,desc":  {"A", "C", "B"},
		"sort=description,asc&sort=dateCreated,desc": {"B", "A", "C"},
		"": {"C", "B", "A"}, // dateCreated,desc
	}
	cases := map[string]map[string][]string{
		adminAccess: common,
		extDoc:      common,
		license: merge(common, map[string][]string{
			"sort=licenseType,asc":  {"B", "C", "A"},
			"sort=licenseType,desc": {"A", "C", "B"},
		}),
		contact: merge(common, map[string][]string{
			"sort=email,asc":        {"B", "C", "A"},
			"sort=email,desc":       {"A", "C", "B"},
			"sort=contactName,asc":  {"A", "C", "B"},
			"sort=contactName,desc": {"B", "C", "A"},
			"sort=contactType,asc":  {"B", "A", "C"},
			"sort=contactType,desc": {"C", "A", "B"},
			"":                      {"C", "A", "B"}, // status,asc then dateCreated,desc
		}),
	}
	for kind, cs := range cases {
		for query, want := range cs {
			if kind == contact && strings.Contains(query, "description") {
				continue // contacts do not sort by description
			}
			t.Run(kind+"?"+query, func(t *testing.T) {
				if got := f.list(t, kind, query); !slices.Equal(got, want) {
					t.Errorf("got %v, want %v", got, want)
				}
			})
		}
	}
}

func merge(a, b map[string][]string) map[string][]string {
	out := map[string][]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestSearchFields filters each kind's list by each of its search fields.
func TestSearchFields(t *testing.T) {
	f := newListFixture(t)
	created := f.ok(t, "GET", adminAccess+"/"+f.ids[adminAccess]["A"], nil, 200)["extensionObject"].(obj)["dateCreated"]
	day, padded, before, after := days(t, created)
	q := func(field, value string) string {
		return "sort=dateCreated,asc&searchfield=" + url.QueryEscape(field) + "&searchvalue=" + url.QueryEscape(value)
	}
	all, none := []string{"A", "B", "C"}, []string{}
	type tc struct {
		query string
		want  []string
	}
	common := func(status, created, updated, description, assignment string, kind string) []tc {
		cases := []tc{
			{q(status, "inactive"), []string{"B"}},
			{q(status, "ACTIVE"), []string{"A", "C"}},
			{q(description, "ALP"), []string{"B"}},
			{q(description, "a"), all},
			{q(description, "zzz"), none},
			{q(created, day), all},
			{q(created, padded), all},
			{q(created, before), none},
			{q(created, after), none},
			{q(updated, day), all},
			{q(updated, before), none},
			{q(assignment, f.asg[kind]), []string{"C"}},
			{q(assignment, "00000000-0000-4000-8000-000000000000"), none},
		}
		other := license // another kind's assignment
		if kind == license {
			other = contact
		}
		return append(cases, tc{q(assignment, f.asg[other]), none})
	}
	cases := map[string][]tc{
		adminAccess: common("status", "datecreated", "datelastupdated", "description", "assignmentid", adminAccess),
		contact: append(common("status", "datecreated", "datelastupdated", "description", "assignmentid", contact),
			tc{q("name", "BO"), []string{"C"}},
			tc{q("type", "bill"), []string{"B"}},
			tc{q("phone", "0200"), []string{"B"}},
			tc{q("phone", "+1 555"), []string{"A", "B"}},
			tc{q("email", "c@x"), []string{"A"}},
			tc{q("organization", "press"), []string{"B"}},
			tc{q("organization", "Library"), []string{"A"}},
			tc{q("Name", "ann"), []string{"A"}}, // searchfield in any case
		),
		license: append(common("status", "date_created", "date_last_updated", "description", "assignment_id", license),
			tc{q("license_type", "NATION"), []string{"C"}},
			tc{q("license_type", "s"), []string{"A", "B"}},
			tc{"sort=dateCreated,asc&searchfield=date_last_updated&startdate=" + url.QueryEscape(day), all},
			tc{"sort=dateCreated,asc&startdate=" + url.QueryEscape(day), all},
			tc{"sort=dateCreated,asc&startdate=" + url.QueryEscape(after), none},
			tc{"sort=dateCreated,asc&enddate=" + url.QueryEscape(before), none},
			tc{"sort=dateCreated,asc&enddate=" + url.QueryEscape(padded), all},
			tc{"sort=dateCreated,asc&startdate=" + url.QueryEscape(before) + "&enddate=" + url.QueryEscape(day), all},
			tc{"sort=dateCreated,asc&startdate=" + url.QueryEscape(day) + "&enddate=" + url.QueryEscape(day), all},
			tc{"sort=dateCreated,asc&startdate=" + url.QueryEscape(after) + "&enddate=" + url.QueryEscape(after), none},
		),
	}
	for kind, cs := range cases {
		for _, c := range cs {
			t.Run(kind+"?"+c.query, func(t *testing.T) {
				if got := f.list(t, kind, c.query); !slices.Equal(got, c.want) {
					t.Errorf("got %v, want %v", got, c.want)
				}
			})
		}
	}
}

// TestExternalDocumentLookup finds external documents by their exact URL.
func TestExternalDocumentLookup(t *testing.T) {
	f := newListFixture(t)
	for u, want := range map[string][]string{
		"https://a.example/doc.pdf":     {"A"},
		"https://a.example/doc.pdf?v=2": {"C"},
		"https://b.example/doc.pdf":     {"B"},
		"https://a.example/doc":         {},
		"HTTPS://A.EXAMPLE/DOC.PDF":     {},
	} {
		if got := f.list(t, extDoc, "url="+url.QueryEscape(u)); !slices.Equal(got, want) {
			t.Errorf("url=%s: got %v, want %v", u, got, want)
		}
	}
}

// TestPaging pages each list: count and offset (a page number), 50 by
// default.
func TestPaging(t *testing.T) {
	f := newListFixture(t)
	for _, kind := range []string{adminAccess, contact, extDoc, license} {
		for query, want := range map[string][]string{
			"sort=dateCreated,asc&count=2":          {"A", "B"},
			"sort=dateCreated,asc&count=2&offset=1": {"A", "B"},
			"sort=dateCreated,asc&count=2&offset=2": {"C"},
			"sort=dateCreated,asc&count=2&offset=3": {},
			"sort=dateCreated,asc&count=1&offset=2": {"B"},
			"sort=dateCreated,asc&count=100":        {"A", "B", "C"},
			"sort=dateCreated,asc&count=&offset=":   {"A", "B", "C"},
			"sort=dateCreated,asc&offset=1000000":   {},
		} {
			list := f.ok(t, "GET", kind+"?"+query, nil, 200)
			if got := f.labels(t, kind, list); !slices.Equal(got, want) || list["totalResults"] != 3.0 {
				t.Errorf("%s?%s: %v of %v, want %v of 3", kind, query, got, list["totalResults"], want)
			}
		}
	}
	// More than 50: the default page holds 50.
	for range 48 {
		f.create(t, adminAccess, bodies[adminAccess]())
	}
	list := f.ok(t, "GET", adminAccess, nil, 200)
	if n := len(list["items"].([]any)); n != 50 || list["totalResults"] != 51.0 {
		t.Errorf("default page: %d items of %v, want 50 of 51", n, list["totalResults"])
	}
}

// TestBadListParameters: 400 with a message naming the parameter.
func TestBadListParameters(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct{ rest, part string }{
		{"adminaccess?count=0", "Parameter count is outside the range 1-100"},
		{"adminaccess?sort=status,asc&sort=Status,desc", "Parameter sort names Status twice"},
		{"externaldocument?searchfield=status&searchvalue=active", "Parameters searchfield and searchvalue are not taken by this list"},
		{"contact?startdate=1/1/2024", "Parameters startdate and enddate are for licenses only."},
		{"contact?count=101", "Parameter count is outside the range 1-100"},
		{"license?count=ten", "Parameter count"},
		{"externaldocument?count=-1", "Parameter count"},
		{"adminaccess?offset=0", "Parameter offset must be a page number of 1 or more"},
		{"contact?offset=1000001", "Parameter offset is too large"},
		{"assignment?count=0", "Parameter count"},
		{"assignment?offset=x", "Parameter offset"},
		{"license/assignment?url=x&count=500", "Parameter count"},
		{"adminaccess?searchfield=title&searchvalue=x", `Parameter searchfield has an invalid value "title": allowed values are status, datecreated, datelastupdated, description, assignmentid.`},
		{"contact?searchfield=license_type&searchvalue=x", "allowed values are name, type, phone, email, organization, status, description, datecreated, datelastupdated, assignmentid."},
		{"license?searchfield=datecreated&searchvalue=1/1/2024", "allowed values are assignment_id, date_created, date_last_updated, description, license_type, status."},
		{"adminaccess?searchfield=status", "Parameter searchvalue is required with searchfield=status."},
		{"license?searchfield=description&searchvalue=", "Parameter searchvalue is required with searchfield=description."},
		{"contact?searchvalue=x", "Parameter searchfield is required with searchvalue"},
		{"adminaccess?searchfield=status&searchvalue=open", `Parameter searchvalue must be active or inactive with searchfield=status (got "open").`},
		{"contact?searchfield=datecreated&searchvalue=2024-01-31", `Parameter searchvalue must be a date mm/dd/yyyy or m/d/yyyy (got "2024-01-31")`},
		{"license?searchfield=date_last_updated&searchvalue=13/45/2024", "Parameter searchvalue must be a date"},
		{"adminaccess?sort=title,asc", `Parameter sort has an invalid value "title,asc": use field,asc or field,desc with field one of status, description, dateCreated, dateLastUpdated.`},
		{"adminaccess?sort=status", `Parameter sort has an invalid value "status"`},
		{"adminaccess?sort=status,up", `Parameter sort has an invalid value "status,up"`},
		{"adminaccess?sort=status,asc&sort=licenseType,asc", `Parameter sort has an invalid value "licenseType,asc"`},
		{"contact?sort=description,asc", "field one of status, email, contactName, contactType, dateCreated, dateLastUpdated."},
		{"license?sort=email,asc", "field one of status, description, dateCreated, dateLastUpdated, licenseType."},
		{"externaldocument?sort=url,asc", "Parameter sort"},
		{"license/assignment?url=x&sort=name,asc", "Parameter sort"},
		{"license?startdate=2024-01-01", `Parameter startdate must be a date mm/dd/yyyy or m/d/yyyy (got "2024-01-01").`},
		{"license?enddate=1/32/2024", "Parameter enddate must be a date"},
		{"license?startdate=2/1/2024&enddate=1/1/2024", "Parameter enddate (1/1/2024) is before startdate (2/1/2024)."},
		{"license?searchfield=status&searchvalue=active&startdate=1/1/2024", "Parameters startdate and enddate go with searchfield=date_last_updated"},
		{"license?searchfield=date_last_updated&searchvalue=1/1/2024&enddate=1/1/2024", "not both"},
		{"license/assignment", "Parameter url is required"},
		{"license/assignment?url=", "Parameter url is required"},
		{"assignment?objecttype=person", `Parameter objecttype has an invalid value "person": allowed values are admin_access, contact, external_document, license.`},
	} {
		t.Run(c.rest, func(t *testing.T) {
			f.fail(t, "GET", c.rest, nil, 400, c.part)
		})
	}
}

// TestEmptyLists: lists with nothing in them.
func TestEmptyLists(t *testing.T) {
	f := newFixture(t)
	for _, rest := range []string{adminAccess, contact, extDoc, license, "license/assignment?url=/vendors/1", "assignment"} {
		got := f.ok(t, "GET", rest, nil, 200)
		if diff := cmp.Diff(obj{"totalResults": 0.0, "items": []any{}}, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", rest, diff)
		}
	}
}
