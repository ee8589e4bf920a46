package storetest

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/kb"
)

func testWrites(t *testing.T, open Opener) {
	t.Run("VendorAndProxies", func(t *testing.T) { testVendorWrites(t, Searched(t.Context(), open(t))) })
	t.Run("Packages", func(t *testing.T) { testPackageWrites(t, Searched(t.Context(), open(t))) })
	t.Run("CustomPackages", func(t *testing.T) { testCustomPackages(t, Searched(t.Context(), open(t))) })
	t.Run("Resources", func(t *testing.T) { testResourceWrites(t, Searched(t.Context(), open(t))) })
	t.Run("CompletePackage", func(t *testing.T) { testCompletePackage(t, Searched(t.Context(), open(t))) })
	t.Run("RootAndHistory", func(t *testing.T) { testRootAndHistory(t, Searched(t.Context(), open(t))) })
	t.Run("CustomTitleUpdateKeepsIdentifiers", func(t *testing.T) { testCustomTitleUpdateKeepsIdentifiers(t, Searched(t.Context(), open(t))) })
}

// titleID returns the id of the fixture title found by ISSN or ISBN.
func titleID(t *testing.T, s kb.Store, isxn string) int64 {
	t.Helper()
	l, err := s.Titles(context.Background(), "c1", kb.TitleQuery{Search: isxn, Field: kb.FieldISXN, Type: kb.SearchExactMatch, Page: page(5)})
	if err != nil || l.Total != 1 {
		t.Fatalf("title %s: %+v, %v", isxn, l, err)
	}
	return l.Titles[0].ID
}

func resource(t *testing.T, s kb.Store, cust string, vendorID, packageID, titleID int64) kb.Resource {
	t.Helper()
	ti, err := s.Resource(context.Background(), cust, vendorID, packageID, titleID)
	if err != nil {
		t.Fatalf("Resource(%d, %d, %d): %v", vendorID, packageID, titleID, err)
	}
	return ti.Resources[0]
}

func testVendorWrites(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	for _, id := range []string{"EZ", "OTHER"} {
		if err := s.AddProxy(ctx, "c1", kb.Proxy{ID: id, Name: id, URLMask: "https://" + id + ".example/?u={targetURL}"}); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, s.UpdateVendor(ctx, "c1", f.AlphaVendor, kb.VendorUpdate{Proxy: kb.ProxyRef{ID: "NOPE"}}), kb.CodeInvalid)
	wantCode(t, s.UpdateVendor(ctx, "c1", 99999, kb.VendorUpdate{Proxy: kb.ProxyRef{Inherited: true}}), kb.CodeNotFound)
	token := "abc"
	wantCode(t, s.UpdateVendor(ctx, "c1", f.AlphaVendor, kb.VendorUpdate{Proxy: kb.ProxyRef{Inherited: true}, TokenValue: &token}), kb.CodeNotAllowed)

	// Rule 4: a title's inherited proxy is its package's, else its vendor's, else the root's.
	jot := titleID(t, s, TestingPrintISSN)
	check := func(name string, want kb.ProxyRef) {
		t.Helper()
		if got := resource(t, s, "c1", f.AlphaVendor, f.AlphaJournals, jot).Proxy; got != want {
			t.Errorf("%s: resource proxy = %+v, want %+v", name, got, want)
		}
	}
	check("nothing set", kb.ProxyRef{ID: kb.NoProxyID, Inherited: true})
	if err := s.UpdateRoot(ctx, "c1", kb.RootSettings{ProxyID: "OTHER"}); err != nil {
		t.Fatal(err)
	}
	check("root", kb.ProxyRef{ID: "OTHER", Inherited: true})
	if err := s.UpdateVendor(ctx, "c1", f.AlphaVendor, kb.VendorUpdate{Proxy: kb.ProxyRef{ID: "EZ"}}); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Vendor(ctx, "c1", f.AlphaVendor); v.Proxy != (kb.ProxyRef{ID: "EZ"}) {
		t.Errorf("vendor proxy = %+v, want EZ not inherited", v.Proxy)
	}
	if v, _ := s.Vendor(ctx, "c2", f.AlphaVendor); v.Proxy != (kb.ProxyRef{ID: kb.NoProxyID, Inherited: true}) {
		t.Errorf("c2 sees c1's vendor proxy: %+v", v.Proxy)
	}
	check("vendor", kb.ProxyRef{ID: "EZ", Inherited: true})
	if p, _ := s.Package(ctx, "c1", f.AlphaVendor, f.AlphaJournals); p.Proxy != (kb.ProxyRef{ID: "EZ", Inherited: true}) {
		t.Errorf("package proxy = %+v, want EZ inherited", p.Proxy)
	}
	if err := s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true, Proxy: &kb.ProxyRef{ID: kb.NoProxyID}}); err != nil {
		t.Fatal(err)
	}
	check("package says none", kb.ProxyRef{ID: kb.NoProxyID, Inherited: true})
	if err := s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{Selected: true, Proxy: &kb.ProxyRef{ID: "OTHER"}}); err != nil {
		t.Fatal(err)
	}
	check("own", kb.ProxyRef{ID: "OTHER"})
	// Removing a proxy makes the settings that named it "no proxy".
	if err := s.RemoveProxy(ctx, "c1", "OTHER"); err != nil {
		t.Fatal(err)
	}
	check("removed", kb.ProxyRef{ID: kb.NoProxyID})
	if root, _ := s.Root(ctx, "c1"); root.ProxyID != kb.NoProxyID {
		t.Errorf("root proxy after removal = %q", root.ProxyID)
	}
	wantCode(t, s.RemoveProxy(ctx, "c1", "OTHER"), kb.CodeNotFound)
}

func testPackageWrites(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	jot := titleID(t, s, TestingPrintISSN)
	wantCode(t, s.UpdatePackage(ctx, "c1", f.BetaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true}), kb.CodeNotFound)
	wantCode(t, s.UpdatePackage(ctx, "c1", f.AlphaVendor, 99999, kb.PackageUpdate{Selected: true}), kb.CodeNotFound)
	cov := kb.Coverage{Begin: "2000-01-01", End: "2010-12-31"}
	if err := s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true, Hidden: true, CustomCoverage: cov}); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Package(ctx, "c1", f.AlphaVendor, f.AlphaJournals)
	if !p.IsSelected || p.SelectedCount != 3 || !p.Visibility.Hidden || p.CustomCoverage != cov {
		t.Errorf("selected hidden package = %+v", p)
	}
	r := resource(t, s, "c1", f.AlphaVendor, f.AlphaJournals, jot)
	if !r.IsSelected || !r.Visibility.Hidden {
		t.Errorf("title of a selected hidden package: selected %v hidden %v", r.IsSelected, r.Visibility.Hidden)
	}
	wantCode(t, s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true, CustomCoverage: kb.Coverage{Begin: "2010-01-01", End: "2001-01-01"}}), kb.CodeInvalid)
	// A title-level customisation, then deselecting the package removes it.
	if err := s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{Selected: true, CoverageStatement: "ours"}); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: false}); err != nil {
		t.Fatal(err)
	}
	p, _ = s.Package(ctx, "c1", f.AlphaVendor, f.AlphaJournals)
	if p.IsSelected || p.SelectedCount != 0 || p.Visibility.Hidden || p.CustomCoverage != (kb.Coverage{}) {
		t.Errorf("deselected package = %+v", p)
	}
	if r := resource(t, s, "c1", f.AlphaVendor, f.AlphaJournals, jot); r.IsSelected || r.CoverageStatement != "" || r.Visibility.Hidden {
		t.Errorf("title of a deselected package keeps its customisation: %+v", r)
	}
	// A partial selection selects no title until titles are selected.
	no := false
	if err := s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true, FullPackage: &no}); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Package(ctx, "c1", f.AlphaVendor, f.AlphaJournals); p.SelectedCount != 0 {
		t.Errorf("partial selection selected %d titles", p.SelectedCount)
	}
	if err := s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Package(ctx, "c1", f.AlphaVendor, f.AlphaJournals); !p.IsSelected || p.SelectedCount != 1 {
		t.Errorf("partial selection with one title: %v %d", p.IsSelected, p.SelectedCount)
	}
	// Selecting the whole package after that selects every title.
	if err := s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Package(ctx, "c1", f.AlphaVendor, f.AlphaJournals); p.SelectedCount != 3 {
		t.Errorf("full selection: %d of 3 titles", p.SelectedCount)
	}
	// A title deselected inside a selected package stays deselected when the package is hidden.
	if err := s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{Selected: false}); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true, Hidden: true}); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Package(ctx, "c1", f.AlphaVendor, f.AlphaJournals); p.SelectedCount != 2 {
		t.Errorf("hiding a selected package reselected a title: %d of 3", p.SelectedCount)
	}
}

func testCustomPackages(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	id, err := s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: "My Picks", ContentType: kb.ContentEBook})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Package(ctx, "c1", f.C1Vendor, id)
	if err != nil {
		t.Fatal(err)
	}
	if !p.IsCustom || p.PackageType != kb.PackageCustom || !p.IsSelected || p.ContentType != kb.ContentEBook || p.TitleCount != 0 {
		t.Errorf("custom package = %+v", p)
	}
	_, err = s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: "my picks"})
	wantCode(t, err, kb.CodeDuplicate)
	_, err = s.CreateCustomPackage(ctx, "c1", f.AlphaVendor, kb.CustomPackage{Name: "Elsewhere"})
	wantCode(t, err, kb.CodeNotAllowed)
	_, err = s.Package(ctx, "c2", f.C1Vendor, id)
	wantCode(t, err, kb.CodeNotFound)

	// A custom title is searchable at once.
	tid, err := s.CreateCustomTitle(ctx, "c1", f.C1Vendor, id, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Local Gazette", PubType: kb.ResourceNewspaper, Publisher: "Town Hall", URL: "https://town.example/gazette",
		Contributors: []kb.Contributor{{Type: "Editor", Name: "Ada"}},
		Identifiers:  []kb.Identifier{{ID: "2434-561X", Type: kb.IdentISSN, Subtype: kb.SubtypeOnline}},
	}, CoverageStatement: "since 1901", UserDefined: [5]string{"a", "", "", "", "e"}})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := s.Titles(ctx, "c1", kb.TitleQuery{Search: "gazette", Page: page(5)})
	if l.Total != 1 || l.Titles[0].ID != tid || !l.Titles[0].IsCustom || l.Titles[0].PubType != kb.ResourceNewspaper {
		t.Fatalf("custom title search = %+v", l)
	}
	r := l.Titles[0].Resources[0]
	if r.URL != "https://town.example/gazette" || r.CoverageStatement != "since 1901" || r.UserDefined[4] != "e" || !r.IsSelected || !r.IsPackageCustom {
		t.Errorf("custom title resource = %+v", r)
	}
	if l, _ := s.Titles(ctx, "c2", kb.TitleQuery{Search: "gazette", Page: page(5)}); l.Total != 0 {
		t.Errorf("c2 finds c1's custom title")
	}
	_, err = s.CreateCustomTitle(ctx, "c1", f.C1Vendor, id, kb.CustomTitle{TitleFields: kb.TitleFields{Name: "local gazette", PubType: kb.ResourceBook}})
	wantCode(t, err, kb.CodeInvalid)
	_, err = s.CreateCustomTitle(ctx, "c1", f.AlphaVendor, f.AlphaBooks, kb.CustomTitle{TitleFields: kb.TitleFields{Name: "X", PubType: kb.ResourceBook}})
	wantCode(t, err, kb.CodeNotAllowed)
	if p, _ := s.Package(ctx, "c1", f.C1Vendor, id); p.TitleCount != 1 || p.SelectedCount != 1 {
		t.Errorf("custom package counts = %d/%d, want 1/1", p.SelectedCount, p.TitleCount)
	}

	// A managed title added to the custom package.
	jot := titleID(t, s, TestingPrintISSN)
	if err := s.UpdateResource(ctx, "c1", f.C1Vendor, id, jot, kb.ResourceUpdate{Selected: true,
		Title: &kb.TitleFields{Name: "Journal of Testing", PubType: kb.ResourceJournal, URL: "https://local.example/jot"}}); err != nil {
		t.Fatal(err)
	}
	if r := resource(t, s, "c1", f.C1Vendor, id, jot); r.URL != "https://local.example/jot" || !r.IsSelected {
		t.Errorf("managed title in custom package = %+v", r)
	}
	ti, _ := s.Title(ctx, "c1", jot)
	if len(ti.Resources) != 3 || ti.Name != "Journal of Testing" {
		t.Errorf("Journal of Testing resources = %d, name %q", len(ti.Resources), ti.Name)
	}
	wantCounts := func(what string, titles, selected int) {
		t.Helper()
		if p, err := s.Package(ctx, "c1", f.C1Vendor, id); err != nil || p.TitleCount != titles || p.SelectedCount != selected {
			t.Errorf("%s: custom package counts %d titles, %d selected (%v); want %d, %d", what, p.TitleCount, p.SelectedCount, err, titles, selected)
		}
	}
	wantCounts("with a managed title added", 2, 2)
	// Renaming a custom title.
	if err := s.UpdateResource(ctx, "c1", f.C1Vendor, id, tid, kb.ResourceUpdate{Selected: true,
		Title: &kb.TitleFields{Name: "City Gazette", PubType: kb.ResourceNewspaper}}); err != nil {
		t.Fatal(err)
	}
	if l, _ := s.Titles(ctx, "c1", kb.TitleQuery{Search: "city gazette", Type: kb.SearchExactMatch, Page: page(5)}); l.Total != 1 {
		t.Errorf("renamed custom title not found by its new name")
	}
	// Deselecting a custom title deletes it.
	if err := s.UpdateResource(ctx, "c1", f.C1Vendor, id, tid, kb.ResourceUpdate{Selected: false}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Title(ctx, "c1", tid)
	wantCode(t, err, kb.CodeNotFound)
	if l, _ := s.Titles(ctx, "c1", kb.TitleQuery{Search: "gazette", Page: page(5)}); l.Total != 0 {
		t.Errorf("deleted custom title still searchable")
	}
	wantCounts("after the custom title's deselection", 1, 1)
	// Deselecting the managed title takes it out of the custom package
	// only; selecting it there again puts it back.
	if err := s.UpdateResource(ctx, "c1", f.C1Vendor, id, jot, kb.ResourceUpdate{Selected: false}); err != nil {
		t.Fatal(err)
	}
	wantCounts("after the managed title's deselection", 0, 0)
	if ti, err := s.Title(ctx, "c1", jot); err != nil || len(ti.Resources) != 2 {
		t.Errorf("managed title after its deselection from the custom package: %v, %d resources", err, len(ti.Resources))
	}
	if err := s.UpdateResource(ctx, "c1", f.C1Vendor, id, jot, kb.ResourceUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	wantCounts("with the managed title added again", 1, 1)
	// Deselecting the custom package deletes it; the managed title stays.
	if err := s.UpdatePackage(ctx, "c1", f.C1Vendor, id, kb.PackageUpdate{Selected: false}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Package(ctx, "c1", f.C1Vendor, id)
	wantCode(t, err, kb.CodeNotFound)
	if ti, err := s.Title(ctx, "c1", jot); err != nil || len(ti.Resources) != 2 {
		t.Errorf("managed title after its custom package went: %v, %d resources", err, len(ti.Resources))
	}
	wantCode(t, s.DeleteCustomPackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals), kb.CodeNotAllowed)
	id2, _ := s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: "Second"})
	if err := s.DeleteCustomPackage(ctx, "c1", f.C1Vendor, id2); err != nil {
		t.Fatal(err)
	}
	_, err = s.Package(ctx, "c1", f.C1Vendor, id2)
	wantCode(t, err, kb.CodeNotFound)
}

func testResourceWrites(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	if err := s.AddProxy(ctx, "c1", kb.Proxy{ID: "EZ", Name: "EZ", URLMask: "https://ez.example/?u={targetURL}"}); err != nil {
		t.Fatal(err)
	}
	jot := titleID(t, s, TestingPrintISSN)
	full := kb.ResourceUpdate{
		Selected: true, Hidden: true,
		CustomCoverage:    []kb.Coverage{{Begin: "2010-01-01"}, {Begin: "2001-01-01", End: "2005-12-31"}},
		CoverageStatement: "Print only before 2001",
		CustomEmbargo:     kb.Embargo{Unit: kb.EmbargoMonths, Value: 6},
		Proxy:             &kb.ProxyRef{ID: "EZ"},
		UserDefined:       [5]string{"one", "two", "", "", "five"},
	}
	if err := s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, full); err != nil {
		t.Fatal(err)
	}
	r := resource(t, s, "c1", f.AlphaVendor, f.AlphaJournals, jot)
	want := kb.Resource{IsSelected: true, Visibility: kb.Visibility{Hidden: true, Reason: kb.ReasonHiddenByCustomer},
		CustomCoverage: full.CustomCoverage, CoverageStatement: full.CoverageStatement, CustomEmbargo: full.CustomEmbargo,
		Proxy: kb.ProxyRef{ID: "EZ"}, UserDefined: full.UserDefined}
	got := kb.Resource{IsSelected: r.IsSelected, Visibility: r.Visibility, CustomCoverage: r.CustomCoverage,
		CoverageStatement: r.CoverageStatement, CustomEmbargo: r.CustomEmbargo, Proxy: r.Proxy, UserDefined: r.UserDefined}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("customised resource (-want +got):\n%s", diff)
	}
	if p, _ := s.Package(ctx, "c1", f.AlphaVendor, f.AlphaJournals); !p.IsSelected || p.SelectedCount != 1 {
		t.Errorf("package after one title selected: %v %d", p.IsSelected, p.SelectedCount)
	}
	// Rule 6: only isSelected true clears all earlier customisation.
	if err := s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	r = resource(t, s, "c1", f.AlphaVendor, f.AlphaJournals, jot)
	if !r.IsSelected || r.Visibility.Hidden || len(r.CustomCoverage) != 0 || r.CoverageStatement != "" || r.CustomEmbargo.Value != 0 ||
		r.Proxy != (kb.ProxyRef{ID: kb.NoProxyID, Inherited: true}) || r.UserDefined != [5]string{} {
		t.Errorf("customisation not cleared: %+v", r)
	}
	// Deselecting clears it too.
	if err := s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, full); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{}); err != nil {
		t.Fatal(err)
	}
	if r := resource(t, s, "c1", f.AlphaVendor, f.AlphaJournals, jot); r.IsSelected || r.CoverageStatement != "" || r.Visibility.Hidden {
		t.Errorf("deselected resource = %+v", r)
	}
	for _, bad := range []kb.ResourceUpdate{
		{Selected: true, CustomCoverage: []kb.Coverage{{Begin: "2001-01-01", End: "2002-01-01"}, {Begin: "2010-01-01"}}},
		{Selected: true, CustomCoverage: []kb.Coverage{{Begin: "2001-02-30"}}},
		{Selected: true, Proxy: &kb.ProxyRef{ID: "NOPE"}},
	} {
		wantCode(t, s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, bad), kb.CodeInvalid)
	}
	wantCode(t, s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaBooks, jot, kb.ResourceUpdate{Selected: true}), kb.CodeNotFound)
	wantCode(t, s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, 999999, kb.ResourceUpdate{Selected: true}), kb.CodeNotFound)
	// c2 is untouched by all of it.
	if r := resource(t, s, "c2", f.AlphaVendor, f.AlphaJournals, jot); r.IsSelected || r.CoverageStatement != "" {
		t.Errorf("c2 sees c1's customisation: %+v", r)
	}
}

func testCompletePackage(t *testing.T, s Store) {
	ctx := context.Background()
	LoadFixture(t, s)
	res, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: "Gamma", PackageName: "Gamma All", PackageType: kb.PackageComplete},
		Rows([]Row{{Title: "Gamma One", Online: "2434-561X", Type: "serial"}, {Title: "Gamma Two", Type: "serial"}}))
	if err != nil {
		t.Fatal(err)
	}
	one := titleID(t, s, "2434-561X")
	wantCode(t, s.UpdateResource(ctx, "c1", res.VendorID, res.PackageID, one, kb.ResourceUpdate{Selected: true}), kb.CodeNotAllowed)
	if err := s.UpdatePackage(ctx, "c1", res.VendorID, res.PackageID, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.UpdateResource(ctx, "c1", res.VendorID, res.PackageID, one, kb.ResourceUpdate{Selected: false}), kb.CodeNotAllowed)
	// Customising a title of a selected Complete package is allowed.
	if err := s.UpdateResource(ctx, "c1", res.VendorID, res.PackageID, one, kb.ResourceUpdate{Selected: true, Hidden: true}); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Package(ctx, "c1", res.VendorID, res.PackageID); p.SelectedCount != 2 {
		t.Errorf("complete package selected %d of 2", p.SelectedCount)
	}
}

func testRootAndHistory(t *testing.T, s Store) {
	ctx := kb.WithActor(context.Background(), 42)
	f := LoadFixture(t, s)
	labels := [5]kb.Label{{ID: 1, DisplayLabel: "Local note", DisplayOnFullTextFinder: true}, {ID: 2}, {ID: 3, DisplayLabel: "Fund", DisplayOnPublicationFinder: true}, {ID: 4}, {ID: 5}}
	wantCode(t, s.UpdateRoot(ctx, "c1", kb.RootSettings{ProxyID: "NOPE", Labels: labels}), kb.CodeInvalid)
	if err := s.UpdateRoot(ctx, "c1", kb.RootSettings{ProxyID: kb.NoProxyID, Labels: labels}); err != nil {
		t.Fatal(err)
	}
	root, _ := s.Root(ctx, "c1")
	if diff := cmp.Diff(labels, root.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if err := s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	cs, err := s.Changes(ctx, kb.ChangeQuery{CustomerID: "c1", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 {
		t.Fatalf("%d changes recorded, want 2: %+v", len(cs), cs)
	}
	pc := cs[0]
	if pc.Object != "package "+itoa(f.AlphaJournals) || pc.KeyID != 42 || pc.Before != "" || !strings.Contains(pc.After, `"selected":1`) || pc.At == "" {
		t.Errorf("package change = %+v", pc)
	}
	if cs[1].Object != "root" || !strings.Contains(cs[1].After, "Local note") {
		t.Errorf("root change = %+v", cs[1])
	}
	if cs, _ := s.Changes(ctx, kb.ChangeQuery{CustomerID: "c2", Limit: 10}); len(cs) != 0 {
		t.Errorf("c2 has c1's changes: %+v", cs)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// testCustomTitleUpdateKeepsIdentifiers: the specification's title update
// body has no identifiers or contributors, so an update keeps them.
func testCustomTitleUpdateKeepsIdentifiers(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	id, err := s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: "Mine"})
	if err != nil {
		t.Fatal(err)
	}
	tid, err := s.CreateCustomTitle(ctx, "c1", f.C1Vendor, id, kb.CustomTitle{TitleFields: kb.TitleFields{Name: "Kept", PubType: kb.ResourceJournal,
		Contributors: []kb.Contributor{{Type: "Editor", Name: "Ada"}},
		Identifiers:  []kb.Identifier{{ID: "2434-561X", Type: kb.IdentISSN, Subtype: kb.SubtypePrint}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateResource(ctx, "c1", f.C1Vendor, id, tid, kb.ResourceUpdate{Selected: true, Hidden: true,
		Title: &kb.TitleFields{Name: "Kept Renamed", PubType: kb.ResourceJournal}}); err != nil {
		t.Fatal(err)
	}
	ti, err := s.Title(ctx, "c1", tid)
	if err != nil {
		t.Fatal(err)
	}
	if ti.Name != "Kept Renamed" || len(ti.Identifiers) != 1 || len(ti.Contributors) != 1 {
		t.Errorf("after an update without identifiers or contributors: %+v", ti)
	}
	if l, _ := s.Titles(ctx, "c1", kb.TitleQuery{Search: "2434561X", Field: kb.FieldISXN, Page: page(5)}); l.Total != 1 {
		t.Errorf("identifier no longer searchable: %d", l.Total)
	}
}
