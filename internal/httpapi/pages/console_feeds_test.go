package pages_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// institution is a publisher's site that serves an institution's KBART
// file (NISO RP-26) at /inst.txt to requests with its token header.
type institution struct {
	srv  *httptest.Server
	mu   sync.Mutex
	file string
}

// Secrets of the institution's file: its address's token and the request
// header's value. No page may show them.
const (
	feedURLToken    = "url-secret-31"
	feedHeaderToken = "header-secret-47"
)

func newInstitution(t *testing.T) *institution {
	t.Helper()
	in := &institution{}
	in.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/inst.txt" || r.Header.Get("Authorization") != "Bearer "+feedHeaderToken {
			http.Error(w, "not yours", http.StatusUnauthorized)
			return
		}
		in.mu.Lock()
		defer in.mu.Unlock()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, in.file)
	}))
	t.Cleanup(in.srv.Close)
	return in
}

// serve makes the file name the titles.
func (in *institution) serve(names ...string) {
	var b strings.Builder
	b.WriteString(strings.Join(kbart.Header[:], "\t") + "\n")
	for i, name := range names {
		var row [kbart.NumFields]string
		row[kbart.PublicationTitle], row[kbart.PublicationType] = name, "serial"
		row[kbart.TitleURL] = fmt.Sprintf("https://publisher.example/title/%d", i+1)
		b.WriteString(strings.Join(row[:], "\t") + "\n")
	}
	in.mu.Lock()
	in.file = b.String()
	in.mu.Unlock()
}

// journals returns the names of Nursing Journal from to to.
func journals(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf("Nursing Journal %02d", i))
	}
	return out
}

// selectedCount returns the number of titles of the package lib selects.
func (f *fixture) selectedCount(t *testing.T, pkg string) int {
	t.Helper()
	p, err := f.store.Package(t.Context(), "lib", f.vendor, f.pkgs[pkg])
	if err != nil {
		t.Fatal(err)
	}
	return p.SelectedCount
}

// mustGet fetches a console page and fails the test unless it answers
// want.
func (f *fixture) mustGet(t *testing.T, cookie, path string, want int) string {
	t.Helper()
	status, _, body := f.get(t, path, "Cookie", cookie)
	if status != want {
		t.Fatalf("GET %s: %d, want %d:\n%s", path, status, want, body)
	}
	return body
}

// TestConsoleHoldingsFeeds walks the console's holdings feeds page as a
// library does: it adds a feed of its institution's file through the
// form (bad input refused naming the field, the header's secret never
// sent back), runs it and sees the applied run; a file that deselects
// most titles is held, its review names the titles it would deselect,
// and approving it applies it. Another customer sees none of it; a post
// without the CSRF token changes nothing; removing the feed keeps the
// selection.
func TestConsoleHoldingsFeeds(t *testing.T) {
	f := newFixture(t)
	in := newInstitution(t)
	cookie, csrf := f.signIn(t, "lib-key")
	nursing := fmt.Sprintf("%d-%d", f.vendor, f.pkgs["Nursing Journals"])
	address := in.srv.URL + "/inst.txt?token=" + feedURLToken
	header := "Authorization: Bearer " + feedHeaderToken

	if body := f.mustGet(t, cookie, "/console/", http.StatusOK); !strings.Contains(body, `href="/console/feeds"`) {
		t.Errorf("the console's menu does not link the holdings feeds")
	}
	body := f.mustGet(t, cookie, "/console/feeds", http.StatusOK)
	if !strings.Contains(body, `<option value="`+nursing+`">Care Press / Nursing Journals`) || !strings.Contains(body, "no holdings feed yet") {
		t.Errorf("the feeds page does not offer the selected package, or lists feeds:\n%s", body)
	}
	maps := fmt.Sprintf("%d-%d", f.vendor, f.pkgs["Rare Maps"])
	if body := f.mustGet(t, cookie, fmt.Sprintf("/console/packages/%d/%d", f.vendor, f.pkgs["Rare Maps"]), http.StatusOK); !strings.Contains(body, "/console/feeds?package="+maps) {
		t.Errorf("a package's page does not link the form for its feed")
	}
	if body := f.mustGet(t, cookie, "/console/feeds?package="+maps, http.StatusOK); !strings.Contains(body, `<option value="`+maps+`" selected>Care Press / Rare Maps`) {
		t.Errorf("the form does not offer the package whose page linked it, unselected as it is")
	}

	t.Run("bad input", func(t *testing.T) {
		for _, tt := range []struct {
			name, pkg, url, every, says, field string
		}{
			{"no package", "", address, "daily", "Package: choose the package", "package"},
			{"no address", nursing, "", "daily", "Address: give the address", "url"},
			{"a file address", nursing, "file:///etc/passwd", "daily", "Address: file:///etc/passwd is not an http or https address", "url"},
			{"every five minutes", nursing, address, "5m", "Schedule: 5m0s is too short", "every"},
			{"an unknown package", "999-999", address, "daily", "Package: not a package", "package"},
		} {
			status, body := f.postAs(t, cookie, "/console/feeds", formOf(csrf, "package", tt.pkg, "url", tt.url, "every", tt.every,
				"maxremoval", "20%", "headers", header))
			if status == http.StatusSeeOther || status == http.StatusOK || !strings.Contains(body, tt.says) {
				t.Errorf("%s: %d, want a refusal saying %q:\n%s", tt.name, status, tt.says, body)
			}
			if !regexp.MustCompile(`name="` + tt.field + `"[^>]*aria-invalid="true"`).MatchString(body) {
				t.Errorf("%s: the field %s is not marked invalid", tt.name, tt.field)
			}
			if tt.url == "file:///etc/passwd" && !strings.Contains(body, `value="`+tt.url+`"`) {
				t.Errorf("%s: the address sent is not kept in the form", tt.name)
			}
			if !strings.Contains(body, `value="`+tt.every+`"`) {
				t.Errorf("%s: the schedule sent is not kept in the form", tt.name)
			}
			if strings.Contains(body, feedHeaderToken) || !strings.Contains(body, "enter them again") {
				t.Errorf("%s: the page sends the header's value back, or does not ask for it again", tt.name)
			}
		}
		if fs, err := f.store.Feeds(t.Context()); err != nil || len(fs) != 0 {
			t.Errorf("refused forms added feeds: %v %v", fs, err)
		}
	})

	// A file naming 40 of the package's 41 titles: applied.
	in.serve(journals(1, 40)...)
	status, loc := f.postFollow(t, cookie, "/console/feeds", formOf(csrf, "package", nursing, "url", address, "every", "weekly",
		"maxremoval", "20%", "headers", header))
	var feedID int64
	if _, err := fmt.Sscanf(loc, "/console/feeds/%d?added=1", &feedID); status != http.StatusSeeOther || err != nil {
		t.Fatalf("add: %d %q", status, loc)
	}
	feedPath := fmt.Sprintf("/console/feeds/%d", feedID)
	body = f.mustGet(t, cookie, "/console/feeds", http.StatusOK)
	for _, want := range []string{`href="` + feedPath + `"`, "token=REDACTED", "weekly", "20%", "not run yet"} {
		if !strings.Contains(body, want) {
			t.Errorf("the list does not show %q", want)
		}
	}
	body = f.mustGet(t, cookie, feedPath+"?added=1", http.StatusOK)
	for _, want := range []string{"Added.", "Authorization", "No run yet."} {
		if !strings.Contains(body, want) {
			t.Errorf("the feed's page does not show %q", want)
		}
	}

	run := func(t *testing.T, path string, form url.Values) string {
		t.Helper()
		status, loc := f.postFollow(t, cookie, path, form)
		if status != http.StatusSeeOther || !strings.HasPrefix(loc, feedPath+"?run=") {
			t.Fatalf("POST %s: %d %q", path, status, loc)
		}
		return f.mustGet(t, cookie, loc, http.StatusOK)
	}
	body = run(t, feedPath+"/run", formOf(csrf))
	if !regexp.MustCompile(`Run \d+: applied: 0 titles selected, 1 deselected`).MatchString(body) {
		t.Errorf("the page after the run does not show it applied:\n%s", body)
	}
	if n := f.selectedCount(t, "Nursing Journals"); n != 40 {
		t.Errorf("after the applied run %d titles are selected, want the file's 40", n)
	}

	// A file naming 5 titles would deselect 35 of 40: held.
	in.serve(journals(1, 5)...)
	body = run(t, feedPath+"/run", formOf(csrf))
	m := regexp.MustCompile(`Run (\d+): held for review: it would deselect 35 of the 40 titles`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the page after the run does not show it held:\n%s", body)
	}
	reviewPath := feedPath + "/runs/" + m[1]
	if !strings.Contains(body, `href="`+reviewPath+`"`) {
		t.Errorf("the held run has no link to its review")
	}
	for _, want := range []string{"HTTP status", "200", "applied", "held"} {
		if !strings.Contains(body, want) {
			t.Errorf("the history does not show %q", want)
		}
	}
	if strings.Contains(body, feedURLToken) || strings.Contains(body, feedHeaderToken) {
		t.Errorf("the feed's page shows a secret")
	}
	if body := f.mustGet(t, cookie, "/console/feeds", http.StatusOK); !strings.Contains(body, `<strong class="outcome">held</strong>`) ||
		!strings.Contains(body, `href="`+reviewPath+`">review it</a>`) {
		t.Errorf("the list does not show the last run held with its review's link:\n%s", body)
	}
	body = f.mustGet(t, cookie, reviewPath, http.StatusOK)
	for _, want := range []string{"Titles it would deselect (35)", "<li>Nursing Journal 40</li>", "Titles it would select (0)",
		`<th scope="row">Titles selected now</th><td>40</td>`, `<th scope="row">Titles selected after approval</th><td>5</td>`,
		`<th scope="row">Rows read</th><td>5</td>`, `action="` + reviewPath + `/approve"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the review does not show %q", want)
		}
	}
	if strings.Contains(body, "<li>Nursing Journal 05</li>") {
		t.Errorf("the review lists a title the file keeps as deselected")
	}

	t.Run("another customer", func(t *testing.T) {
		if _, err := f.store.AddCustomer(t.Context(), "other", "Other Library"); err != nil {
			t.Fatal(err)
		}
		if err := f.store.AddAPIKey(t.Context(), "other", kb.HashAPIKey("other-key"), kb.Production); err != nil {
			t.Fatal(err)
		}
		other, otherCSRF := f.signIn(t, "other-key")
		if body := f.mustGet(t, other, "/console/feeds", http.StatusOK); strings.Contains(body, feedPath) {
			t.Errorf("another customer's list shows lib's feed")
		}
		for _, path := range []string{feedPath, reviewPath} {
			if status, _, _ := f.get(t, path, "Cookie", other); status != http.StatusNotFound {
				t.Errorf("GET %s as another customer: %d, want 404", path, status)
			}
		}
		for _, path := range []string{feedPath + "/run", reviewPath + "/approve", feedPath + "/remove"} {
			if status, _ := f.postAs(t, other, path, formOf(otherCSRF)); status != http.StatusNotFound {
				t.Errorf("POST %s as another customer: %d, want 404", path, status)
			}
		}
	})

	t.Run("no CSRF token", func(t *testing.T) {
		for _, path := range []string{reviewPath + "/approve", feedPath + "/run", feedPath + "/remove", "/console/feeds"} {
			form := url.Values{"package": {nursing}, "url": {address}}
			if status, body := f.postAs(t, cookie, path, form); status != http.StatusForbidden || !strings.Contains(body, "CSRF") {
				t.Errorf("POST %s without the CSRF token: %d, want 403", path, status)
			}
		}
	})
	if n := f.selectedCount(t, "Nursing Journals"); n != 40 {
		t.Errorf("before the approval %d titles are selected, want 40", n)
	}
	if _, runs, err := f.store.FeedHistory(t.Context(), feedID); err != nil || len(runs) != 2 {
		t.Fatalf("the history has %d runs (%v), want the two of lib", len(runs), err)
	}

	body = run(t, reviewPath+"/approve", formOf(csrf))
	if !regexp.MustCompile(`Run \d+: approved run ` + m[1] + `, applied: 0 titles selected, 35 deselected`).MatchString(body) {
		t.Errorf("the page after the approval does not show it applied:\n%s", body)
	}
	if strings.Contains(body, `href="`+reviewPath+`"`) {
		t.Errorf("the approved run still offers its review")
	}
	if n := f.selectedCount(t, "Nursing Journals"); n != 5 {
		t.Errorf("after the approval %d titles are selected, want the file's 5", n)
	}

	status, loc = f.postFollow(t, cookie, feedPath+"/remove", formOf(csrf))
	if status != http.StatusSeeOther || loc != fmt.Sprintf("/console/feeds?removed=%d", feedID) {
		t.Fatalf("remove: %d %q", status, loc)
	}
	if body := f.mustGet(t, cookie, loc, http.StatusOK); !strings.Contains(body, "the titles it selected stay selected") || strings.Contains(body, feedPath) {
		t.Errorf("the list after the removal:\n%s", body)
	}
	f.mustGet(t, cookie, feedPath, http.StatusNotFound)
	if n := f.selectedCount(t, "Nursing Journals"); n != 5 {
		t.Errorf("after the removal %d titles are selected, want 5 still", n)
	}
}
