package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/kb"
)

// buildSnapshot starts a snapshot and waits for it.
func buildSnapshot(t *testing.T, s kb.Store, cust string) kb.SnapshotStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.StartSnapshot(ctx, cust, false); err != nil {
		t.Fatal(err)
	}
	st, err := s.WaitSnapshot(ctx, cust)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != kb.SnapshotCompleted || st.Created == "" {
		t.Fatalf("snapshot status = %+v, want Completed", st)
	}
	return st
}

func holdings(t *testing.T, s kb.Store, cust string, offset, count int) []kb.Holding {
	t.Helper()
	var hs []kb.Holding
	if err := s.Holdings(context.Background(), cust, offset, count, func(h *kb.Holding) error {
		hs = append(hs, *h)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return hs
}

func testSnapshot(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	st, err := s.SnapshotStatus(ctx, "c1")
	if err != nil || st != (kb.SnapshotStatus{Status: kb.SnapshotNone}) {
		t.Fatalf("status before any snapshot = %+v, %v", st, err)
	}
	wantCode(t, s.Holdings(ctx, "c1", 1, 10, func(*kb.Holding) error { return nil }), kb.CodeNotFound)
	_, err = s.SnapshotStatus(ctx, "nobody")
	wantCode(t, err, kb.CodeNotFound)

	if err := s.AddProxy(ctx, "c1", kb.Proxy{ID: "EZ", Name: "EZ", URLMask: "https://ez.example/login?url={targetURL}"}); err != nil {
		t.Fatal(err)
	}
	// Alpha Journals selected with the EZ proxy; Zebra Studies hidden;
	// Annals customised. Beta: only Learning Go selected. Alpha Books: a
	// hidden package.
	must0 := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must0(s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true, Proxy: &kb.ProxyRef{ID: "EZ"}}))
	must0(s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaBooks, kb.PackageUpdate{Selected: true, Hidden: true}))
	zebra, asq, gl := titleID(t, s, "0000-0019"), titleID(t, s, "2049-3630"), titleID(t, s, GoISBN13)
	must0(s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, zebra, kb.ResourceUpdate{Selected: true, Hidden: true}))
	must0(s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, asq, kb.ResourceUpdate{Selected: true,
		CustomCoverage:    []kb.Coverage{{Begin: "2015-01-01"}, {Begin: "2002-01-01", End: "2009-12-31"}},
		CustomEmbargo:     kb.Embargo{Unit: kb.EmbargoMonths, Value: 6},
		CoverageStatement: "Also in print"}))
	must0(s.UpdateResource(ctx, "c1", f.BetaVendor, f.BetaFull, gl, kb.ResourceUpdate{Selected: true}))

	st = buildSnapshot(t, s, "c1")
	// Journal of Testing: 2 rows; Annals: 2 custom ranges; Learning Go in Beta: 1.
	if st.Total != 5 {
		t.Fatalf("total = %d, want 5", st.Total)
	}
	hs := holdings(t, s, "c1", 1, 0)
	if len(hs) != 5 {
		t.Fatalf("%d holdings, want 5", len(hs))
	}
	var got [][3]string
	for _, h := range hs {
		got = append(got, [3]string{h.Values[0], h.Values[3], h.Values[6]})
	}
	want := [][3]string{
		{"Journal of Testing", "1990-01-01", "1999-12-31"},
		{"Journal of Testing", "2005-01-01", ""},
		{"Annals of Software Quality", "2015-01-01", ""},
		{"Annals of Software Quality", "2002-01-01", "2009-12-31"},
		{"Learning Go", "", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (title, first, last) in package/title order (-want +got):\n%s", diff)
	}
	jot, annals, lgo := hs[0], hs[2], hs[4]
	if jot.Values[9] != "https://ez.example/login?url=https://alpha.example/jot" {
		t.Errorf("proxied URL = %q", jot.Values[9])
	}
	if annals.Values[12] != "P6M" || annals.Values[14] != "Also in print" || annals.Values[4] != "" {
		t.Errorf("customised row: embargo %q notes %q vol %q", annals.Values[12], annals.Values[14], annals.Values[4])
	}
	if jot.Values[24] != "P" || jot.Values[25] != "Alpha Journals" || jot.Values[26] != itoa(f.AlphaJournals) || jot.Values[27] != "Alpha Press" ||
		jot.Values[28] != itoa(f.AlphaVendor) || jot.Values[29] != "Journal" {
		t.Errorf("row extras = %q", jot.Values[24:])
	}
	if lgo.Values[9] != "https://beta.example/go" || lgo.Values[29] != "Book" || lgo.Values[16] != "monograph" {
		t.Errorf("Learning Go row = %q", lgo.Values)
	}
	// Pages by 1-based row offset.
	if p := holdings(t, s, "c1", 2, 2); len(p) != 2 || p[0].Values[3] != "2005-01-01" || p[1].Values[3] != "2015-01-01" {
		t.Errorf("rows 2-3 = %v", p)
	}
	if p := holdings(t, s, "c1", 5, 10); len(p) != 1 || p[0].Values[0] != "Learning Go" {
		t.Errorf("last page = %v", p)
	}
	if p := holdings(t, s, "c1", 6, 10); len(p) != 0 {
		t.Errorf("past the end = %v", p)
	}

	// Frozen customisations: a change after the POST waits for the next one.
	must0(s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, zebra, kb.ResourceUpdate{Selected: true}))
	if n := len(holdings(t, s, "c1", 1, 0)); n != 5 {
		t.Errorf("a change after the POST shows at once: %d rows", n)
	}
	if st := buildSnapshot(t, s, "c1"); st.Total != 6 {
		t.Errorf("after a new POST: %d rows, want 6", st.Total)
	}
	// Live metadata: a renamed (custom) title shows without a new POST.
	id, _ := s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: "Local"})
	tid, err := s.CreateCustomTitle(ctx, "c1", f.C1Vendor, id, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Town Bulletin", PubType: kb.ResourceNewsletter, Publisher: "Town", URL: "https://town.example/b",
		Identifiers: []kb.Identifier{{ID: "2434-561X", Type: kb.IdentISSN, Subtype: kb.SubtypeOnline}}}})
	must0(err)
	buildSnapshot(t, s, "c1")
	find := func() kb.Holding {
		for _, h := range holdings(t, s, "c1", 1, 0) {
			if h.Values[26] == itoa(id) {
				return h
			}
		}
		t.Fatalf("custom title not in the snapshot")
		return kb.Holding{}
	}
	if h := find(); h.Values[0] != "Town Bulletin" || h.Values[2] != "2434-561X" || h.Values[9] != "https://town.example/b" || h.Values[16] != "serial" || h.Values[29] != "Newsletter" {
		t.Errorf("custom title row = %q", h.Values)
	}
	must0(s.UpdateResource(ctx, "c1", f.C1Vendor, id, tid, kb.ResourceUpdate{Selected: true,
		Title: &kb.TitleFields{Name: "Town Herald", PubType: kb.ResourceNewsletter, URL: "https://town.example/b"}}))
	if h := find(); h.Values[0] != "Town Herald" {
		t.Errorf("renamed title not live in the snapshot: %q", h.Values[0])
	}
	// Other customers have their own snapshots.
	if st, _ := s.SnapshotStatus(ctx, "c2"); st.Status != kb.SnapshotNone {
		t.Errorf("c2 status = %+v", st)
	}
}
