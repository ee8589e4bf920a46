package store_test

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/realdata"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// readRows reads the rows of a real KBART file (gzipped when its name ends
// in .gz) as an import gets them: those the reader returns, and those it
// rejects (marked Rejected).
func readRows(tb testing.TB, path string) []kb.ImportRow {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if in, err = gzip.NewReader(f); err != nil {
			tb.Fatal(err)
		}
	}
	kr, err := kbart.NewReader(in)
	if err != nil {
		tb.Fatal(err)
	}
	var rows []kb.ImportRow
	for {
		row, err := kr.Next()
		var re *kbart.RowError
		switch {
		case errors.As(err, &re):
			rows = append(rows, kb.ImportRow{Line: re.Line, KBART: re.Values, Rejected: true})
			continue
		case err == io.EOF:
			return rows
		case err != nil:
			tb.Fatal(err)
		}
		rows = append(rows, kb.ImportRow{Line: row.Line, KBART: row.Values})
	}
}

// TestRealPackageUpdate imports a real publisher list (Project MUSE's
// journals), lets two customers customise titles, and imports an edited
// version of it: a title renamed, another's ISSN corrected (same
// title_id), one dropped, one row made unreadable, and two distinct items
// added that share a name. The customers keep their work, the changes
// reach the titles and the history; a third list brings the dropped title
// back with its customers' state. Both stores (KBSERVER_TEST_STORE).
func TestRealPackageUpdate(t *testing.T) {
	path := filepath.Join(realdata.Dir(t), "ezpaarse-platforms/muse/PROJECTMUSE_GLOBAL_ALLJOURNALS_2026-03-24.txt")
	ctx := context.Background()
	s := storetest.Searched(t.Context(), testdb.Open(t))
	v1 := readRows(t, path)
	if len(v1) < 800 {
		t.Fatalf("%d rows read", len(v1))
	}
	spec := kb.PackageSpec{VendorName: "Project MUSE", PackageName: "All Journals", ContentType: kb.ContentEJournal}
	src := func(rows []kb.ImportRow) func() (kb.ImportRow, error) {
		return storetest.RowsOf(len(rows), func(i int) kb.ImportRow { return rows[i] })
	}
	res, err := s.ImportPackage(ctx, spec, src(v1))
	if err != nil {
		t.Fatal(err)
	}
	p := res.PackageID
	titleOf := func(r kb.ImportRow) int64 {
		t.Helper()
		l, err := s.Titles(ctx, "c1", kb.TitleQuery{Search: r.KBART[kbart.PrintIdentifier], Field: kb.FieldISXN,
			Type: kb.SearchExactMatch, Page: kb.Page{Count: 5, Number: 1}})
		if err != nil || l.Total != 1 {
			t.Fatalf("title of %q: %+v, %v", r.KBART[kbart.PublicationTitle], l.Titles, err)
		}
		return l.Titles[0].ID
	}
	for _, c := range []string{"c1", "c2"} {
		if _, err := s.AddCustomer(ctx, c, c); err != nil {
			t.Fatal(err)
		}
	}
	// The first five rows with a print ISSN, customised by both customers.
	var picked []int
	for i, r := range v1 {
		if !r.Rejected && r.KBART[kbart.PrintIdentifier] != "" && r.KBART[kbart.TitleID] != "" && len(picked) < 5 {
			picked = append(picked, i)
		}
	}
	ids := make([]int64, len(picked))
	custom := map[string]kb.ResourceUpdate{
		"c1": {Selected: true, CoverageStatement: "Print and online since 2001", CustomCoverage: []kb.Coverage{{Begin: "2001-01-01"}},
			UserDefined: [5]string{"shelf 12"}},
		"c2": {Selected: true, Hidden: true, CustomEmbargo: kb.Embargo{Unit: kb.EmbargoYears, Value: 1}},
	}
	for k, i := range picked {
		ids[k] = titleOf(v1[i])
		for c, u := range custom {
			if err := s.UpdateResource(ctx, c, res.VendorID, p, ids[k], u); err != nil {
				t.Fatal(err)
			}
		}
	}
	kept := func(when string, k int) {
		t.Helper()
		for c, u := range custom {
			ti, err := s.Resource(ctx, c, res.VendorID, p, ids[k])
			if err != nil {
				t.Errorf("%s: title %d of %s: %v", when, ids[k], c, err)
				continue
			}
			r := ti.Resources[0]
			if !r.IsSelected || r.Visibility.Hidden != u.Hidden || r.CoverageStatement != u.CoverageStatement ||
				r.CustomEmbargo != u.CustomEmbargo || r.UserDefined != u.UserDefined || len(r.CustomCoverage) != len(u.CustomCoverage) {
				t.Errorf("%s: %s lost its customisation of title %d: %+v", when, c, ids[k], r)
			}
		}
	}

	// The edited list.
	v2 := append([]kb.ImportRow(nil), v1...)
	renamed, corrected, dropped, unreadable := picked[0], picked[1], picked[2], picked[3]
	newName := v1[renamed].KBART[kbart.PublicationTitle] + " (New Series)"
	v2[renamed].KBART[kbart.PublicationTitle] = newName
	newISSN := storetest.ISSN(7654321)
	v2[corrected].KBART[kbart.PrintIdentifier] = newISSN
	v2[unreadable].KBART[kbart.PublicationTitle] = ""
	v2[unreadable].Rejected = true
	item := func(n int) kb.ImportRow {
		var r kb.ImportRow
		r.KBART[kbart.PublicationTitle] = "Occasional Papers"
		r.KBART[kbart.PublisherName] = "Johns Hopkins University Press"
		r.KBART[kbart.PublicationType] = "serial"
		r.KBART[kbart.TitleID] = fmt.Sprintf("occasional-%d", n)
		r.KBART[kbart.TitleURL] = fmt.Sprintf("https://muse.example/occasional/%d", n)
		return r
	}
	v2 = append(v2[:dropped], v2[dropped+1:]...)
	v2 = append(v2, item(1), item(2))

	dry, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: spec.VendorName, PackageName: spec.PackageName, ContentType: spec.ContentType,
		DryRun: true}, src(v2))
	if err != nil {
		t.Fatal(err)
	}
	res2, err := s.ImportPackage(ctx, spec, src(v2))
	if err != nil {
		t.Fatal(err)
	}
	if res2.TitlesRenamed != 1 || res2.TitlesReidentified != 1 || res2.ResourcesRemoved != 1 || res2.ResourcesKept != 1 ||
		res2.TitlesCreated != 2 || res2.ResourcesAdded != 2 || res2.CustomersAffected != 2 || res2.RemovalsHeld {
		t.Errorf("second import: %+v", res2)
	}
	dry.ImportID = res2.ImportID
	if diff := cmp.Diff(res2, dry); diff != "" {
		t.Errorf("the dry run counted otherwise (-import +dry run):\n%s", diff)
	}
	for _, k := range []int{0, 1, 3, 4} {
		kept("after the update", k)
	}
	if ti, err := s.Title(ctx, "c1", ids[0]); err != nil || ti.Name != newName {
		t.Errorf("renamed title: %q, %v", ti.Name, err)
	}
	l, err := s.Titles(ctx, "c1", kb.TitleQuery{Search: newName, Field: kb.FieldTitleName, Type: kb.SearchExactMatch, Page: kb.Page{Count: 5, Number: 1}})
	if err != nil || l.Total != 1 || l.Titles[0].ID != ids[0] {
		t.Errorf("search for the new name: %+v, %v", l.Titles, err)
	}
	l, err = s.Titles(ctx, "c1", kb.TitleQuery{Search: newISSN, Field: kb.FieldISXN, Page: kb.Page{Count: 5, Number: 1}})
	if err != nil || l.Total != 1 || l.Titles[0].ID != ids[1] {
		t.Errorf("the corrected ISSN finds %+v, %v; want title %d", l.Titles, err, ids[1])
	}
	if _, err := s.Resource(ctx, "c1", res.VendorID, p, ids[2]); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("the dropped title is still in the package: %v", err)
	}
	l, err = s.Titles(ctx, "c1", kb.TitleQuery{Search: "Occasional Papers", Field: kb.FieldTitleName, Type: kb.SearchExactMatch,
		Page: kb.Page{Count: 5, Number: 1}})
	if err != nil || l.Total != 2 {
		t.Errorf("two items named Occasional Papers: %d titles, %v", l.Total, err)
	}
	cs, err := s.Changes(ctx, kb.ChangeQuery{KB: true, PackageID: p, ImportID: res2.ImportID, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range cs {
		seen[c.Action+" "+c.Object] = true
	}
	for _, want := range []string{
		fmt.Sprintf("%s title %d", kb.ImportRename, ids[0]),
		fmt.Sprintf("%s title %d", kb.ImportReidentify, ids[1]),
		fmt.Sprintf("%s resource %d/%d", kb.ImportRemove, p, ids[2]),
	} {
		if !seen[want] {
			t.Errorf("the history lacks %q: %v", want, seen)
		}
	}

	// The third list has the dropped title again.
	v3 := append(append([]kb.ImportRow(nil), v2...), v1[dropped])
	res3, err := s.ImportPackage(ctx, spec, src(v3))
	if err != nil {
		t.Fatal(err)
	}
	if res3.ResourcesRestored != 1 {
		t.Errorf("third import: %+v, want one title restored", res3)
	}
	kept("after the title came back", 2)
}
