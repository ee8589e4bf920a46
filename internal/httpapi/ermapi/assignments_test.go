package ermapi_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// assignmentBody returns a valid assignment of an object of objectType to
// the knowledge base reference relativeURL, by cust1.
func assignmentBody(objectType, relativeURL string) obj {
	return obj{
		"access":            "public",
		"assignmentContext": "package",
		"assignmentType":    "primary",
		"customerId":        "cust1",
		"relativeUrl":       relativeURL,
		"link":              obj{"application": obj{"name": "kbserver", "softwareVersion": "1.0"}, "description": "the package"},
		"extensionObject":   obj{"objectDescription": "Assigned", "objectType": objectType},
	}
}

// assignmentIDs lists the ids of the items of an assignment list, checking
// totalResults.
func assignmentIDs(t *testing.T, list obj, total int) []string {
	t.Helper()
	if list["totalResults"] != float64(total) {
		t.Errorf("totalResults %v, want %d", list["totalResults"], total)
	}
	ids := []string{}
	for _, it := range list["items"].([]any) {
		ids = append(ids, it.(obj)["id"].(string))
	}
	return ids
}

// TestAssignments creates, lists and deletes assignments; the licenses
// assigned to a reference; and the deletion of an object's assignments
// with it.
func TestAssignments(t *testing.T) {
	f := newFixture(t)
	l1 := f.create(t, license, bodies[license]())
	l2 := f.create(t, license, bodies[license]())
	c1 := f.create(t, contact, bodies[contact]())
	const pkg, po = "/vendors/1/packages/2", "https://erp.example/po/7"

	b1 := assignmentBody("license", pkg)
	a1 := checkResult(t, f.ok(t, "POST", "assignment/"+l1, b1, 201), "assignmentId")
	// Another system's object: link.url, and an empty relativeUrl.
	b2 := set(set(assignmentBody("license", ""), "link.url", po), "assignmentType", nil)
	a2 := checkResult(t, f.ok(t, "POST", "assignment/"+l2, b2, 201), "assignmentId")
	b3 := assignmentBody("contact", pkg)
	a3 := checkResult(t, f.ok(t, "POST", "assignment/"+c1, b3, 201), "assignmentId")

	// The list: the bodies as given, with id, objectId and dateCreated.
	list := f.ok(t, "GET", "assignment", nil, 200)
	if got := assignmentIDs(t, list, 3); !slices.Equal(got, []string{a1, a2, a3}) {
		t.Fatalf("assignments %v, want %v (oldest first)", got, []string{a1, a2, a3})
	}
	for i, want := range []obj{b1, b2, b3} {
		got := list["items"].([]any)[i].(obj)
		want = clone(want)
		want["id"] = []string{a1, a2, a3}[i]
		want["objectId"] = []string{l1, l2, c1}[i]
		want["dateCreated"] = got["dateCreated"]
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("item %d (-want +got):\n%s", i, diff)
		}
		days(t, got["dateCreated"])
	}
	for query, want := range map[string][]string{
		"objectid=" + l1:                      {a1},
		"objectid=" + c1:                      {a3},
		"objecttype=license":                  {a1, a2},
		"objecttype=contact":                  {a3},
		"objecttype=admin_access":             {},
		"relativeurl=" + url.QueryEscape(pkg): {a1, a3},
		"relativeurl=" + url.QueryEscape(pkg) + "&objecttype=license": {a1},
		"relativeurl=/vendors/1":                 {},
		"objectid=" + l1 + "&objecttype=contact": {},
	} {
		if got := assignmentIDs(t, f.ok(t, "GET", "assignment?"+query, nil, 200), len(want)); !slices.Equal(got, want) {
			t.Errorf("assignment?%s: %v, want %v", query, got, want)
		}
	}
	page := f.ok(t, "GET", "assignment?count=1&offset=2", nil, 200)
	if got := assignmentIDs(t, page, 3); !slices.Equal(got, []string{a2}) {
		t.Errorf("page 2 of 1: %v, want [%s]", got, a2)
	}

	// The licenses assigned to a reference, by relativeUrl or link.url.
	licenseIDs := func(u string) []string {
		t.Helper()
		list := f.ok(t, "GET", "license/assignment?url="+url.QueryEscape(u), nil, 200)
		ids := []string{}
		for _, it := range list["items"].([]any) {
			ids = append(ids, it.(obj)["extensionObject"].(obj)["id"].(string))
		}
		if list["totalResults"] != float64(len(ids)) {
			t.Errorf("url=%s: totalResults %v with %d items", u, list["totalResults"], len(ids))
		}
		return ids
	}
	if got := licenseIDs(pkg); !slices.Equal(got, []string{l1}) {
		t.Errorf("licenses of %s: %v, want [%s] (not the contact)", pkg, got, l1)
	}
	if got := licenseIDs(po); !slices.Equal(got, []string{l2}) {
		t.Errorf("licenses of %s: %v, want [%s]", po, got, l2)
	}
	if got := licenseIDs("/vendors/1"); len(got) != 0 {
		t.Errorf("licenses of /vendors/1: %v, want none", got)
	}
	// Both licenses on one reference, sorted and paged.
	f.ok(t, "POST", "assignment/"+l2, assignmentBody("license", pkg), 201)
	if got := licenseIDs(pkg); !slices.Contains(got, l1) || !slices.Contains(got, l2) || len(got) != 2 {
		t.Errorf("licenses of %s: %v, want both", pkg, got)
	}
	sorted := f.ok(t, "GET", "license/assignment?sort=dateCreated,asc&count=1&offset=2&url="+url.QueryEscape(pkg), nil, 200)
	if items := sorted["items"].([]any); sorted["totalResults"] != 2.0 || len(items) != 1 || items[0].(obj)["extensionObject"].(obj)["id"] != l2 {
		t.Errorf("second page of the licenses of %s by creation: %v", pkg, sorted)
	}

	// Delete one assignment.
	if got := checkResult(t, f.ok(t, "DELETE", "assignment/"+a1, nil, 200), "id"); got != a1 {
		t.Errorf("delete result id %s, want %s", got, a1)
	}
	f.fail(t, "DELETE", "assignment/"+a1, nil, 404, a1)
	if got := licenseIDs(pkg); !slices.Equal(got, []string{l2}) {
		t.Errorf("licenses of %s after the delete: %v, want [%s]", pkg, got, l2)
	}

	// Deleting an object deletes its assignments.
	f.ok(t, "DELETE", license+"/"+l2, nil, 200)
	if got := assignmentIDs(t, f.ok(t, "GET", "assignment", nil, 200), 1); !slices.Equal(got, []string{a3}) {
		t.Errorf("assignments after deleting license %s: %v, want [%s]", l2, got, a3)
	}
	if got := licenseIDs(po); len(got) != 0 {
		t.Errorf("licenses of %s after deleting the license: %v", po, got)
	}
	f.fail(t, "DELETE", "assignment/"+a2, nil, 404, a2)
	f.ok(t, "DELETE", contact+"/"+c1, nil, 200)
	assignmentIDs(t, f.ok(t, "GET", "assignment", nil, 200), 0)
	f.fail(t, "POST", "assignment/"+c1, assignmentBody("contact", pkg), 400, c1)
}

// TestAssignmentRules: the required elements of a new assignment, and
// the values refused.
func TestAssignmentRules(t *testing.T) {
	f := newFixture(t)
	lic := f.create(t, license, bodies[license]())
	doc := f.create(t, extDoc, bodies[extDoc]())
	body := assignmentBody("license", "/vendors/1")
	rest := "assignment/" + lic
	for _, member := range []string{"assignmentContext", "access", "customerId", "relativeUrl", "link", "link.application",
		"link.application.name", "extensionObject", "extensionObject.objectDescription", "extensionObject.objectType"} {
		t.Run("without "+member, func(t *testing.T) {
			f.fail(t, "POST", rest, set(body, member, nil), 400, "Attribute "+member+" is required.")
			if !objectMembers[member] && member != "relativeUrl" {
				f.fail(t, "POST", rest, set(body, member, ""), 400, "Attribute "+member+" is required.")
			}
		})
	}
	for _, c := range []struct {
		name   string
		body   any
		status int
		part   string
	}{
		{"no reference", set(body, "relativeUrl", " "), 400, "Attribute relativeUrl or link.url must name the reference"},
		{"another customer", set(body, "customerId", "cust2"), 400, `Attribute customerId must be the customer in the path, cust1 (got "cust2").`},
		{"another object type", set(body, "extensionObject.objectType", "external_document"), 400, "Attribute extensionObject.objectType must be license, the type of object " + lic},
		{"unknown object type", set(body, "extensionObject.objectType", "assignment"), 400, `Attribute extensionObject.objectType has an invalid value "assignment": allowed values are admin_access, contact, external_document, license.`},
		{"object type in capitals", set(body, "extensionObject.objectType", "License"), 400, "extensionObject.objectType has an invalid value"},
		{"status is no member", set(body, "extensionObject.status", "active"), 400, "Attribute extensionObject.status is not allowed."},
		{"relativeUrl not a string", set(body, "relativeUrl", 5), 400, "Attribute relativeUrl must be a string."},
		{"no body", nil, 400, "The request body is missing."},
	} {
		t.Run(c.name, func(t *testing.T) {
			f.fail(t, "POST", rest, c.body, c.status, c.part)
		})
	}
	f.fail(t, "POST", "assignment/00000000-0000-4000-8000-000000000000", body, 400, "none of the customer's objects")
	// The external document is assigned with its own type.
	f.ok(t, "POST", "assignment/"+doc, assignmentBody("external_document", "/vendors/1"), 201)
	if got := f.ok(t, "GET", "assignment", nil, 200)["totalResults"]; got != 1.0 {
		t.Errorf("%v assignments; only the last request was valid", got)
	}
}

// TestAssignmentURLLimits: an assignment's relativeUrl and link.url, which
// the stores index, are refused over kb.LimitURL (2,800 hard-to-compress
// letters broke PostgreSQL's index of link URLs) and stored at it.
func TestAssignmentURLLimits(t *testing.T) {
	f := newFixture(t)
	id := f.create(t, license, bodies[license]())
	long := "/vendors/1/packages/" + strings.Repeat("p", 2800)
	f.fail(t, "POST", "assignment/"+id, assignmentBody("license", long), 400,
		"Attribute relativeUrl is 2,820 characters long: at most 2,000 are allowed.")
	f.fail(t, "POST", "assignment/"+id, set(assignmentBody("license", ""), "link.url", "https://x/"+strings.Repeat("l", 2800)), 400,
		"Attribute link.url is 2,810 characters long: at most 2,000 are allowed.")
	f.fail(t, "GET", "license/assignment?url="+strings.Repeat("u", 2001), nil, 400,
		"Parameter url is 2,001 characters long: at most 2,000 are allowed.")
	atLimit := "/vendors/1/packages/" + strings.Repeat("p", 1980)
	checkResult(t, f.ok(t, "POST", "assignment/"+id, assignmentBody("license", atLimit), 201), "assignmentId")
	if got := assignmentIDs(t, f.ok(t, "GET", "assignment?relativeurl="+atLimit, nil, 200), 1); len(got) != 1 {
		t.Errorf("the assignment of a 2,000-character URL: %v", got)
	}
}
