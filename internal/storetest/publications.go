package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/kb"
)

// testPublications: the collection is the selected, not hidden
// resources, read whole (CollectionHits) or a page at a time
// (CollectionTitles, Publication); TitleMatches searches the whole
// knowledge base; CollectionVersion moves with every change that can
// change the collection (and may move with others), and not with another
// customer's changes.
func testPublications(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	jot := titleID(t, s, TestingPrintISSN) // in Alpha Journals and Beta Complete
	goBook := titleID(t, s, GoISBN13)      // in Alpha Books and Beta Complete

	version := func() string {
		t.Helper()
		return must[string](t)(s.CollectionVersion(ctx, "c1"))
	}
	hits := func() map[int64][]int64 {
		t.Helper()
		out := map[int64][]int64{}
		last := int64(0)
		if err := s.CollectionHits(ctx, "c1", func(h kb.PubHit) {
			if _, dup := out[h.ID]; dup {
				t.Errorf("title %d handed twice", h.ID)
			}
			if h.ID <= last {
				t.Errorf("title %d handed after title %d: want ascending ids", h.ID, last)
			}
			last = h.ID
			p := slices.Clone(h.PackageIDs)
			slices.Sort(p)
			out[h.ID] = p
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	check := func(step string, want map[int64][]int64) {
		t.Helper()
		if diff := cmp.Diff(want, hits()); diff != "" {
			t.Errorf("%s: collection (-want +got):\n%s", step, diff)
		}
	}
	v0 := version()
	check("nothing selected", map[int64][]int64{})
	if v := version(); v != v0 {
		t.Errorf("version moved without a change: %s, then %s", v0, v)
	}

	// Alpha Journals whole, Learning Go alone in Beta Complete.
	must[struct{}](t)(struct{}{}, s.SetPackageState(ctx, "c1", f.AlphaJournals, kb.PackageState{Selected: true}))
	v1 := version()
	if v1 == v0 {
		t.Errorf("version %s did not move when a package was selected", v1)
	}
	yes := true
	must[struct{}](t)(struct{}{}, s.SetResourceState(ctx, "c1", f.BetaFull, goBook, kb.ResourceState{Selected: &yes}))
	journals := packageTitles(t, s, f.AlphaJournals)
	want := map[int64][]int64{goBook: {f.BetaFull}}
	for _, id := range journals {
		want[id] = []int64{f.AlphaJournals}
	}
	check("a package and a title", want)

	// The Journal of Testing is also selected in Beta Complete: one hit,
	// two packages.
	must[struct{}](t)(struct{}{}, s.SetResourceState(ctx, "c1", f.BetaFull, jot, kb.ResourceState{Selected: &yes}))
	want[jot] = []int64{f.AlphaJournals, f.BetaFull}
	slices.Sort(want[jot])
	check("a title in two packages", want)

	// Hidden through the holdings writer (a change with history): gone
	// from its package, and the version moves.
	v2 := version()
	if err := s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{Selected: true, Hidden: true}); err != nil {
		t.Fatal(err)
	}
	if v := version(); v == v2 {
		t.Errorf("version %s did not move when a resource was hidden", v)
	}
	want[jot] = []int64{f.BetaFull}
	check("a resource hidden", want)

	// c2's changes do not move c1's version; an import moves everyone's.
	v3 := version()
	must[struct{}](t)(struct{}{}, s.SetPackageState(ctx, "c2", f.AlphaBooks, kb.PackageState{Selected: true}))
	if v := version(); v != v3 {
		t.Errorf("c2's change moved c1's version: %s, then %s", v3, v)
	}
	Import(t, s, "Alpha Press", "Alpha Journals", kb.ContentEJournal, []Row{
		{Title: "Journal of Testing", Print: TestingPrintISSN, Online: TestingOnlineISSN, Type: "serial"},
		{Title: "Brand New Quarterly", Type: "serial"},
	})
	if v := version(); v == v3 {
		t.Errorf("version %s did not move with an import", v)
	}
	check("after a re-import", func() map[int64][]int64 {
		w := map[int64][]int64{goBook: {f.BetaFull}, jot: {f.BetaFull}}
		for _, id := range packageTitles(t, s, f.AlphaJournals) {
			if id != jot {
				w[id] = []int64{f.AlphaJournals}
			}
		}
		return w
	}())

	// A page of the collection: only collection resources, in the order
	// asked, titles outside it left out.
	titles := must[[]kb.Title](t)(s.CollectionTitles(ctx, "c1", []int64{goBook, 999_999, jot}))
	var got []string
	for _, ti := range titles {
		for _, r := range ti.Resources {
			got = append(got, ti.Name+"@"+r.PackageName)
			if !r.IsSelected || r.Visibility.Hidden || r.Notes == nil {
				t.Errorf("%s in %s: selected %v, hidden %v, notes %v", ti.Name, r.PackageName, r.IsSelected, r.Visibility.Hidden, r.Notes)
			}
		}
	}
	if diff := cmp.Diff([]string{"Learning Go@Beta Complete", "Journal of Testing@Beta Complete"}, got); diff != "" {
		t.Errorf("CollectionTitles (-want +got):\n%s", diff)
	}
	if _, err := s.Publication(ctx, "c1", f.AlphaJournals, jot); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("Publication of a hidden resource: %v, want not found", err)
	}
	if p, err := s.Publication(ctx, "c1", f.BetaFull, jot); err != nil || len(p.Resources) != 1 || p.Resources[0].PackageID != f.BetaFull {
		t.Errorf("Publication in Beta Complete: %+v, %v", p, err)
	}

	// The packages of the collection: those with a selected title.
	pl := must[kb.PackageList](t)(s.CollectionPackages(ctx, "c1", kb.CollectionPackageQuery{ByName: true}))
	var names []string
	for _, p := range pl.Packages {
		names = append(names, p.Name)
	}
	if diff := cmp.Diff([]string{"Alpha Journals", "Beta Complete"}, names); diff != "" || pl.Total != 2 {
		t.Errorf("CollectionPackages: total %d (-want +got):\n%s", pl.Total, diff)
	}

	// TitleMatches searches the whole knowledge base, ranked unless
	// ordered by name.
	matched := map[int64]bool{}
	if err := s.TitleMatches(ctx, "c1", kb.PubQuery{Search: "learning go", Type: kb.SearchContains}, func(id int64, rank float64) {
		matched[id] = true
	}); err != nil {
		t.Fatal(err)
	}
	if !matched[goBook] || len(matched) != 1 {
		t.Errorf("TitleMatches(learning go): %v, want only %d", matched, goBook)
	}
	if err := s.TitleMatches(ctx, "c1", kb.PubQuery{Search: "!!"}, func(int64, float64) { t.Error("a search without words matched") }); err != nil {
		t.Fatal(err)
	}
}

// packageTitles lists the title ids of a package.
func packageTitles(t *testing.T, s kb.Store, packageID int64) []int64 {
	t.Helper()
	l, err := s.Titles(context.Background(), "c1", kb.TitleQuery{PackageID: packageID, VendorID: vendorOf(t, s, packageID), Page: page(100)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, ti := range l.Titles {
		ids = append(ids, ti.ID)
	}
	return ids
}

// vendorOf returns a package's vendor.
func vendorOf(t *testing.T, s kb.Store, packageID int64) int64 {
	t.Helper()
	l, err := s.Packages(context.Background(), "c1", kb.PackageQuery{Page: page(100)})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range l.Packages {
		if p.ID == packageID {
			return p.VendorID
		}
	}
	t.Fatalf("package %d not listed", packageID)
	return 0
}
