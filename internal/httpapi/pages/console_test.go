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

// signIn signs in to the console with key and returns the session
// cookie ("name=value") and the CSRF token of the console's forms.
func (f *fixture) signIn(t *testing.T, key string) (cookie, csrf string) {
	t.Helper()
	status, h, _ := f.post(t, "/console/signin", url.Values{"apikey": {key}}, f.srv.URL)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: status %d", status)
	}
	cookie, _, _ = strings.Cut(h.Get("Set-Cookie"), ";")
	status, _, body := f.get(t, "/console/", "Cookie", cookie)
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	if status != 200 || m == nil {
		t.Fatalf("console after sign-in: status %d, no CSRF token", status)
	}
	return cookie, m[1]
}

// consolePost sends a console form with the session cookie from this
// site and returns the status, headers and body.
func (f *fixture) consolePost(t *testing.T, cookie, path string, form url.Values) (int, http.Header, string) {
	t.Helper()
	return f.postForm(t, path, form, "Origin", f.srv.URL, "Cookie", cookie)
}

// postAs sends a console form and returns the status and body.
func (f *fixture) postAs(t *testing.T, cookie, path string, form url.Values) (int, string) {
	t.Helper()
	status, _, body := f.consolePost(t, cookie, path, form)
	return status, body
}

// postFollow sends a console form and returns the status and the
// Location it redirects to.
func (f *fixture) postFollow(t *testing.T, cookie, path string, form url.Values) (int, string) {
	t.Helper()
	status, h, _ := f.consolePost(t, cookie, path, form)
	return status, h.Get("Location")
}

// formOf returns a console form with the CSRF token and the fields
// given as name, value pairs.
func formOf(csrf string, kv ...string) url.Values {
	v := url.Values{"csrf": {csrf}}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// TestConsoleSignIn: the console opens only with a key of the server's
// environment; the session cookie is HttpOnly, SameSite=Strict and
// scoped to /console/; signing out and revoking the key end the session
// on the server, so a copy of the cookie stops working.
func TestConsoleSignIn(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if status, _, body := f.get(t, "/console/"); status != 401 || !strings.Contains(body, `name="apikey"`) {
		t.Errorf("console without a session: status %d, want the sign-in form", status)
	}
	if err := f.store.AddAPIKey(ctx, "lib", kb.HashAPIKey("lib-sandbox-key"), kb.Sandbox); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, key, origin string
		status            int
		want              string
	}{
		{"unknown key", "nope", f.srv.URL, 401, "That API key is not known here."},
		{"no key", "", f.srv.URL, 400, "Enter the customer&#39;s API key."},
		{"a key of the other environment", "lib-sandbox-key", f.srv.URL, 401, "The API key belongs to the sandbox environment"},
		{"from another site", "lib-key", "https://evil.example", 403, "sent from another site"},
	} {
		status, h, body := f.post(t, "/console/signin", url.Values{"apikey": {tt.key}}, tt.origin)
		if status != tt.status || !strings.Contains(body, tt.want) || h.Get("Set-Cookie") != "" {
			t.Errorf("%s: status %d, cookie %q; want %d with %q", tt.name, status, h.Get("Set-Cookie"), tt.status, tt.want)
		}
	}
	_, h, _ := f.post(t, "/console/signin", url.Values{"apikey": {"lib-key"}}, f.srv.URL)
	for _, want := range []string{"kb_console=", "Path=/console/", "HttpOnly", "SameSite=Strict", "Max-Age=28800"} {
		if !strings.Contains(h.Get("Set-Cookie"), want) {
			t.Errorf("session cookie %q lacks %q", h.Get("Set-Cookie"), want)
		}
	}
	cookie, csrf := f.signIn(t, "lib-key")
	if status, _ := f.postAs(t, cookie, "/console/signout", url.Values{"csrf": {csrf}}); status != http.StatusSeeOther {
		t.Fatalf("sign out: status %d", status)
	}
	if status, _, _ := f.get(t, "/console/", "Cookie", cookie); status != 401 {
		t.Errorf("the cookie after signing out: status %d, want 401", status)
	}
	cookie, _ = f.signIn(t, "lib-key")
	if err := f.store.RevokeAPIKey(ctx, kb.HashAPIKey("lib-key")); err != nil {
		t.Fatal(err)
	}
	if status, _, _ := f.get(t, "/console/", "Cookie", cookie); status != 401 {
		t.Errorf("the cookie after the key was revoked: status %d, want 401", status)
	}
}

// TestConsoleWrites: the console's forms write through the store's
// methods with the holdings service's rules and messages; a post without
// the session's CSRF token, with another token, or from another site
// changes nothing.
func TestConsoleWrites(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	cookie, csrf := f.signIn(t, "lib-key")
	maps := fmt.Sprintf("/console/packages/%d/%d", f.vendor, f.pkgs["Rare Maps"])
	selected := func() bool {
		t.Helper()
		p, err := f.store.Package(ctx, "lib", f.vendor, f.pkgs["Rare Maps"])
		if err != nil {
			t.Fatal(err)
		}
		return p.IsSelected
	}
	other := "x" + csrf[1:]
	if csrf[0] == 'x' {
		other = "y" + csrf[1:]
	}
	for _, tt := range []struct {
		name, csrf string
	}{{"no CSRF token", ""}, {"another CSRF token", other}} {
		if status, body := f.postAs(t, cookie, maps, url.Values{"csrf": {tt.csrf}, "selected": {"on"}}); status != 403 || !strings.Contains(body, "CSRF") {
			t.Errorf("%s: status %d, want 403 naming the CSRF token", tt.name, status)
		}
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.srv.URL+maps, strings.NewReader(url.Values{"csrf": {csrf}, "selected": {"on"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Cookie", cookie)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if status, _, _ := f.do(t, req); status != 403 {
		t.Errorf("a post from another site with the token: status %d, want 403", status)
	}
	if selected() {
		t.Fatal("a refused post selected the package")
	}
	if status, _ := f.postAs(t, cookie, maps, url.Values{"csrf": {csrf}, "selected": {"on"}, "alltitles": {"on"}}); status != http.StatusSeeOther || !selected() {
		t.Fatalf("select the package: status %d, selected %v", status, selected())
	}
	if status, body := f.postAs(t, cookie, maps, url.Values{"csrf": {csrf}, "hidden": {"on"}, "alltitles": {"on"}}); status != 400 || !strings.Contains(body, "cannot be hidden") {
		t.Errorf("hide without selecting: status %d, want 400 naming the rule", status)
	}
	if !selected() {
		t.Error("a refused post deselected the package")
	}
	// A package whose titles were selected one by one keeps them so when
	// its form is saved without "All its titles".
	books := fmt.Sprintf("/console/packages/%d/%d", f.vendor, f.pkgs["Health Books"])
	if status, _ := f.postAs(t, cookie, books, url.Values{"csrf": {csrf}}); status != http.StatusSeeOther {
		t.Fatalf("deselect Health Books: status %d", status)
	}
	l, err := f.store.Titles(ctx, "lib", kb.TitleQuery{VendorID: f.vendor, PackageID: f.pkgs["Health Books"], Page: kb.Page{Count: 1, Number: 1}})
	if err != nil || len(l.Titles) != 1 {
		t.Fatalf("a title of Health Books: %v", err)
	}
	yes := true
	if err := f.store.SetResourceState(ctx, "lib", f.pkgs["Health Books"], l.Titles[0].ID, kb.ResourceState{Selected: &yes}); err != nil {
		t.Fatal(err)
	}
	if _, _, page := f.get(t, books, "Cookie", cookie); strings.Contains(page, `id="alltitles" name="alltitles" type="checkbox" checked`) {
		t.Error("a package with one title selected offers to select all its titles")
	}
	if status, _ := f.postAs(t, cookie, books, url.Values{"csrf": {csrf}, "selected": {"on"}, "begin": {"2001-01-01"}}); status != http.StatusSeeOther {
		t.Fatalf("save Health Books' coverage: status %d", status)
	}
	if p, err := f.store.Package(ctx, "lib", f.vendor, f.pkgs["Health Books"]); err != nil || p.SelectedCount != 1 || p.SelectedWhole || p.CustomCoverage.Begin != "2001-01-01" {
		t.Errorf("Health Books after saving its coverage: %d selected, whole %v, coverage %v (%v); want the one title, its coverage set", p.SelectedCount, p.SelectedWhole, p.CustomCoverage, err)
	}
	if status, _, _ := f.get(t, books+"?page=0", "Cookie", cookie); status != 400 {
		t.Errorf("page 0 of a package's titles: status %d, want 400", status)
	}
	changes, err := f.store.Changes(ctx, kb.ChangeQuery{CustomerID: "lib", PackageID: f.pkgs["Rare Maps"], Limit: 5})
	key, kerr := f.store.LookupAPIKey(ctx, kb.HashAPIKey("lib-key"))
	if err != nil || kerr != nil || len(changes) == 0 || changes[0].KeyID != key.ID {
		t.Errorf("the selection's change record = %+v (%v, %v); want one made by key %d", changes, err, kerr, key.ID)
	}
	if status, _, body := f.get(t, "/console/history", "Cookie", cookie); status != 200 || !strings.Contains(body, fmt.Sprintf("API key %d", key.ID)) {
		t.Errorf("history: status %d, does not name the key", status)
	}

	// A title's custom coverage: newest first, as the holdings service
	// requires, with its message.
	l, err = f.store.Titles(ctx, "lib", kb.TitleQuery{Search: "Nursing Journal 02", Type: kb.SearchExactMatch, Page: kb.Page{Count: 1, Number: 1}})
	if err != nil || len(l.Titles) != 1 {
		t.Fatalf("find Nursing Journal 02: %v", err)
	}
	journal := l.Titles[0].ID
	res := fmt.Sprintf("/console/resources/%d/%d/%d", f.vendor, f.pkgs["Nursing Journals"], journal)
	oldestFirst := url.Values{"csrf": {csrf}, "selected": {"on"}, "begin1": {"2001-01-01"}, "end1": {"2002-12-31"},
		"begin2": {"2005-01-01"}, "end2": {"2006-12-31"}}
	status, body := f.postAs(t, cookie, res, oldestFirst)
	if status != 400 || !strings.Contains(body, "CoverageList contains a date that exceeds a previous date value") ||
		!strings.Contains(body, "List the ranges newest first") || !strings.Contains(body, `value="2005-01-01"`) {
		t.Errorf("coverage oldest first: status %d; want 400 with the rule, its explanation and the dates sent", status)
	}
	newestFirst := url.Values{"csrf": {csrf}, "selected": {"on"}, "begin1": {"2005-01-01"}, "end1": {"2006-12-31"},
		"begin2": {"2001-01-01"}, "end2": {"2002-12-31"}, "embargovalue": {"6"}, "embargounit": {"months"}, "statement": {"Print only before 2001"}}
	if status, _ := f.postAs(t, cookie, res, newestFirst); status != http.StatusSeeOther {
		t.Fatalf("coverage newest first: status %d", status)
	}
	tt, err := f.store.Resource(ctx, "lib", f.vendor, f.pkgs["Nursing Journals"], journal)
	if err != nil {
		t.Fatal(err)
	}
	r := tt.Resources[0]
	want := []kb.Coverage{{Begin: "2005-01-01", End: "2006-12-31"}, {Begin: "2001-01-01", End: "2002-12-31"}}
	if len(r.CustomCoverage) != 2 || r.CustomCoverage[0] != want[0] || r.CustomCoverage[1] != want[1] ||
		r.CustomEmbargo != (kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}) || r.CoverageStatement != "Print only before 2001" {
		t.Errorf("resource after the form: coverage %v, embargo %v, statement %q", r.CustomCoverage, r.CustomEmbargo, r.CoverageStatement)
	}
}
