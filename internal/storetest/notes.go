package storetest

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/kb"
)

// testNotes: notes are added to resources the customer can see, listed by
// resource in rank then id order for many resources at once, kept apart
// per customer, and removed only by their own customer.
func testNotes(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	jot := titleID(t, s, TestingPrintISSN) // in Alpha Journals and Beta Complete
	goBook := titleID(t, s, GoISBN13)      // in Alpha Books and Beta Complete
	inJournals := kb.ResourceKey{PackageID: f.AlphaJournals, TitleID: jot}
	inBeta := kb.ResourceKey{PackageID: f.BetaFull, TitleID: jot}
	inBooks := kb.ResourceKey{PackageID: f.AlphaBooks, TitleID: goBook}

	// c1's custom package with a custom title: c1's to annotate only.
	custom := must[int64](t)(s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: "Local", ContentType: kb.ContentEBook}))
	gazette := must[int64](t)(s.CreateCustomTitle(ctx, "c1", f.C1Vendor, custom, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Local Gazette", PubType: kb.ResourceNewspaper}}))
	inCustom := kb.ResourceKey{PackageID: custom, TitleID: gazette}

	add := func(cust string, k kb.ResourceKey, n kb.Note) kb.Note {
		t.Helper()
		n.PackageID, n.TitleID = k.PackageID, k.TitleID
		got, err := s.AddNote(ctx, cust, n)
		if err != nil {
			t.Fatalf("AddNote(%s, %+v): %v", cust, n, err)
		}
		if got.ID <= 0 || got.ShowOn == nil {
			t.Fatalf("AddNote(%s) = %+v: want a new id and a non-nil ShowOn", cust, got)
		}
		return got
	}
	full := add("c1", inJournals, kb.Note{Name: "Access", Rank: 5, Text: "Campus only.", IconURL: "https://lib.example/i.png", IconID: 7,
		AltText: "key", HoverText: "Ask at the desk", LinkURL: "https://lib.example/help", ShowOn: []string{"pf", "az"}})
	late := add("c1", inJournals, kb.Note{Text: "Second at rank 1.", Rank: 1})
	early := add("c1", inJournals, kb.Note{Text: "First at rank 1.", Rank: 1, ID: 999}) // the id given is ignored
	first := add("c1", inJournals, kb.Note{Text: "Rank 0.", ShowOn: []string{}})
	beta := add("c1", inBeta, kb.Note{Text: "Other package, same title."})
	local := add("c1", inCustom, kb.Note{Text: "Our own title."})
	other := add("c2", inJournals, kb.Note{Text: "c2's note."})
	if early.ID == 999 || early.ID <= late.ID {
		t.Fatalf("note ids %d then %d: want new, increasing ids", late.ID, early.ID)
	}

	// Rank, then id (early was added after late at the same rank, but
	// late has the smaller id).
	want := map[kb.ResourceKey][]kb.Note{
		inJournals: {first, late, early, full},
		inBeta:     {beta},
		inCustom:   {local},
	}
	want[inJournals][0].ShowOn = []string{}
	got, err := s.Notes(ctx, "c1", []kb.ResourceKey{inJournals, inBooks, inBeta, inCustom, inJournals, {PackageID: 1 << 40, TitleID: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("c1's notes (-want +got):\n%s", diff)
	}
	for k, ns := range got {
		for _, n := range ns {
			if n.ShowOn == nil {
				t.Errorf("note %d on %+v: ShowOn is nil, want an empty slice", n.ID, k)
			}
		}
	}
	if got, err := s.Notes(ctx, "c2", []kb.ResourceKey{inJournals, inBeta}); err != nil || !cmp.Equal(got, map[kb.ResourceKey][]kb.Note{inJournals: {other}}) {
		t.Errorf("c2's notes = %+v, %v; want only its own", got, err)
	}
	for _, keys := range [][]kb.ResourceKey{nil, {inBooks}} {
		if got, err := s.Notes(ctx, "c1", keys); err != nil || got == nil || len(got) != 0 {
			t.Errorf("Notes(%v) = %#v, %v; want an empty, non-nil map", keys, got, err)
		}
	}

	// Bad resources, customers and fields add nothing.
	for _, tc := range []struct {
		name string
		cust string
		note kb.Note
		code kb.Code
	}{
		{"unknown customer", "nobody", kb.Note{PackageID: f.AlphaJournals, TitleID: jot, Text: "x"}, kb.CodeNotFound},
		{"unknown package", "c1", kb.Note{PackageID: 1 << 40, TitleID: jot, Text: "x"}, kb.CodeNotFound},
		{"unknown title", "c1", kb.Note{PackageID: f.AlphaJournals, TitleID: 1 << 40, Text: "x"}, kb.CodeNotFound},
		{"title not in the package", "c1", kb.Note{PackageID: f.AlphaJournals, TitleID: goBook, Text: "x"}, kb.CodeNotFound},
		{"another customer's custom package", "c2", kb.Note{PackageID: custom, TitleID: gazette, Text: "x"}, kb.CodeNotFound},
		{"blank text", "c1", kb.Note{PackageID: f.AlphaJournals, TitleID: jot, Text: "  "}, kb.CodeMissing},
		{"rank out of range", "c1", kb.Note{PackageID: f.AlphaJournals, TitleID: jot, Text: "x", Rank: 1001}, kb.CodeInvalid},
		{"relative link", "c1", kb.Note{PackageID: f.AlphaJournals, TitleID: jot, Text: "x", LinkURL: "/help"}, kb.CodeInvalid},
		{"comma in a show-on flag", "c1", kb.Note{PackageID: f.AlphaJournals, TitleID: jot, Text: "x", ShowOn: []string{"a,b"}}, kb.CodeInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.AddNote(ctx, tc.cust, tc.note)
			wantCode(t, err, tc.code)
		})
	}
	if got, _ := s.Notes(ctx, "c1", []kb.ResourceKey{inJournals}); len(got[inJournals]) != 4 {
		t.Errorf("after refused additions c1 has %d notes on the resource, want 4", len(got[inJournals]))
	}

	// Removal: by its own customer only, once.
	wantCode(t, s.RemoveNote(ctx, "c2", full.ID), kb.CodeNotFound)
	wantCode(t, s.RemoveNote(ctx, "c1", 1<<40), kb.CodeNotFound)
	if err := s.RemoveNote(ctx, "c1", full.ID); err != nil {
		t.Fatalf("RemoveNote: %v", err)
	}
	wantCode(t, s.RemoveNote(ctx, "c1", full.ID), kb.CodeNotFound)
	got, err = s.Notes(ctx, "c1", []kb.ResourceKey{inJournals})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[kb.ResourceKey][]kb.Note{inJournals: {first, late, early}}, got); diff != "" {
		t.Errorf("notes after removal (-want +got):\n%s", diff)
	}
	if got, _ := s.Notes(ctx, "c2", []kb.ResourceKey{inJournals}); len(got[inJournals]) != 1 {
		t.Errorf("c1's removal touched c2's notes: %+v", got)
	}
}
