package analysisapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestOverlapAPI asks for the overlap of storetest's fixture's Alpha
// Journals and Beta Complete (Journal of Testing shared, with other
// coverage), their lists, Alpha Journals against c1's holdings once c1
// selects Beta Complete, and every kind of bad input. Every exchange is
// checked against the API description.
func TestOverlapAPI(t *testing.T) {
	ctx := t.Context()
	st := storetest.Searched(ctx, testdb.Open(t))
	fx := storetest.LoadFixture(t, st)
	c2Vendor := must(st.Customer(ctx, "c2")).VendorID
	other, err := st.CreateCustomPackage(ctx, "c2", c2Vendor, kb.CustomPackage{Name: "Theirs", ContentType: kb.ContentEJournal})
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	url := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(ctx, st), httpapi.Deps{Store: storetest.Raw(st), Logger: logger})).URL
	get := func(query, key string) (int, string) {
		t.Helper()
		res, b := apitest.Do(t, http.DefaultClient, "GET", url+"/rm/rmaccounts/c1/overlap?"+query, nil, "x-api-key", key)
		return res.StatusCode, string(b)
	}
	same := func(what, got, want string) {
		t.Helper()
		var g, w any
		if err := json.Unmarshal([]byte(got), &g); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, got)
		}
		if err := json.Unmarshal([]byte(want), &w); err != nil {
			t.Fatalf("%s: the wanted JSON: %v", what, err)
		}
		if d := cmp.Diff(w, g); d != "" {
			t.Errorf("%s (-want +got):\n%s", what, d)
		}
	}
	aj, bc := fx.AlphaJournals, fx.BetaFull
	ids := fmt.Sprintf("packageids=%d,%d", aj, bc)
	status, body := get(ids, "key-c1")
	if status != 200 {
		t.Fatalf("overlap: %d %s", status, body)
	}
	same("overlap", body, fmt.Sprintf(`{"packages": [
		{"packageId": %d, "packageName": "Alpha Journals", "vendorId": %d, "titleCount": 3, "uniqueCount": 2},
		{"packageId": %d, "packageName": "Beta Complete", "vendorId": %d, "titleCount": 3, "uniqueCount": 2}],
		"sharedCount": 1, "sameCoverageCount": 0}`, aj, fx.AlphaVendor, bc, fx.BetaVendor))
	status, body = get(ids+"&list=shared", "key-c1")
	if status != 200 || !strings.Contains(body, `"totalResults":1`) || !strings.Contains(body, "Journal of Testing") ||
		strings.Count(body, `"packageId"`) != 2 {
		t.Errorf("shared: %d %s", status, body)
	}
	// The list as a CSV file: a line per resource and coverage range
	// (Alpha Journals covers Journal of Testing in two).
	res, b := apitest.Do(t, http.DefaultClient, "GET", url+"/rm/rmaccounts/c1/overlap?"+ids+"&list=shared&format=csv", nil, "x-api-key", "key-c1")
	lines := strings.Split(strings.TrimRight(string(b), "\r\n"), "\r\n")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		res.Header.Get("Content-Disposition") != fmt.Sprintf(`attachment; filename="kbserver_c1_overlap_%d-%d_shared.csv"`, aj, bc) ||
		len(lines) != 4 || !strings.HasPrefix(lines[0], "title_id,title_name") || strings.Count(string(b), "Journal of Testing") != 3 ||
		!strings.Contains(string(b), ",Beta Complete,1995-01-01,,,0") {
		t.Errorf("shared as CSV: %d %v %q", res.StatusCode, res.Header, lines)
	}
	status, body = get(ids+"&list=partial", "key-c1")
	if status != 200 || !strings.Contains(body, `"totalResults":1`) {
		t.Errorf("partial: %d %s", status, body)
	}
	// As KBART: Alpha Journals' rows of Journal of Testing (two ranges),
	// then with c1's custom coverage in their place (one range).
	kbartRows := func(what string) [][]string {
		t.Helper()
		res, b := apitest.Do(t, http.DefaultClient, "GET", url+"/rm/rmaccounts/c1/overlap?"+ids+"&list=shared&format=kbart", nil, "x-api-key", "key-c1")
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/tab-separated-values") ||
			!strings.HasSuffix(res.Header.Get("Content-Disposition"), `_shared.txt"`) || !strings.HasPrefix(lines[0], "publication_title\t") {
			t.Fatalf("%s: %d %v %q", what, res.StatusCode, res.Header, lines)
		}
		var rows [][]string
		for _, l := range lines[1:] {
			rows = append(rows, strings.Split(l, "\t"))
		}
		return rows
	}
	if rows := kbartRows("shared as KBART"); len(rows) != 2 || rows[0][0] != "Journal of Testing" || rows[0][3] != "1990-01-01" || rows[1][3] != "2005-01-01" {
		t.Errorf("shared as KBART: %q", rows)
	}
	jotID := func() int64 {
		l, err := st.Titles(ctx, "c1", kb.TitleQuery{VendorID: fx.AlphaVendor, PackageID: aj, Page: kb.Page{Count: 10, Number: 1}})
		if err != nil {
			t.Fatal(err)
		}
		for _, ti := range l.Titles {
			if ti.Name == "Journal of Testing" {
				return ti.ID
			}
		}
		t.Fatal("no Journal of Testing")
		return 0
	}()
	if err := st.UpdateResource(ctx, "c1", fx.AlphaVendor, aj, jotID, kb.ResourceUpdate{Selected: true, CustomCoverage: []kb.Coverage{{Begin: "2001-01-01"}}}); err != nil {
		t.Fatal(err)
	}
	if rows := kbartRows("shared as KBART, custom coverage"); len(rows) != 1 || rows[0][3] != "2001-01-01" || rows[0][6] != "" || rows[0][4] != "" {
		t.Errorf("shared as KBART with custom coverage: %q", rows)
	}
	if err := st.UpdateResource(ctx, "c1", fx.AlphaVendor, aj, jotID, kb.ResourceUpdate{Selected: true, CustomCoverage: []kb.Coverage{{Begin: "2001-01-01"}},
		CustomEmbargo: kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}}); err != nil {
		t.Fatal(err)
	}
	if rows := kbartRows("shared as KBART, custom embargo"); len(rows) != 1 || rows[0][3] != "2001-01-01" || rows[0][kbart.EmbargoInfo] != "P6M" {
		t.Errorf("shared as KBART with a custom embargo: %q", rows)
	}
	if err := st.UpdateResource(ctx, "c1", fx.AlphaVendor, aj, jotID, kb.ResourceUpdate{Selected: false}); err != nil {
		t.Fatal(err)
	}
	if status, body := get(ids+"&format=kbart", "key-c1"); status != 400 || !strings.Contains(body, "needs a list") {
		t.Errorf("format=kbart without a list: %d %s", status, body)
	}
	status, body = get(fmt.Sprintf("%s&list=unique:%d&count=1&offset=2", ids, bc), "key-c1")
	if status != 200 || !strings.Contains(body, `"totalResults":2`) || !strings.Contains(body, "The Weekly Newsletter") || strings.Contains(body, "Learning Go") {
		t.Errorf("unique to Beta Complete, page 2 of 1: %d %s", status, body)
	}

	if err := st.UpdatePackage(ctx, "c1", fx.BetaVendor, bc, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	status, body = get(fmt.Sprintf("packageids=%d&against=holdings", aj), "key-c1")
	if status != 200 {
		t.Fatalf("against: %d %s", status, body)
	}
	same("against", body, fmt.Sprintf(`{"package": {"packageId": %d, "packageName": "Alpha Journals", "vendorId": %d, "titleCount": 3},
		"heldCount": 1, "heldFullyCount": 0}`, aj, fx.AlphaVendor))
	status, body = get(fmt.Sprintf("packageids=%d&against=holdings&list=notheld", aj), "key-c1")
	if status != 200 || !strings.Contains(body, `"totalResults":2`) || !strings.Contains(body, "Annals of Software Quality") || !strings.Contains(body, "Zebra Studies") {
		t.Errorf("not held: %d %s", status, body)
	}

	// Titles held more than once: Journal of Testing, in both packages,
	// used through Alpha Journals: two clicks (the A–Z page, the
	// resolver), and one of c2's that c1 does not see.
	if err := st.UpdatePackage(ctx, "c1", fx.AlphaVendor, aj, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	l, err := st.Titles(ctx, "c1", kb.TitleQuery{VendorID: fx.AlphaVendor, PackageID: aj, Page: kb.Page{Count: 10, Number: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var jot int64
	for _, ti := range l.Titles {
		if ti.Name == "Journal of Testing" {
			jot = ti.ID
		}
	}
	for _, c := range []struct {
		cust string
		via  kb.LinkVia
	}{{"c1", kb.ViaAZ}, {"c1", kb.ViaResolver}, {"c2", kb.ViaAZ}} {
		if err := st.CountLinkOut(ctx, c.cust, kb.ResourceKey{PackageID: aj, TitleID: jot}, c.via); err != nil {
			t.Fatal(err)
		}
	}
	res, b = apitest.Do(t, http.DefaultClient, "GET", url+"/rm/rmaccounts/c1/duplicates", nil, "x-api-key", "key-c1")
	if res.StatusCode != 200 || !strings.Contains(string(b), `"totalResults":1`) || !strings.Contains(string(b), "Journal of Testing") ||
		strings.Count(string(b), `"isSelected":true`) != 2 || !strings.Contains(string(b), `"clickThroughs":2`) || !strings.Contains(string(b), `"clickThroughs":0`) {
		t.Errorf("duplicates: %d %s", res.StatusCode, b)
	}
	res, b = apitest.Do(t, http.DefaultClient, "GET", url+"/rm/rmaccounts/c1/duplicates?format=csv", nil, "x-api-key", "key-c1")
	lines = strings.Split(strings.TrimRight(string(b), "\r\n"), "\r\n")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" || len(lines) != 4 ||
		!strings.HasPrefix(lines[0], "title_id,title_name") || !strings.Contains(lines[1], "Journal of Testing") ||
		!strings.HasSuffix(lines[0], ",click_throughs_12_months") || !strings.HasSuffix(lines[1], ",2") {
		t.Errorf("duplicates as CSV: %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), lines)
	}
	if res, b := apitest.Do(t, http.DefaultClient, "GET", url+"/rm/rmaccounts/c1/duplicates?format=xml", nil, "x-api-key", "key-c1"); res.StatusCode != 400 {
		t.Errorf("format=xml: %d %s", res.StatusCode, b)
	}

	for _, c := range []struct {
		query  string
		status int
		words  string
	}{
		{"", 400, "packageids is missing"},
		{fmt.Sprintf("packageids=%d", aj), 400, "1 package"},
		{fmt.Sprintf("packageids=%d,x", aj), 400, "invalid id"},
		{fmt.Sprintf("packageids=%d,%d", aj, aj), 400, "twice"},
		{ids + "&list=everything", 400, "list"},
		{ids + "&against=nothing", 400, "against"},
		{ids + "&format=csv", 400, "format=csv needs a list"},
		{ids + "&list=shared&format=xml", 400, "format"},
		{ids + "&list=shared&count=0", 400, "count"},
		{fmt.Sprintf("packageids=%d,999999", aj), 404, "Package"},
		{fmt.Sprintf("packageids=%d,%d", aj, other), 404, "Package"},
	} {
		status, body := get(c.query, "key-c1")
		if status != c.status || !strings.Contains(body, c.words) {
			t.Errorf("%q: %d %s, want %d naming %q", c.query, status, body, c.status, c.words)
		}
	}
	if status, _ := get(ids, "key-c2"); status != 403 {
		t.Errorf("c1's overlap with c2's key: %d, want 403", status)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
