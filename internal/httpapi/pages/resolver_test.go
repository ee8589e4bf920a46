package pages_test

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// resolverFixture is a real server over a real store for the link
// resolver: customer lib (profile lib.main.az, guest; lib.main.pw,
// password "open-sesame", with an interlibrary-loan form) holds
//
//	Journal of Tests (ISSN 0317-8471, eISSN 1050-124X), covered
//	  2001-01-01–2010-12-31 and from 2015, with an embargo of 1 year,
//	  through the root proxy EZ;
//	Book of Tests (ISBN 978-0-306-40615-7), no coverage.
//
// The package Hidden Things holds "Hidden Journal" (ISSN 2049-3630) and is
// selected but hidden.
type resolverFixture struct {
	srv   *httptest.Server
	store kb.Store
	// site is the publisher's, proxy the library's proxy, which sends a
	// browser on to the address in its url parameter; each keeps the
	// paths it was asked for.
	site, proxy *httptest.Server
	mainPackage int64 // Test Journals

	mu              sync.Mutex
	visits, proxied []string
}

const illForm = "https://ill.example.edu/request?lib=riverside"

func newResolverFixture(t *testing.T) *resolverFixture {
	t.Helper()
	ctx := t.Context()
	f := &resolverFixture{}
	f.site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/favicon.ico" { // a browser asks for it
			f.mu.Lock()
			f.visits = append(f.visits, r.URL.Path)
			f.mu.Unlock()
		}
		fmt.Fprintf(w, "<!doctype html><title>Publisher</title><h1>Publisher's page %s</h1>", r.URL.Path)
	}))
	t.Cleanup(f.site.Close)
	f.proxy = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target := r.URL.Query().Get("url")
		f.mu.Lock()
		f.proxied = append(f.proxied, target)
		f.mu.Unlock()
		http.Redirect(w, r, target, http.StatusFound)
	}))
	t.Cleanup(f.proxy.Close)
	st := storetest.Searched(ctx, testdb.Open(t))
	if _, err := st.AddCustomer(ctx, "lib", "Riverside Library"); err != nil {
		t.Fatal(err)
	}
	hash, err := kb.HashPassword(profilePassword)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []kb.Profile{{ID: guestProfile, Guest: true}, {ID: passwordProfile, PasswordHash: hash}} {
		if err := st.SaveProfile(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetProfileRequestURL(ctx, passwordProfile, illForm); err != nil {
		t.Fatal(err)
	}
	if err := st.AddProxy(ctx, "lib", kb.Proxy{ID: "EZ", Name: "EZ", URLMask: f.proxy.URL + "/login?url={targetURL}"}); err != nil {
		t.Fatal(err)
	}
	type row struct {
		kbart map[int]string
		book  bool
	}
	imp := func(pkg string, rows []row) int64 {
		res, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: "Test Press", PackageName: pkg, ContentType: kb.ContentEJournal},
			storetest.RowsOf(len(rows), func(i int) kb.ImportRow {
				var r kb.ImportRow
				r.Line = i + 1
				for k, v := range rows[i].kbart {
					r.KBART[k] = v
				}
				r.KBART[16], r.PubType = "serial", kb.ResourceJournal
				if rows[i].book {
					r.KBART[16], r.PubType = "monograph", kb.ResourceBook
				}
				return r
			}))
		if err != nil {
			t.Fatal(err)
		}
		return res.PackageID
	}
	journal := func(name, issn, eissn, from, to, vol1, vol2, embargo, url string) row {
		return row{kbart: map[int]string{0: name, 1: issn, 2: eissn, 3: from, 4: vol1, 6: to, 7: vol2, 9: url, 12: embargo, 15: "Test Press"}}
	}
	main := imp("Test Journals", []row{
		journal("Journal of Tests", "0317-8471", "1050-124X", "2001", "2010", "1", "10", "P1Y", f.site.URL+"/jot"),
		journal("Journal of Tests", "0317-8471", "1050-124X", "2015", "", "15", "", "P1Y", f.site.URL+"/jot"),
		{kbart: map[int]string{0: "Book of Tests", 1: "978-0-306-40615-7", 9: f.site.URL + "/bot", 15: "Test Press"}, book: true},
	})
	hidden := imp("Hidden Things", []row{journal("Hidden Journal", "2049-3630", "", "2000", "", "", "", "", "https://pub.example/hj")})
	if err := st.SetPackageState(ctx, "lib", main, kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	if err := st.SetPackageState(ctx, "lib", hidden, kb.PackageState{Selected: true, Hidden: true}); err != nil {
		t.Fatal(err)
	}
	if err := st.UpdateRoot(ctx, "lib", kb.RootSettings{ProxyID: "EZ"}); err != nil {
		t.Fatal(err)
	}
	f.srv = httptest.NewServer(httpapi.NewServer(storetest.SearchOf(ctx, st), httpapi.Deps{Store: storetest.Raw(st)}))
	t.Cleanup(f.srv.Close)
	f.store, f.mainPackage = st, main
	return f
}

// noRedirect is a client that does not follow redirects.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// resolve asks the resolver of profile for the citation q in JSON.
func (f *resolverFixture) resolve(t *testing.T, profile kb.ProfileID, q string, header ...string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+"/openurl/"+profile.String()+"?"+q, nil)
	req.Header.Set("Accept", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatalf("%s: %v\n%s", q, err, body)
		}
	} else {
		out = map[string]any{"body": string(body)}
	}
	return resp.StatusCode, out
}

func results(t *testing.T, ans map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, r := range ans["results"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

func TestResolverJSON(t *testing.T) {
	f := newResolverFixture(t)
	thisYear := strconv.Itoa(time.Now().UTC().Year())
	tests := []struct {
		name     string
		query    string
		fullText bool
		reasons  []string // of each result, "" for covered
		levels   string   // the first result's link levels
	}{
		{"print ISSN, date inside, DOI", "issn=0317-8471&date=2005-03&id=doi:10.1000/182", true, []string{""}, "article,title"},
		{"online ISSN without hyphen, lower-case x", "issn=1050124x&date=2005", true, []string{""}, "title"},
		{"KEV with DOI", "url_ver=Z39.88-2004&rft_val_fmt=info:ofi/fmt:kev:mtx:journal&rft.eissn=1050-124X&rft.date=2016&rft_id=info:doi/10.1000/xyz&rfr_id=info:sid/test", true, []string{""}, "article,title"},
		{"before the coverage", "issn=0317-8471&date=1999", false, []string{"before-coverage"}, ""},
		{"between the ranges", "issn=0317-8471&date=2012-06-01", false, []string{"between-coverage-ranges"}, ""},
		{"in the embargo", "issn=0317-8471&date=" + thisYear, false, []string{"embargo"}, ""},
		{"volume inside", "issn=0317-8471&volume=5", true, []string{""}, "title"},
		{"volume in the gap", "issn=0317-8471&volume=12", false, []string{"between-coverage-ranges"}, ""},
		{"no date: available", "issn=0317-8471&id=doi:10.1000/182", true, []string{""}, "title"},
		{"title only, other case", "title=JOURNAL+OF+TESTS&date=2003", true, []string{""}, "title"},
		{"ISBN-10 of the book", "isbn=0-306-40615-2", true, []string{""}, "title"},
		{"hidden package", "issn=2049-3630&date=2005", false, nil, ""},
		{"unknown ISSN", "issn=1234-5679&date=2005", false, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, ans := f.resolve(t, guestProfile, tt.query)
			if status != http.StatusOK {
				t.Fatalf("status %d: %v", status, ans)
			}
			if ans["fullText"] != tt.fullText {
				t.Errorf("fullText = %v, want %v", ans["fullText"], tt.fullText)
			}
			rs := results(t, ans)
			if len(rs) != len(tt.reasons) {
				t.Fatalf("%d results, want %d: %v", len(rs), len(tt.reasons), rs)
			}
			for i, r := range rs {
				reason, _ := r["reason"].(string)
				if reason != tt.reasons[i] {
					t.Errorf("result %d: reason %q, want %q", i, reason, tt.reasons[i])
				}
			}
			if tt.levels != "" {
				var levels []string
				for _, l := range rs[0]["links"].([]any) {
					levels = append(levels, l.(map[string]any)["level"].(string))
				}
				if got := strings.Join(levels, ","); got != tt.levels {
					t.Errorf("links %s, want %s", got, tt.levels)
				}
			}
		})
	}
}

func TestResolverLinkOut(t *testing.T) {
	f := newResolverFixture(t)
	_, ans := f.resolve(t, guestProfile, "issn=0317-8471&date=2005&id=doi:10.1000/182")
	links := results(t, ans)[0]["links"].([]any)
	for i, want := range []string{"https://doi.org/10.1000/182", f.site.URL + "/jot"} {
		l := links[i].(map[string]any)
		target := l["target"].(string)
		if !strings.Contains(target, want) {
			t.Errorf("link %d leads to %s, want it through %s", i, target, want)
		}
		if !strings.HasPrefix(l["url"].(string), f.srv.URL+"/pf/linkout/") {
			t.Errorf("link %d is %s, not a link-out of this server", i, l["url"])
		}
		resp, err := noRedirect.Get(l["url"].(string))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != target {
			t.Errorf("link-out %d: %d to %q, want 302 to %q", i, resp.StatusCode, resp.Header.Get("Location"), target)
		}
	}
}

func TestResolverRedirect(t *testing.T) {
	f := newResolverFixture(t)
	resp, err := noRedirect.Get(f.srv.URL + "/openurl/" + guestProfile.String() + "?issn=0317-8471&date=2005&redirect=fulltext")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), f.srv.URL+"/pf/linkout/") {
		t.Errorf("redirect=fulltext: %d to %q, want 303 to a link-out", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, err = noRedirect.Get(f.srv.URL + "/openurl/" + guestProfile.String() + "?issn=0317-8471&date=1999&redirect=fulltext")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Held, but not for this date") {
		t.Errorf("redirect=fulltext without full text: %d, want the menu\n%s", resp.StatusCode, body)
	}
}

func TestResolverBadInput(t *testing.T) {
	f := newResolverFixture(t)
	long := strings.Repeat("a", kb.MaxCitationValue+1)
	for _, tt := range []struct {
		query  string
		status int
		says   string
	}{
		{"date=2005", http.StatusBadRequest, `"code":1005,"subcode":0,"message":"The citation has nothing to match on`},
		{"title=" + long, http.StatusBadRequest, "Parameter title is 1001 characters long"},
		{"issn=0317-8471&redirect=yes", http.StatusBadRequest, "redirect"},
	} {
		status, ans := f.resolve(t, guestProfile, tt.query)
		if status != tt.status || !strings.Contains(fmt.Sprint(ans["body"]), tt.says) {
			t.Errorf("%.60s: %d %v, want %d saying %s", tt.query, status, ans, tt.status, tt.says)
		}
	}
	// Garbage is ignored with a note, never refused.
	status, ans := f.resolve(t, guestProfile, "issn=0317-8471&date=20x5&volume=abc")
	if status != http.StatusOK {
		t.Fatalf("garbage date: %d %v", status, ans)
	}
	notes := ans["citation"].(map[string]any)["notes"].([]any)
	if len(notes) != 2 {
		t.Errorf("notes %v, want one for the date and one for the volume", notes)
	}
	// The page answers a citation with nothing to match on with a search
	// box.
	resp, err := http.Get(f.srv.URL + "/openurl/" + guestProfile.String() + "?date=2005")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `action="/az/lib.main.az/"`) {
		t.Errorf("HTML without anything to match: %d\n%s", resp.StatusCode, body)
	}
}

func TestResolverPasswordProfile(t *testing.T) {
	f := newResolverFixture(t)
	if status, _ := f.resolve(t, passwordProfile, "issn=0317-8471"); status != http.StatusUnauthorized {
		t.Errorf("JSON without a password: %d, want 401", status)
	}
	if status, _ := f.resolve(t, passwordProfile, "issn=0317-8471", "password", "wrong"); status != http.StatusUnauthorized {
		t.Errorf("JSON with a wrong password: %d, want 401", status)
	}
	if status, _ := f.resolve(t, passwordProfile, "issn=0317-8471", "password", profilePassword); status != http.StatusOK {
		t.Errorf("JSON with the password: %d, want 200", status)
	}
	// A browser signs in and comes back to its citation, then sees the
	// interlibrary-loan link where nothing gives the full text.
	jar := &cookieJar{}
	client := &http.Client{Jar: jar}
	path := "/openurl/" + passwordProfile.String() + "?issn=0317-8471&date=1999&atitle=Old+Paper"
	resp, err := client.Get(f.srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), `name="next"`) {
		t.Fatalf("browser without a session: %d, want the sign-in form with next\n%s", resp.StatusCode, body)
	}
	resp, err = client.PostForm(f.srv.URL+"/az/"+passwordProfile.String()+"/signin", url.Values{"password": {profilePassword}, "next": {path}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Request it through interlibrary loan") {
		t.Fatalf("after signing in: %d %s, want the menu with the request link\n%s", resp.StatusCode, resp.Request.URL, body)
	}
	m := regexp.MustCompile(`href="(https://ill\.example\.edu/[^"]*)"`).FindStringSubmatch(string(body))
	if m == nil {
		t.Fatalf("no request link\n%s", body)
	}
	link, err := url.Parse(html.UnescapeString(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	want := url.Values{"lib": {"riverside"}, "atitle": {"Old Paper"}, "date": {"1999"}, "issn": {"0317-8471"}}
	if got := link.Query(); got.Encode() != want.Encode() {
		t.Errorf("the request link carries %v, want %v", got, want)
	}
}

// cookieJar is a minimal jar keeping every cookie for every path.
type cookieJar struct{ cookies map[string]*http.Cookie }

func (j *cookieJar) SetCookies(_ *url.URL, cs []*http.Cookie) {
	if j.cookies == nil {
		j.cookies = map[string]*http.Cookie{}
	}
	for _, c := range cs {
		j.cookies[c.Name+c.Path] = c
	}
}

func (j *cookieJar) Cookies(u *url.URL) []*http.Cookie {
	var out []*http.Cookie
	for _, c := range j.cookies {
		if strings.HasPrefix(u.Path, c.Path) {
			out = append(out, &http.Cookie{Name: c.Name, Value: c.Value})
		}
	}
	return out
}

// TestResolverForm: an OpenURL POSTed as a form resolves as the GET does;
// a form over the body limit is 413.
func TestResolverForm(t *testing.T) {
	f := newResolverFixture(t)
	req, _ := http.NewRequest("POST", f.srv.URL+"/openurl/"+guestProfile.String(), strings.NewReader("issn=0317-8471&date=2005"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var ans map[string]any
	err = json.NewDecoder(resp.Body).Decode(&ans)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || ans["fullText"] != true {
		t.Errorf("POST: %d %v %v, want the full text", resp.StatusCode, ans, err)
	}
	big := "issn=0317-8471&x=" + strings.Repeat("a", 2<<20)
	req, _ = http.NewRequest("POST", f.srv.URL+"/openurl/"+guestProfile.String(), strings.NewReader(big))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a form over the limit: %d, want 413", resp.StatusCode)
	}
}

// TestResolverSignInReturn: the sign-in form brings a browser back only
// to its profile's resolver, with the citation it sent, a POSTed one too;
// any other next is ignored (no open redirect).
func TestResolverSignInReturn(t *testing.T) {
	f := newResolverFixture(t)
	own := "/openurl/" + passwordProfile.String()
	for _, tt := range []struct{ next, want string }{
		{own + "?issn=0317-8471", own + "?issn=0317-8471"},
		{"https://evil.example/openurl/" + passwordProfile.String(), "/az/lib.main.pw/"},
		{"//evil.example" + own, "/az/lib.main.pw/"},
		{"/openurl/" + guestProfile.String() + "?issn=0317-8471", "/az/lib.main.pw/"},
		{own + "x?issn=1", "/az/lib.main.pw/"},
	} {
		resp, err := noRedirect.PostForm(f.srv.URL+"/az/"+passwordProfile.String()+"/signin", url.Values{"password": {profilePassword}, "next": {tt.next}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || got != tt.want {
			t.Errorf("next %q: %d to %q, want 303 to %q", tt.next, resp.StatusCode, got, tt.want)
		}
	}
	// A POSTed citation without a session: the form's next carries it.
	req, _ := http.NewRequest("POST", f.srv.URL+own, strings.NewReader("issn=0317-8471&date=2005"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), `name="next" value="`+own+`?date=2005&amp;issn=0317-8471"`) {
		t.Errorf("a POSTed citation's sign-in form: %d\n%s", resp.StatusCode, body)
	}
}

// TestResolverHEAD: a HEAD request (a link checker) is answered but not
// counted in the statistics.
func TestResolverHEAD(t *testing.T) {
	f := newResolverFixture(t)
	rec := &recorded{}
	srv := httptest.NewServer(httpapi.NewServer(storetest.SearchOf(t.Context(), f.store), httpapi.Deps{Store: storetest.Raw(f.store), ResolverRecorder: rec}))
	t.Cleanup(srv.Close)
	for _, method := range []string{"HEAD", "GET"} {
		req, _ := http.NewRequest(method, srv.URL+"/openurl/"+guestProfile.String()+"?issn=0317-8471", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", method, resp.StatusCode)
		}
	}
	if n := rec.count(); n != 1 {
		t.Errorf("%d resolutions recorded, want the GET's only", n)
	}
}

// recorded counts the resolutions a server records.
type recorded struct {
	mu sync.Mutex
	n  int
}

func (r *recorded) RecordResolution(kb.ResolverEvent) {
	r.mu.Lock()
	r.n++
	r.mu.Unlock()
}

func (r *recorded) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}
