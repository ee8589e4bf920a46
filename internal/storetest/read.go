package storetest

import (
	"context"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func page(n int) kb.Page { return kb.Page{Count: n, Number: 1} }

func vendorNames(l kb.VendorList) []string {
	var ns []string
	for _, v := range l.Vendors {
		ns = append(ns, v.Name)
	}
	return ns
}

func packageNames(l kb.PackageList) []string {
	var ns []string
	for _, p := range l.Packages {
		ns = append(ns, p.Name)
	}
	return ns
}

func titleNames(l kb.TitleList) []string {
	var ns []string
	for _, t := range l.Titles {
		ns = append(ns, t.Name)
	}
	return ns
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func testVendors(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	tests := []struct {
		q     kb.VendorQuery
		total int
		names []string
	}{
		{kb.VendorQuery{Page: page(10)}, 3, []string{"Alpha Press", "Beta Aggregator", "Customer One"}},
		{kb.VendorQuery{Page: kb.Page{Count: 1, Number: 2}}, 3, []string{"Beta Aggregator"}},
		{kb.VendorQuery{Page: kb.Page{Count: 2, Number: 5}}, 3, nil},
		{kb.VendorQuery{Search: "beta", Page: page(10)}, 1, []string{"Beta Aggregator"}},
		{kb.VendorQuery{Search: "agg", Page: page(10)}, 1, []string{"Beta Aggregator"}},
		{kb.VendorQuery{Search: "nomatch", Page: page(10)}, 0, nil},
		{kb.VendorQuery{Search: "!!", Page: page(10)}, 0, nil},
	}
	for _, tt := range tests {
		l, err := s.Vendors(ctx, "c1", tt.q)
		if err != nil {
			t.Fatalf("Vendors(%+v): %v", tt.q, err)
		}
		if l.Total != tt.total || !equal(vendorNames(l), tt.names) {
			t.Errorf("Vendors(%+v) = %d %v; want %d %v", tt.q, l.Total, vendorNames(l), tt.total, tt.names)
		}
	}
	v, err := s.Vendor(ctx, "c1", f.AlphaVendor)
	if err != nil {
		t.Fatal(err)
	}
	if v.PackagesTotal != 2 || v.PackagesSelected != 0 || v.IsCustomer || v.Proxy.ID != kb.NoProxyID {
		t.Errorf("Vendor = %+v", v)
	}
	_, err = s.Vendor(ctx, "c1", 999999)
	wantCode(t, err, kb.CodeNotFound)
	// Another customer's own vendor is invisible.
	_, err = s.Vendor(ctx, "c2", f.C1Vendor)
	wantCode(t, err, kb.CodeNotFound)
}

func testPackages(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	tests := []struct {
		q     kb.PackageQuery
		total int
		names []string
	}{
		{kb.PackageQuery{Page: page(10)}, 3, []string{"Alpha Books", "Alpha Journals", "Beta Complete"}},
		{kb.PackageQuery{VendorID: f.AlphaVendor, Page: page(10)}, 2, []string{"Alpha Books", "Alpha Journals"}},
		{kb.PackageQuery{ContentType: kb.ContentEBook, Page: page(10)}, 1, []string{"Alpha Books"}},
		{kb.PackageQuery{Search: "journals", Page: page(10)}, 1, []string{"Alpha Journals"}},
		{kb.PackageQuery{Search: "alpha", OrderBy: kb.OrderName, Page: page(10)}, 2, []string{"Alpha Books", "Alpha Journals"}},
		{kb.PackageQuery{Selection: kb.SelectionSelected, Page: page(10)}, 0, nil},
		{kb.PackageQuery{Selection: kb.SelectionNotSelected, Page: page(10)}, 3, []string{"Alpha Books", "Alpha Journals", "Beta Complete"}},
		{kb.PackageQuery{Selection: kb.SelectionOrderedThroughOperator, Page: page(10)}, 0, nil},
		{kb.PackageQuery{Page: kb.Page{Count: 2, Number: 2}}, 3, []string{"Beta Complete"}},
	}
	for _, tt := range tests {
		l, err := s.Packages(ctx, "c1", tt.q)
		if err != nil {
			t.Fatalf("Packages(%+v): %v", tt.q, err)
		}
		if l.Total != tt.total || !equal(packageNames(l), tt.names) {
			t.Errorf("Packages(%+v) = %d %v; want %d %v", tt.q, l.Total, packageNames(l), tt.total, tt.names)
		}
	}
	// Relevance: every match holds every word as a word prefix; a name of
	// fewer words ranks first, ties in name order; both engines alike.
	for _, name := range []string{"Science Alpha Extra Long Name", "Sciences Review", "Science", "Science Daily", "Neuroscience"} {
		if _, err := s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: name, ContentType: kb.ContentEBook}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		q     kb.PackageQuery
		names []string
	}{
		{kb.PackageQuery{Search: "scien", Page: page(10)}, []string{"Science", "Science Daily", "Sciences Review", "Science Alpha Extra Long Name"}},
		{kb.PackageQuery{Search: "SCIENCE", OrderBy: kb.OrderRelevance, Page: page(2)}, []string{"Science", "Science Daily"}},
		{kb.PackageQuery{Search: "scien", OrderBy: kb.OrderName, Page: page(10)}, []string{"Science", "Science Alpha Extra Long Name", "Science Daily", "Sciences Review"}},
		{kb.PackageQuery{Search: "name science", Page: page(10)}, []string{"Science Alpha Extra Long Name"}},
	} {
		l, err := s.Packages(ctx, "c1", tt.q)
		if err != nil {
			t.Fatalf("Packages(%+v): %v", tt.q, err)
		}
		if !equal(packageNames(l), tt.names) {
			t.Errorf("Packages(%+v) = %v; want %v", tt.q, packageNames(l), tt.names)
		}
	}
}

func testTitleSearch(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	q := func(search string, field kb.SearchField, typ kb.SearchType) kb.TitleQuery {
		return kb.TitleQuery{Search: search, Field: field, Type: typ, Page: page(20)}
	}
	all := []string{"Annals of Software Quality", "Go in Practice", "Journal of Testing", "Learning Go", "The Weekly Newsletter", "Zebra Studies"}
	tests := []struct {
		name  string
		q     kb.TitleQuery
		names []string // in order; nil for none
	}{
		{"no search, by name", kb.TitleQuery{Page: page(20)}, all},
		{"contains word", q("testing", kb.FieldTitleName, kb.SearchContains), []string{"Journal of Testing"}},
		{"contains substring", q("ebra", kb.FieldTitleName, kb.SearchContains), []string{"Zebra Studies"}},
		{"contains all words any order", q("testing journal", kb.FieldTitleName, kb.SearchContains), []string{"Journal of Testing"}},
		{"contains short word prefix", q("go", kb.FieldTitleName, kb.SearchContains), []string{"Go in Practice", "Learning Go"}},
		{"contains diacritics folded", q("Zébra", kb.FieldTitleName, kb.SearchContains), []string{"Zebra Studies"}},
		{"any", q("zebra annals", kb.FieldTitleName, kb.SearchAny), []string{"Annals of Software Quality", "Zebra Studies"}},
		{"exact match", q("journal of testing", kb.FieldTitleName, kb.SearchExactMatch), []string{"Journal of Testing"}},
		{"exact match is whole", q("journal of", kb.FieldTitleName, kb.SearchExactMatch), nil},
		{"begins with", q("Journal o", kb.FieldTitleName, kb.SearchBeginsWith), []string{"Journal of Testing"}},
		{"begins with not middle", q("Testing", kb.FieldTitleName, kb.SearchBeginsWith), nil},
		{"exact phrase", q("of software", kb.FieldTitleName, kb.SearchExactPhrase), []string{"Annals of Software Quality"}},
		{"exact phrase order", q("software of", kb.FieldTitleName, kb.SearchExactPhrase), nil},
		{"proximity", q("annals quality", kb.FieldTitleName, kb.SearchProximity), []string{"Annals of Software Quality"}},
		{"advanced and or", q(`(zebra OR annals) AND studies`, kb.FieldTitleName, kb.SearchAdvanced), []string{"Zebra Studies"}},
		{"advanced not", q(`go NOT practice`, kb.FieldTitleName, kb.SearchAdvanced), []string{"Learning Go"}},
		{"advanced phrase prefix", q(`"weekly news"* OR zeb*`, kb.FieldTitleName, kb.SearchAdvanced), []string{"The Weekly Newsletter", "Zebra Studies"}},
		{"publisher contains", q("gopher", kb.FieldPublisher, kb.SearchContains), []string{"Go in Practice", "Learning Go"}},
		{"publisher exact", q("Savanna Society", kb.FieldPublisher, kb.SearchExactMatch), []string{"Zebra Studies"}},
		{"publisher begins", q("sav", kb.FieldPublisher, kb.SearchBeginsWith), []string{"Zebra Studies"}},
		{"subject", q("zoology", kb.FieldSubject, kb.SearchContains), []string{"Zebra Studies"}},
		{"subject phrase", q("software engineering", kb.FieldSubject, kb.SearchExactPhrase), []string{"Annals of Software Quality"}},
		{"isxn issn no hyphen", q("03178471", kb.FieldISXN, kb.SearchContains), []string{"Journal of Testing"}},
		{"isxn online issn", q(TestingOnlineISSN, kb.FieldISXN, kb.SearchExactMatch), []string{"Journal of Testing"}},
		{"isxn isbn-13 hyphens", q(GoISBN13, kb.FieldISXN, kb.SearchExactMatch), []string{"Learning Go"}},
		{"isxn isbn-10 finds isbn-13", q("0306406152", kb.FieldISXN, kb.SearchExactMatch), []string{"Learning Go"}},
		{"isxn prefix", q("0317", kb.FieldISXN, kb.SearchBeginsWith), []string{"Journal of Testing"}},
		{"resource type", kb.TitleQuery{ResourceType: kb.ResourceBook, Page: page(20)}, []string{"Go in Practice", "Learning Go"}},
		{"order by name with search", kb.TitleQuery{Search: "o", Type: kb.SearchContains, OrderBy: kb.OrderName, Page: page(20)}, nil},
		{"package scope", kb.TitleQuery{PackageID: f.BetaFull, VendorID: f.BetaVendor, Page: page(20)},
			[]string{"Journal of Testing", "Learning Go", "The Weekly Newsletter"}},
		{"package scope search", kb.TitleQuery{PackageID: f.BetaFull, VendorID: f.BetaVendor, Search: "go", Page: page(20)}, []string{"Learning Go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := s.Titles(ctx, "c1", tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "order by name with search" {
				// "o" as a word prefix: every title with a word starting with o, by name.
				if !equal(titleNames(l), []string{"Annals of Software Quality", "Journal of Testing"}) {
					t.Errorf("got %v", titleNames(l))
				}
				return
			}
			got := titleNames(l)
			if !sameSet(got, tt.names) {
				t.Errorf("titles = %v, want %v", got, tt.names)
			}
			if l.Total != len(tt.names) {
				t.Errorf("total = %d, want %d", l.Total, len(tt.names))
			}
			if tt.q.Search == "" && !equal(got, tt.names) {
				t.Errorf("order = %v, want %v", got, tt.names)
			}
			if tt.q.PackageID != 0 {
				for _, ti := range l.Titles {
					if len(ti.Resources) != 1 || ti.Resources[0].PackageID != tt.q.PackageID {
						t.Errorf("%s: resources %+v, want only the package's", ti.Name, ti.Resources)
					}
				}
			}
		})
	}
	// Relevance: a title matching the word twice ranks first.
	Import(t, s, "Gamma", "Gamma Set", kb.ContentUnknown, []Row{
		{Title: "Quality", Type: "serial"},
		{Title: "Quality Quality Quality", Type: "serial", Publisher: "Q"},
	})
	l, _ := s.Titles(ctx, "c1", q("quality", kb.FieldTitleName, kb.SearchAny))
	if l.Total != 3 || l.Titles[0].Name != "Quality Quality Quality" {
		t.Errorf("relevance order = %v", titleNames(l))
	}
	_, err := s.Titles(ctx, "c1", q(`AND zebra`, kb.FieldTitleName, kb.SearchAdvanced))
	wantCode(t, err, kb.CodeInvalid)
	for _, bad := range []string{`"unclosed`, `(((`, `zebra OR`, `()`, `NOT zebra`} {
		_, err = s.Titles(ctx, "c1", q(bad, kb.FieldTitleName, kb.SearchAdvanced))
		wantCode(t, err, kb.CodeInvalid)
	}
	_, err = s.Titles(ctx, "c1", kb.TitleQuery{PackageID: f.BetaFull, VendorID: f.AlphaVendor, Page: page(5)})
	wantCode(t, err, kb.CodeNotFound)
	// Pages.
	l, _ = s.Titles(ctx, "c1", kb.TitleQuery{Page: kb.Page{Count: 4, Number: 2}})
	if l.Total != 8 || !equal(titleNames(l), []string{"Quality", "Quality Quality Quality", "The Weekly Newsletter", "Zebra Studies"}) {
		t.Errorf("page 2 = %d %v", l.Total, titleNames(l))
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}
