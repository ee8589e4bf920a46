package storetest

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/kb"
)

func testImport(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)

	// Journal of Testing is one title with resources in two packages, found
	// by print ISSN with and without hyphen.
	l, err := s.Titles(ctx, "c1", kb.TitleQuery{Search: TestingPrintISSN, Field: kb.FieldISXN, Type: kb.SearchExactMatch, Page: kb.Page{Count: 10, Number: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if l.Total != 1 {
		t.Fatalf("ISSN search total = %d, want 1 title", l.Total)
	}
	jot := l.Titles[0]
	if len(jot.Resources) != 2 {
		t.Fatalf("Journal of Testing has %d resources, want 2", len(jot.Resources))
	}
	if jot.PubType != kb.ResourceJournal || jot.Publisher != "Alpha Press" {
		t.Errorf("Journal of Testing = type %v publisher %q", jot.PubType, jot.Publisher)
	}
	var alpha kb.Resource
	for _, r := range jot.Resources {
		if r.PackageID == f.AlphaJournals {
			alpha = r
		}
	}
	// Two rows of one title in a package are one resource with two coverage
	// ranges, newest first.
	wantCov := []kb.Coverage{{Begin: "2005-01-01", End: ""}, {Begin: "1990-01-01", End: "1999-12-31"}}
	if diff := cmp.Diff(wantCov, alpha.ManagedCoverage); diff != "" {
		t.Errorf("coverage (-want +got):\n%s", diff)
	}
	if alpha.URL != "https://alpha.example/jot" || alpha.VendorID != f.AlphaVendor || alpha.PackageName != "Alpha Journals" {
		t.Errorf("resource = %+v", alpha)
	}
	wantIDs := []kb.Identifier{
		{ID: TestingPrintISSN, Source: "ResourceIdentifier", Type: kb.IdentISSN, Subtype: kb.SubtypePrint},
		{ID: TestingOnlineISSN, Source: "ResourceIdentifier", Type: kb.IdentISSN, Subtype: kb.SubtypeOnline},
	}
	if diff := cmp.Diff(wantIDs, jot.Identifiers); diff != "" {
		t.Errorf("identifiers (-want +got):\n%s", diff)
	}
	if len(jot.Subjects) != 2 || jot.Subjects[0].Name != "Computer Science" {
		t.Errorf("subjects = %+v", jot.Subjects)
	}

	// ISBN-10 and ISBN-13 of Learning Go match: one title.
	l, _ = s.Titles(ctx, "c1", kb.TitleQuery{Search: "Learning Go", Field: kb.FieldTitleName, Type: kb.SearchExactMatch, Page: kb.Page{Count: 10, Number: 1}})
	if l.Total != 1 || len(l.Titles[0].Resources) != 2 {
		t.Errorf("Learning Go: total %d, want 1 title in 2 packages (%+v)", l.Total, l.Titles)
	}

	// Managed embargo from embargo_info P1Y.
	asq, _ := s.Titles(ctx, "c1", kb.TitleQuery{Search: "2049-3630", Field: kb.FieldISXN, Page: kb.Page{Count: 10, Number: 1}})
	if asq.Total != 1 {
		t.Fatalf("ASQ total = %d", asq.Total)
	}
	if got := asq.Titles[0].Resources[0].ManagedEmbargo; got != (kb.Embargo{Unit: kb.EmbargoYears, Value: 1}) {
		t.Errorf("embargo = %+v, want 1 Years", got)
	}
	if got := asq.Titles[0].Resources[0].ManagedCoverage; len(got) != 1 || got[0] != (kb.Coverage{Begin: "2001-01-01"}) {
		t.Errorf("coverage from a year = %+v", got)
	}

	p, err := s.Package(ctx, "c1", f.AlphaVendor, f.AlphaJournals)
	if err != nil {
		t.Fatal(err)
	}
	if p.TitleCount != 3 || p.ContentType != kb.ContentEJournal || p.IsSelected || p.SelectedCount != 0 || p.IsCustom {
		t.Errorf("package = %+v", p)
	}
	_, err = s.Package(ctx, "c1", f.BetaVendor, f.AlphaJournals)
	wantCode(t, err, kb.CodeNotFound)
}

func testReimport(t *testing.T, s Store) {
	ctx := context.Background()
	LoadFixture(t, s)
	rows := []Row{
		{Title: "Journal of Testing", Print: "0317-8471", First: "1991", URL: "https://beta.example/jot2", Publisher: "Alpha Press", Type: "serial"},
		{Title: "The Weekly Newsletter", First: "2010-01-01", URL: "https://beta.example/wn", Publisher: "Beta Media", Type: "serial"},
		{Title: "A New Title", Online: "2434-561X", URL: "https://beta.example/new", Publisher: "Beta Media", Type: "serial"},
		{Title: "A New Title", Online: "2434-561X", URL: "https://beta.example/new", Publisher: "Beta Media", Type: "serial"}, // duplicate row
	}
	res := Import(t, s, "beta aggregator", "BETA COMPLETE", kb.ContentAggregatedFullText, rows)
	want := kb.ImportResult{ImportID: res.ImportID, VendorID: res.VendorID, PackageID: res.PackageID, Rows: 4, TitlesCreated: 1, TitlesMatched: 3,
		ResourcesAdded: 1, ResourcesUpdated: 1, ResourcesRemoved: 1}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("re-import result (-want +got):\n%s", diff)
	}
	vs, _ := s.Vendors(ctx, "c1", kb.VendorQuery{Page: kb.Page{Count: 100, Number: 1}})
	if vs.Total != 3 { // Alpha, Beta and c1's own vendor: no duplicate vendor
		t.Errorf("vendors after re-import = %d, want 3", vs.Total)
	}
	p, _ := s.Package(ctx, "c1", res.VendorID, res.PackageID)
	if p.TitleCount != 3 {
		t.Errorf("title count = %d, want 3", p.TitleCount)
	}
	// Learning Go left the package but is still in Alpha Books.
	l, _ := s.Titles(ctx, "c1", kb.TitleQuery{Search: "learning go", Type: kb.SearchExactMatch, Page: kb.Page{Count: 10, Number: 1}})
	if l.Total != 1 || len(l.Titles[0].Resources) != 1 {
		t.Errorf("Learning Go after removal from Beta: %+v", l)
	}
	nt, _ := s.Titles(ctx, "c1", kb.TitleQuery{Search: "A New Title", Type: kb.SearchExactMatch, Page: kb.Page{Count: 10, Number: 1}})
	if nt.Total != 1 || len(nt.Titles[0].Resources[0].ManagedCoverage) != 0 {
		t.Errorf("duplicate row was not skipped: %+v", nt)
	}
	// Importing the same rows again changes nothing.
	res = Import(t, s, "Beta Aggregator", "Beta Complete", kb.ContentAggregatedFullText, rows)
	if res.ResourcesAdded+res.ResourcesUpdated+res.ResourcesRemoved+res.TitlesCreated != 0 {
		t.Errorf("identical re-import changed something: %+v", res)
	}
	// A title that leaves its only package is gone.
	Import(t, s, "Beta Aggregator", "Beta Complete", kb.ContentAggregatedFullText, rows[:2])
	nt, _ = s.Titles(ctx, "c1", kb.TitleQuery{Search: "A New Title", Type: kb.SearchExactMatch, Page: kb.Page{Count: 10, Number: 1}})
	if nt.Total != 0 {
		t.Errorf("orphan title still listed: %+v", nt)
	}
	nt, _ = s.Titles(ctx, "c1", kb.TitleQuery{Search: "a new title", Type: kb.SearchContains, Page: kb.Page{Count: 10, Number: 1}})
	if nt.Total != 0 {
		t.Errorf("orphan title still in the search index: %+v", nt)
	}
}

func testImportRollback(t *testing.T, s Store) {
	ctx := context.Background()
	LoadFixture(t, s)
	before, _ := s.Titles(ctx, "c1", kb.TitleQuery{Page: kb.Page{Count: 100, Number: 1}})
	n := 0
	_, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: "Gamma", PackageName: "Broken"}, func() (kb.ImportRow, error) {
		n++
		if n > 2 {
			return kb.ImportRow{}, errStop
		}
		return Row{Title: "Half Written", Online: "2434-561X", Type: "serial"}.KBART(n), nil
	})
	if err == nil {
		t.Fatal("import with a failing source succeeded")
	}
	after, _ := s.Titles(ctx, "c1", kb.TitleQuery{Page: kb.Page{Count: 100, Number: 1}})
	if after.Total != before.Total {
		t.Errorf("failed import left titles: %d before, %d after", before.Total, after.Total)
	}
	vs, _ := s.Vendors(ctx, "c1", kb.VendorQuery{Search: "Gamma", Page: kb.Page{Count: 10, Number: 1}})
	if vs.Total != 0 {
		t.Errorf("failed import left vendor Gamma")
	}
	_, err = s.ImportPackage(ctx, kb.PackageSpec{VendorName: "", PackageName: "x"}, Rows(nil))
	wantCode(t, err, kb.CodeMissing)
}
