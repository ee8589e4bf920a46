package storetest

import (
	"context"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// testPackageLists checks the package searches and filters of the hosted
// service's v2 lists (kb.PackageMatch, keyword, visibility) and the read
// of a package by its id alone.
func testPackageLists(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	if err := s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaBooks, kb.PackageUpdate{Selected: true, Hidden: true}); err != nil {
		t.Fatal(err)
	}
	all := []string{"Alpha Books", "Alpha Journals", "Beta Complete"}
	q := func(search string, m kb.PackageMatch) kb.PackageQuery {
		return kb.PackageQuery{Search: search, Match: m, Page: page(10)}
	}
	keyword := func(search string, m kb.PackageMatch) kb.PackageQuery {
		p := q(search, m)
		p.Keyword = true
		return p
	}
	for _, tc := range []struct {
		name  string
		cust  string
		q     kb.PackageQuery
		names []string
	}{
		{"words, every word a prefix", "c1", q("alp jou", kb.PackageMatchWords), []string{"Alpha Journals"}},
		{"any word", "c1", q("books complete", kb.PackageMatchAny), []string{"Alpha Books", "Beta Complete"}},
		{"contains a substring", "c1", q("ourna", kb.PackageMatchContains), []string{"Alpha Journals"}},
		{"contains every word", "c1", q("lpha ook", kb.PackageMatchContains), []string{"Alpha Books"}},
		{"contains folds case and diacritics", "c1", q("ÁLPHA", kb.PackageMatchContains), []string{"Alpha Books", "Alpha Journals"}},
		{"exact match", "c1", q("Alpha Books", kb.PackageMatchExact), []string{"Alpha Books"}},
		{"exact match is the whole name", "c1", q("alpha", kb.PackageMatchExact), nil},
		{"begins with", "c1", q("alpha j", kb.PackageMatchBeginsWith), []string{"Alpha Journals"}},
		{"begins with, not in the middle", "c1", q("books", kb.PackageMatchBeginsWith), nil},
		{"exact phrase", "c1", q("alpha-books", kb.PackageMatchPhrase), []string{"Alpha Books"}},
		{"exact phrase in order", "c1", q("books alpha", kb.PackageMatchPhrase), nil},
		{"exact phrase of whole words", "c1", q("alph books", kb.PackageMatchPhrase), nil},
		{"only punctuation matches nothing", "c1", q("%_", kb.PackageMatchContains), nil},
		{"a name search does not read vendor names", "c1", q("aggregator", kb.PackageMatchWords), nil},
		{"keyword reads vendor names", "c1", keyword("aggregator", kb.PackageMatchWords), []string{"Beta Complete"}},
		{"keyword reads package names", "c1", keyword("journals", kb.PackageMatchWords), []string{"Alpha Journals"}},
		{"keyword contains", "c1", keyword("ress", kb.PackageMatchContains), []string{"Alpha Books", "Alpha Journals"}},
		{"keyword exact vendor name", "c1", keyword("beta aggregator", kb.PackageMatchExact), []string{"Beta Complete"}},
		{"keyword without a search", "c1", keyword("", kb.PackageMatchWords), all},
		{"hidden", "c1", kb.PackageQuery{Visibility: kb.VisibilityHidden, Page: page(10)}, []string{"Alpha Books"}},
		{"visible", "c1", kb.PackageQuery{Visibility: kb.VisibilityShown, Page: page(10)}, []string{"Alpha Journals", "Beta Complete"}},
		{"hidden is the customer's", "c2", kb.PackageQuery{Visibility: kb.VisibilityHidden, Page: page(10)}, nil},
		{"hidden with a search", "c1", kb.PackageQuery{Search: "alpha", Match: kb.PackageMatchContains, Visibility: kb.VisibilityShown, Page: page(10)},
			[]string{"Alpha Journals"}},
	} {
		l, err := s.Packages(ctx, tc.cust, tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if l.Total != len(tc.names) || !equal(packageNames(l), tc.names) {
			t.Errorf("%s: got %d %v, want %v", tc.name, l.Total, packageNames(l), tc.names)
		}
	}

	p, err := s.PackageByID(ctx, "c1", f.AlphaBooks)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "Alpha Books" || p.VendorID != f.AlphaVendor || p.VendorName != "Alpha Press" || !p.IsSelected || !p.Visibility.Hidden {
		t.Errorf("PackageByID = %+v", p)
	}
	custom, err := s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: "Local list", ContentType: kb.ContentEJournal})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := s.PackageByID(ctx, "c1", custom); err != nil || !p.IsCustom || p.VendorID != f.C1Vendor {
		t.Errorf("PackageByID(own custom) = %+v, %v", p, err)
	}
	_, err = s.PackageByID(ctx, "c2", custom)
	wantCode(t, err, kb.CodeNotFound)
	_, err = s.PackageByID(ctx, "c1", custom+1000)
	wantCode(t, err, kb.CodeNotFound)
	_, err = s.PackageByID(ctx, "nobody", f.AlphaBooks)
	wantCode(t, err, kb.CodeNotFound)
}
