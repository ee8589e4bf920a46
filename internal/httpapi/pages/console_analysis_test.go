package pages_test

import (
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// analysisFixture is a real server over a real store with storetest's
// fixture: Alpha Journals (Journal of Testing, covered 1990–1999 and
// from 2005; Annals of Software Quality; Zebra Studies) and Beta Complete
// (Journal of Testing from 1995; The Weekly Newsletter; Learning Go),
// which share Journal of Testing with other coverage; customer c1 signs
// in with key-c1, and c2 has a custom package, theirs.
type analysisFixture struct {
	*fixture
	fx     storetest.Fixture
	theirs int64
}

func newAnalysisFixture(t *testing.T) *analysisFixture {
	t.Helper()
	ctx := t.Context()
	st := storetest.Searched(ctx, testdb.Open(t))
	fx := storetest.LoadFixture(t, st)
	c2, err := st.Customer(ctx, "c2")
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := st.CreateCustomPackage(ctx, "c2", c2.VendorID, kb.CustomPackage{Name: "Theirs", ContentType: kb.ContentEJournal})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.NewServer(storetest.SearchOf(ctx, st), httpapi.Deps{Store: storetest.Raw(st)}))
	t.Cleanup(srv.Close)
	return &analysisFixture{fixture: &fixture{srv: srv, store: st}, fx: fx, theirs: theirs}
}

// selectBoth selects Alpha Journals and Beta Complete for c1.
func (f *analysisFixture) selectBoth(t *testing.T) {
	t.Helper()
	for _, p := range [][2]int64{{f.fx.AlphaVendor, f.fx.AlphaJournals}, {f.fx.BetaVendor, f.fx.BetaFull}} {
		if err := f.store.UpdatePackage(t.Context(), "c1", p[0], p[1], kb.PackageUpdate{Selected: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// spaces collapses the white space of a page, for its table rows.
var spaces = regexp.MustCompile(`\s+`)

// contains fails the test for each of want the page lacks.
func contains(t *testing.T, what, body string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("%s: the page lacks %q", what, w)
		}
	}
}

// TestConsoleAnalysis walks the console's collection analysis over the
// fixture: the comparison of Alpha Journals and Beta Complete (counts,
// chart, lists, CSV), Alpha Journals against the holdings once c1
// selects Beta Complete, the duplicates and the use once it selects both
// and clicks, and the bad input: too few or too many packages, a
// malformed id, another customer's package.
func TestConsoleAnalysis(t *testing.T) {
	f := newAnalysisFixture(t)
	cookie, _ := f.signIn(t, "key-c1")
	aj, bc := f.fx.AlphaJournals, f.fx.BetaFull
	ids := fmt.Sprintf("%d,%d", aj, bc)

	if body := f.mustGet(t, cookie, "/console/", 200); !strings.Contains(body, `<a href="/console/analysis">Collection analysis</a>`) {
		t.Error("the console's menu does not link the collection analysis")
	}
	body := f.mustGet(t, cookie, "/console/analysis", 200)
	contains(t, "the empty form", body, `<form class="pick" method="get" action="/console/analysis">`, `name="packageids"`, "No package is selected.")
	if strings.Contains(body, `id="overlap-counts"`) {
		t.Error("the form alone shows counts")
	}

	// The comparison: 3 titles each, 2 unique each, Journal of Testing
	// shared with other coverage (partial).
	body = spaces.ReplaceAllString(f.mustGet(t, cookie, "/console/analysis?packageids="+strings.ReplaceAll(ids, ",", "%2C+"), 200), " ")
	unique := func(id int64) string {
		return fmt.Sprintf(`/console/analysis/titles?list=unique%%3A%d&amp;packageids=%d%%2C%d`, id, aj, bc)
	}
	contains(t, "the comparison", body,
		fmt.Sprintf(`<th scope="row"><a href="/console/packages/%d/%d">Alpha Journals</a></th><td>3</td><td><a href="%s">2</a></td><td>1</td><td>0</td><td>1</td></tr>`, f.fx.AlphaVendor, aj, unique(aj)),
		fmt.Sprintf(`<th scope="row"><a href="/console/packages/%d/%d">Beta Complete</a></th><td>3</td><td><a href="%s">2</a></td><td>1</td><td>0</td><td>1</td></tr>`, f.fx.BetaVendor, bc, unique(bc)),
		fmt.Sprintf(`<a href="/console/analysis/titles?list=shared&amp;packageids=%d%%2C%d">Shared by all</a> (1), of which 0 with the same coverage`, aj, bc),
		fmt.Sprintf(`<a href="/console/analysis/titles?list=partial&amp;packageids=%d%%2C%d">Shared by all, with other coverage</a> (1)`, aj, bc),
		`<svg class="chart"`, `<span class="swatch chart-unique"></span>Unique`, "<title>Alpha Journals: 3</title>", "<title>Unique: 2</title>",
		"<title>Shared by all, other coverage: 1</title>", fmt.Sprintf(`value="%d, %d"`, aj, bc))
	if n := strings.Count(body, `<rect class="chart-unique"`); n != 2 {
		t.Errorf("the chart has %d unique bars, want 2", n)
	}
	if n := strings.Count(body, `<rect class="chart-partial"`); n != 2 || strings.Contains(body, `<rect class="chart-same"`) || strings.Contains(body, "In some others") {
		t.Errorf("the chart has %d partial bars (want 2) and no same-coverage one, no column of some others", n)
	}

	// The lists, a page each, and the CSV file.
	body = spaces.ReplaceAllString(f.mustGet(t, cookie, fmt.Sprintf("/console/analysis/titles?packageids=%s&list=unique:%d", ids, bc), 200), " ")
	contains(t, "unique to Beta Complete", body, "Only in Beta Complete (2)", "The Weekly Newsletter", "Learning Go",
		`<th scope="col">Alpha Journals</th><th scope="col">Beta Complete</th>`, "not COUNTER usage", "Back to the comparison",
		fmt.Sprintf(`href="/console/analysis/titles.csv?list=unique%%3A%d&amp;packageids=%d%%2C%d" download>Download all 2 as CSV</a>`, bc, aj, bc))
	if strings.Contains(body, "Journal of Testing") || strings.Contains(body, "Zebra Studies") {
		t.Error("the unique titles of Beta Complete list a title of Alpha Journals")
	}
	body = spaces.ReplaceAllString(f.mustGet(t, cookie, fmt.Sprintf("/console/analysis/titles?packageids=%s&list=partial", ids), 200), " ")
	contains(t, "partial", body, "In all 2 packages, with other coverage (1)", "Journal of Testing", "From 1995 to present. <span class=\"note\">(not selected)</span><br><span class=\"clicks\">0 clicks</span>",
		"From 1990 to 1999; from 2005 to present.", "Download it as CSV")
	status, h, csv := f.get(t, fmt.Sprintf("/console/analysis/titles.csv?packageids=%s&list=shared", ids), "Cookie", cookie)
	lines := strings.Split(strings.TrimSuffix(csv, "\r\n"), "\r\n")
	if status != 200 || h.Get("Content-Type") != "text/csv; charset=utf-8" ||
		h.Get("Content-Disposition") != fmt.Sprintf(`attachment; filename="kbserver_c1_overlap_%d-%d_shared.csv"`, aj, bc) ||
		len(lines) != 4 || !strings.HasPrefix(lines[0], "title_id,title_name,publisher_name,package_id") || !strings.Contains(csv, ",Beta Complete,1995-01-01,,,0") {
		t.Errorf("the shared titles as CSV: %d %v\n%s", status, h, csv)
	}

	// Alpha Journals against the holdings, once Beta Complete is
	// selected: Journal of Testing held (not fully: Alpha's 1990–1995 is
	// not in Beta's), two titles it would add.
	if err := f.store.UpdatePackage(t.Context(), "c1", f.fx.BetaVendor, bc, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	body = spaces.ReplaceAllString(f.mustGet(t, cookie, fmt.Sprintf("/console/analysis/against?packageid=%d", aj), 200), " ")
	against := func(list string) string {
		return fmt.Sprintf(`/console/analysis/titles?against=holdings&amp;list=%s&amp;packageids=%d`, list, aj)
	}
	contains(t, "against", body, "Alpha Journals</a> against the holdings", `<th scope="row">Titles</th><td>3</td>`,
		fmt.Sprintf(`<a href="%s">Held elsewhere</a></th><td>1</td>`, against("held")),
		fmt.Sprintf(`<a href="%s">Held fully elsewhere</a></th><td>0</td>`, against("heldfully")),
		`<th scope="row">Held with less coverage</th><td>1</td>`,
		fmt.Sprintf(`<a href="%s">Not held: what it would add</a></th><td>2</td>`, against("notheld")),
		fmt.Sprintf(`<option value="%d">Beta Aggregator / Beta Complete`, bc), `<svg class="chart"`)
	body = spaces.ReplaceAllString(f.mustGet(t, cookie, fmt.Sprintf("/console/analysis/titles?packageids=%d&against=holdings&list=notheld", aj), 200), " ")
	contains(t, "not held", body, "Alpha Journals: what it would add (2)", "Annals of Software Quality", "Zebra Studies",
		`<th scope="col">Alpha Journals</th><th scope="col">Selected in other packages</th>`, "Back to Alpha Journals against the holdings")

	// The duplicates, once both are selected, with Journal of Testing's
	// clicks through Alpha Journals (and one of c2's, not c1's).
	f.selectBoth(t)
	jot := titleID(t, f.store, "c1", f.fx.AlphaVendor, aj, "Journal of Testing")
	for _, c := range []struct {
		cust string
		via  kb.LinkVia
	}{{"c1", kb.ViaAZ}, {"c1", kb.ViaResolver}, {"c2", kb.ViaAZ}} {
		if err := f.store.CountLinkOut(t.Context(), c.cust, kb.ResourceKey{PackageID: aj, TitleID: jot}, c.via); err != nil {
			t.Fatal(err)
		}
	}
	body = spaces.ReplaceAllString(f.mustGet(t, cookie, "/console/analysis/duplicates", 200), " ")
	contains(t, "duplicates", body, "Titles selected in two packages or more (1)", "Journal of Testing", `<th scope="col">Selected in</th>`,
		"<strong>Alpha Journals</strong>: ", `<span class="clicks">2 clicks</span>`, "<strong>Beta Complete</strong>: From 1995 to present.<br><span class=\"clicks\">0 clicks</span>",
		"not COUNTER usage", `href="/console/analysis/duplicates.csv" download>Download it as CSV</a>`, `aria-current="page">My duplicates</a>`)
	status, h, csv = f.get(t, "/console/analysis/duplicates.csv", "Cookie", cookie)
	lines = strings.Split(strings.TrimSuffix(csv, "\r\n"), "\r\n")
	if status != 200 || h.Get("Content-Type") != "text/csv; charset=utf-8" || h.Get("Content-Disposition") != `attachment; filename="kbserver_c1_duplicates.csv"` ||
		len(lines) != 4 || !strings.HasSuffix(lines[0], ",click_throughs_12_months") || !strings.Contains(csv, ",Alpha Journals,1990-01-01,1999-12-31,,2\r\n") {
		t.Errorf("the duplicates as CSV: %d %v\n%s", status, h, csv)
	}

	// The form now offers both, ticked as they were sent.
	body = f.mustGet(t, cookie, fmt.Sprintf("/console/analysis?packageid=%d&packageid=%d", aj, bc), 200)
	contains(t, "the ticked form", body, fmt.Sprintf(`<input type="checkbox" id="pkg-%d" name="packageid" value="%d" checked>`, aj, aj),
		fmt.Sprintf(`<input type="checkbox" id="pkg-%d" name="packageid" value="%d" checked>`, bc, bc), `id="overlap-counts"`, `value=""`)
	if body := f.mustGet(t, cookie, fmt.Sprintf("/console/packages/%d/%d", f.fx.AlphaVendor, aj), 200); !strings.Contains(body, fmt.Sprintf(`href="/console/analysis/against?packageid=%d"`, aj)) ||
		!strings.Contains(body, fmt.Sprintf(`href="/console/analysis?with=%d"`, aj)) {
		t.Error("a package's page does not link its analyses")
	}
	body = f.mustGet(t, cookie, fmt.Sprintf("/console/analysis?with=%d", aj), 200)
	if !strings.Contains(body, fmt.Sprintf(`value="%d" checked>`, aj)) || strings.Contains(body, `id="overlap-counts"`) {
		t.Error("with does not open the form with the package chosen, or counts")
	}

	// Use: this month's two clicks, by month and by package.
	month := time.Now().UTC().Format("Jan 2006")
	body = spaces.ReplaceAllString(f.mustGet(t, cookie, "/console/analysis/use", 200), " ")
	contains(t, "use", body, "not COUNTER usage", `<svg class="chart"`, "<title>"+month+": 2</title>", `<rect class="chart-az"`, `<rect class="chart-resolver"`,
		`<th scope="row">`+month+`</th><td>1</td><td>1</td><td>2</td>`, `<th scope="row">Together</th><td>1</td><td>1</td><td>2</td>`,
		`<th scope="row">Alpha Journals <span class="note">(Alpha Press)</span></th><td>1</td><td>1</td><td>2</td>`)
	if n := strings.Count(body, `<g class="bar">`); n != kb.UseMonths {
		t.Errorf("the use chart has %d bars, want %d months", n, kb.UseMonths)
	}

	// Bad input: error pages with the status and what is wrong.
	for _, c := range []struct {
		path   string
		status int
		says   string
	}{
		{fmt.Sprintf("/console/analysis?packageids=%d", aj), 400, "Choose 2 to 4 packages to compare (you chose 1)."},
		{"/console/analysis?packageids=1,2,3,4,5", 400, "Choose 2 to 4 packages to compare (you chose 5)."},
		{fmt.Sprintf("/console/analysis?packageids=%d,x", aj), 400, "invalid id"},
		{fmt.Sprintf("/console/analysis?packageids=%d,%d", aj, f.theirs), 404, "Package"},
		{fmt.Sprintf("/console/analysis?packageids=%d,999999", aj), 404, "Package"},
		{fmt.Sprintf("/console/analysis/against?packageid=%d", f.theirs), 404, "Package"},
		{fmt.Sprintf("/console/analysis/against?packageid=%d&packageids=%d", aj, bc), 400, "Choose one package"},
		{fmt.Sprintf("/console/analysis/titles?packageids=%d,%d&list=shared", aj, f.theirs), 404, "Package"},
		{fmt.Sprintf("/console/analysis/titles.csv?packageids=%d,%d&list=shared", aj, f.theirs), 404, "Package"},
		{"/console/analysis/titles?packageids=" + ids, 400, "Parameter list is missing"},
		{"/console/analysis/titles?packageids=" + ids + "&list=everything", 400, "Parameter list has an invalid value"},
		{"/console/analysis/duplicates?page=0", 400, "Parameter page"},
	} {
		status, h, body := f.get(t, c.path, "Cookie", cookie)
		if status != c.status || !strings.Contains(body, c.says) || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d %q, want an error page %d saying %q:\n%s", c.path, status, h.Get("Content-Type"), c.status, c.says, body)
		}
	}
	for _, path := range []string{"/console/analysis", "/console/analysis/duplicates.csv", "/console/analysis/use"} {
		if status, _, body := f.get(t, path); status != 401 || !strings.Contains(body, `name="apikey"`) {
			t.Errorf("%s without a session: %d, want the sign-in form", path, status)
		}
	}
}

// titleID returns the id of the title named name in a package.
func titleID(t *testing.T, st kb.Store, custID string, vendorID, packageID int64, name string) int64 {
	t.Helper()
	l, err := st.Titles(t.Context(), custID, kb.TitleQuery{VendorID: vendorID, PackageID: packageID, Page: kb.Page{Count: 100, Number: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range l.Titles {
		if ti.Name == name {
			return ti.ID
		}
	}
	t.Fatalf("no title %q in package %d", name, packageID)
	return 0
}
