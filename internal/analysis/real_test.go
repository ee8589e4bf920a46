package analysis_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kbserver/kbserver/internal/analysis"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/realdata"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestOverlapRealWiley imports two real Wiley collections of different
// years (ISTEX journals of 2016, the SSH journals of 2018) as `import
// kbart` does, and requires the overlap's counts and its shared list to
// be what the holdings service's own title lists of the two packages give
// when intersected by hand.
func TestOverlapRealWiley(t *testing.T) {
	ctx := t.Context()
	st := storetest.Searched(ctx, testdb.Open(t))
	if _, err := st.AddCustomer(ctx, "c1", "Customer One"); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	var vendor int64
	for _, f := range []struct{ file, name string }{
		{"ezpaarse-platforms/wiley/WILEY_FRANCE_ISTEXJOURNALS_2016-11-30_2016-12-19.txt", "ISTEX Journals 2016"},
		{"ezpaarse-platforms/wiley/WILEY_COUPERIN_SSH_2018-03-06.txt", "SSH Journals 2018"},
	} {
		file, err := os.Open(filepath.Join(realdata.Dir(t), f.file))
		if err != nil {
			t.Fatal(err)
		}
		kr, err := kbart.NewReader(file)
		if err != nil {
			t.Fatal(err)
		}
		src := kbart.NewSource(kbart.SourceFile{Name: f.name, Reader: kr})
		res, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: "Wiley", PackageName: f.name, ContentType: kb.ContentEJournal,
			PackageType: kb.PackageSelectable, ExtraColumns: src.ExtraColumns()}, src.Next)
		file.Close()
		if err != nil {
			t.Fatal(err)
		}
		ids, vendor = append(ids, res.PackageID), res.VendorID
	}
	// By hand: each package's title list, as the holdings service lists it.
	lists := make([]map[int64]kb.Resource, 2)
	for i, p := range ids {
		lists[i] = map[int64]kb.Resource{}
		for page := 1; ; page++ {
			l, err := st.Titles(ctx, "c1", kb.TitleQuery{VendorID: vendor, PackageID: p, Page: kb.Page{Count: 100, Number: page}})
			if err != nil {
				t.Fatal(err)
			}
			for _, ti := range l.Titles {
				lists[i][ti.ID] = ti.Resources[0]
			}
			if len(l.Titles) < 100 {
				break
			}
		}
	}
	var shared []int64
	same := 0
	for id, r := range lists[0] {
		if o, ok := lists[1][id]; ok {
			shared = append(shared, id)
			if kb.SameCoverage(kb.HeldCoverageOf(r), kb.HeldCoverageOf(o)) {
				same++
			}
		}
	}
	slices.Sort(shared)
	if len(shared) == 0 {
		t.Fatal("the two collections share no title: choose others")
	}
	svc := analysis.New(storetest.Raw(st).(analysis.Store), st.Search)
	got, err := svc.Overlap(ctx, "c1", kb.OverlapQuery{PackageIDs: ids})
	if err != nil {
		t.Fatal(err)
	}
	if got.SharedCount != len(shared) || got.SameCoverageCount != same ||
		got.Packages[0].TitleCount != len(lists[0]) || got.Packages[0].UniqueCount != len(lists[0])-len(shared) ||
		got.Packages[1].TitleCount != len(lists[1]) || got.Packages[1].UniqueCount != len(lists[1])-len(shared) {
		t.Errorf("overlap %+v; by hand: %d and %d titles, %d shared, %d with the same coverage", got, len(lists[0]), len(lists[1]), len(shared), same)
	}
	t.Logf("%d and %d titles, %d shared, %d with the same coverage", len(lists[0]), len(lists[1]), len(shared), same)
	all, _, err := svc.ListAll(ctx, "c1", kb.OverlapQuery{PackageIDs: ids, List: kb.OverlapList{Kind: kb.ListShared}})
	if err != nil {
		t.Fatal(err)
	}
	var pages []int64
	for n := 1; ; n++ {
		page, total, _, err := svc.List(ctx, "c1", kb.OverlapQuery{PackageIDs: ids, List: kb.OverlapList{Kind: kb.ListShared}}, kb.Page{Count: 100, Number: n})
		if err != nil {
			t.Fatal(err)
		}
		if total != len(shared) {
			t.Fatalf("the shared list: %d titles, want %d", total, len(shared))
		}
		pages = append(pages, page...)
		if len(page) < 100 {
			break
		}
	}
	if !slices.Equal(pages, all) {
		t.Errorf("the shared list's pages differ from the whole list")
	}
	byID := slices.Clone(pages)
	slices.Sort(byID)
	if !slices.Equal(byID, shared) {
		t.Errorf("the shared list has %d titles, not the %d shared by hand", len(byID), len(shared))
	}
}
