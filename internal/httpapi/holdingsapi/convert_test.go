package holdingsapi

import (
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	// Encode as web.WriteJSON does: without HTML escaping.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestEmptyTitleHasArraysAndNulls(t *testing.T) {
	got := mustJSON(t, toTitle(kb.Title{ID: 7, Name: "T", PubType: kb.ResourceBookSeries}, proxyMasks{}))
	want := `{"titleId":7,"titleName":"T","publisherName":null,"identifiersList":[],"subjectsList":[],` +
		`"isTitleCustom":false,"pubType":"BookSeries","customerResourcesList":[],"description":null,` +
		`"edition":null,"isPeerReviewed":false,"contributorsList":[],"alternateTitleList":[]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// toResource converts one resource as the details carry it, with the
// customer's proxies masks.
func toResource(r kb.Resource, masks proxyMasks) resourceWire {
	a := wireAlloc{masks: masks}
	return a.resource(r)
}

func TestEmptyResource(t *testing.T) {
	got := mustJSON(t, toResource(kb.Resource{TitleID: 1, PackageID: 2, PackageType: kb.PackageCustom,
		Proxy: kb.ProxyRef{ID: kb.NoProxyID, Inherited: true}}, proxyMasks{}))
	want := `{"titleId":1,"packageId":2,"packageName":"","packageType":"Custom","proxy":{"id":"<n>","inherited":true,"proxiedUrl":null},` +
		`"isPackageCustom":false,"vendorId":0,"vendorName":"","locationId":0,"isSelected":false,"isTokenNeeded":false,` +
		`"visibilityData":{"isHidden":false,"reason":""},"managedCoverageList":[],"customCoverageList":[],` +
		`"coverageStatement":null,"managedEmbargoPeriod":{"embargoUnit":null,"embargoValue":0},` +
		`"customEmbargoPeriod":{"embargoUnit":null,"embargoValue":0},"url":null,"userDefinedField1":null,` +
		`"userDefinedField2":null,"userDefinedField3":null,"userDefinedField4":null,"userDefinedField5":null}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestFullResource(t *testing.T) {
	r := toResource(kb.Resource{
		ManagedCoverage:   []kb.Coverage{{Begin: "2001-01-01", End: ""}},
		CustomCoverage:    []kb.Coverage{{Begin: "2005-01-01", End: "2006-12-31"}},
		CoverageStatement: "Issues after 2001",
		ManagedEmbargo:    kb.Embargo{Unit: kb.EmbargoMonths, Value: 6},
		CustomEmbargo:     kb.Embargo{Unit: kb.EmbargoYears, Value: 0}, // value 0: no embargo
		URL:               "http://example.org/?a=1&b=2",
		UserDefined:       [5]string{"one", "", "", "", "five"},
		Proxy:             kb.ProxyRef{ID: "EZ", Inherited: true},
	}, proxyMasks{"EZ": "https://ez.example/login?url={targetURL}"})
	want := resourceWire{
		Proxy:                &proxiedInfo{ID: "EZ", Inherited: true, ProxiedURL: ptr("https://ez.example/login?url=http://example.org/?a=1&b=2")},
		ManagedCoverageList:  []coverageDates{{BeginCoverage: "2001-01-01"}},
		CustomCoverageList:   []coverageDates{{BeginCoverage: "2005-01-01", EndCoverage: "2006-12-31"}},
		CoverageStatement:    ptr("Issues after 2001"),
		ManagedEmbargoPeriod: embargoPeriod{EmbargoUnit: ptr("Months"), EmbargoValue: 6},
		URL:                  ptr("http://example.org/?a=1&b=2"),
		UserDefinedField1:    ptr("one"),
		UserDefinedField5:    ptr("five"),
		PackageType:          "Selectable",
	}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("resource (-want +got):\n%s", diff)
	}
}

func ptr(s string) *string { return &s }

func TestPackageAndVendorForms(t *testing.T) {
	p := kb.Package{ID: 3, Name: "P", ContentType: kb.ContentEJournal, PackageType: kb.PackageVariable,
		Token: &kb.Token{FactName: "[[site]]", Prompt: "/x/", HelpText: "<b>help</b>"}}
	got := mustJSON(t, toPackageDetail(p))
	for _, part := range []string{`"contentType":"EJournal"`, `"packageType":"Variable"`,
		`"packageToken":{"factName":"[[site]]","prompt":"/x/","helpText":"<b>help</b>","value":null}`,
		`"allowOperatorToAddTitles":false`} {
		if !strings.Contains(got, part) {
			t.Errorf("package detail %s lacks %s", got, part)
		}
	}
	if got := mustJSON(t, toPackageList(kb.PackageList{})); got != `{"totalResults":0,"packagesList":[]}` {
		t.Errorf("empty package list = %s", got)
	}
	if got := mustJSON(t, toVendorList(kb.VendorList{})); got != `{"totalResults":0,"vendors":[]}` {
		t.Errorf("empty vendor list = %s", got)
	}
	if got := mustJSON(t, toTitleList(kb.TitleList{}, titleListForm)); got != `{"totalResults":0,"titles":[]}` {
		t.Errorf("empty title list = %s", got)
	}
	if got := mustJSON(t, toProxyList(nil)); got != `[]` {
		t.Errorf("empty proxy list = %s", got)
	}
	v := mustJSON(t, toVendorDetail(kb.Vendor{ID: 9, Name: "V", Proxy: kb.ProxyRef{ID: "EZ"}}))
	if want := `{"vendorId":9,"vendorName":"V","isCustomer":false,"packagesTotal":0,"packagesSelected":0,"proxy":{"id":"EZ","inherited":false,"proxiedUrl":null},"vendorToken":null}`; v != want {
		t.Errorf("vendor detail = %s, want %s", v, want)
	}
	tokened := kb.VendorList{Total: 1, Vendors: []kb.Vendor{{ID: 9, Name: "V", Token: &kb.Token{FactName: "[[site]]", Prompt: "p"}}}}
	if got, want := mustJSON(t, toVendorList(tokened)), `{"totalResults":1,"vendors":[{"vendorId":9,"vendorName":"V","isCustomer":false,"packagesTotal":0,"packagesSelected":0,"vendorToken":"[[site]]"}]}`; got != want {
		t.Errorf("vendor list with a token = %s, want %s", got, want)
	}
	root := mustJSON(t, toRoot(kb.RootSettings{ProxyID: "EZ", VendorID: 42}))
	if !strings.HasPrefix(root, `{"proxy":{"id":"EZ"},"vendorId":"42","ftfTokens":[],"labels":[`) {
		t.Errorf("root = %s", root)
	}
}

// TestTitleListForms checks the keys of the two list forms: the title
// list carries contributors, a package's title list alternate titles,
// and neither the details' description, edition, peer review flag or
// the resources' proxies.
func TestTitleListForms(t *testing.T) {
	l := kb.TitleList{Total: 1, Titles: []kb.Title{{ID: 1, Name: "T", Description: "d", Edition: "2",
		Resources: []kb.Resource{{TitleID: 1, PackageID: 2, Proxy: kb.ProxyRef{ID: "EZ"}, URL: "http://x.example/"}}}}}
	for _, tt := range []struct {
		form       int
		want, gone []string
	}{
		{titleListForm, []string{`"contributorsList":[]`}, []string{`"alternateTitleList"`}},
		{packageTitleListForm, []string{`"alternateTitleList":[]`}, []string{`"contributorsList"`}},
	} {
		got := mustJSON(t, toTitleList(l, tt.form))
		for _, k := range tt.want {
			if !strings.Contains(got, k) {
				t.Errorf("form %d: %s lacks %s", tt.form, got, k)
			}
		}
		for _, k := range append(tt.gone, `"description"`, `"edition"`, `"isPeerReviewed"`, `"proxy"`) {
			if strings.Contains(got, k) {
				t.Errorf("form %d: %s has %s", tt.form, got, k)
			}
		}
	}
}

func TestQueryParsing(t *testing.T) {
	query := func(s string) web.Query { return web.NewQuery(httptest.NewRequest("GET", "/?"+s, nil)) }

	tq, err := titleQuery(query(""))
	if err != nil {
		t.Fatal(err)
	}
	wantT := kb.TitleQuery{Field: kb.FieldTitleName, Type: kb.SearchContains, Selection: kb.SelectionAll,
		ResourceType: kb.ResourceAll, OrderBy: kb.OrderDefault, Page: kb.Page{Count: 25, Number: 1}}
	if diff := cmp.Diff(wantT, tq); diff != "" {
		t.Errorf("default title query (-want +got):\n%s", diff)
	}

	tq, err = titleQuery(query("search=%20acta%20&searchfield=2&searchtype=BeginsWith&selection=3&resourcetype=BOOKSERIES&orderby=titlename&count=10&offset=3&bogus=1"))
	if err != nil {
		t.Fatal(err)
	}
	wantT = kb.TitleQuery{Search: "acta", Field: kb.FieldISXN, Type: kb.SearchBeginsWith, Selection: kb.SelectionOrderedThroughOperator,
		ResourceType: kb.ResourceBookSeries, OrderBy: kb.OrderName, Page: kb.Page{Count: 10, Number: 3}}
	if diff := cmp.Diff(wantT, tq); diff != "" {
		t.Errorf("title query (-want +got):\n%s", diff)
	}

	pq, err := packageQuery(query("search&selection=&contenttype=ejournal&orderby=0"))
	if err != nil {
		t.Fatal(err)
	}
	wantP := kb.PackageQuery{ContentType: kb.ContentEJournal, OrderBy: kb.OrderRelevance, Page: kb.Page{Count: 25, Number: 1}}
	if diff := cmp.Diff(wantP, pq); diff != "" {
		t.Errorf("package query (-want +got):\n%s", diff)
	}

	vq, err := vendorQuery(query("search=ebsco&orderby=VendorName&count=100"))
	if err != nil {
		t.Fatal(err)
	}
	wantV := kb.VendorQuery{Search: "ebsco", OrderBy: kb.OrderName, Page: kb.Page{Count: 100, Number: 1}}
	if diff := cmp.Diff(wantV, vq); diff != "" {
		t.Errorf("vendor query (-want +got):\n%s", diff)
	}

	bad := []struct {
		parse func(web.Query) error
		query string
		param string
	}{
		{func(q web.Query) error { _, err := titleQuery(q); return err }, "searchfield=author", "searchfield"},
		{func(q web.Query) error { _, err := titleQuery(q); return err }, "searchtype=fuzzy", "searchtype"},
		{func(q web.Query) error { _, err := titleQuery(q); return err }, "resourcetype=15", "resourcetype"},
		{func(q web.Query) error { _, err := titleQuery(q); return err }, "orderby=packagename", "orderby"},
		{func(q web.Query) error { _, err := packageQuery(q); return err }, "contenttype=video", "contenttype"},
		{func(q web.Query) error { _, err := packageQuery(q); return err }, "selection=some", "selection"},
		{func(q web.Query) error { _, err := packageQuery(q); return err }, "count=101", "count"},
		{func(q web.Query) error { _, err := vendorQuery(q); return err }, "offset=0", "offset"},
		{func(q web.Query) error { _, err := vendorQuery(q); return err }, "orderby=titlename", "orderby"},
	}
	for _, b := range bad {
		err := b.parse(query(b.query))
		if kb.ErrorCode(err) != kb.CodeInvalid || !strings.Contains(kb.ErrorMessage(err), "Parameter "+b.param) {
			t.Errorf("%s: error %v, want CodeInvalid naming %s", b.query, err, b.param)
		}
	}
}

func TestRoutesAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, rt := range Routes(nil, nil, web.RequireCustomerKey(web.KeyAuth{}), nil) {
		method, path, _ := strings.Cut(rt.Pattern, " ")
		inService := strings.HasPrefix(path, "/rm/rmaccounts/{custid}") || strings.HasPrefix(path, "/rm/rmaccounts/v2/{custid}/")
		if !inService || !slices.Contains([]string{"GET", "PUT", "POST", "DELETE"}, method) {
			t.Errorf("route %q is outside the holdings service", rt.Pattern)
		}
		if seen[rt.Pattern] {
			t.Errorf("route %q listed twice", rt.Pattern)
		}
		seen[rt.Pattern] = true
		if rt.Handler == nil {
			t.Errorf("route %q has no handler", rt.Pattern)
		}
	}
}
