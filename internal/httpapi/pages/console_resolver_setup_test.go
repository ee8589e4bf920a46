package pages_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestConsoleResolverSetup: the console's link resolver page lists the
// customer's profiles with their addresses, saves a profile's
// interlibrary-loan form (refusing what is not an address, and other
// customers' profiles), and its test form says why each held resource
// gives the full text or not.
func TestConsoleResolverSetup(t *testing.T) {
	f := newFixture(t)
	cookie, csrf := f.signIn(t, "lib-key")
	status, _, body := f.get(t, "/console/resolver/setup", "Cookie", cookie)
	if status != http.StatusOK {
		t.Fatalf("page: %d", status)
	}
	for _, want := range []string{f.srv.URL + "/openurl/lib.main.az", f.srv.URL + "/openurl/lib.main.pw", "/scholar/lib.main.az/institutional_links.xml"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page does not show %s", want)
		}
	}
	const form = "https://ill.example.edu/request"
	if status, loc := f.postFollow(t, cookie, "/console/resolver/setup", formOf(csrf, "profile", "lib.main.pw", "requesturl", form)); status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", status, loc)
	}
	if _, _, body := f.get(t, "/console/resolver/setup", "Cookie", cookie); !strings.Contains(body, `value="`+form+`"`) {
		t.Errorf("the saved form is not shown")
	}
	for _, tt := range []struct {
		profile, url string
		status       int
		says         string
	}{
		{"lib.main.pw", "ill.example.edu", http.StatusBadRequest, "not an absolute http or https address"},
		{"other.main.az", form, http.StatusNotFound, "Profile not found"},
		{"not a profile", form, http.StatusBadRequest, "malformed"},
	} {
		status, body := f.postAs(t, cookie, "/console/resolver/setup", formOf(csrf, "profile", tt.profile, "requesturl", tt.url))
		if status != tt.status || !strings.Contains(body, tt.says) {
			t.Errorf("save %s %s: %d, want %d saying %q", tt.profile, tt.url, status, tt.status, tt.says)
		}
	}
	month := time.Now().UTC().Format("2006-01")
	for _, tt := range []struct{ openurl, says string }{
		{"https://elsewhere.example/openurl?title=Nursing+Journal+02&date=2005", "Gives the full text."},
		{"title=nursing+journal+01&date=" + month, "in the embargo"},
		{"title=Nursing+Journal+03&date=1990", "older than the library"},
		{"title=Map+Quarterly&date=2005", "No full text."},
		{"date=2005", "nothing to match on"},
	} {
		_, _, body := f.get(t, "/console/resolver/setup?testprofile=lib.main.pw&openurl="+url.QueryEscape(tt.openurl), "Cookie", cookie)
		if !strings.Contains(body, tt.says) {
			t.Errorf("test %s: the answer does not say %q", tt.openurl, tt.says)
		}
	}
	// Without full text, the test shows the request form the patron is
	// offered.
	_, _, body = f.get(t, "/console/resolver/setup?testprofile=lib.main.pw&openurl="+url.QueryEscape("title=Map+Quarterly&date=2005"), "Cookie", cookie)
	if !strings.Contains(body, "https://ill.example.edu/request?date=2005&amp;title=Map&#43;Quarterly") {
		t.Errorf("the test does not show the request form with the citation")
	}
}
