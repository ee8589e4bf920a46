package resolverapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/resolverstats"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// fixture is a server over a store of the test run's kind (package
// testdb) holding storetest's fixture, whose customer c1 (key "key-c1")
// had these link resolver requests, recorded and flushed as a server
// does (package resolverstats):
//
//	2024-01  pubmed   full text, Journal of Testing in Alpha Journals   ×3
//	2024-01  pubmed   no full text, Journal of Testing (0317-8471)      ×1
//	2024-02  (none)   nothing matched, Journal of Nothing (1234-5679)   ×2
//	2024-02  scholar  full text, Annals of Software Quality             ×1
//	2024-03  scholar  nothing matched, =HYPERLINK("x")                  ×1
//
// and, this month, 2 clicks on a link-out of the resolver and 1 of the
// A–Z page to Journal of Testing in Alpha Journals. c2 ("key-c2") had 5
// requests in January 2024. Every exchange is checked against the API
// description (package apitest).
type fixture struct {
	url      string
	month    kb.Month // of the clicks
	jot, asq int64    // title ids
	journals int64    // Alpha Journals
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := t.Context()
	st := storetest.Searched(ctx, testdb.Open(t))
	fx := storetest.LoadFixture(t, st)
	f := &fixture{journals: fx.AlphaJournals}
	titleID := func(isxn string) int64 {
		l, err := st.Titles(ctx, "c1", kb.TitleQuery{Search: isxn, Field: kb.FieldISXN, Type: kb.SearchExactMatch, Page: kb.Page{Count: 5, Number: 1}})
		if err != nil || len(l.Titles) != 1 {
			t.Fatalf("title %s: %+v, %v", isxn, l, err)
		}
		return l.Titles[0].ID
	}
	f.jot, f.asq = titleID(storetest.TestingPrintISSN), titleID("2049-3630")
	rec := resolverstats.New(st, nil)
	at := func(month int) time.Time { return time.Date(2024, time.Month(month), 10, 12, 0, 0, 0, time.UTC) }
	for _, e := range []struct {
		n  int
		ev kb.ResolverEvent
	}{
		{3, kb.ResolverEvent{CustomerID: "c1", Time: at(1), Source: "pubmed", FullText: true, TitleID: f.jot, PackageID: f.journals}},
		{1, kb.ResolverEvent{CustomerID: "c1", Time: at(1), Source: "pubmed", TitleID: f.jot, PackageID: f.journals,
			SoughtTitle: "Journal of Testing", SoughtID: "0317-8471"}},
		{2, kb.ResolverEvent{CustomerID: "c1", Time: at(2), SoughtTitle: "Journal of Nothing", SoughtID: "1234-5679"}},
		{1, kb.ResolverEvent{CustomerID: "c1", Time: at(2), Source: "scholar", FullText: true, TitleID: f.asq, PackageID: f.journals}},
		{1, kb.ResolverEvent{CustomerID: "c1", Time: at(3), Source: "scholar", SoughtTitle: `=HYPERLINK("x")`}},
		{5, kb.ResolverEvent{CustomerID: "c2", Time: at(1), Source: "pubmed", FullText: true, TitleID: f.jot, PackageID: f.journals}},
	} {
		for range e.n {
			rec.RecordResolution(e.ev)
		}
	}
	if err := rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	f.month = kb.MonthOf(time.Now())
	key := kb.ResourceKey{PackageID: f.journals, TitleID: f.jot}
	for _, via := range []kb.LinkVia{kb.ViaResolver, kb.ViaResolver, kb.ViaAZ} {
		if err := st.CountLinkOut(ctx, "c1", key, via); err != nil {
			t.Fatal(err)
		}
	}
	if kb.MonthOf(time.Now()) != f.month {
		t.Skip("the month changed while the fixture was made")
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	f.url = apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(ctx, st), httpapi.Deps{Store: storetest.Raw(st), Logger: logger})).URL
	return f
}

// get asks for path of c1 with c1's key.
func (f *fixture) get(t *testing.T, path string) (*http.Response, string) {
	t.Helper()
	res, body := apitest.Do(t, http.DefaultClient, http.MethodGet, f.url+"/rm/rmaccounts/c1/resolver/"+path, nil, "x-api-key", "key-c1")
	return res, string(body)
}

// sameJSON fails the test unless got and want are the same JSON value.
func sameJSON(t *testing.T, what, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%s: the answer is not JSON: %v\n%s", what, err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: the wanted JSON: %v", what, err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

func TestStatistics(t *testing.T) {
	f := newFixture(t)
	const totals = `"totals": {"requests": 8, "fullText": 4, "notFound": 4, "clickThroughs": 0, "azClickThroughs": 0}`
	for _, tc := range []struct {
		query, want string
	}{
		{"by=month&from=2024-01&to=2024-04", `{"by": "month", "from": "2024-01", "to": "2024-04", ` + totals + `, "rows": [
			{"month": "2024-01", "requests": 4, "fullText": 3, "notFound": 1, "clickThroughs": 0, "azClickThroughs": 0},
			{"month": "2024-02", "requests": 3, "fullText": 1, "notFound": 2, "clickThroughs": 0, "azClickThroughs": 0},
			{"month": "2024-03", "requests": 1, "fullText": 0, "notFound": 1, "clickThroughs": 0, "azClickThroughs": 0},
			{"month": "2024-04", "requests": 0, "fullText": 0, "notFound": 0, "clickThroughs": 0, "azClickThroughs": 0}]}`},
		// by is read in any case; month is the default.
		{"from=2024-02&to=2024-02", `{"by": "month", "from": "2024-02", "to": "2024-02",
			"totals": {"requests": 3, "fullText": 1, "notFound": 2, "clickThroughs": 0, "azClickThroughs": 0}, "rows": [
			{"month": "2024-02", "requests": 3, "fullText": 1, "notFound": 2, "clickThroughs": 0, "azClickThroughs": 0}]}`},
		{"by=PACKAGE&from=2024-01&to=2024-03", fmt.Sprintf(`{"by": "package", "from": "2024-01", "to": "2024-03", `+totals+`, "rows": [
			{"packageId": %d, "packageName": "Alpha Journals", "vendorName": "Alpha Press", "requests": 5, "fullText": 4, "notFound": 1, "clickThroughs": 0, "azClickThroughs": 0},
			{"packageId": 0, "packageName": "", "vendorName": "", "requests": 3, "fullText": 0, "notFound": 3, "clickThroughs": 0, "azClickThroughs": 0}]}`, f.journals)},
		{"by=title&from=2024-01&to=2024-03", fmt.Sprintf(`{"by": "title", "from": "2024-01", "to": "2024-03", `+totals+`, "rows": [
			{"titleId": %d, "titleName": "Journal of Testing", "requests": 4, "fullText": 3, "notFound": 1, "clickThroughs": 0, "azClickThroughs": 0},
			{"titleId": 0, "titleName": "", "requests": 3, "fullText": 0, "notFound": 3, "clickThroughs": 0, "azClickThroughs": 0},
			{"titleId": %d, "titleName": "Annals of Software Quality", "requests": 1, "fullText": 1, "notFound": 0, "clickThroughs": 0, "azClickThroughs": 0}]}`, f.jot, f.asq)},
		// A click does not know its citing source.
		{"by=source&from=2024-01&to=2024-03", `{"by": "source", "from": "2024-01", "to": "2024-03", ` + totals + `, "rows": [
			{"source": "pubmed", "requests": 4, "fullText": 3, "notFound": 1},
			{"source": "", "requests": 2, "fullText": 0, "notFound": 2},
			{"source": "scholar", "requests": 2, "fullText": 1, "notFound": 1}]}`},
		{"by=package&from=" + string(f.month) + "&to=" + string(f.month), fmt.Sprintf(`{"by": "package", "from": %q, "to": %q,
			"totals": {"requests": 0, "fullText": 0, "notFound": 0, "clickThroughs": 2, "azClickThroughs": 1}, "rows": [
			{"packageId": %d, "packageName": "Alpha Journals", "vendorName": "Alpha Press", "requests": 0, "fullText": 0, "notFound": 0, "clickThroughs": 2, "azClickThroughs": 1}]}`,
			f.month, f.month, f.journals)},
	} {
		res, body := f.get(t, "statistics?"+tc.query)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Errorf("%s: %d %s %s", tc.query, res.StatusCode, res.Header.Get("Content-Type"), body)
			continue
		}
		sameJSON(t, tc.query, body, tc.want)
	}
}

// TestStatisticsDefaultRange: without from and to, the last 12 months up
// to the current one, each with a row.
func TestStatisticsDefaultRange(t *testing.T) {
	f := newFixture(t)
	res, body := f.get(t, "statistics")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var got struct {
		By, From, To string
		Rows         []struct {
			Month           string
			ClickThroughs   int64
			AZClickThroughs int64
		}
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if kb.MonthOf(time.Now()) != f.month {
		t.Skip("the month changed during the test")
	}
	if got.By != "month" || got.To != string(f.month) || got.From != string(f.month.AddMonths(-11)) || len(got.Rows) != 12 {
		t.Fatalf("by %s from %s to %s, %d rows; want by month the 12 months to %s", got.By, got.From, got.To, len(got.Rows), f.month)
	}
	if last := got.Rows[11]; last.Month != string(f.month) || last.ClickThroughs != 2 || last.AZClickThroughs != 1 {
		t.Errorf("the current month's row: %+v, want 2 click-throughs from the resolver and 1 from the A–Z page", last)
	}
}

func TestStatisticsCSV(t *testing.T) {
	f := newFixture(t)
	res, body := f.get(t, "statistics?by=title&from=2024-01&to=2024-03&format=CSV")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	if ct, cd := res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"); ct != "text/csv; charset=utf-8" ||
		cd != `attachment; filename="kbserver_c1_resolver-statistics-title_2024-01_2024-03.csv"` {
		t.Errorf("Content-Type %q, Content-Disposition %q", ct, cd)
	}
	want := "title_id,title_name,requests,full_text,not_found,resolver_click_throughs,az_click_throughs\r\n" +
		fmt.Sprintf("%d,Journal of Testing,4,3,1,0,0\r\n", f.jot) +
		"0,,3,0,3,0,0\r\n" +
		fmt.Sprintf("%d,Annals of Software Quality,1,1,0,0,0\r\n", f.asq)
	if body != want {
		t.Errorf("CSV by title:\n%s\nwant:\n%s", body, want)
	}
	_, body = f.get(t, "statistics?by=source&from=2024-01&to=2024-03&format=csv")
	if want := "source,requests,full_text,not_found\r\npubmed,4,3,1\r\n,2,0,2\r\nscholar,2,1,1\r\n"; body != want {
		t.Errorf("CSV by source:\n%s\nwant:\n%s", body, want)
	}
	_, body = f.get(t, "statistics?from=2024-03&to=2024-04&format=csv")
	if want := "month,requests,full_text,not_found,resolver_click_throughs,az_click_throughs\r\n2024-03,1,0,1,0,0\r\n2024-04,0,0,0,0,0\r\n"; body != want {
		t.Errorf("CSV by month:\n%s\nwant:\n%s", body, want)
	}
}

func TestUnmet(t *testing.T) {
	f := newFixture(t)
	const range1to3 = `"from": "2024-01", "to": "2024-03", "totalResults": 3`
	for _, tc := range []struct {
		query, want string
	}{
		{"from=2024-01&to=2024-03", `{` + range1to3 + `, "unmet": [
			{"title": "Journal of Nothing", "identifier": "1234-5679", "requests": 2, "lastMonth": "2024-02"},
			{"title": "=HYPERLINK(\"x\")", "identifier": "", "requests": 1, "lastMonth": "2024-03"},
			{"title": "Journal of Testing", "identifier": "0317-8471", "requests": 1, "lastMonth": "2024-01"}]}`},
		{"from=2024-01&to=2024-03&count=2&page=2", `{` + range1to3 + `, "unmet": [
			{"title": "Journal of Testing", "identifier": "0317-8471", "requests": 1, "lastMonth": "2024-01"}]}`},
		{"from=2024-01&to=2024-03&count=2&page=3", `{` + range1to3 + `, "unmet": []}`},
		{"from=2024-03&to=2024-05", `{"from": "2024-03", "to": "2024-05", "totalResults": 1, "unmet": [
			{"title": "=HYPERLINK(\"x\")", "identifier": "", "requests": 1, "lastMonth": "2024-03"}]}`},
	} {
		res, body := f.get(t, "unmet?"+tc.query)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d %s", tc.query, res.StatusCode, body)
			continue
		}
		sameJSON(t, tc.query, body, tc.want)
	}

	// The CSV file has every entry; a formula is shown as text.
	res, body := f.get(t, "unmet?from=2024-01&to=2024-03&format=csv")
	if cd := res.Header.Get("Content-Disposition"); res.StatusCode != http.StatusOK || cd != `attachment; filename="kbserver_c1_resolver-unmet_2024-01_2024-03.csv"` {
		t.Errorf("%d, Content-Disposition %q", res.StatusCode, cd)
	}
	want := "title,identifier,requests,last_month\r\n" +
		"Journal of Nothing,1234-5679,2,2024-02\r\n" +
		`"'=HYPERLINK(""x"")",,1,2024-03` + "\r\n" +
		"Journal of Testing,0317-8471,1,2024-01\r\n"
	if body != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", body, want)
	}
	if _, body := f.get(t, "unmet?from=2024-01&to=2024-03&format=csv&count=1&page=2"); body != "title,identifier,requests,last_month\r\n"+`"'=HYPERLINK(""x"")",,1,2024-03`+"\r\n" {
		t.Errorf("CSV of page 2 of 1 each:\n%s", body)
	}
}

// TestBadParameters: a bad parameter is a 400 naming it and what it
// accepts, in the holdings service's error array.
func TestBadParameters(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		path, message string
	}{
		{"statistics?by=vendor", `Parameter by has an invalid value "vendor": allowed values are month, package, title, source.`},
		{"statistics?from=2024-13", `Parameter from must be a month written yyyy-mm, such as 2024-05 (got "2024-13").`},
		{"statistics?to=May", `Parameter to must be a month written yyyy-mm, such as 2024-05 (got "May").`},
		{"statistics?from=2024-05&to=2024-04", `Parameter from (2024-05) must not be after parameter to (2024-04).`},
		{"statistics?from=2000-01&to=2024-04", `Parameters from and to span 292 months; at most 120 are allowed.`},
		{"statistics?format=xml", `Parameter format has an invalid value "xml": allowed values are json, csv.`},
		{"unmet?format=tsv", `Parameter format has an invalid value "tsv": allowed values are json, csv.`},
		{"unmet?count=0", `Parameter count is outside the range 1-100 (got "0").`},
		{"unmet?count=101", `Parameter count is outside the range 1-100 (got "101").`},
		{"unmet?page=0", `Parameter page must be a page number from 1 to 1,000,000 (got "0").`},
		{"unmet?page=x", `Parameter page must be a page number from 1 to 1,000,000 (got "x").`},
		{"unmet?format=csv&page=2", `Parameter page needs the parameter count: the CSV file without count has every entry.`},
		{"unmet?from=2024-1", `Parameter from must be a month written yyyy-mm, such as 2024-05 (got "2024-1").`},
	} {
		res, body := f.get(t, tc.path)
		var errs []struct {
			Code    int
			Message string
		}
		if res.StatusCode != http.StatusBadRequest || json.Unmarshal([]byte(body), &errs) != nil || len(errs) != 1 ||
			errs[0].Message != tc.message || errs[0].Code != 1006 {
			t.Errorf("%s: %d %s\nwant 400 with %q", tc.path, res.StatusCode, body, tc.message)
		}
	}
}

// TestKeys: the routes need the key of the customer in the path.
func TestKeys(t *testing.T) {
	f := newFixture(t)
	for _, path := range []string{"statistics", "unmet", "statistics?format=csv"} {
		for _, tc := range []struct {
			key    string
			status int
		}{{"", http.StatusUnauthorized}, {"not-a-key", http.StatusUnauthorized}, {"key-c2", http.StatusForbidden}} {
			res, body := apitest.Do(t, http.DefaultClient, http.MethodGet, f.url+"/rm/rmaccounts/c1/resolver/"+path, nil, "x-api-key", tc.key)
			if res.StatusCode != tc.status || strings.Contains(string(body), "Journal") {
				t.Errorf("%s with key %q: %d %s; want %d", path, tc.key, res.StatusCode, body, tc.status)
			}
		}
	}
	// c2 sees its own.
	res, body := apitest.Do(t, http.DefaultClient, http.MethodGet, f.url+"/rm/rmaccounts/c2/resolver/statistics?from=2024-01&to=2024-01", nil, "x-api-key", "key-c2")
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), `"totals":{"requests":5,"fullText":5,`) {
		t.Errorf("c2: %d %s", res.StatusCode, body)
	}
}
