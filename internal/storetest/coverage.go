package storetest

import (
	"slices"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// testCoverage checks kb.CoverageReader: a package's managed coverage by
// title, like HeldCoverages' for a customer without customisations; its
// version (and a custom package's moving with its titles); and a customer's own coverage and embargo, only its own
// and only where it set one.
func testCoverage(t *testing.T, s Store) {
	ctx := t.Context()
	fx := LoadFixture(t, s)
	pc := must[kb.PackageCoverage](t)(s.PackageCoverage(ctx, fx.AlphaJournals))
	l := must[kb.TitleList](t)(s.Titles(ctx, "c1", kb.TitleQuery{VendorID: fx.AlphaVendor, PackageID: fx.AlphaJournals, Page: kb.Page{Count: 100, Number: 1}}))
	if len(pc.Titles) != l.Total || len(pc.Class) != len(pc.Titles) || !slices.IsSorted(pc.Titles) || len(pc.Titles) < 2 {
		t.Fatalf("package %d's coverage: titles %v, classes %v; want %d titles ascending", fx.AlphaJournals, pc.Titles, pc.Class, l.Total)
	}
	held := must[map[kb.ResourceKey]kb.HeldCoverage](t)(s.HeldCoverages(ctx, "c2", []int64{fx.AlphaJournals}, pc.Titles))
	for i, title := range pc.Titles {
		want := held[kb.ResourceKey{PackageID: fx.AlphaJournals, TitleID: title}]
		if got := pc.Classes[pc.Class[i]]; !kb.SameCoverage(got, want) || got.Custom {
			t.Errorf("title %d's managed coverage: %+v, want %+v", title, got, want)
		}
	}
	imports := must[map[int64]int64](t)(s.PackageVersions(ctx, []int64{fx.AlphaJournals, 999999}))
	if n, ok := imports[fx.AlphaJournals]; !ok || n != pc.Version || n < 1 || len(imports) != 1 {
		t.Errorf("versions %v, want package %d's %d (at least 1) and no other", imports, fx.AlphaJournals, pc.Version)
	}
	if none := must[kb.PackageCoverage](t)(s.PackageCoverage(ctx, 999999)); len(none.Titles) != 0 {
		t.Errorf("a package that does not exist has titles: %+v", none)
	}

	// A custom package's version moves with its titles.
	c1 := must[kb.Customer](t)(s.Customer(ctx, "c1"))
	own := must[int64](t)(s.CreateCustomPackage(ctx, "c1", c1.VendorID, kb.CustomPackage{Name: "Own", ContentType: kb.ContentEJournal}))
	before := must[map[int64]int64](t)(s.PackageVersions(ctx, []int64{own}))
	if err := s.UpdateResource(ctx, "c1", c1.VendorID, own, pc.Titles[0], kb.ResourceUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	after := must[map[int64]int64](t)(s.PackageVersions(ctx, []int64{own}))
	ownCov := must[kb.PackageCoverage](t)(s.PackageCoverage(ctx, own))
	if _, ok := before[own]; !ok || after[own] == before[own] || ownCov.Version != after[own] || !slices.Equal(ownCov.Titles, pc.Titles[:1]) {
		t.Errorf("custom package %d: versions %v then %v, coverage %+v; want a move and title %d", own, before, after, ownCov, pc.Titles[0])
	}

	a, b, c := pc.Titles[0], pc.Titles[1], l.Titles[0].ID
	cov := []kb.Coverage{{Begin: "2001-01-01", End: "2003-12-31"}}
	emb := kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}
	for _, u := range []struct {
		cust  string
		title int64
		u     kb.ResourceUpdate
	}{
		{"c1", a, kb.ResourceUpdate{Selected: true, CustomCoverage: cov}},
		{"c1", b, kb.ResourceUpdate{Selected: true, CustomEmbargo: emb}},
		{"c2", a, kb.ResourceUpdate{Selected: true, CustomEmbargo: emb}},
		{"c2", c, kb.ResourceUpdate{Selected: true, CoverageStatement: "not coverage"}},
	} {
		if err := s.UpdateResource(ctx, u.cust, fx.AlphaVendor, fx.AlphaJournals, u.title, u.u); err != nil {
			t.Fatal(err)
		}
	}
	got := must[[]kb.CustomCoverage](t)(s.CustomCoverages(ctx, "c1", []int64{fx.AlphaJournals, fx.AlphaBooks}))
	slices.SortFunc(got, func(x, y kb.CustomCoverage) int { return int(x.TitleID - y.TitleID) })
	want := []kb.CustomCoverage{
		{ResourceKey: kb.ResourceKey{PackageID: fx.AlphaJournals, TitleID: a}, Coverage: cov},
		{ResourceKey: kb.ResourceKey{PackageID: fx.AlphaJournals, TitleID: b}, Embargo: emb},
	}
	slices.SortFunc(want, func(x, y kb.CustomCoverage) int { return int(x.TitleID - y.TitleID) })
	if !slices.EqualFunc(got, want, func(x, y kb.CustomCoverage) bool {
		return x.ResourceKey == y.ResourceKey && slices.Equal(x.Coverage, y.Coverage) && x.Embargo == y.Embargo
	}) {
		t.Errorf("c1's custom coverage: %+v, want %+v", got, want)
	}
	if got := must[[]kb.CustomCoverage](t)(s.CustomCoverages(ctx, "c2", []int64{fx.AlphaBooks})); len(got) != 0 {
		t.Errorf("c2's custom coverage in another package: %+v", got)
	}
	if got := must[[]kb.CustomCoverage](t)(s.CustomCoverages(ctx, "c2", []int64{fx.AlphaJournals})); len(got) != 1 || got[0].TitleID != a || got[0].Embargo != emb {
		t.Errorf("c2's custom coverage: %+v, want only title %d's embargo", got, a)
	}
}
