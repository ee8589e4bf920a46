package pfapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// pfFixture is a real server over a real store (of the test run's kind,
// package testdb) for the publication
// search service. Customer 1001 (profile 1001.main.az, guest; profile
// 1001.main.pw, password "pw") holds:
//
//	Care Press / Nursing Journals (EJournal), selected whole:
//	  The Journal of Nursing   journal, peer reviewed, TLI Nursing, ISSN 0317-8471
//	  Éclair Studies           journal, TLI Food
//	  Les Misérables Quarterly journal
//	  Der Spiegel der Medizin  journal, peer reviewed
//	  Die Hard Science         book
//	  123 Nursing Facts        book, BISAC "MEDICAL / Nursing / General"
//	  Hidden Nursing Gem       journal   (hidden by the customer)
//	  Deselected Nursing Digest journal  (deselected by the customer)
//	Care Press / Health Books (EBook), not selected:
//	  Nursing Handbook         book      (selected alone)
//	  The Journal of Nursing             (selected alone: a second resource)
//	  Unselected Nursing Atlas book
//	Other House / Secret Package (Print), selected and hidden:
//	  Secret Nursing Review    journal
//
// Customer 2002 selected everything; none of it is 1001's collection.
type pfFixture struct {
	srv    *httptest.Server
	store  kb.Store
	ids    map[string]int64 // title ids by name
	pkgs   map[string]int64 // package ids by name
	vendor int64            // Care Press
}

func newPFFixture(t *testing.T) *pfFixture {
	t.Helper()
	ctx := t.Context()
	st := storetest.Searched(t.Context(), testdb.Open(t))
	f := &pfFixture{store: st, ids: map[string]int64{}, pkgs: map[string]int64{}}
	for _, c := range []string{"1001", "2002"} {
		if _, err := st.AddCustomer(ctx, c, "Library "+c); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []struct {
		id, password string
		guest        bool
	}{{"az", "", true}, {"pw", "pw", false}} {
		prof := kb.Profile{ID: kb.ProfileID{CustomerID: "1001", GroupID: "main", ProfileID: p.id}, Guest: p.guest}
		if p.password != "" {
			var err error
			if prof.PasswordHash, err = kb.HashPassword(p.password); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.SaveProfile(ctx, prof); err != nil {
			t.Fatal(err)
		}
	}
	type title struct {
		name, issn, typ string
		peer            bool
		subjects        []kb.Subject
	}
	tli := func(s string) []kb.Subject { return []kb.Subject{{Type: "TLI", Name: s}} }
	imp := func(vendor, pkg string, ct kb.ContentType, ts []title) kb.ImportResult {
		res, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: vendor, PackageName: pkg, ContentType: ct},
			storetest.RowsOf(len(ts), func(i int) kb.ImportRow {
				tt := ts[i]
				var r kb.ImportRow
				r.Line = i + 1
				r.KBART[0], r.KBART[1], r.KBART[9], r.KBART[15] = tt.name, tt.issn, "https://care.example/"+strconv.Itoa(i+1)+"?site=[[site]]", vendor
				r.KBART[16] = "serial"
				r.PubType = kb.ResourceJournal
				if tt.typ == "book" {
					r.KBART[16], r.PubType = "monograph", kb.ResourceBook
				}
				r.PeerReviewed, r.Subjects = tt.peer, tt.subjects
				return r
			}))
		if err != nil {
			t.Fatal(err)
		}
		f.pkgs[pkg] = res.PackageID
		return res
	}
	journals := imp("Care Press", "Nursing Journals", kb.ContentEJournal, []title{
		{name: "The Journal of Nursing", issn: "0317-8471", peer: true, subjects: tli("Nursing")},
		{name: "Éclair Studies", subjects: tli("Food")},
		{name: "Les Misérables Quarterly"},
		{name: "Der Spiegel der Medizin", peer: true},
		{name: "Die Hard Science", typ: "book"},
		{name: "123 Nursing Facts", typ: "book", subjects: []kb.Subject{{Type: "BISAC", Name: "MEDICAL / Nursing / General"}}},
		{name: "Hidden Nursing Gem"},
		{name: "Deselected Nursing Digest"},
	})
	f.vendor = journals.VendorID
	books := imp("Care Press", "Health Books", kb.ContentEBook, []title{
		{name: "Nursing Handbook", typ: "book"},
		{name: "The Journal of Nursing", issn: "0317-8471", peer: true, subjects: tli("Nursing")},
		{name: "Unselected Nursing Atlas", typ: "book"},
	})
	secret := imp("Other House", "Secret Package", kb.ContentPrint, []title{{name: "Secret Nursing Review"}})
	all, err := st.Titles(ctx, "1001", kb.TitleQuery{Page: kb.Page{Count: 100, Number: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range all.Titles {
		f.ids[tt.Name] = tt.ID
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	yes := true
	must(st.SetPackageState(ctx, "1001", journals.PackageID, kb.PackageState{Selected: true}))
	must(st.SetResourceState(ctx, "1001", journals.PackageID, f.ids["Hidden Nursing Gem"], kb.ResourceState{Hidden: true}))
	no := false
	must(st.SetResourceState(ctx, "1001", journals.PackageID, f.ids["Deselected Nursing Digest"], kb.ResourceState{Selected: &no}))
	must(st.SetResourceState(ctx, "1001", books.PackageID, f.ids["Nursing Handbook"], kb.ResourceState{Selected: &yes}))
	must(st.SetResourceState(ctx, "1001", books.PackageID, f.ids["The Journal of Nursing"], kb.ResourceState{Selected: &yes}))
	must(st.SetPackageState(ctx, "1001", secret.PackageID, kb.PackageState{Selected: true, Hidden: true}))
	for _, p := range []int64{journals.PackageID, books.PackageID, secret.PackageID} {
		must(st.SetPackageState(ctx, "2002", p, kb.PackageState{Selected: true}))
	}
	// Customisations shown on records: a proxy, custom coverage, a
	// coverage statement, an embargo, user-defined fields (label 1 shown
	// on the finder, label 2 not) and a note.
	must(st.AddProxy(ctx, "1001", kb.Proxy{ID: "EZ", Name: "EZproxy", URLMask: "https://ez.example/login?url={targetURL}"}))
	must(st.UpdateRoot(ctx, "1001", kb.RootSettings{ProxyID: kb.NoProxyID, Labels: [5]kb.Label{
		{ID: 1, DisplayLabel: "Shelf", DisplayOnPublicationFinder: true},
		{ID: 2, DisplayLabel: "Staff only", DisplayOnFullTextFinder: true},
	}}))
	must(st.UpdateResource(ctx, "1001", journals.VendorID, journals.PackageID, f.ids["The Journal of Nursing"], kb.ResourceUpdate{
		Selected:          true,
		CustomCoverage:    []kb.Coverage{{Begin: "2001-01-01", End: "2005-12-31"}},
		CoverageStatement: "Print at the desk",
		CustomEmbargo:     kb.Embargo{Unit: kb.EmbargoMonths, Value: 6},
		Proxy:             &kb.ProxyRef{ID: "EZ"},
		UserDefined:       [5]string{"QA 76", "internal"},
	}))
	_, err = st.AddNote(ctx, "1001", kb.Note{PackageID: journals.PackageID, TitleID: f.ids["The Journal of Nursing"],
		Name: "Access", Rank: 1, Text: "Walk-in users only", ShowOn: []string{"PublicationFinder"}})
	must(err)
	f.srv = apitest.NewServer(t, httpapi.NewServer(st.Search, httpapi.Deps{Store: storetest.Raw(st)}))
	return f
}

// noRedirect sends the tests' requests without following redirects, so
// that a test sees the link-out's own answer.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// search runs GET publications with the query and decodes the answer.
func (f *pfFixture) search(t *testing.T, query string, headers ...string) pfResult {
	t.Helper()
	res, body := apitest.Do(t, noRedirect, "GET", f.srv.URL+"/pf/pfaccount/1001.main.az/publications?"+query, nil, headers...)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("publications?%s: %d %s (%s)", query, res.StatusCode, body, res.Header.Get("X-Error-Message"))
	}
	var out pfResult
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

type pfResult struct {
	SearchRequestGet struct {
		RequestParams struct {
			SessionID  string `json:"sessionId"`
			CustomerID *int64 `json:"customerId"`
		}
		SearchCriteriaWithActions struct {
			QueriesWithAction []struct {
				Query struct{ BooleanOperator, Term string }
			}
		}
	}
	Facets *struct {
		Subjects []struct {
			SubjectName string
			Count       int    `json:"count"`
			ID          string `json:"id"`
			ParentID    string `json:"parentId"`
		}
		ResourceTypes []struct {
			ResourceTypes string
			Count         int `json:"count"`
		}
		Packages []struct {
			ID      string `json:"id"`
			Package string
			Count   int `json:"count"`
		}
		AlphaMenus []struct {
			AlphaMenu string
			Count     int `json:"count"`
		}
		IsPeerReviewed []struct {
			IsPeerReviewed bool `json:"isPeerReviewed"`
			Count          int  `json:"count"`
		}
	}
	SearchResult struct {
		Sessiondetails struct {
			SessionID string `json:"sessionid"`
		}
		Statistics struct{ TotalHits, TotalSearchTime int }
		Data       struct {
			RecordFormat string
			Records      []pfRecord
		}
	}
}

type pfRecord struct {
	TitleID               string       `json:"titleId"`
	TitleName             string       `json:"titleName"`
	PubType               string       `json:"pubType"`
	CustomerResourcesList []pfResource `json:"customerResourcesList"`
}

type pfResource struct {
	PackageID           int64  `json:"packageId"`
	PackageName         string `json:"packageName"`
	IsSelected          bool   `json:"isSelected"`
	CoverageStatement   string `json:"coverageStatement"`
	CustomCoverageList  []map[string]string
	CustomEmbargoPeriod map[string]any
	URL                 string `json:"url"`
	TargetURL           string `json:"targetUrl"`
	LinkOutTargetURL    string `json:"linkOutTargetUrl"`
	UserDefinedFields   []map[string]any
	Note                []map[string]any
	VisibilityData      map[string]bool
}

func (r pfResult) names() []string {
	var out []string
	for _, rec := range r.SearchResult.Data.Records {
		out = append(out, rec.TitleName)
	}
	return out
}

// collection is every title of 1001's collection.
var collection = []string{"123 Nursing Facts", "Der Spiegel der Medizin", "Die Hard Science", "Éclair Studies",
	"The Journal of Nursing", "Les Misérables Quarterly", "Nursing Handbook"}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestPublicationsOnlyCollection(t *testing.T) {
	f := newPFFixture(t)
	for _, q := range []string{"count=100&platform=web&source=az-list", "search=nursing&count=100", "search=nursing&searchtype=any&count=100",
		"search=n&searchtype=beginswith&count=100&includefacets=true"} {
		got := f.search(t, q)
		for _, name := range got.names() {
			if !slices.Contains(collection, name) {
				t.Errorf("%s: %q is not in the collection", q, name)
			}
		}
		if got.SearchResult.Statistics.TotalHits != len(got.names()) {
			t.Errorf("%s: TotalHits %d, %d records", q, got.SearchResult.Statistics.TotalHits, len(got.names()))
		}
	}
	if diff := cmp.Diff(sorted(collection), sorted(f.search(t, "count=100").names())); diff != "" {
		t.Errorf("browse (-want +got):\n%s", diff)
	}
	// The Journal of Nursing has two resources in the collection; the
	// other packages' resources of a title are not shown.
	recs := f.search(t, "search=the+journal+of+nursing&searchtype=exactmatch").SearchResult.Data.Records
	if len(recs) != 1 {
		t.Fatalf("The Journal of Nursing: %d records", len(recs))
	}
	for _, rec := range recs {
		var pkgs []string
		for _, r := range rec.CustomerResourcesList {
			pkgs = append(pkgs, r.PackageName)
			if !r.IsSelected {
				t.Errorf("%s in %s: not selected", rec.TitleName, r.PackageName)
			}
		}
		if diff := cmp.Diff([]string{"Health Books", "Nursing Journals"}, sorted(pkgs)); diff != "" {
			t.Errorf("resources (-want +got):\n%s", diff)
		}
	}
}

func TestPublicationsSearch(t *testing.T) {
	f := newPFFixture(t)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"search=nurs", []string{"123 Nursing Facts", "The Journal of Nursing", "Nursing Handbook"}},
		{"search=nurs&searchtype=contains&searchfield=titlename", []string{"123 Nursing Facts", "The Journal of Nursing", "Nursing Handbook"}},
		{"search=nursing+handbook&searchtype=exactmatch", []string{"Nursing Handbook"}},
		{"search=nursing+hand&searchtype=exactmatch", nil},
		{"search=the+journal&searchtype=beginswith", []string{"The Journal of Nursing"}},
		{"search=eclair+medizin&searchtype=any", []string{"Der Spiegel der Medizin", "Éclair Studies"}},
		{"search=journal+nursing&searchtype=proximity", []string{"The Journal of Nursing"}},
		{"search=nursing+facts&searchtype=exactphrase", []string{"123 Nursing Facts"}},
		{"search=facts+nursing&searchtype=exactphrase", nil},
		{"search=nursing+NOT+facts&searchtype=advanced", []string{"The Journal of Nursing", "Nursing Handbook"}},
		{"search=03178471&searchfield=isxn", []string{"The Journal of Nursing"}},
		{"search=0317-8471&searchfield=isxn&searchtype=exactmatch", []string{"The Journal of Nursing"}},
		{"search=other+house&searchfield=publisher", nil}, // only the hidden package's title
		{"search=care+press&searchfield=publisher&searchtype=exactmatch", collection},
		{"search=food&searchfield=subject", []string{"Éclair Studies"}},
		{"search=nursing&searchfield=subject", []string{"123 Nursing Facts", "The Journal of Nursing"}},
		{"search=%21%21&searchtype=contains", nil},
		{"search=nursing&resourcetype=Book", []string{"123 Nursing Facts", "Nursing Handbook"}},
		{"search=nursing&resourcetype=Journal", []string{"The Journal of Nursing"}},
		{"search=nursing&resourcetype=Web+site", nil},
	} {
		got := f.search(t, tc.query+"&count=100")
		if diff := cmp.Diff(sorted(tc.want), sorted(got.names())); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.query, diff)
		}
	}
}

func TestPublicationsOrderAndPaging(t *testing.T) {
	f := newPFFixture(t)
	// English ignores "The" but not "Les" or "Der"; accents fold.
	en := []string{"123 Nursing Facts", "Der Spiegel der Medizin", "Die Hard Science", "Éclair Studies",
		"The Journal of Nursing", "Les Misérables Quarterly", "Nursing Handbook"}
	if diff := cmp.Diff(en, f.search(t, "orderby=titlename&count=100").names()); diff != "" {
		t.Errorf("English order (-want +got):\n%s", diff)
	}
	// French ignores "Les"; German "Der" and "Die".
	fr := []string{"123 Nursing Facts", "Der Spiegel der Medizin", "Die Hard Science", "Éclair Studies",
		"Les Misérables Quarterly", "Nursing Handbook", "The Journal of Nursing"}
	if diff := cmp.Diff(fr, f.search(t, "orderby=titlename&count=100", "Accept-Language", "fr-FR,fr;q=0.9").names()); diff != "" {
		t.Errorf("French order (-want +got):\n%s", diff)
	}
	de := []string{"123 Nursing Facts", "Éclair Studies", "Die Hard Science", "Les Misérables Quarterly",
		"Nursing Handbook", "Der Spiegel der Medizin", "The Journal of Nursing"}
	if diff := cmp.Diff(de, f.search(t, "orderby=titlename&count=100", "Accept-Language", "de").names()); diff != "" {
		t.Errorf("German order (-want +got):\n%s", diff)
	}
	// Pages partition the ordered result; TotalHits is the whole result.
	var paged []string
	for page := 1; page <= 4; page++ {
		got := f.search(t, "orderby=titlename&count=2&offset="+strconv.Itoa(page))
		if got.SearchResult.Statistics.TotalHits != len(en) {
			t.Errorf("page %d: TotalHits %d, want %d", page, got.SearchResult.Statistics.TotalHits, len(en))
		}
		paged = append(paged, got.names()...)
	}
	if diff := cmp.Diff(en, paged); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
}

func TestPublicationsFacets(t *testing.T) {
	f := newPFFixture(t)
	got := f.search(t, "search=nursing&includefacets=true&count=1")
	fc := got.Facets
	if fc == nil {
		t.Fatal("no Facets with includefacets=true")
	}
	if len(got.SearchResult.Data.Records) != 1 || got.SearchResult.Statistics.TotalHits != 3 {
		t.Fatalf("records %d, TotalHits %d; want 1 of 3", len(got.SearchResult.Data.Records), got.SearchResult.Statistics.TotalHits)
	}
	type kv = map[string]int
	types, pkgs, menus, subjects, peer := kv{}, kv{}, kv{}, kv{}, kv{}
	for _, x := range fc.ResourceTypes {
		types[x.ResourceTypes] = x.Count
	}
	for _, x := range fc.Packages {
		pkgs[x.Package] = x.Count
		if x.ID != strconv.FormatInt(f.pkgs[x.Package], 10) {
			t.Errorf("package facet %s: id %s", x.Package, x.ID)
		}
	}
	for _, x := range fc.AlphaMenus {
		menus[x.AlphaMenu] = x.Count
	}
	for _, x := range fc.Subjects {
		subjects[x.SubjectName] = x.Count
		if x.SubjectName == "MEDICAL / Nursing / General" && x.ParentID != "MEDICAL / Nursing" {
			t.Errorf("parentId of %s: %q", x.SubjectName, x.ParentID)
		}
	}
	for _, x := range fc.IsPeerReviewed {
		peer[strconv.FormatBool(x.IsPeerReviewed)] = x.Count
	}
	for _, c := range []struct {
		name      string
		got, want kv
	}{
		{"types", types, kv{"book": 2, "journal": 1}},
		{"packages", pkgs, kv{"Nursing Journals": 2, "Health Books": 2}},
		{"menus", menus, kv{"0-9": 1, "J": 1, "N": 1}},
		{"subjects", subjects, kv{"Nursing": 1, "MEDICAL / Nursing / General": 1}},
		{"peer", peer, kv{"true": 1, "false": 2}},
	} {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s facet (-want +got):\n%s", c.name, diff)
		}
	}
	// The scheme filter and the count limits.
	got = f.search(t, "search=nursing&includefacets=true&subjectfacetschemafilter=bisac&resourcetypefacetcount=1&packagefacetcount=1")
	if len(got.Facets.Subjects) != 1 || got.Facets.Subjects[0].SubjectName != "MEDICAL / Nursing / General" {
		t.Errorf("bisac subjects: %+v", got.Facets.Subjects)
	}
	if len(got.Facets.ResourceTypes) != 1 || got.Facets.ResourceTypes[0].ResourceTypes != "book" {
		t.Errorf("resourcetypefacetcount=1: %+v", got.Facets.ResourceTypes)
	}
	if len(got.Facets.Packages) != 1 {
		t.Errorf("packagefacetcount=1: %+v", got.Facets.Packages)
	}
	if got := f.search(t, "search=nursing"); got.Facets != nil {
		t.Errorf("Facets without includefacets: %+v", got.Facets)
	}
}

func TestPublicationsFilters(t *testing.T) {
	f := newPFFixture(t)
	books := strconv.FormatInt(f.pkgs["Health Books"], 10)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"resourcetypefacet=book", []string{"123 Nursing Facts", "Die Hard Science", "Nursing Handbook"}},
		{"resourcetypefacet=book&resourcetypefacet=journal", collection},
		{"subjectfacet=nursing", []string{"The Journal of Nursing"}},
		{"subjectfacet=Food&subjectfacet=Nursing", []string{"Éclair Studies", "The Journal of Nursing"}},
		{"packagefacet=" + books, []string{"Nursing Handbook", "The Journal of Nursing"}},
		{"packagefacet=" + books + "&resourcetypefacet=book", []string{"Nursing Handbook"}},
		{"alphamenufacet=d", []string{"Der Spiegel der Medizin", "Die Hard Science"}},
		{"alphamenufacet=J", []string{"The Journal of Nursing"}},
		{"alphamenufacet=0-9", []string{"123 Nursing Facts"}},
		{"ispeerreviewedfacet=true", []string{"Der Spiegel der Medizin", "The Journal of Nursing"}},
		{"ispeerreviewedfacet=false&resourcetypefacet=journal", []string{"Éclair Studies", "Les Misérables Quarterly"}},
		{"alphamenufacet=De", []string{"Der Spiegel der Medizin"}},
		{"alphamenufacet=dI", []string{"Die Hard Science"}},
		{"alphamenufacet=1", []string{"123 Nursing Facts"}},
		{"alphamenufacet=12", []string{"123 Nursing Facts"}},
		{"alphamenufacet=13", nil},
	} {
		got := f.search(t, tc.query+"&count=100&includefacets=true")
		if diff := cmp.Diff(sorted(tc.want), sorted(got.names())); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.query, diff)
		}
		total := 0
		for _, x := range got.Facets.ResourceTypes {
			total += x.Count
		}
		if total != len(tc.want) {
			t.Errorf("%s: resource type facet counts %d titles, want the %d filtered", tc.query, total, len(tc.want))
		}
	}
	// German places "Die Hard Science" under H.
	got := f.search(t, "alphamenufacet=H&count=100", "Accept-Language", "de-DE")
	if diff := cmp.Diff([]string{"Die Hard Science"}, got.names()); diff != "" {
		t.Errorf("German alphamenufacet=H (-want +got):\n%s", diff)
	}
	got = f.search(t, "alphamenufacet=Ha&count=100", "Accept-Language", "de-DE")
	if diff := cmp.Diff([]string{"Die Hard Science"}, got.names()); diff != "" {
		t.Errorf("German alphamenufacet=Ha (-want +got):\n%s", diff)
	}
}

// TestPeerReviewedFacet: ispeerreviewed says whether the IsPeerReviewed
// facet is answered ("include peer-reviewed facet information"), never
// filters: true includes it even without includefacets, false leaves it
// out of the five; ispeerreviewedfacet filters.
func TestPeerReviewedFacet(t *testing.T) {
	f := newPFFixture(t)
	peer := func(r pfResult) map[bool]int {
		m := map[bool]int{}
		for _, x := range r.Facets.IsPeerReviewed {
			m[x.IsPeerReviewed] = x.Count
		}
		return m
	}
	all := len(collection)
	for _, tc := range []struct {
		query            string
		hits             int
		peer             map[bool]int
		types, facetsNil bool
	}{
		{"includefacets=true", all, map[bool]int{true: 2, false: all - 2}, true, false},
		{"includefacets=true&ispeerreviewed=true", all, map[bool]int{true: 2, false: all - 2}, true, false},
		{"includefacets=true&ispeerreviewed=false", all, map[bool]int{}, true, false},
		{"ispeerreviewed=true", all, map[bool]int{true: 2, false: all - 2}, false, false},
		{"ispeerreviewed=false", all, map[bool]int{}, false, true},
		{"includefacets=true&ispeerreviewedfacet=true", 2, map[bool]int{true: 2}, true, false},
	} {
		got := f.search(t, tc.query+"&count=100")
		if got.SearchResult.Statistics.TotalHits != tc.hits {
			t.Errorf("%s: %d hits, want %d", tc.query, got.SearchResult.Statistics.TotalHits, tc.hits)
		}
		if tc.facetsNil {
			if got.Facets != nil {
				t.Errorf("%s: facets answered", tc.query)
			}
			continue
		}
		if got.Facets == nil {
			t.Errorf("%s: no facets", tc.query)
			continue
		}
		if diff := cmp.Diff(tc.peer, peer(got)); diff != "" {
			t.Errorf("%s: IsPeerReviewed (-want +got):\n%s", tc.query, diff)
		}
		if (len(got.Facets.ResourceTypes) > 0) != tc.types {
			t.Errorf("%s: %d resource type facets; want them %v", tc.query, len(got.Facets.ResourceTypes), tc.types)
		}
	}
}

func TestPublicationRecord(t *testing.T) {
	f := newPFFixture(t)
	got := f.search(t, "search=the+journal+of+nursing&searchtype=exactmatch&sessionid=s-42")
	if got.SearchResult.Sessiondetails.SessionID != "s-42" || got.SearchRequestGet.RequestParams.SessionID != "s-42" {
		t.Errorf("sessionid not echoed: %+v / %+v", got.SearchResult.Sessiondetails, got.SearchRequestGet.RequestParams)
	}
	if c := got.SearchRequestGet.RequestParams.CustomerID; c == nil || *c != 1001 {
		t.Errorf("customerId: %v", c)
	}
	if q := got.SearchRequestGet.SearchCriteriaWithActions.QueriesWithAction; len(q) != 1 || q[0].Query.Term != "the journal of nursing" {
		t.Errorf("QueriesWithAction: %+v", q)
	}
	recs := got.SearchResult.Data.Records
	if len(recs) != 1 {
		t.Fatalf("records: %v", got.names())
	}
	var res *pfResource
	for i := range recs[0].CustomerResourcesList {
		if recs[0].CustomerResourcesList[i].PackageName == "Nursing Journals" {
			res = &recs[0].CustomerResourcesList[i]
		}
	}
	if res == nil {
		t.Fatal("no resource in Nursing Journals")
	}
	if res.CoverageStatement != "Print at the desk" || len(res.CustomCoverageList) != 1 || res.CustomCoverageList[0]["beginCoverage"] != "2001-01-01" {
		t.Errorf("customisation: %+v", res)
	}
	if res.CustomEmbargoPeriod["embargoUnit"] != "Months" || res.CustomEmbargoPeriod["embargoValue"] != float64(6) {
		t.Errorf("custom embargo: %v", res.CustomEmbargoPeriod)
	}
	if diff := cmp.Diff([]map[string]any{{"displayOnPublicationFinder": true, "id": float64(1), "label": "Shelf", "value": "QA 76"}}, res.UserDefinedFields); diff != "" {
		t.Errorf("userDefinedFields (-want +got):\n%s", diff)
	}
	if len(res.Note) != 1 || res.Note[0]["noteText"] != "Walk-in users only" || res.Note[0]["custId"] != float64(1001) {
		t.Errorf("notes: %v", res.Note)
	}
	if want := "https://ez.example/login?url=" + res.URL; res.TargetURL != want {
		t.Errorf("targetUrl %q, want %q", res.TargetURL, want)
	}
	// The link-out redirects to the target and is counted.
	if !strings.HasPrefix(res.LinkOutTargetURL, f.srv.URL+"/pf/linkout/") {
		t.Fatalf("linkOutTargetUrl %q", res.LinkOutTargetURL)
	}
	r, _ := apitest.Do(t, noRedirect, "GET", res.LinkOutTargetURL, nil)
	if r.StatusCode != http.StatusFound || r.Header.Get("Location") != res.TargetURL {
		t.Errorf("link-out: %d to %q, want 302 to %q", r.StatusCode, r.Header.Get("Location"), res.TargetURL)
	}
	n, err := f.store.LinkOutCount(t.Context(), "1001", kb.ResourceKey{PackageID: res.PackageID, TitleID: f.ids["The Journal of Nursing"]})
	if err != nil || n != 1 {
		t.Errorf("link-out count %d, %v; want 1", n, err)
	}

	// One record in a package.
	path := "/pf/pfaccount/1001.main.az/packages/" + strconv.FormatInt(f.pkgs["Health Books"], 10) + "/titles/" + strconv.FormatInt(f.ids["Nursing Handbook"], 10)
	r, body := apitest.Do(t, noRedirect, "GET", f.srv.URL+path, nil)
	var rec pfRecord
	if err := json.Unmarshal(body, &rec); r.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("%s: %d %s", path, r.StatusCode, body)
	}
	if rec.TitleName != "Nursing Handbook" || len(rec.CustomerResourcesList) != 1 || rec.PubType != "book" {
		t.Errorf("record: %+v", rec)
	}
	for _, tc := range []struct{ pkg, title string }{
		{"Health Books", "Unselected Nursing Atlas"},
		{"Nursing Journals", "Hidden Nursing Gem"},
		{"Nursing Journals", "Deselected Nursing Digest"},
		{"Secret Package", "Secret Nursing Review"},
		{"Nursing Journals", "Nursing Handbook"},
	} {
		path := "/pf/pfaccount/1001.main.az/packages/" + strconv.FormatInt(f.pkgs[tc.pkg], 10) + "/titles/" + strconv.FormatInt(f.ids[tc.title], 10)
		if r, body := apitest.Do(t, noRedirect, "GET", f.srv.URL+path, nil); r.StatusCode != http.StatusNotFound || len(body) != 0 || r.Header.Get("X-Error-Message") == "" {
			t.Errorf("%s in %s: %d %q, want 404 with no body and a message", tc.title, tc.pkg, r.StatusCode, body)
		}
	}
}

func TestPFPackages(t *testing.T) {
	f := newPFFixture(t)
	type pkgList struct {
		PackagesList []struct {
			PackageID     int64  `json:"packageId"`
			PackageName   string `json:"packageName"`
			ContentType   string `json:"contentType"`
			SelectedCount int    `json:"selectedCount"`
		} `json:"packagesList"`
		TotalResults int `json:"totalResults"`
	}
	list := func(path string) (names []string, total int) {
		t.Helper()
		r, body := apitest.Do(t, noRedirect, "GET", f.srv.URL+"/pf/pfaccount/1001.main.az/"+path, nil)
		var l pkgList
		if err := json.Unmarshal(body, &l); r.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("%s: %d %s", path, r.StatusCode, body)
		}
		for _, p := range l.PackagesList {
			names = append(names, p.PackageName+"/"+p.ContentType)
			// Selected count (GET packages only; allpackages has none) =
			// titles in the collection: hidden and deselected ones left out.
			want := map[string]int{"Nursing Journals": 6, "Health Books": 2}[p.PackageName]
			if strings.HasPrefix(path, "packages") && p.SelectedCount != want {
				t.Errorf("%s: selectedCount %d, want %d", p.PackageName, p.SelectedCount, want)
			}
		}
		return names, l.TotalResults
	}
	for _, tc := range []struct {
		path  string
		want  []string
		total int
	}{
		{"allpackages", []string{"Health Books/EBook", "Nursing Journals/EJournal"}, 2},
		{"allpackages?contenttype=ebook", []string{"Health Books/EBook"}, 1},
		{"allpackages?contenttype=4", []string{"Nursing Journals/EJournal"}, 1},
		{"allpackages?contenttype=print", nil, 0},
		{"packages?orderby=packagename", []string{"Health Books/EBook", "Nursing Journals/EJournal"}, 2},
		{"packages?orderby=relevance&search=nursing", []string{"Nursing Journals/EJournal"}, 1},
		{"packages?orderby=packagename&search=secret", nil, 0},
		{"packages?orderby=packagename&count=1&offset=2", []string{"Nursing Journals/EJournal"}, 2},
	} {
		names, total := list(tc.path)
		if diff := cmp.Diff(tc.want, names); diff != "" || total != tc.total {
			t.Errorf("%s: total %d, want %d (-want +got):\n%s", tc.path, total, tc.total, diff)
		}
	}
}

func TestAlphaMenu(t *testing.T) {
	f := newPFFixture(t)
	type item struct {
		MenuID     int    `json:"menuId"`
		Characters string `json:"characters"`
		Order      int    `json:"order"`
		Count      int    `json:"count"`
	}
	menu := func(path string) map[string][]item {
		t.Helper()
		r, body := apitest.Do(t, noRedirect, "GET", f.srv.URL+"/pf/pfaccount/1001.main.az/alphabrowser/menu/"+path, nil)
		var m map[string][]item
		if err := json.Unmarshal(body, &m); r.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("%s: %d %s", path, r.StatusCode, body)
		}
		return m
	}
	counts := func(items []item) map[string]int {
		out := map[string]int{}
		for _, it := range items {
			if it.Count > 0 {
				out[it.Characters] = it.Count
			}
		}
		return out
	}
	for _, tc := range []struct {
		path         string
		top, level2  map[string]int
		level2Parent string
	}{
		{"en-US?menuid=5", map[string]int{"0-9": 1, "D": 2, "E": 1, "J": 1, "L": 1, "N": 1}, map[string]int{"De": 1, "Di": 1}, "D"},
		{"fr-FR?menuid=14", map[string]int{"0-9": 1, "D": 2, "E": 1, "M": 1, "N": 1, "T": 1}, map[string]int{"Mi": 1}, "M"},
		{"de-DE?menuid=20", map[string]int{"0-9": 1, "E": 1, "H": 1, "L": 1, "N": 1, "S": 1, "T": 1}, map[string]int{"Sp": 1}, "S"},
		{"en?menuid=5&resourcetype=book", map[string]int{"0-9": 1, "D": 1, "N": 1}, map[string]int{"Di": 1}, "D"},
		{"en?menuid=5&resourcetype=1", map[string]int{"D": 1, "E": 1, "J": 1, "L": 1}, map[string]int{"De": 1}, "D"},
	} {
		m := menu(tc.path)
		if len(m["position 0"]) != 28 {
			t.Errorf("%s: position 0 has %d entries, want 28", tc.path, len(m["position 0"]))
		}
		if diff := cmp.Diff(tc.top, counts(m["position 0"])); diff != "" {
			t.Errorf("%s position 0 (-want +got):\n%s", tc.path, diff)
		}
		if diff := cmp.Diff(tc.level2, counts(m["position 1"])); diff != "" {
			t.Errorf("%s position 1 (-want +got):\n%s", tc.path, diff)
		}
		for _, it := range m["position 1"] {
			if !strings.HasPrefix(it.Characters, tc.level2Parent) {
				t.Errorf("%s: position 1 entry %q is not under %q", tc.path, it.Characters, tc.level2Parent)
			}
		}
		if len(m["position 2"]) != 0 || len(m["position 3"]) != 0 {
			t.Errorf("%s: positions 2 and 3 should be empty for a top-level menuid", tc.path)
		}
	}
	// A second-level menuid fills position 2 with its children.
	m := menu("en?menuid=506") // D, then e: "De"
	if diff := cmp.Diff(map[string]int{"Der": 1}, counts(m["position 2"])); diff != "" {
		t.Errorf("menuid 506 position 2 (-want +got):\n%s", diff)
	}
	// Every entry a menu hands out, at every level, filters a search to
	// the titles it counted, in the menu's locale (a client browses
	// D → De → Der and searches with the entry it was given).
	searched := 0
	for _, path := range []string{"en?menuid=5", "en?menuid=506", "en?menuid=50605", "fr-FR?menuid=14", "de?menuid=2009", "en?menuid=102"} {
		lang, _, _ := strings.Cut(path, "?")
		for pos, items := range menu(path) {
			for _, it := range items {
				if it.Count == 0 && it.Order%5 != 0 {
					continue // every fifth empty entry, for a search that finds nothing
				}
				q := url.Values{"alphamenufacet": {it.Characters}, "count": {"1"}, "includefacets": {"false"}}
				r, body := apitest.Do(t, noRedirect, "GET", f.srv.URL+"/pf/pfaccount/1001.main.az/publications?"+q.Encode(), nil, "Accept-Language", lang)
				var res struct {
					SearchResult struct{ Statistics struct{ TotalHits int } }
				}
				if err := json.Unmarshal(body, &res); r.StatusCode != http.StatusOK || err != nil {
					t.Errorf("%s %s entry %q: %d %s", path, pos, it.Characters, r.StatusCode, r.Header.Get("X-Error-Message"))
					continue
				}
				if res.SearchResult.Statistics.TotalHits != it.Count {
					t.Errorf("%s %s: alphamenufacet=%s finds %d titles, the menu counted %d", path, pos, it.Characters, res.SearchResult.Statistics.TotalHits, it.Count)
				}
				searched++
			}
		}
	}
	if searched < 60 {
		t.Errorf("only %d entries searched", searched)
	}
}

func TestPFBadRequests(t *testing.T) {
	f := newPFFixture(t)
	for _, tc := range []struct{ path, param string }{
		{"publications?count=101", "count"},
		{"publications?count=0", "count"},
		{"publications?offset=0", "offset"},
		{"publications?searchtype=fuzzy", "searchtype"},
		{"publications?searchfield=author", "searchfield"},
		{"publications?orderby=date", "orderby"},
		{"publications?includefacets=yes", "includefacets"},
		{"publications?ispeerreviewed=maybe", "ispeerreviewed"},
		{"publications?ispeerreviewedfacet=maybe", "ispeerreviewedfacet"},
		{"publications?alphamenufacet=A&alphamenufacet=B", "alphamenufacet"},
		{"publications?search=a&Search=b", "search"},
		{"publications?alphamenufacet=A0-91", "alphamenufacet"},
		{"alphabrowser/menu/en?menuid=2&menuid=3", "menuid"},
		{"publications?resourcetype=Comic", "resourcetype"},
		{"publications?resourcetypefacet=comic", "resourcetypefacet"},
		{"publications?packagefacet=abc", "packagefacet"},
		{"publications?alphamenufacet=%C3%A9%C3%A9", "alphamenufacet"},
		{"publications?subjectfacetschemafilter=mesh", "subjectfacetschemafilter"},
		{"publications?subjectfacetcount=-1", "subjectfacetcount"},
		{"publications?packagefacetcount=x", "packagefacetcount"},
		{"publications?search=%22unbalanced&searchtype=advanced", ""},
		{"allpackages?contenttype=comics", "contenttype"},
		{"packages?contenttype=9", "contenttype"},
		{"packages?orderby=size", "orderby"},
		{"packages?count=500", "count"},
		{"packages/x/titles/1", "packageid"},
		{"packages/1/titles/0", "kbid"},
		{"alphabrowser/menu/en", "menuid"},
		{"alphabrowser/menu/en?menuid=0", "menuid"},
		{"alphabrowser/menu/en?menuid=29", "menuid"},
		{"alphabrowser/menu/en?menuid=abc", "menuid"},
		{"alphabrowser/menu/en?menuid=1&resourcetype=video", "resourcetype"},
		{"alphabrowser/menu/x!y?menuid=1", "localeid"},
		// Searches over the limits (20,000 words exhausted PostgreSQL's
		// stack) and repeated parameters over theirs.
		{"publications?search=" + url.QueryEscape(strings.TrimSpace(strings.Repeat("word ", 20000))), "Parameter search is 99,999 characters long: at most 1,000 are allowed."},
		{"publications?search=" + url.QueryEscape(strings.TrimSpace(strings.Repeat("a ", 200))), "Parameter search has 200 words: at most 100 are allowed."},
		{"packages?search=" + url.QueryEscape(strings.TrimSpace(strings.Repeat("a ", 200))), "Parameter search has 200 words: at most 100 are allowed."},
		{"publications?search=x" + strings.Repeat("&packagefacet=1", 101), "Parameter packagefacet is given 101 times: at most 100 are allowed."},
	} {
		r, body := apitest.Do(t, noRedirect, "GET", f.srv.URL+"/pf/pfaccount/1001.main.az/"+tc.path, nil)
		msg := r.Header.Get("X-Error-Message")
		if r.StatusCode != http.StatusBadRequest || len(body) != 0 || msg == "" || !strings.Contains(msg, tc.param) {
			t.Errorf("%s: %d, body %q, X-Error-Message %q; want 400, no body, a message naming %q", tc.path, r.StatusCode, body, msg, tc.param)
		}
	}
}

func TestPFAuthOnEveryRoute(t *testing.T) {
	f := newPFFixture(t)
	paths := []string{"publications", "allpackages", "packages", "alphabrowser/menu/en?menuid=1",
		"packages/" + strconv.FormatInt(f.pkgs["Health Books"], 10) + "/titles/" + strconv.FormatInt(f.ids["Nursing Handbook"], 10)}
	for _, p := range paths {
		for _, tc := range []struct {
			profile, password string
			want              int
		}{
			{"1001.main.az", "", http.StatusOK},
			{"1001.main.pw", "pw", http.StatusOK},
			{"1001.main.pw", "", http.StatusUnauthorized},
			{"1001.main.pw", "wrong", http.StatusUnauthorized},
			{"2002.main.az", "", http.StatusUnauthorized},
			{"1001.main", "", http.StatusBadRequest},
		} {
			var headers []string
			if tc.password != "" {
				headers = []string{"password", tc.password}
			}
			r, body := apitest.Do(t, noRedirect, "GET", f.srv.URL+"/pf/pfaccount/"+tc.profile+"/"+p, nil, headers...)
			if r.StatusCode != tc.want || (tc.want != http.StatusOK && len(body) != 0) {
				t.Errorf("%s as %s/%q: %d %q, want %d", p, tc.profile, tc.password, r.StatusCode, body, tc.want)
			}
		}
	}
}

// TestPublicationsFollowChanges: the server keeps the collection in
// memory between searches; every change of the customer's holdings and
// every import shows in the next answer.
func TestPublicationsFollowChanges(t *testing.T) {
	f := newPFFixture(t)
	ctx := t.Context()
	journals, books := f.pkgs["Nursing Journals"], f.pkgs["Health Books"]
	browse := func() []string {
		t.Helper()
		return sorted(f.search(t, "count=100").names())
	}
	without := func(names []string, drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return slices.Contains(drop, n) })
	}
	want := sorted(collection)
	if diff := cmp.Diff(want, browse()); diff != "" {
		t.Fatalf("before (-want +got):\n%s", diff)
	}
	steps := []struct {
		name   string
		change func() error
		want   []string
	}{
		{"hide a resource", func() error {
			return f.store.UpdateResource(ctx, "1001", f.vendor, journals, f.ids["Éclair Studies"], kb.ResourceUpdate{Selected: true, Hidden: true})
		}, without(want, "Éclair Studies")},
		{"deselect a title", func() error {
			return f.store.UpdateResource(ctx, "1001", f.vendor, books, f.ids["Nursing Handbook"], kb.ResourceUpdate{Selected: false})
		}, without(want, "Éclair Studies", "Nursing Handbook")},
		{"select a package whole", func() error {
			return f.store.UpdatePackage(ctx, "1001", f.vendor, books, kb.PackageUpdate{Selected: true})
		}, sorted(append(without(want, "Éclair Studies"), "Unselected Nursing Atlas"))},
		{"import a title into a selected package", func() error {
			_, err := f.store.ImportPackage(ctx, kb.PackageSpec{VendorName: "Care Press", PackageName: "Health Books", ContentType: kb.ContentEBook},
				rowsOf("Nursing Handbook", "Unselected Nursing Atlas", "Brand New Nursing Annual"))
			return err
		}, sorted(append(without(want, "Éclair Studies"), "Unselected Nursing Atlas", "Brand New Nursing Annual"))},
	}
	for _, st := range steps {
		if err := st.change(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if diff := cmp.Diff(st.want, browse()); diff != "" {
			t.Errorf("after %s (-want +got):\n%s", st.name, diff)
		}
	}
}

// rowsOf is an import of Care Press books with these names.
func rowsOf(names ...string) func() (kb.ImportRow, error) {
	return storetest.RowsOf(len(names), func(i int) kb.ImportRow {
		var r kb.ImportRow
		r.Line, r.KBART[0], r.KBART[15], r.KBART[16], r.PubType = i+1, names[i], "Care Press", "monograph", kb.ResourceBook
		return r
	})
}

// TestPublicationsWhileRebuilding: a search that follows a change never
// shows a title that left the collection among its records, and the
// change shows in its counts (at once: the index follows the customer's
// version, which the change moved; the 10 s bound is from the time a
// collection read from the store could answer from its previous version
// while it was rebuilt).
func TestPublicationsWhileRebuilding(t *testing.T) {
	f := newPFFixture(t)
	query := "search=les+miserables&count=100"
	if got := f.search(t, query).names(); len(got) != 1 {
		t.Fatalf("before: %v", got)
	}
	if err := f.store.UpdateResource(t.Context(), "1001", f.vendor, f.pkgs["Nursing Journals"], f.ids["Les Misérables Quarterly"],
		kb.ResourceUpdate{Selected: true, Hidden: true}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := f.search(t, query)
		if len(got.names()) != 0 {
			t.Fatalf("a hidden title was shown: %v", got.names())
		}
		if got.SearchResult.Statistics.TotalHits == 0 {
			break // rebuilt
		}
		if time.Now().After(deadline) {
			t.Fatal("the hidden title is still counted after 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestRecordFieldsForTypedClients: every member the specification types
// is sent with its type: duration and frequency (kbserver keeps neither)
// as "", locationId as 0, and customerId and custId, int64 in the
// specification, as 0 for a customer whose id is no number.
func TestRecordFieldsForTypedClients(t *testing.T) {
	f := newPFFixture(t)
	ctx := t.Context()
	if _, err := f.store.AddCustomer(ctx, "lib-x", "Library X"); err != nil {
		t.Fatal(err)
	}
	if err := f.store.SaveProfile(ctx, kb.Profile{ID: kb.ProfileID{CustomerID: "lib-x", GroupID: "main", ProfileID: "az"}, Guest: true}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.SetPackageState(ctx, "lib-x", f.pkgs["Nursing Journals"], kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.AddNote(ctx, "lib-x", kb.Note{PackageID: f.pkgs["Nursing Journals"], TitleID: f.ids["The Journal of Nursing"], Text: "Campus only."}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		profile string
		want    []string
	}{
		{"lib-x.main.az", []string{`"customerId":0`, `"custId":0`, `"duration":""`, `"frequency":""`, `"locationId":0`}},
		{"1001.main.az", []string{`"customerId":1001`, `"custId":1001`, `"duration":""`, `"locationId":0`}},
	} {
		r, body := apitest.Do(t, noRedirect, "GET", f.srv.URL+"/pf/pfaccount/"+tc.profile+"/publications?search=the+journal+of+nursing&searchtype=exactmatch", nil)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", tc.profile, r.StatusCode)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(body), w) {
				t.Errorf("%s: the answer lacks %s: %.600s", tc.profile, w, body)
			}
		}
	}
}

// TestSubjectFacetsOnGeneratedKB: over the generated knowledge base's
// subjects (TLI headings for serials, BISAC ones "A / B" for books), every
// SubjectFacet entry has its name as its id, its parent one level up
// ("" at the top), and a count that subjectfacet filtering by its name
// finds again; subjectfacetschemafilter keeps one scheme's headings.
func TestSubjectFacetsOnGeneratedKB(t *testing.T) {
	ctx := t.Context()
	st := storetest.Searched(t.Context(), testdb.Open(t))
	sum, err := gen.Generate(ctx, st, gen.Options{Titles: 2000, Seed: 7}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddCustomer(ctx, "gen", "Generated"); err != nil {
		t.Fatal(err)
	}
	for _, id := range sum.PackageIDs {
		if err := st.SetPackageState(ctx, "gen", id, kb.PackageState{Selected: true}); err != nil {
			t.Fatal(err)
		}
	}
	profile := kb.ProfileID{CustomerID: "gen", GroupID: "main", ProfileID: "az"}
	if err := st.SaveProfile(ctx, kb.Profile{ID: profile, Guest: true}); err != nil {
		t.Fatal(err)
	}
	srv := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), st), httpapi.Deps{Store: storetest.Raw(st)}))
	search := func(query string) pfResult {
		t.Helper()
		r, body := apitest.Do(t, noRedirect, "GET", srv.URL+"/pf/pfaccount/"+profile.String()+"/publications?"+query, nil)
		var res pfResult
		if err := json.Unmarshal(body, &res); r.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("%s: %d %s %v", query, r.StatusCode, r.Header.Get("X-Error-Message"), err)
		}
		return res
	}
	schemes := map[string]int{}
	for _, schema := range []string{"", "tli", "bisac"} {
		q := "includefacets=true&count=1&subjectfacetcount=40"
		if schema != "" {
			q += "&subjectfacetschemafilter=" + url.QueryEscape(schema)
		}
		res := search(q)
		if len(res.Facets.Subjects) == 0 {
			t.Fatalf("%s: no subject facet", q)
		}
		for _, s := range res.Facets.Subjects {
			parent := ""
			if i := strings.LastIndex(s.SubjectName, " / "); i >= 0 {
				parent = s.SubjectName[:i]
			}
			if s.ID != s.SubjectName || s.ParentID != parent || s.Count < 1 {
				t.Errorf("%s: facet %+v; want id = name, parentId %q, a count", q, s, parent)
			}
			bisac := strings.Contains(s.SubjectName, " / ")
			if schema == "tli" && bisac || schema == "bisac" && !bisac {
				t.Errorf("%s: %q is not of the scheme", q, s.SubjectName)
			}
			if schema != "" {
				schemes[schema]++
				hits := search("count=1&subjectfacet=" + url.QueryEscape(s.SubjectName)).SearchResult.Statistics.TotalHits
				if hits != s.Count {
					t.Errorf("subjectfacet=%s finds %d titles; its facet counted %d", s.SubjectName, hits, s.Count)
				}
			}
		}
	}
	if schemes["tli"] == 0 || schemes["bisac"] == 0 {
		t.Errorf("headings checked by scheme: %v; want both", schemes)
	}
}
