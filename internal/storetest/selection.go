package storetest

import (
	"context"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func testSelection(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	yes, no := true, false
	if err := s.SetPackageState(ctx, "c1", f.AlphaJournals, kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	jot, _ := s.Titles(ctx, "c1", kb.TitleQuery{Search: TestingPrintISSN, Field: kb.FieldISXN, Page: page(5)})
	// Deselect Journal of Testing inside the selected package, select Learning Go in Beta.
	if err := s.SetResourceState(ctx, "c1", f.AlphaJournals, jot.Titles[0].ID, kb.ResourceState{Selected: &no}); err != nil {
		t.Fatal(err)
	}
	gl, _ := s.Titles(ctx, "c1", kb.TitleQuery{Search: "learning go", Type: kb.SearchExactMatch, Page: page(5)})
	if err := s.SetResourceState(ctx, "c1", f.BetaFull, gl.Titles[0].ID, kb.ResourceState{Selected: &yes, Hidden: true}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.SetResourceState(ctx, "c1", f.AlphaBooks, jot.Titles[0].ID, kb.ResourceState{Selected: &yes}), kb.CodeNotFound)
	wantCode(t, s.SetPackageState(ctx, "c1", 999999, kb.PackageState{Selected: true}), kb.CodeNotFound)

	p, _ := s.Package(ctx, "c1", f.AlphaVendor, f.AlphaJournals)
	if !p.IsSelected || p.SelectedCount != 2 || p.TitleCount != 3 {
		t.Errorf("selected package = selected %v count %d of %d; want true 2 of 3", p.IsSelected, p.SelectedCount, p.TitleCount)
	}
	p, _ = s.Package(ctx, "c1", f.BetaVendor, f.BetaFull)
	if !p.IsSelected || p.SelectedCount != 1 {
		t.Errorf("package with one selected title = %v %d", p.IsSelected, p.SelectedCount)
	}
	// Customer c2 sees none of it.
	p, _ = s.Package(ctx, "c2", f.AlphaVendor, f.AlphaJournals)
	if p.IsSelected || p.SelectedCount != 0 {
		t.Errorf("c2 sees c1's selection: %+v", p)
	}
	v, _ := s.Vendor(ctx, "c1", f.AlphaVendor)
	if v.PackagesSelected != 1 {
		t.Errorf("vendor packagesSelected = %d, want 1", v.PackagesSelected)
	}
	sel, _ := s.Packages(ctx, "c1", kb.PackageQuery{Selection: kb.SelectionSelected, Page: page(10)})
	if !equal(packageNames(sel), []string{"Alpha Journals", "Beta Complete"}) {
		t.Errorf("selected packages = %v", packageNames(sel))
	}
	tl, _ := s.Titles(ctx, "c1", kb.TitleQuery{Selection: kb.SelectionSelected, Page: page(20)})
	if !equal(titleNames(tl), []string{"Annals of Software Quality", "Learning Go", "Zebra Studies"}) {
		t.Errorf("selected titles = %v", titleNames(tl))
	}
	tl, _ = s.Titles(ctx, "c1", kb.TitleQuery{Selection: kb.SelectionNotSelected, Page: page(20)})
	if !equal(titleNames(tl), []string{"Go in Practice", "Journal of Testing", "The Weekly Newsletter"}) {
		t.Errorf("not selected titles = %v", titleNames(tl))
	}
	tl, _ = s.Titles(ctx, "c1", kb.TitleQuery{PackageID: f.AlphaJournals, VendorID: f.AlphaVendor, Selection: kb.SelectionNotSelected, Page: page(20)})
	if !equal(titleNames(tl), []string{"Journal of Testing"}) {
		t.Errorf("not selected in package = %v", titleNames(tl))
	}
	r, err := s.Resource(ctx, "c1", f.BetaVendor, f.BetaFull, gl.Titles[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if res := r.Resources; len(res) != 1 || !res[0].IsSelected || !res[0].Visibility.Hidden || res[0].Visibility.Reason != kb.ReasonHiddenByCustomer {
		t.Errorf("hidden selected resource = %+v", res)
	}
	ti, _ := s.Title(ctx, "c1", jot.Titles[0].ID)
	for _, res := range ti.Resources {
		if res.IsSelected {
			t.Errorf("Journal of Testing selected in %s", res.PackageName)
		}
	}
	_, err = s.Resource(ctx, "c1", f.AlphaVendor, f.AlphaBooks, jot.Titles[0].ID)
	wantCode(t, err, kb.CodeNotFound)
	_, err = s.Title(ctx, "c1", 999999)
	wantCode(t, err, kb.CodeNotFound)
}

func testIsolation(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	vs, _ := s.Vendors(ctx, "c2", kb.VendorQuery{Page: page(10)})
	for _, v := range vs.Vendors {
		if v.ID == f.C1Vendor {
			t.Errorf("c2 lists c1's own vendor")
		}
	}
	_, err := s.Vendors(ctx, "nobody", kb.VendorQuery{Page: page(10)})
	wantCode(t, err, kb.CodeNotFound)
	_, err = s.Titles(ctx, "nobody", kb.TitleQuery{Page: page(10)})
	wantCode(t, err, kb.CodeNotFound)
}
