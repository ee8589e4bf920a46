package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/kbserver/kbserver/internal/kb"
)

// ISSN returns a valid ISSN whose first seven digits are those of n.
func ISSN(n int) string {
	d := fmt.Sprintf("%07d", n%10000000)
	sum := 0
	for i := range 7 {
		sum += int(d[i]-'0') * (8 - i)
	}
	c := (11 - sum%11) % 11
	check := byte('0' + c)
	if c == 10 {
		check = 'X'
	}
	return d[:4] + "-" + d[4:] + string(check)
}

// testKBUpdates: a package's monthly update keeps what customers made of
// it. Its second list renames a title, corrects another's ISSN (same
// title_id), drops a third, and has a row the reader could not read where
// a fourth was; a third list brings the dropped title back.
func testKBUpdates(t *testing.T, s Store) {
	ctx := context.Background()
	LoadFixture(t, s)
	url := func(s string) string { return "https://update.example/" + s }
	annals := Row{ID: "t1", Title: "Annals of Change", Print: ISSN(1001), First: "2000-01-01", URL: url("t1"), Publisher: "Update Press", Type: "serial"}
	bulletin := Row{ID: "t2", Title: "Bulletin of Moves", Print: ISSN(1002), First: "2001-01-01", URL: url("t2"), Publisher: "Update Press", Type: "serial"}
	chronicle := Row{ID: "t3", Title: "Chronicle Gone", Online: ISSN(1004), First: "2002-01-01", URL: url("t3"), Publisher: "Update Press", Type: "serial"}
	digest := Row{ID: "t4", Title: "Digest Kept", First: "2003-01-01", URL: url("t4"), Publisher: "Update Press", Type: "serial"}
	despatch1 := Row{ID: "d1", Title: "Despatch", First: "1921", URL: url("d1"), Publisher: "Update Press", Type: "monograph"}
	despatch2 := Row{ID: "d2", Title: "Despatch", First: "1933", URL: url("d2"), Publisher: "Update Press", Type: "monograph"}
	first := []Row{annals, bulletin, chronicle, digest, despatch1, despatch2}
	res := Import(t, s, "Update Press", "Update Journals", kb.ContentEJournal, first)
	if res.TitlesCreated != 6 {
		t.Fatalf("first import created %d titles, want 6 (two items named Despatch are two titles): %+v", res.TitlesCreated, res)
	}
	v, p := res.VendorID, res.PackageID
	ids := map[string]int64{}
	l, err := s.Titles(ctx, "c1", kb.TitleQuery{VendorID: v, PackageID: p, Page: page(10)})
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range l.Titles {
		ids[ti.Resources[0].URL] = ti.ID
	}
	id := func(r Row) int64 { return ids[r.URL] }

	// Two customers make the titles theirs.
	custom := map[string]kb.ResourceUpdate{
		"c1": {Selected: true, CustomCoverage: []kb.Coverage{{Begin: "2005-01-01", End: "2006-12-31"}}, CoverageStatement: "Ours from 2005",
			CustomEmbargo: kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}, UserDefined: [5]string{"local call no. 17"}},
		"c2": {Selected: true, Hidden: true, CoverageStatement: "Hidden from patrons"},
	}
	for _, cust := range []string{"c1", "c2"} {
		for _, r := range []Row{annals, bulletin, chronicle, digest} {
			if err := s.UpdateResource(ctx, cust, v, p, id(r), custom[cust]); err != nil {
				t.Fatalf("customise %s for %s: %v", r.Title, cust, err)
			}
		}
	}
	wantState := func(when string, r Row) {
		t.Helper()
		for _, cust := range []string{"c1", "c2"} {
			got, err := s.Resource(ctx, cust, v, p, id(r))
			if err != nil {
				t.Errorf("%s: %s of %s: %v", when, r.Title, cust, err)
				continue
			}
			u, res := custom[cust], got.Resources[0]
			if !res.IsSelected || res.Visibility.Hidden != u.Hidden || res.CoverageStatement != u.CoverageStatement ||
				res.CustomEmbargo != u.CustomEmbargo || res.UserDefined != u.UserDefined || !cmp.Equal(res.CustomCoverage, u.CustomCoverage, cmpopts.EquateEmpty()) {
				t.Errorf("%s: %s of %s lost its customisation: %+v", when, r.Title, cust, res)
			}
		}
	}

	// The second list.
	renamed := annals
	renamed.Title = "Annals of Change: New Series"
	corrected := bulletin
	corrected.Print = ISSN(1003)
	unreadable := Row{ID: "t4", URL: url("t4"), Rejected: true} // no title: the reader rejected it
	second := []Row{renamed, corrected, unreadable, despatch1, despatch2}
	dry, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: "Update Press", PackageName: "Update Journals", ContentType: kb.ContentEJournal, DryRun: true},
		Rows(second))
	if err != nil {
		t.Fatal(err)
	}
	res = Import(t, s, "Update Press", "Update Journals", kb.ContentEJournal, second)
	want := kb.ImportResult{ImportID: res.ImportID, VendorID: v, PackageID: p, Rows: 5, RowsRejected: 1, TitlesMatched: 4, TitlesRenamed: 1,
		TitlesReidentified: 1, ResourcesUpdated: 2, ResourcesRemoved: 1, ResourcesKept: 1, CustomersAffected: 2}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("second import (-want +got):\n%s", diff)
	}
	want.ImportID = 0
	if diff := cmp.Diff(want, dry); diff != "" {
		t.Errorf("dry run of the second import (-want +got):\n%s", diff)
	}
	wantState("after the second import", annals)
	wantState("after the second import", bulletin)
	wantState("after the second import", digest)

	// The rename reaches the title: its answer and the search.
	ti, err := s.Title(ctx, "c1", id(annals))
	if err != nil || ti.Name != renamed.Title {
		t.Errorf("renamed title: %q, %v; want %q", ti.Name, err, renamed.Title)
	}
	for _, search := range []string{"new series", renamed.Title} {
		l, err := s.Titles(ctx, "c1", kb.TitleQuery{Search: search, Field: kb.FieldTitleName, Type: kb.SearchContains, Page: page(5)})
		if err != nil || l.Total != 1 || l.Titles[0].ID != id(annals) {
			t.Errorf("search %q after the rename: %+v, %v", search, l.Titles, err)
		}
	}
	if l, _ := s.Titles(ctx, "c1", kb.TitleQuery{Search: annals.Title, Field: kb.FieldTitleName, Type: kb.SearchExactMatch, Page: page(5)}); l.Total != 0 {
		t.Errorf("the old name still matches exactly: %+v", l.Titles)
	}
	// The corrected ISSN is the same title, with the new ISSN only.
	ti, err = s.Title(ctx, "c1", id(bulletin))
	if err != nil || len(ti.Identifiers) != 1 || ti.Identifiers[0].ID != corrected.Print {
		t.Errorf("re-identified title: %+v, %v", ti.Identifiers, err)
	}
	if l, _ := s.Titles(ctx, "c1", kb.TitleQuery{Search: corrected.Print, Field: kb.FieldISXN, Page: page(5)}); l.Total != 1 || l.Titles[0].ID != id(bulletin) {
		t.Errorf("the corrected ISSN finds %+v", l.Titles)
	}
	// The dropped title left the package; the unreadable row kept its own.
	if _, err := s.Resource(ctx, "c1", v, p, id(chronicle)); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("dropped title still in the package: %v", err)
	}
	if pk, _ := s.Package(ctx, "c1", v, p); pk.TitleCount != 5 {
		t.Errorf("title count after the second import = %d, want 5", pk.TitleCount)
	}
	// Every change is in the history, with the import's id.
	cs, err := s.Changes(ctx, kb.ChangeQuery{KB: true, PackageID: p, ImportID: res.ImportID, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range cs {
		got[c.Action] += c.Object + " "
		if c.CustomerID != "" || c.ImportID != res.ImportID || c.PackageID != p {
			t.Errorf("change %+v: want an import's change of package %d", c, p)
		}
	}
	for action, objects := range map[string][]string{
		kb.ImportRename:     {fmt.Sprintf("title %d", id(annals))},
		kb.ImportReidentify: {fmt.Sprintf("title %d", id(bulletin))},
		kb.ImportUpdate:     {fmt.Sprintf("resource %d/%d", p, id(annals)), fmt.Sprintf("resource %d/%d", p, id(bulletin))},
		kb.ImportRemove:     {fmt.Sprintf("resource %d/%d", p, id(chronicle))},
	} {
		for _, object := range objects {
			if !strings.Contains(got[action], object+" ") {
				t.Errorf("changes %s = %q, want %s", action, got[action], object)
			}
		}
	}
	if len(cs) != 5 {
		t.Errorf("%d changes recorded, want 5: %+v", len(cs), cs)
	}

	// The third list brings the dropped title back, with what the
	// customers had made of it.
	third := append(second[:2:2], chronicle, digest, despatch1, despatch2)
	dry, err = s.ImportPackage(ctx, kb.PackageSpec{VendorName: "Update Press", PackageName: "Update Journals", ContentType: kb.ContentEJournal, DryRun: true},
		Rows(third))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resource(ctx, "c1", v, p, id(chronicle)); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("a dry run changed the package: %v", err)
	}
	res = Import(t, s, "Update Press", "Update Journals", kb.ContentEJournal, third)
	want = kb.ImportResult{ImportID: res.ImportID, VendorID: v, PackageID: p, Rows: 6, TitlesCreated: 1, TitlesMatched: 5,
		ResourcesAdded: 1, ResourcesRestored: 1}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("third import (-want +got):\n%s", diff)
	}
	dry.ImportID = res.ImportID
	if diff := cmp.Diff(res, dry); diff != "" {
		t.Errorf("dry run of the third import counts otherwise (-real +dry):\n%s", diff)
	}
	wantState("after the title came back", chronicle)
	wantState("after the third import", digest)
	if ti, err := s.Title(ctx, "c1", id(chronicle)); err != nil || ti.Name != chronicle.Title || len(ti.Identifiers) != 1 {
		t.Errorf("the title came back as %+v, %v", ti, err)
	}
	cs, _ = s.Changes(ctx, kb.ChangeQuery{KB: true, ImportID: res.ImportID, Limit: -1})
	if len(cs) != 1 || cs[0].Action != kb.ImportRestore {
		t.Errorf("third import's changes = %+v, want one %s", cs, kb.ImportRestore)
	}
	// A customer's change and the import's read alike in the package's
	// history.
	cs, _ = s.Changes(ctx, kb.ChangeQuery{CustomerID: "c1", KB: true, PackageID: p, Limit: -1})
	var kinds [2]int
	for _, c := range cs {
		if c.CustomerID == "c1" {
			kinds[0]++
		} else {
			kinds[1]++
		}
	}
	if kinds[0] != 4 || kinds[1] != 7 { // the first import's one, the second's five, the third's one
		t.Errorf("package history: %d of c1's changes and %d of imports, want 4 and 7", kinds[0], kinds[1])
	}

	// A rejected row that matches no title may stand for any: the import
	// removes none.
	lost := Row{Rejected: true}
	res = Import(t, s, "Update Press", "Update Journals", kb.ContentEJournal, []Row{annals, lost})
	if res.ResourcesRemoved != 0 || !res.RemovalsHeld || res.ResourcesKept != 5 {
		t.Errorf("import with an unmatched rejected row: %+v, want nothing removed", res)
	}
	if pk, _ := s.Package(ctx, "c1", v, p); pk.TitleCount != 6 {
		t.Errorf("title count = %d, want 6", pk.TitleCount)
	}
}

// testImportIdentity: the rules by which an import tells items apart
// (kb.SameItem).
func testImportIdentity(t *testing.T, s Store) {
	ctx := context.Background()
	LoadFixture(t, s)
	u := func(s string) string { return "https://id.example/" + s }
	count := func(rows []Row) (int, kb.ImportResult) {
		t.Helper()
		res := Import(t, s, "Identity Press", "Identity List", kb.ContentEBook, rows)
		l, err := s.Titles(ctx, "c1", kb.TitleQuery{VendorID: res.VendorID, PackageID: res.PackageID, Page: page(50)})
		if err != nil {
			t.Fatal(err)
		}
		return l.Total, res
	}
	doc := func(id, url, first string) Row {
		r := Row{ID: id, Title: "Confidential Print", First: first, Publisher: "Archive", Type: "monograph"}
		if url != "" {
			r.URL = u(url)
		}
		return r
	}
	for _, tc := range []struct {
		name   string
		rows   []Row
		titles int
	}{
		{"same title_id, two coverage rows", []Row{doc("a", "a", "1901"), doc("a", "a", "1950")}, 1},
		{"different title_ids", []Row{doc("a", "a", "1901"), doc("b", "b", "1902")}, 2},
		{"no title_id, different URLs", []Row{doc("", "a", "1901"), doc("", "b", "1902")}, 2},
		{"no title_id, same URL", []Row{doc("", "a", "1901"), doc("", "a", "1950")}, 1},
		{"no title_id, one URL missing", []Row{doc("", "a", "1901"), doc("", "", "1950")}, 1},
		{"different title_ids, shared ISBN", []Row{
			{ID: "v1", Title: "Set", Online: "978-0-306-40615-7", URL: u("v1"), Type: "monograph"},
			{ID: "v2", Title: "Set", Online: "978-0-306-40615-7", URL: u("v2"), Type: "monograph"}}, 2},
	} {
		if n, res := count(tc.rows); n != tc.titles {
			t.Errorf("%s: %d titles, want %d (%+v)", tc.name, n, tc.titles, res)
		}
	}
	// Across imports, a new URL for the same item (no title_id) is an
	// update, not a new title.
	Import(t, s, "Identity Press", "Moving", kb.ContentEBook, []Row{doc("", "old", "1901")})
	res := Import(t, s, "Identity Press", "Moving", kb.ContentEBook, []Row{doc("", "new", "1901")})
	if res.TitlesCreated != 0 || res.ResourcesUpdated != 1 || res.ResourcesRemoved != 0 {
		t.Errorf("a moved URL: %+v, want the same title updated", res)
	}
}
