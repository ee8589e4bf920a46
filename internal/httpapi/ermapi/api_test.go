package ermapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// Keys of the fixture's customers. Never real keys.
const (
	key1 = "erm-test-key-one"
	key2 = "erm-test-key-two"
)

// fixture is a running server over a new store of the test run's kind
// (package testdb) with two customers,
// cust1 (key1) and cust2 (key2). Every exchange with it is checked against
// the API description (package apitest).
type fixture struct {
	srv *httptest.Server
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := t.Context()
	st := storetest.Searched(t.Context(), testdb.Open(t))
	for _, c := range []struct{ id, key string }{{"cust1", key1}, {"cust2", key2}} {
		if _, err := st.AddCustomer(ctx, c.id, "Library "+c.id); err != nil {
			t.Fatal(err)
		}
		if err := st.AddAPIKey(ctx, c.id, kb.HashAPIKey(c.key), kb.Production); err != nil {
			t.Fatal(err)
		}
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), st), httpapi.Deps{Store: storetest.Raw(st), Logger: logger}))
	return &fixture{srv: srv}
}

// response is an answer of the server.
type response struct {
	status int
	header http.Header
	body   []byte
}

// message returns the X-Error-Message of an error answer.
func (r response) message() string { return r.header.Get("X-Error-Message") }

// object decodes a JSON object body.
func (r response) object(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body %s is not a JSON object: %v", r.body, err)
	}
	return m
}

// path returns the address of rest under a customer's account.
func path(cust, rest string) string { return "/rm/rmaccounts/" + cust + "/" + rest }

// do sends a request with the key (none when empty) and body: none when
// nil, a string as it is, anything else as JSON. Every error answer must
// have no body and a message in X-Error-Message; every other answer must
// be JSON.
func (f *fixture) do(t *testing.T, method, p, key string, body any) response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	ctype := ""
	if rd != nil {
		ctype = "application/json"
	}
	res, out := apitest.Do(t, f.srv.Client(), method, f.srv.URL+p, rd, "Content-Type", ctype, "x-api-key", key)
	r := response{status: res.StatusCode, header: res.Header, body: out}
	if r.status == http.StatusRequestEntityTooLarge && r.header.Get("Content-Type") != "" {
		// A body announced too large is refused before routing, with a
		// JSON error array (web.Serve).
	} else if r.status >= 400 {
		if len(out) != 0 || r.message() == "" {
			t.Errorf("%s %s → %d: body %q, X-Error-Message %q; want no body and a message", method, p, r.status, out, r.message())
		}
	} else if ct := res.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("%s %s → %d: Content-Type %q", method, p, r.status, ct)
	}
	return r
}

// ok sends a request of cust1 and fails the test unless it is answered
// want; it returns the JSON object answered.
func (f *fixture) ok(t *testing.T, method, rest string, body any, want int) map[string]any {
	t.Helper()
	res := f.do(t, method, path("cust1", rest), key1, body)
	if res.status != want {
		t.Fatalf("%s %s → %d (%s), want %d", method, rest, res.status, res.message(), want)
	}
	return res.object(t)
}

// fail sends a request of cust1 and checks that it is answered status
// with a message that contains part.
func (f *fixture) fail(t *testing.T, method, rest string, body any, status int, part string) {
	t.Helper()
	res := f.do(t, method, path("cust1", rest), key1, body)
	if res.status != status || !strings.Contains(res.message(), part) {
		t.Errorf("%s %s → %d %q; want %d with a message containing %q", method, rest, res.status, res.message(), status, part)
	}
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// checkResult checks a create, update or delete result and returns its id.
func checkResult(t *testing.T, got map[string]any, idMember string) string {
	t.Helper()
	id, _ := got[idMember].(string)
	want := map[string]any{idMember: id, "successful": true, "errors": []any{}}
	if diff := cmp.Diff(want, got); diff != "" || !uuidV4.MatchString(id) {
		t.Fatalf("result (-want +got):\n%s\nid %q", diff, id)
	}
	return id
}

// create creates an object of cust1 and returns its id.
func (f *fixture) create(t *testing.T, kind string, body any) string {
	t.Helper()
	return checkResult(t, f.ok(t, "POST", kind, body, http.StatusCreated), "id")
}

// clone returns a deep copy of a JSON value.
func clone[T any](v T) T {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out T
	if err := json.Unmarshal(data, &out); err != nil {
		panic(err)
	}
	return out
}

// obj is a JSON object of a test.
type obj = map[string]any

// set returns a copy of body with the member at the dotted path set to v
// (removed when v is nil).
func set(body obj, dotted string, v any) obj {
	out := clone(body)
	m := out
	parts := strings.Split(dotted, ".")
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(obj)
		if !ok {
			next = obj{}
			m[p] = next
		}
		m = next
	}
	last := parts[len(parts)-1]
	if v == nil {
		delete(m, last)
	} else {
		m[last] = v
	}
	return out
}

// The object kinds, by the path segment of their routes.
const (
	adminAccess = "adminaccess"
	contact     = "contact"
	extDoc      = "externaldocument"
	license     = "license"
)

// objectTypes are the kinds' extensionObject.objectType.
var objectTypes = map[string]string{
	adminAccess: "admin_access", contact: "contact", extDoc: "external_document", license: "license",
}

// bodies return a valid create body of each kind, with most members.
var bodies = map[string]func() obj{
	adminAccess: func() obj {
		return obj{
			"extensionObject":                   obj{"objectDescription": "Publisher admin site", "objectType": "admin_access"},
			"adminAccessInterface":              "https://admin.example.com",
			"adminAccessInterfaceProvider":      "Example Press",
			"dateIPRegistered":                  "2024-01-31T10:00:00Z",
			"ipAddresses":                       "192.0.2.0/24",
			"shibbolethAuthenticationSupported": "yes",
			"otherYesNoKeyValue":                obj{"vpn": "yes"},
			"otherStringKeyValue":               obj{"note": "call first", "ticket": "T-1"},
		}
	},
	contact: func() obj {
		return obj{
			"extensionObject": obj{"objectDescription": "Sales contact"},
			"contact":         obj{"designation": "Account manager"},
			"contactPoint":    obj{"contactType": "sales", "name": "Ada Example", "telephone": "+1 555 0100", "email": "ada@example.com", "description": "mornings"},
			"organization":    obj{"name": "Example Press", "address": obj{"addressCountry": "US", "postalCode": "02139", "streetAddress": "1 Main St"}},
		}
	},
	extDoc: func() obj {
		return obj{
			"extensionObject":  obj{"objectDescription": "Signed license", "objectType": "external_document", "status": "active"},
			"externalDocument": obj{"externalDocumentType": "license", "fileFormat": "application/pdf", "url": "https://files.example.edu/license.pdf", "notes": "scan"},
		}
	},
	license: func() obj {
		return obj{
			"extensionObject": obj{"objectDescription": "Big deal 2024"},
			"license": obj{
				"licenseType": "consortial", "licenseStartDate": "2024-01-01", "licenseEndDate": "2026-12-31T23:59:59+01:00",
				"licenseEndAdvanceNoticeRequired": 90, "applicabaleCopyrightLaw": "US", "perpetualAccess": "yes",
				"url1": "https://example.com/terms", "walkIns": "no",
			},
		}
	},
}

// updateBody returns a valid update body of an object of cust1: a create
// body with another description, inactive, and the ids the kind needs.
func updateBody(kind, id string) obj {
	b := bodies[kind]()
	b = set(b, "extensionObject.objectDescription", "Changed")
	b = set(b, "extensionObject.status", "inactive")
	if kind == extDoc {
		b = set(b, "extensionObject.customerId", "cust1")
		b = set(b, "extensionObject.id", id)
	}
	return b
}

// checkRead checks the answer of a read of an object created from body:
// the body, with the extensionObject completed. It returns the answer's
// dateCreated and dateLastUpdated.
func checkRead(t *testing.T, got obj, kind, id, status string, body obj) (created, updated time.Time) {
	t.Helper()
	ext, _ := got["extensionObject"].(obj)
	for name, p := range map[string]*time.Time{"dateCreated": &created, "dateLastUpdated": &updated} {
		s, _ := ext[name].(string)
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil || !strings.HasSuffix(s, "Z") || time.Since(tm) > time.Minute || time.Until(tm) > time.Second {
			t.Errorf("extensionObject.%s = %q: not a recent RFC 3339 UTC time", name, s)
		}
		*p = tm
	}
	want := clone(body)
	wext := want["extensionObject"].(obj)
	wext["id"] = id
	wext["customerId"] = "cust1"
	wext["objectType"] = objectTypes[kind]
	wext["status"] = status
	wext["dateCreated"] = ext["dateCreated"]
	wext["dateLastUpdated"] = ext["dateLastUpdated"]
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read %s %s (-want +got):\n%s", kind, id, diff)
	}
	return created, updated
}

// TestObjectLifecycle creates, reads, lists, updates and deletes an object
// of each kind.
func TestObjectLifecycle(t *testing.T) {
	f := newFixture(t)
	for _, kind := range []string{adminAccess, contact, extDoc, license} {
		t.Run(kind, func(t *testing.T) {
			body := bodies[kind]()
			id := f.create(t, kind, body)
			created, _ := checkRead(t, f.ok(t, "GET", kind+"/"+id, nil, 200), kind, id, "active", body)

			list := f.ok(t, "GET", kind, nil, 200)
			items, _ := list["items"].([]any)
			if list["totalResults"] != 1.0 || len(items) != 1 {
				t.Fatalf("list: %v", list)
			}
			checkRead(t, items[0].(obj), kind, id, "active", body)

			// The update replaces the body: members it lacks are gone.
			upd := updateBody(kind, id)
			switch kind {
			case adminAccess:
				upd = set(upd, "otherStringKeyValue", nil)
			case contact:
				upd = set(upd, "organization", nil)
			case extDoc:
				upd = set(upd, "externalDocument.notes", nil)
			case license:
				upd = set(upd, "license.walkIns", nil)
			}
			time.Sleep(10 * time.Millisecond)
			if got := checkResult(t, f.ok(t, "PUT", kind+"/"+id, upd, 200), "id"); got != id {
				t.Errorf("update result id %s, want %s", got, id)
			}
			created2, updated2 := checkRead(t, f.ok(t, "GET", kind+"/"+id, nil, 200), kind, id, "inactive", upd)
			if !created2.Equal(created) || updated2.Before(created) {
				t.Errorf("after the update: created %v (was %v), updated %v", created2, created, updated2)
			}

			// A read answer sent back, without its read-only dates, is a
			// valid update.
			back := f.ok(t, "GET", kind+"/"+id, nil, 200)
			back = set(back, "extensionObject.dateCreated", nil)
			back = set(back, "extensionObject.dateLastUpdated", nil)
			f.ok(t, "PUT", kind+"/"+id, back, 200)

			if got := checkResult(t, f.ok(t, "DELETE", kind+"/"+id, nil, 200), "id"); got != id {
				t.Errorf("delete result id %s, want %s", got, id)
			}
			f.fail(t, "GET", kind+"/"+id, nil, 404, id)
			f.fail(t, "PUT", kind+"/"+id, updateBody(kind, id), 404, id)
			f.fail(t, "DELETE", kind+"/"+id, nil, 404, id)
			f.fail(t, "GET", kind+"/not-a-uuid", nil, 404, "not-a-uuid")
			if list := f.ok(t, "GET", kind, nil, 200); list["totalResults"] != 0.0 || len(list["items"].([]any)) != 0 {
				t.Errorf("list after the delete: %v", list)
			}
		})
	}
}

// TestObjectTypesAreKinds: an object id names one object of one kind; the
// paths of the other kinds do not find it.
func TestObjectTypesAreKinds(t *testing.T) {
	f := newFixture(t)
	id := f.create(t, contact, bodies[contact]())
	for _, kind := range []string{adminAccess, extDoc, license} {
		f.fail(t, "GET", kind+"/"+id, nil, 404, id)
		f.fail(t, "DELETE", kind+"/"+id, nil, 404, id)
	}
	f.ok(t, "GET", contact+"/"+id, nil, 200)
}

// TestCreateDefaults: a create without status is active, objectType may
// be left out, and empty strings are the same as absent members.
func TestCreateDefaults(t *testing.T) {
	f := newFixture(t)
	body := obj{
		"extensionObject":      obj{"objectDescription": "Minimal"},
		"adminAccessInterface": "",
		"hostURL":              "https://host.example.com",
		"otherStatusKeyValue":  obj{},
	}
	id := f.create(t, adminAccess, body)
	got := f.ok(t, "GET", adminAccess+"/"+id, nil, 200)
	want := obj{"extensionObject": obj{"objectDescription": "Minimal"}, "hostURL": "https://host.example.com"}
	checkRead(t, got, adminAccess, id, "active", want)

	inactive := set(bodies[license](), "extensionObject.status", "inactive")
	id = f.create(t, license, inactive)
	checkRead(t, f.ok(t, "GET", license+"/"+id, nil, 200), license, id, "inactive", inactive)
}

// TestRequiredElements drops each required element of each operation's
// body, one at a time (and, for strings, sends it empty): 400 naming it.
func TestRequiredElements(t *testing.T) {
	f := newFixture(t)
	ids := map[string]string{}
	for kind, body := range bodies {
		ids[kind] = f.create(t, kind, body())
	}
	type op struct {
		method, kind string
		required     []string
	}
	ext := []string{"extensionObject", "extensionObject.objectDescription"}
	ops := []op{
		{"POST", adminAccess, ext},
		{"PUT", adminAccess, append(ext, "extensionObject.status")},
		{"POST", contact, append(ext, "contactPoint", "contactPoint.name", "contactPoint.contactType", "contactPoint.telephone", "contactPoint.email")},
		{"PUT", contact, append(ext, "extensionObject.status", "contactPoint", "contactPoint.name", "contactPoint.contactType", "contactPoint.telephone", "contactPoint.email")},
		{"POST", extDoc, append(ext, "externalDocument", "externalDocument.externalDocumentType", "externalDocument.url")},
		{"PUT", extDoc, append(ext, "extensionObject.customerId", "extensionObject.id", "extensionObject.status", "externalDocument", "externalDocument.externalDocumentType", "externalDocument.url")},
		{"POST", license, append(ext, "license", "license.licenseType")},
		{"PUT", license, append(ext, "extensionObject.status", "license", "license.licenseType")},
	}
	for _, o := range ops {
		rest, body := o.kind, bodies[o.kind]()
		if o.method == "PUT" {
			rest, body = o.kind+"/"+ids[o.kind], updateBody(o.kind, ids[o.kind])
		}
		for _, member := range o.required {
			t.Run(o.method+" "+o.kind+" without "+member, func(t *testing.T) {
				f.fail(t, o.method, rest, set(body, member, nil), 400, "Attribute "+member+" is required.")
				if objectMembers[member] {
					return
				}
				// An empty string is no value either.
				f.fail(t, o.method, rest, set(body, member, " "), 400, "Attribute "+member+" is required.")
			})
		}
		// The whole body is required too.
		f.fail(t, o.method, rest, nil, 400, "The request body is missing.")
	}
	// Nothing was changed by the refused updates.
	for kind, id := range ids {
		got := f.ok(t, "GET", kind+"/"+id, nil, 200)
		if d := got["extensionObject"].(obj)["objectDescription"]; d == "Changed" {
			t.Errorf("%s %s was changed by a refused update", kind, id)
		}
	}
}

// objectMembers are the required members whose values are objects.
var objectMembers = map[string]bool{
	"extensionObject": true, "contactPoint": true, "externalDocument": true, "license": true,
	"link": true, "link.application": true,
}

// TestInvalidBodies: values the service refuses, with the member named.
func TestInvalidBodies(t *testing.T) {
	f := newFixture(t)
	aa := bodies[adminAccess]()
	id := f.create(t, adminAccess, aa)
	docID := f.create(t, extDoc, bodies[extDoc]())
	for _, tc := range []struct {
		name, method, rest string
		body               any
		part               string
	}{
		{"bad status", "POST", adminAccess, set(aa, "extensionObject.status", "open"), `Attribute extensionObject.status must be active or inactive (got "open")`},
		{"status in capitals", "POST", adminAccess, set(aa, "extensionObject.status", "Active"), "extensionObject.status"},
		{"objectType of another kind", "POST", adminAccess, set(aa, "extensionObject.objectType", "license"), `Attribute extensionObject.objectType must be admin_access on this path (got "license")`},
		{"unknown objectType", "POST", contact, set(bodies[contact](), "extensionObject.objectType", "person"), "extensionObject.objectType must be contact"},
		{"customerId of another customer", "POST", adminAccess, set(aa, "extensionObject.customerId", "cust2"), "Attribute extensionObject.customerId must be the customer in the path, cust1"},
		{"id on create", "POST", adminAccess, set(aa, "extensionObject.id", id), "extensionObject.id is not allowed on create"},
		{"id of another object", "PUT", adminAccess + "/" + id, set(updateBody(adminAccess, id), "extensionObject.id", docID), "Attribute extensionObject.id must be the id in the path"},
		{"external document id of another object", "PUT", extDoc + "/" + docID, set(updateBody(extDoc, docID), "extensionObject.id", id), "Attribute extensionObject.id must be the id in the path"},
		{"external document customerId of another customer", "PUT", extDoc + "/" + docID, set(updateBody(extDoc, docID), "extensionObject.customerId", "cust2"), "extensionObject.customerId must be the customer in the path"},
		{"bad dateIPRegistered", "POST", adminAccess, set(aa, "dateIPRegistered", "31/01/2024"), `Attribute dateIPRegistered must be an ISO 8601 date`},
		{"impossible date", "POST", adminAccess, set(aa, "dateIPRegistered", "2024-02-30"), "Attribute dateIPRegistered"},
		{"date-time without seconds", "POST", license, set(bodies[license](), "license.licenseStartDate", "2024-01-01T00:00"), "Attribute license.licenseStartDate must be an ISO 8601"},
		{"bad licenseEndDate", "POST", license, set(bodies[license](), "license.licenseEndDate", "soon"), "Attribute license.licenseEndDate"},
		{"unknown member", "POST", contact, set(bodies[contact](), "contactPoint.fax", "123"), "Attribute contactPoint.fax is not allowed."},
		{"member in another case", "POST", license, set(bodies[license](), "license.applicableCopyrightLaw", "US"), "Attribute license.applicableCopyrightLaw is not allowed"},
		{"dates are read-only but still strings", "POST", adminAccess, set(aa, "extensionObject.dateCreated", 5), "Attribute extensionObject.dateCreated must be a string."},
		{"wrong type", "POST", license, set(bodies[license](), "license.licenseEndAdvanceNoticeRequired", "90 days"), "Attribute license.licenseEndAdvanceNoticeRequired must be an integer."},
		{"map of numbers", "POST", adminAccess, set(aa, "otherYesNoKeyValue", obj{"vpn": 1}), "otherYesNoKeyValue"},
		{"malformed JSON", "POST", contact, `{"extensionObject":`, "The request body is not valid JSON"},
		{"member twice", "POST", contact, `{"extensionObject":{"objectDescription":"a","objectDescription":"b"}}`,
			"Attribute extensionObject.objectDescription is given twice: send each member once."},
		{"not UTF-8", "POST", contact, `{"extensionObject":{"objectDescription":"caf` + "\xe9" + `"}}`,
			"Attribute extensionObject.objectDescription is not valid UTF-8 text."},
		{"description too long", "POST", adminAccess, set(aa, "extensionObject.objectDescription", strings.Repeat("d", 1001)),
			"Attribute extensionObject.objectDescription is 1,001 characters long: at most 1,000 are allowed."},
		{"notes too long", "POST", adminAccess, set(aa, "accessModelNotes", strings.Repeat("n", 10001)),
			"Attribute accessModelNotes is 10,001 characters long: at most 10,000 are allowed."},
		{"URL too long", "POST", extDoc, set(bodies[extDoc](), "externalDocument.url", "https://x/"+strings.Repeat("u", 2000)),
			"Attribute externalDocument.url is 2,010 characters long: at most 2,000 are allowed."},
		{"map value too long", "POST", adminAccess, set(aa, "otherStringKeyValue", obj{"k": strings.Repeat("v", 10001)}),
			"Attribute otherStringKeyValue.k is 10,001 characters long: at most 10,000 are allowed."},
		{"lone surrogate", "POST", contact, `{"extensionObject":{"objectDescription":"\ud800"},"contactPoint":{"name":"n","contactType":"t","telephone":"1","email":"e"}}`,
			"Attribute extensionObject.objectDescription holds the escape \\ud800, half of a surrogate pair: no character."},
		{"not an object", "POST", contact, `[1]`, "The request body must be a JSON object."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.fail(t, tc.method, tc.rest, tc.body, 400, tc.part)
		})
	}
	// A body over the server's limit (1 MiB by default).
	big := set(aa, "accessModelNotes", strings.Repeat("x", 1<<20))
	res := f.do(t, "POST", path("cust1", adminAccess), key1, big)
	if res.status != 413 || !strings.Contains(string(res.body), `"code":1008`) {
		t.Errorf("a body over the limit: %d %s, want 413 with code 1008", res.status, res.body)
	}

	// Accepted date forms.
	for _, d := range []string{"2024-01-31", "2024-01-31T10:00:00Z", "2024-01-31T10:00:00.5+02:00"} {
		id := f.create(t, adminAccess, set(aa, "dateIPRegistered", d))
		if got := f.ok(t, "GET", adminAccess+"/"+id, nil, 200)["dateIPRegistered"]; got != d {
			t.Errorf("dateIPRegistered %q read back as %v", d, got)
		}
	}
}

// TestAuthentication: the key check of every route, errors with no body.
func TestAuthentication(t *testing.T) {
	f := newFixture(t)
	id := f.create(t, contact, bodies[contact]())
	for _, rt := range []struct{ method, rest string }{
		{"GET", adminAccess}, {"POST", contact}, {"GET", contact + "/" + id}, {"PUT", contact + "/" + id},
		{"DELETE", contact + "/" + id}, {"GET", "license/assignment?url=x"}, {"GET", extDoc}, {"GET", "assignment"},
		{"POST", "assignment/" + id}, {"DELETE", "assignment/" + id},
	} {
		for _, k := range []struct {
			key    string
			status int
			part   string
		}{{"", 401, "Missing x-api-key header."}, {"nope", 401, "Invalid APIKEY"}, {key2, 403, "not authorized for customer cust1"}} {
			res := f.do(t, rt.method, path("cust1", rt.rest), k.key, nil)
			if res.status != k.status || !strings.Contains(res.message(), k.part) {
				t.Errorf("%s %s with key %q: %d %q; want %d %q", rt.method, rt.rest, k.key, res.status, res.message(), k.status, k.part)
			}
		}
	}
	f.ok(t, "GET", contact+"/"+id, nil, 200) // still there
}

// TestIsolation: customer cust2 never reads, changes, deletes, lists or
// assigns cust1's objects, nor deletes its assignments.
func TestIsolation(t *testing.T) {
	f := newFixture(t)
	ids := map[string]string{}
	for kind, body := range bodies {
		ids[kind] = f.create(t, kind, body())
	}
	asg := checkResult(t, f.ok(t, "POST", "assignment/"+ids[license], assignmentBody("license", "/vendors/1/packages/2"), 201), "assignmentId")

	as2 := func(method, rest string, body any) response {
		t.Helper()
		return f.do(t, method, path("cust2", rest), key2, body)
	}
	for kind, id := range ids {
		for _, r := range []response{
			as2("GET", kind+"/"+id, nil),
			as2("PUT", kind+"/"+id, set(updateBody(kind, id), "extensionObject.customerId", "cust2")),
			as2("DELETE", kind+"/"+id, nil),
		} {
			if r.status != 404 {
				t.Errorf("cust2 on cust1's %s %s: %d %q, want 404", kind, id, r.status, r.message())
			}
		}
		if r := as2("GET", kind, nil); r.status != 200 || r.object(t)["totalResults"] != 0.0 {
			t.Errorf("cust2's list of %s: %d %s", kind, r.status, r.body)
		}
		b := assignmentBody(objectTypes[kind], "/vendors/1")
		b["customerId"] = "cust2"
		if r := as2("POST", "assignment/"+id, b); r.status != 400 || !strings.Contains(r.message(), "none of the customer's objects") {
			t.Errorf("cust2 assigns cust1's %s: %d %q, want 400 (an unknown object)", kind, r.status, r.message())
		}
	}
	if r := as2("GET", "license/assignment?url=/vendors/1/packages/2", nil); r.status != 200 || r.object(t)["totalResults"] != 0.0 {
		t.Errorf("cust2's licenses assigned to cust1's reference: %d %s", r.status, r.body)
	}
	if r := as2("GET", "assignment", nil); r.status != 200 || r.object(t)["totalResults"] != 0.0 {
		t.Errorf("cust2's assignments: %d %s", r.status, r.body)
	}
	if r := as2("DELETE", "assignment/"+asg, nil); r.status != 404 {
		t.Errorf("cust2 deletes cust1's assignment: %d, want 404", r.status)
	}
	// cust2's own objects are its own; cust1 does not see them.
	own := f.do(t, "POST", path("cust2", contact), key2, bodies[contact]())
	ownID := checkResult(t, own.object(t), "id")
	f.fail(t, "GET", contact+"/"+ownID, nil, 404, ownID)
	if got := f.ok(t, "GET", contact, nil, 200)["totalResults"]; got != 1.0 {
		t.Errorf("cust1 lists %v contacts, want its 1", got)
	}

	// Everything of cust1 is unchanged.
	for kind, id := range ids {
		body := bodies[kind]()
		status := "active"
		checkRead(t, f.ok(t, "GET", kind+"/"+id, nil, 200), kind, id, status, body)
	}
	if got := f.ok(t, "GET", "assignment", nil, 200)["totalResults"]; got != 1.0 {
		t.Errorf("cust1 has %v assignments, want 1", got)
	}
}

// days returns the UTC day of an RFC 3339 time as m/d/yyyy and
// mm/dd/yyyy, and the days before and after it as m/d/yyyy.
func days(t *testing.T, rfc3339 any) (day, padded, before, after string) {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, fmt.Sprint(rfc3339))
	if err != nil {
		t.Fatal(err)
	}
	tm = tm.UTC()
	return tm.Format("1/2/2006"), tm.Format("01/02/2006"), tm.AddDate(0, 0, -1).Format("1/2/2006"), tm.AddDate(0, 0, 1).Format("1/2/2006")
}
