package pages_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// TestConsoleResolver: the link resolver page shows the statistics by
// each grouping with the names escaped, the unmet demand a page at a time,
// and links to CSV files of the same data, which download as the API's.
func TestConsoleResolver(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	journals := f.pkgs["Nursing Journals"]
	l, err := f.store.Titles(ctx, "lib", kb.TitleQuery{VendorID: f.vendor, PackageID: journals, Search: "script", Type: kb.SearchContains,
		Page: kb.Page{Count: 1, Number: 1}})
	if err != nil || len(l.Titles) != 1 {
		t.Fatalf("the script title: %+v, %v", l, err)
	}
	script := l.Titles[0] // "<script>alert(1)</script> Nursing"
	counts := kb.ResolverCounts{
		Requests: map[kb.ResolverRequestKey]int64{
			{CustomerID: "lib", Month: "2024-01", Source: "pubmed", TitleID: script.ID, PackageID: journals, FullText: true}: 1234,
			{CustomerID: "lib", Month: "2024-02", Source: "<b>src</b>"}:                                                      31,
		},
		Unmet: map[kb.UnmetKey]int64{{CustomerID: "lib", Month: "2024-02", Title: "Journal of Nothing", ID: "1234-5679"}: 2},
	}
	for i := range 30 {
		counts.Unmet[kb.UnmetKey{CustomerID: "lib", Month: "2024-02", Title: fmt.Sprintf("Wanted %02d", i)}] = 1
	}
	if err := f.store.AddResolverCounts(ctx, counts); err != nil {
		t.Fatal(err)
	}
	cookie, _ := f.signIn(t, "lib-key")
	page := func(query string) string {
		t.Helper()
		status, _, body := f.get(t, "/console/resolver?"+query, "Cookie", cookie)
		if status != 200 {
			t.Fatalf("%s: status %d\n%s", query, status, body)
		}
		return body
	}
	has := func(what, body string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the page lacks %q", what, w)
			}
		}
	}
	cells := regexp.MustCompile(`\s+`)
	row := func(cols ...string) string { return "<td>" + strings.Join(cols, "</td><td>") + "</td>" }

	body := cells.ReplaceAllString(page("from=2024-01&to=2024-03"), " ")
	has("by month", body,
		`<a href="/console/resolver">Link resolver</a>`,
		`<dt>Requests</dt><dd>1,265</dd>`, `<dt>Full text found</dt><dd>1,234</dd>`, `<dt>No full text</dt><dd>31</dd>`,
		"<td>2024-01</td> "+row("1,234", "1,234", "0", "0", "0"), "<td>2024-02</td> "+row("31", "0", "31", "0", "0"),
		"<td>2024-03</td> "+row("0", "0", "0", "0", "0"),
		`href="/console/resolver/statistics.csv?by=month&amp;from=2024-01&amp;to=2024-03"`,
		`href="/console/resolver/unmet.csv?from=2024-01&amp;to=2024-03"`,
		row("Journal of Nothing", "1234-5679", "2", "2024-02"), row("Wanted 00", "", "1", "2024-02"), row("Wanted 23", "", "1", "2024-02"),
		"Page 1 of 2", `href="?by=month&amp;from=2024-01&amp;page=2&amp;to=2024-03"`, "(31 entries)")
	if strings.Contains(body, "Wanted 24") {
		t.Error("the first page of the unmet demand shows a 26th entry")
	}
	has("the unmet demand's second page", page("from=2024-01&to=2024-03&page=2"), "Wanted 24", "Wanted 29", "Page 2 of 2")

	body = cells.ReplaceAllString(page("by=package&from=2024-01&to=2024-03"), " ")
	has("by package", body, `<td>Nursing Journals <span class="note">(Care Press)</span></td> `+row("1,234", "1,234", "0", "0", "0"),
		`<td><span class="note">no title matched</span></td> `+row("31", "0", "31", "0", "0"), `<option value="package" selected>`)
	body = page("by=title&from=2024-01&to=2024-03")
	has("by title", body, "&lt;script&gt;alert(1)&lt;/script&gt; Nursing")
	if strings.Contains(body, "<script>") {
		t.Error("by title: a title's name is not escaped")
	}
	body = cells.ReplaceAllString(page("by=source&from=2024-01&to=2024-03"), " ")
	has("by source", body, "<td>pubmed</td> "+row("1,234", "1,234", "0"), "<td>&lt;b&gt;src&lt;/b&gt;</td> "+row("31", "0", "31"),
		"only the totals count them")
	if strings.Contains(body, "Click-throughs (resolver)</th>") {
		t.Error("by source: the table has click-through columns")
	}

	// The CSV files are the API's.
	status, h, csv := f.get(t, "/console/resolver/statistics.csv?by=source&from=2024-01&to=2024-03", "Cookie", cookie)
	if status != 200 || h.Get("Content-Type") != "text/csv; charset=utf-8" ||
		h.Get("Content-Disposition") != `attachment; filename="kbserver_lib_resolver-statistics-source_2024-01_2024-03.csv"` ||
		csv != "source,requests,full_text,not_found\r\npubmed,1234,1234,0\r\n<b>src</b>,31,0,31\r\n" {
		t.Errorf("statistics CSV: %d %v\n%s", status, h, csv)
	}
	status, h, csv = f.get(t, "/console/resolver/unmet.csv?from=2024-01&to=2024-03", "Cookie", cookie)
	if lines := strings.Split(strings.TrimSuffix(csv, "\r\n"), "\r\n"); status != 200 || len(lines) != 32 ||
		lines[1] != "Journal of Nothing,1234-5679,2,2024-02" || lines[31] != "Wanted 29,,1,2024-02" ||
		h.Get("Content-Disposition") != `attachment; filename="kbserver_lib_resolver-unmet_2024-01_2024-03.csv"` {
		t.Errorf("unmet demand CSV: %d %v, %d lines\n%s", status, h, len(lines), csv)
	}

	// Bad parameters are error pages naming them; no session, the sign-in form.
	for _, path := range []string{"/console/resolver?by=vendor", "/console/resolver/statistics.csv?by=vendor"} {
		status, _, body := f.get(t, path, "Cookie", cookie)
		if status != 400 || !strings.Contains(body, "Parameter by has an invalid value &#34;vendor&#34;: allowed values are month, package, title, source.") {
			t.Errorf("%s: %d\n%s", path, status, body)
		}
	}
	if status, _, body := f.get(t, "/console/resolver/unmet.csv?from=2024-13", "Cookie", cookie); status != 400 || !strings.Contains(body, "Parameter from must be a month") {
		t.Errorf("unmet CSV from 2024-13: %d\n%s", status, body)
	}
	for _, path := range []string{"/console/resolver", "/console/resolver/statistics.csv", "/console/resolver/unmet.csv"} {
		if status, _, body := f.get(t, path); status != 401 || !strings.Contains(body, `name="apikey"`) || strings.Contains(body, "Journal of Nothing") {
			t.Errorf("%s without a session: %d, want the sign-in form", path, status)
		}
	}
}
