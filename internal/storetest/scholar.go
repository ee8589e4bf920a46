package storetest

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/kb"
)

// testScholar: CollectionSerials streams the resources of the collection
// (selected, not hidden, in a selected package that is not hidden, as
// every read of a collection) whose titles are serials, with their
// identifiers, coverage, embargoes and, where the managed coverage is
// the effective one, their KBART rows; books, hidden resources and
// packages, unselected titles and other customers' custom titles stay
// out.
func testScholar(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	jot := titleID(t, s, TestingPrintISSN)                   // Alpha Journals (two ranges) and Beta Complete
	asq := titleID(t, s, "2049-3630")                        // Alpha Journals, embargo P1Y
	zebra := titleID(t, s, "0000-0019")                      // Alpha Journals
	goBook := titleID(t, s, GoISBN13)                        // Alpha Books and Beta Complete
	newsletter := titleByName(t, s, "The Weekly Newsletter") // Beta Complete, no identifiers
	names := map[int64]string{jot: "JoT", asq: "ASQ", zebra: "Zebra", goBook: "Go", newsletter: "Newsletter"}
	pkgs := map[int64]string{f.AlphaJournals: "AJ", f.AlphaBooks: "AB", f.BetaFull: "BC"}

	stream := func(cust string) map[string]kb.SerialHolding {
		t.Helper()
		out := map[string]kb.SerialHolding{}
		if err := s.CollectionSerials(ctx, cust, func(h *kb.SerialHolding) error {
			name, pkg := names[h.Title.ID], pkgs[h.Resource.PackageID]
			if name == "" {
				name = h.Title.Name
			}
			if pkg == "" {
				pkg = "custom"
			}
			key := name + "@" + pkg
			if _, dup := out[key]; dup {
				t.Errorf("%s handed twice", key)
			}
			if !kb.IsSerialType(h.Title.PubType) {
				t.Errorf("%s: type %v is no serial", key, h.Title.PubType)
			}
			if h.Resource.TitleID != h.Title.ID || !h.Resource.IsSelected || h.Resource.Visibility.Hidden {
				t.Errorf("%s: resource %+v", key, h.Resource)
			}
			c := *h
			c.Title.Identifiers = slices.Clone(h.Title.Identifiers)
			out[key] = c
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	check := func(step, cust string, want ...string) map[string]kb.SerialHolding {
		t.Helper()
		got := stream(cust)
		slices.Sort(want)
		if diff := cmp.Diff(want, slices.Sorted(maps.Keys(got))); diff != "" {
			t.Errorf("%s: %s's serials (-want +got):\n%s", step, cust, diff)
		}
		return got
	}
	ok := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	yes, no := true, false

	check("nothing selected", "c1")

	// A package selected whole: its serials, with what the files need.
	ok(s.SetPackageState(ctx, "c1", f.AlphaJournals, kb.PackageState{Selected: true}))
	got := check("Alpha Journals", "c1", "JoT@AJ", "ASQ@AJ", "Zebra@AJ")
	j := got["JoT@AJ"]
	if j.Title.Name != "Journal of Testing" || j.Title.PubType != kb.ResourceJournal {
		t.Errorf("JoT: title %+v", j.Title)
	}
	var ids []string
	for _, id := range j.Title.Identifiers {
		ids = append(ids, strconv.Itoa(int(id.Type))+"/"+strconv.Itoa(int(id.Subtype))+"/"+id.ID)
	}
	if diff := cmp.Diff([]string{"0/1/" + TestingPrintISSN, "0/2/" + TestingOnlineISSN}, ids); diff != "" {
		t.Errorf("JoT identifiers (-want +got):\n%s", diff)
	}
	cov := slices.Clone(j.Resource.ManagedCoverage)
	kb.SortCoverage(cov)
	if diff := cmp.Diff([]kb.Coverage{{Begin: "2005-01-01"}, {Begin: "1990-01-01", End: "1999-12-31"}}, cov); diff != "" {
		t.Errorf("JoT managed coverage (-want +got):\n%s", diff)
	}
	if len(j.Resource.CustomCoverage) != 0 || len(kb.IssueRangesFromKBART(j.KBART)) != 2 {
		t.Errorf("JoT: custom coverage %v, KBART rows %q", j.Resource.CustomCoverage, j.KBART)
	}
	if e := got["ASQ@AJ"].Resource.ManagedEmbargo; e != (kb.Embargo{Unit: kb.EmbargoYears, Value: 1}) {
		t.Errorf("ASQ managed embargo %+v", e)
	}

	// Books stay out; titles selected one by one count, in a package not
	// selected whole, whether they have identifiers or not.
	ok(s.SetPackageState(ctx, "c1", f.AlphaBooks, kb.PackageState{Selected: true}))
	for _, id := range []int64{jot, newsletter, goBook} {
		ok(s.SetResourceState(ctx, "c1", f.BetaFull, id, kb.ResourceState{Selected: &yes}))
	}
	check("books and titles one by one", "c1", "JoT@AJ", "ASQ@AJ", "Zebra@AJ", "JoT@BC", "Newsletter@BC")

	// A hidden resource, a deselected title of a package selected whole.
	ok(s.SetResourceState(ctx, "c1", f.AlphaJournals, zebra, kb.ResourceState{Hidden: true}))
	ok(s.SetResourceState(ctx, "c1", f.AlphaJournals, asq, kb.ResourceState{Selected: &no}))
	check("hidden and deselected", "c1", "JoT@AJ", "JoT@BC", "Newsletter@BC")

	// A hidden package hides its titles, selected whole or one by one.
	ok(s.SetPackageState(ctx, "c1", f.BetaFull, kb.PackageState{Selected: true, Hidden: true}))
	check("a hidden package", "c1", "JoT@AJ")
	ok(s.SetPackageState(ctx, "c1", f.BetaFull, kb.PackageState{Selected: true}))
	check("the package shown again", "c1", "JoT@AJ", "JoT@BC", "Newsletter@BC")

	// Custom coverage and embargo: the custom ones come, and no KBART
	// rows, since the managed coverage no longer applies.
	ok(s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{Selected: true,
		CustomCoverage: []kb.Coverage{{Begin: "2001-03-15", End: "2004-06-30"}}, CustomEmbargo: kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}}))
	got = check("custom coverage", "c1", "JoT@AJ", "JoT@BC", "Newsletter@BC")
	j = got["JoT@AJ"]
	if diff := cmp.Diff([]kb.Coverage{{Begin: "2001-03-15", End: "2004-06-30"}}, j.Resource.CustomCoverage); diff != "" || j.KBART != "" ||
		j.Resource.CustomEmbargo != (kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}) || len(j.Resource.ManagedCoverage) != 2 {
		t.Errorf("JoT with custom coverage: %+v, KBART %q (-want +got custom coverage):\n%s", j.Resource, j.KBART, diff)
	}
	if b := got["JoT@BC"]; b.KBART == "" || len(b.Resource.CustomCoverage) != 0 {
		t.Errorf("JoT in Beta Complete: KBART %q, custom coverage %v", b.KBART, b.Resource.CustomCoverage)
	}

	// Custom titles: a customer's own serials count for it alone; its
	// custom books do not.
	local := must[int64](t)(s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: "Local", ContentType: kb.ContentEJournal}))
	must[int64](t)(s.CreateCustomTitle(ctx, "c1", f.C1Vendor, local, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Local Gazette", PubType: kb.ResourceNewspaper, URL: "https://town.example/gazette",
		Identifiers: []kb.Identifier{{ID: "2049-3630", Type: kb.IdentISSN, Subtype: kb.SubtypeOnline}}},
		CustomCoverage: []kb.Coverage{{Begin: "2010-01-01"}}}))
	must[int64](t)(s.CreateCustomTitle(ctx, "c1", f.C1Vendor, local, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Local History", PubType: kb.ResourceBook, URL: "https://town.example/history"}}))
	c2 := must[kb.Customer](t)(s.Customer(ctx, "c2"))
	other := must[int64](t)(s.CreateCustomPackage(ctx, "c2", c2.VendorID, kb.CustomPackage{Name: "Theirs", ContentType: kb.ContentEJournal}))
	must[int64](t)(s.CreateCustomTitle(ctx, "c2", c2.VendorID, other, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Their Bulletin", PubType: kb.ResourceJournal, URL: "https://them.example/bulletin"}}))
	got = check("custom titles", "c1", "JoT@AJ", "JoT@BC", "Newsletter@BC", "Local Gazette@custom")
	if g := got["Local Gazette@custom"]; len(g.Title.Identifiers) != 1 || g.KBART != "" ||
		!cmp.Equal([]kb.Coverage{{Begin: "2010-01-01"}}, g.Resource.CustomCoverage) {
		t.Errorf("Local Gazette: %+v", g)
	}
	ok(s.SetPackageState(ctx, "c2", f.AlphaJournals, kb.PackageState{Selected: true}))
	check("c2", "c2", "JoT@AJ", "ASQ@AJ", "Zebra@AJ", "Their Bulletin@custom")

	// An error of fn stops the read and comes back; an unknown customer
	// is not found.
	stop := errors.New("stop")
	calls := 0
	if err := s.CollectionSerials(ctx, "c1", func(*kb.SerialHolding) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("fn's error: %v after %d calls, want it after 1", err, calls)
	}
	wantCode(t, s.CollectionSerials(ctx, "nobody", func(*kb.SerialHolding) error { return nil }), kb.CodeNotFound)
}
