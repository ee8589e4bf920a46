package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// testNameSearchWrites checks that a vendor or package name is found by a
// search right after the write that created or renamed it, and not after
// its deletion: the search service reads the names again when they change.
func testNameSearchWrites(t *testing.T, s Store) {
	ctx := context.Background()
	LoadFixture(t, s)
	// packages lists c1's packages whose names search finds, as words
	// and as substrings (two matches of the search service, one answer here).
	packages := func(search string) []string {
		t.Helper()
		var found [2][]string
		for i, m := range []kb.PackageMatch{kb.PackageMatchWords, kb.PackageMatchContains} {
			list, err := s.Packages(ctx, "c1", kb.PackageQuery{Search: search, Match: m, Page: page(50)})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range list.Packages {
				found[i] = append(found[i], p.Name)
			}
		}
		if !slices.Equal(found[0], found[1]) {
			t.Errorf("search %q: as words %q, as substrings %q", search, found[0], found[1])
		}
		return found[0]
	}
	if got := packages("zanzibar"); got != nil {
		t.Fatalf("before: %q", got)
	}
	c1, err := s.Customer(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.CreateCustomPackage(ctx, "c1", c1.VendorID, kb.CustomPackage{Name: "Zanzibar Papers"})
	if err != nil {
		t.Fatal(err)
	}
	if got := packages("zanzibar"); !slices.Equal(got, []string{"Zanzibar Papers"}) {
		t.Errorf("after its creation: %q", got)
	}
	if err := s.UpdatePackage(ctx, "c1", c1.VendorID, id, kb.PackageUpdate{Selected: true, Name: "Quokka Papers"}); err != nil {
		t.Fatal(err)
	}
	if got := packages("zanzibar"); got != nil {
		t.Errorf("the old name after a rename: %q", got)
	}
	if got := packages("quok"); !slices.Equal(got, []string{"Quokka Papers"}) {
		t.Errorf("the new name after a rename: %q", got)
	}
	if err := s.DeleteCustomPackage(ctx, "c1", c1.VendorID, id); err != nil {
		t.Fatal(err)
	}
	if got := packages("quok"); got != nil {
		t.Errorf("after its deletion: %q", got)
	}
	Import(t, s, "Wombat Press", "Wombat Weekly", kb.ContentEJournal, []Row{{Title: "W", Print: "0317-8471", First: "2001"}})
	if got := packages("wombat"); !slices.Equal(got, []string{"Wombat Weekly"}) {
		t.Errorf("after an import: %q", got)
	}
	// Every package list search lists what the rules say of the full
	// list, whether it names the matches, the others (most match) or
	// neither (all match).
	all, err := s.Packages(ctx, "c1", kb.PackageQuery{Page: page(100)})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []kb.PackageQuery{
		{Search: "a", Match: kb.PackageMatchContains}, {Search: "e", Match: kb.PackageMatchContains},
		{Search: "alpha", Match: kb.PackageMatchWords}, {Search: "w", Match: kb.PackageMatchBeginsWith},
		{Search: "beta alpha", Match: kb.PackageMatchAny}, {Search: "wombat", Keyword: true},
	} {
		test, _ := kb.CompileNameSearch(kb.NameSearch{Kind: kb.NamePackages, Search: q.Search, Match: q.Match, Keyword: q.Keyword})
		var want []string
		for _, p := range all.Packages {
			if test.Matches(kb.Fold(p.Name), kb.Fold(p.VendorName)) {
				want = append(want, p.Name)
			}
		}
		q.OrderBy, q.Page = kb.OrderName, page(100)
		list, err := s.Packages(ctx, "c1", q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range list.Packages {
			got = append(got, p.Name)
		}
		if !slices.Equal(got, want) || list.Total != len(want) {
			t.Errorf("%+v: %d %q, want %q", q, list.Total, got, want)
		}
	}
	if _, err := s.AddCustomer(ctx, "c9", "Numbat Library"); err != nil {
		t.Fatal(err)
	}
	vendors, err := s.Vendors(ctx, "c9", kb.VendorQuery{Search: "numbat", Page: page(10)})
	if err != nil {
		t.Fatal(err)
	}
	if len(vendors.Vendors) != 1 || vendors.Vendors[0].Name != "Numbat Library" {
		t.Errorf("a new customer's vendor: %+v", vendors.Vendors)
	}
}
