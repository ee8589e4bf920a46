package pages_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// TestConsoleResourceManagement: objects are created and replaced with
// the service's own bodies and checks (a bad body gets the message the
// API gives it), assigned to a package from its page, unassigned and
// deleted; a form cannot send the browser off the console.
func TestConsoleResourceManagement(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	cookie, csrf := f.signIn(t, "lib-key")
	form := func(kv ...string) url.Values { return formOf(csrf, kv...) }
	bad := `{"extensionObject":{"objectDescription":"Big deal"},"license":{}}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.srv.URL+"/rm/rmaccounts/lib/license", strings.NewReader(bad))
	req.Header.Set("x-api-key", "lib-key")
	req.Header.Set("Content-Type", "application/json")
	status, h, _ := f.do(t, req)
	apiMessage := h.Get("X-Error-Message")
	if status != 400 || apiMessage == "" {
		t.Fatalf("the API's answer to a license without a type: %d %q", status, apiMessage)
	}
	status, body := f.postAs(t, cookie, "/console/erm/license", form("body", bad))
	if status != 400 || !strings.Contains(body, strings.ReplaceAll(apiMessage, `"`, "&#34;")) {
		t.Errorf("the console's answer: status %d; want 400 with the API's message %q", status, apiMessage)
	}
	status, loc := f.postFollow(t, cookie, "/console/erm/license", form("body", `{"extensionObject":{"objectDescription":"Big deal 2024"},"license":{"licenseType":"consortial"}}`))
	if status != http.StatusSeeOther {
		t.Fatalf("create a license: status %d", status)
	}
	id := regexp.MustCompile(`/console/erm/license/([0-9a-f-]+)`).FindStringSubmatch(loc)
	if id == nil {
		t.Fatalf("created license's page: %q", loc)
	}
	o, err := f.store.ERMObject(ctx, "lib", kb.KindLicense, id[1])
	if err != nil || o.Description != "Big deal 2024" || o.Status != kb.StatusActive {
		t.Fatalf("stored license: %+v, %v", o, err)
	}

	pkg := fmt.Sprintf("/console/packages/%d/%d", f.vendor, f.pkgs["Nursing Journals"])
	rel := fmt.Sprintf("/vendors/%d/packages/%d", f.vendor, f.pkgs["Nursing Journals"])
	if _, _, page := f.get(t, pkg, "Cookie", cookie); !strings.Contains(page, `value="license/`+id[1]+`"`) {
		t.Error("the package's page does not offer the license to assign")
	}
	status, loc = f.postFollow(t, cookie, "/console/erm/assign", form("object", "license/"+id[1], "relativeurl", rel, "back", pkg))
	if status != http.StatusSeeOther || loc != pkg {
		t.Fatalf("assign: status %d, back to %q", status, loc)
	}
	l, err := f.store.ERMObjects(ctx, "lib", kb.ERMQuery{Kind: kb.KindLicense, AssignedTo: rel, Page: kb.Page{Count: 10, Number: 1}})
	if err != nil || l.Total != 1 {
		t.Fatalf("licenses assigned to %s: %+v, %v", rel, l, err)
	}
	_, _, page := f.get(t, pkg, "Cookie", cookie)
	if !strings.Contains(page, "Licenses: Big deal 2024") {
		t.Error("the package's page does not list the assigned license")
	}
	if status, _ := f.postAs(t, cookie, "/console/erm/license/"+id[1], form("body", `{"extensionObject":{"objectDescription":"Big deal 2025","status":"inactive"},"license":{"licenseType":"consortial"}}`)); status != http.StatusSeeOther {
		t.Fatalf("replace the license: status %d", status)
	}
	if o, err := f.store.ERMObject(ctx, "lib", kb.KindLicense, id[1]); err != nil || o.Description != "Big deal 2025" || o.Status != kb.StatusInactive {
		t.Errorf("replaced license: %+v, %v", o, err)
	}
	a, err := f.store.Assignments(ctx, "lib", kb.AssignmentQuery{ObjectID: id[1], Page: kb.Page{Count: 10, Number: 1}})
	if err != nil || len(a.Assignments) != 1 {
		t.Fatalf("assignments: %+v, %v", a, err)
	}
	if status, loc := f.postFollow(t, cookie, "/console/erm/assignments/"+a.Assignments[0].ID+"/delete", form("back", "https://evil.example/")); status != http.StatusSeeOther || loc != "/console/" {
		t.Errorf("unassign with a foreign back: status %d, to %q; want the console's start", status, loc)
	}
	if a, _ := f.store.Assignments(ctx, "lib", kb.AssignmentQuery{ObjectID: id[1], Page: kb.Page{Count: 10, Number: 1}}); a.Total != 0 {
		t.Errorf("after unassigning: %d assignments", a.Total)
	}
	if status, _ := f.postAs(t, cookie, "/console/erm/license/"+id[1]+"/delete", form()); status != http.StatusSeeOther {
		t.Fatalf("delete: status %d", status)
	}
	if _, err := f.store.ERMObject(ctx, "lib", kb.KindLicense, id[1]); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("the deleted license: %v", err)
	}
	if status, _, _ := f.get(t, "/console/erm/nothing", "Cookie", cookie); status != 404 {
		t.Errorf("an unknown kind: status %d, want 404", status)
	}
}
