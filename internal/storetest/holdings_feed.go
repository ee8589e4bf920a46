package storetest

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// The holdings feeds' store (kb.HoldingsStore): the rows of an
// institution's file are matched to a package's titles by the identity
// rules, and SetHoldings makes a customer's selection of the package
// exactly the titles given, keeping the customisation of those that stay,
// whatever the selection was (the package selected with exceptions, or
// titles selected one by one); a dry run changes nothing. Compared with a
// slow reference over random selections.
func testHoldingsFeed(t *testing.T, s Store) {
	ctx := t.Context()
	var rows []Row
	for i := range 30 {
		rows = append(rows, Row{ID: fmt.Sprintf("h%d", i), Title: fmt.Sprintf("Holdings Journal %d", i), Print: ISSN(7000 + i),
			URL: fmt.Sprintf("https://h.example/%d", i), Publisher: "Holdings Press", Type: "serial", First: "2000-01-01"})
	}
	rows = append(rows,
		Row{ID: "twin-a", Title: "Twin Title", URL: "https://h.example/twin-a", Publisher: "Holdings Press", Type: "serial"},
		Row{ID: "twin-b", Title: "Twin Title", URL: "https://h.example/twin-b", Publisher: "Holdings Press", Type: "serial"})
	res := Import(t, s, "Holdings Press", "Holdings Journals", kb.ContentEJournal, rows)
	other := Import(t, s, "Holdings Press", "Other Journals", kb.ContentEJournal, []Row{
		{ID: "o1", Title: "Only Elsewhere", Print: ISSN(9100), URL: "https://h.example/o1", Publisher: "Holdings Press", Type: "serial"}})
	c := must[kb.Customer](t)(s.AddCustomer(ctx, "hf", "Holdings Feed Library"))
	titles := holdingsTitles(t, s, res)
	if len(titles) != 32 {
		t.Fatalf("the package has %d titles, want 32", len(titles))
	}
	byName := map[string]int64{}
	for _, ti := range titles {
		byName[ti.Name] = ti.ID
	}
	t.Run("Match", func(t *testing.T) {
		cases := []struct {
			name string
			row  kb.HoldingsRow
			want int64
		}{
			{"title_id", kb.HoldingsRow{ProviderID: "h3", Name: kb.Fold("Another Name")}, byName["Holdings Journal 3"]},
			{"title_id before an identifier", kb.HoldingsRow{ProviderID: "h3", Norms: []string{ISSN(7004)}}, byName["Holdings Journal 3"]},
			{"identifier", kb.HoldingsRow{ProviderID: "unknown", Norms: []string{ISSN(7005)}}, byName["Holdings Journal 5"]},
			{"name", kb.HoldingsRow{Name: kb.Fold("HOLDINGS journal 6")}, byName["Holdings Journal 6"]},
			{"an ambiguous name", kb.HoldingsRow{Name: kb.Fold("Twin Title")}, 0},
			{"another package's title", kb.HoldingsRow{ProviderID: "o1", Norms: []string{ISSN(9100)}, Name: kb.Fold("Only Elsewhere")}, 0},
			{"nothing", kb.HoldingsRow{}, 0},
		}
		var in []kb.HoldingsRow
		for _, c := range cases {
			in = append(in, c.row)
		}
		got := must[[]int64](t)(s.MatchHoldings(ctx, res.PackageID, in))
		for i, c := range cases {
			if got[i] != c.want {
				t.Errorf("%s: matched %d, want %d", c.name, got[i], c.want)
			}
		}
	})
	t.Run("Errors", func(t *testing.T) {
		if _, err := s.SetHoldings(ctx, "hf", res.VendorID, 999999, nil, kb.HoldingsWrite{}); kb.ErrorCode(err) != kb.CodeNotFound {
			t.Errorf("an unknown package: %v", err)
		}
		if _, err := s.SetHoldings(ctx, "hf", res.VendorID+1000, res.PackageID, nil, kb.HoldingsWrite{}); kb.ErrorCode(err) != kb.CodeNotFound {
			t.Errorf("another vendor: %v", err)
		}
		custom := must[int64](t)(s.CreateCustomPackage(ctx, "hf", c.VendorID, kb.CustomPackage{Name: "Own", ContentType: kb.ContentEJournal}))
		if _, err := s.SetHoldings(ctx, "hf", c.VendorID, custom, nil, kb.HoldingsWrite{}); kb.ErrorCode(err) != kb.CodeNotAllowed {
			t.Errorf("a custom package: %v", err)
		}
	})
	t.Run("Complete", func(t *testing.T) {
		r, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: "Holdings Press", PackageName: "Complete Set", ContentType: kb.ContentEJournal,
			PackageType: kb.PackageComplete}, Rows(rows[:3]))
		if err != nil {
			t.Fatal(err)
		}
		ids := holdingsTitleIDs(holdingsTitles(t, s, r))
		if _, err := s.SetHoldings(ctx, "hf", r.VendorID, r.PackageID, ids[:1], kb.HoldingsWrite{}); kb.ErrorCode(err) != kb.CodeNotAllowed {
			t.Errorf("a Complete package named in part: %v", err)
		}
		if got := must[kb.HoldingsResult](t)(s.SetHoldings(ctx, "hf", r.VendorID, r.PackageID, ids, kb.HoldingsWrite{})); got.NowSelected != 3 {
			t.Errorf("all of a Complete package: %+v", got)
		}
		if p := must[kb.Package](t)(s.Package(ctx, "hf", r.VendorID, r.PackageID)); !p.IsSelected || p.SelectedCount != 3 {
			t.Errorf("the Complete package: selected %v, %d titles", p.IsSelected, p.SelectedCount)
		}
		must[kb.HoldingsResult](t)(s.SetHoldings(ctx, "hf", r.VendorID, r.PackageID, nil, kb.HoldingsWrite{}))
		if p := must[kb.Package](t)(s.Package(ctx, "hf", r.VendorID, r.PackageID)); p.IsSelected || p.SelectedCount != 0 {
			t.Errorf("none of the Complete package: selected %v, %d titles", p.IsSelected, p.SelectedCount)
		}
	})
	t.Run("Property", func(t *testing.T) { holdingsProperty(t, s, res, titles, other.PackageID) })
}

// holdingsProperty sets random selections, customises some titles, and
// compares SetHoldings (dry, then for real) with the reference: the
// titles given that are in the package, the kept ones' customisation as
// it was, and one change recorded as the feed's when anything changed.
func holdingsProperty(t *testing.T, s Store, res kb.ImportResult, titles []kb.Title, otherPackage int64) {
	ctx := t.Context()
	ids := holdingsTitleIDs(titles)
	r := rand.New(rand.NewPCG(37, 26))
	for round := range 40 {
		// A random selection: the package as a whole with exceptions, or
		// titles one by one; some customised.
		if err := s.UpdatePackage(ctx, "hf", res.VendorID, res.PackageID, kb.PackageUpdate{Selected: false}); err != nil {
			t.Fatal(err)
		}
		whole := r.IntN(2) == 0
		if whole {
			if err := s.UpdatePackage(ctx, "hf", res.VendorID, res.PackageID, kb.PackageUpdate{Selected: true}); err != nil {
				t.Fatal(err)
			}
		}
		for _, id := range ids {
			switch r.IntN(4) {
			case 0:
				if err := s.UpdateResource(ctx, "hf", res.VendorID, res.PackageID, id, kb.ResourceUpdate{Selected: !whole}); err != nil {
					t.Fatal(err)
				}
			case 1:
				cov := []kb.Coverage{{Begin: fmt.Sprintf("19%02d-01-01", r.IntN(100)), End: ""}}
				if err := s.UpdateResource(ctx, "hf", res.VendorID, res.PackageID, id, kb.ResourceUpdate{Selected: true, CustomCoverage: cov,
					CoverageStatement: "ours"}); err != nil {
					t.Fatal(err)
				}
			}
		}
		before := holdingsState(t, s, res)
		var want []int64
		for _, id := range ids {
			if r.IntN(3) > 0 {
				want = append(want, id)
			}
		}
		if round%7 == 0 {
			want = slices.Clone(ids) // the whole package
		}
		if round%11 == 0 {
			want = nil // none
		}
		given := append(slices.Clone(want), holdingsTitleIDs(holdingsTitles(t, s, kb.ImportResult{VendorID: res.VendorID, PackageID: otherPackage}))...)
		var was []int64
		for id, st := range before {
			if st.selected {
				was = append(was, id)
			}
		}
		slices.Sort(was)
		// Titles a refused row names are left as they are.
		var keep []int64
		for _, id := range ids {
			if r.IntN(6) == 0 {
				keep = append(keep, id)
			}
		}
		for _, id := range keep {
			if _, sel := slices.BinarySearch(was, id); sel {
				want = append(want, id)
			}
		}
		want = kb.SortedUnique(want)
		wantSel, wantDesel, wantKept := kb.PlanHoldings(was, want)

		dry := must[kb.HoldingsResult](t)(s.SetHoldings(ctx, "hf", res.VendorID, res.PackageID, given, kb.HoldingsWrite{DryRun: true, Keep: keep}))
		if !slices.Equal(dry.Selected, wantSel) || !slices.Equal(dry.Deselected, wantDesel) || dry.Kept != wantKept ||
			dry.WasSelected != len(was) || dry.NowSelected != len(want) || dry.Outside != 1 {
			t.Fatalf("round %d: dry run %+v; want +%v -%v kept %d of %d", round, dry, wantSel, wantDesel, wantKept, len(was))
		}
		if after := holdingsState(t, s, res); !maps.Equal(after, before) {
			t.Fatalf("round %d: the dry run changed the selection", round)
		}
		changes := len(must[[]kb.Change](t)(s.Changes(ctx, kb.ChangeQuery{CustomerID: "hf", FeedID: 99, Limit: -1})))
		got := must[kb.HoldingsResult](t)(s.SetHoldings(ctx, "hf", res.VendorID, res.PackageID, given, kb.HoldingsWrite{FeedID: 99, Keep: keep}))
		if !slices.Equal(got.Selected, dry.Selected) || !slices.Equal(got.Deselected, dry.Deselected) {
			t.Fatalf("round %d: the write %+v differs from its dry run %+v", round, got, dry)
		}
		after := holdingsState(t, s, res)
		for _, id := range ids {
			_, in := slices.BinarySearch(want, id)
			st := after[id]
			if st.selected != in {
				t.Fatalf("round %d (whole %v): title %d selected %v, want %v", round, whole, id, st.selected, in)
			}
			if in && before[id].selected && st != before[id] {
				t.Errorf("round %d: title %d stayed selected but its customisation changed: %+v, was %+v", round, id, st, before[id])
			}
			if !in && (st.coverage != "" || st.statement != "") {
				t.Errorf("round %d: title %d is not selected but keeps a customisation: %+v", round, id, st)
			}
		}
		n := len(must[[]kb.Change](t)(s.Changes(ctx, kb.ChangeQuery{CustomerID: "hf", FeedID: 99, Limit: -1})))
		if changed := len(wantSel)+len(wantDesel) > 0; n-changes != map[bool]int{true: 1, false: 0}[changed] {
			t.Errorf("round %d: %d changes recorded as the feed's, want one when anything changed (%v)", round, n-changes, changed)
		}
	}
}

// holdingsRowState is what the tests compare of a customer's title in the
// package.
type holdingsRowState struct {
	selected  bool
	coverage  string
	statement string
}

// holdingsState reads hf's state of every title of the package.
func holdingsState(t *testing.T, s Store, res kb.ImportResult) map[int64]holdingsRowState {
	t.Helper()
	out := map[int64]holdingsRowState{}
	for _, ti := range holdingsTitlesOf(t, s, "hf", res) {
		for _, r := range ti.Resources {
			if r.PackageID != res.PackageID {
				continue
			}
			var cov []string
			for _, c := range r.CustomCoverage {
				cov = append(cov, c.Begin+"/"+c.End)
			}
			out[ti.ID] = holdingsRowState{selected: r.IsSelected, coverage: strings.Join(cov, ","), statement: r.CoverageStatement}
		}
	}
	return out
}

// holdingsTitles lists the titles of the package res names.
func holdingsTitles(t *testing.T, s Store, res kb.ImportResult) []kb.Title {
	return holdingsTitlesOf(t, s, "hf", res)
}

func holdingsTitlesOf(t *testing.T, s Store, cust string, res kb.ImportResult) []kb.Title {
	t.Helper()
	l := must[kb.TitleList](t)(s.Titles(t.Context(), cust, kb.TitleQuery{VendorID: res.VendorID, PackageID: res.PackageID, Page: kb.Page{Count: 100, Number: 1}}))
	return l.Titles
}

// holdingsTitleIDs returns the titles' ids, ascending.
func holdingsTitleIDs(ts []kb.Title) []int64 {
	var ids []int64
	for _, ti := range ts {
		ids = append(ids, ti.ID)
	}
	slices.Sort(ids)
	return ids
}
