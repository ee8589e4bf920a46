package feeds_test

import (
	"bytes"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// institutionFile is the part of the real file whose data rows i keep(i)
// says, as an institution's holdings file: a fifth of its rows lose their
// title_id (matched by identifier), and a tenth of those their
// identifiers too (matched by name).
func institutionFile(t *testing.T, real []byte, keep func(i int) bool) []byte {
	t.Helper()
	lines := strings.SplitAfter(string(real), "\n")
	var out strings.Builder
	out.WriteString(lines[0])
	for i, l := range lines[1:] {
		if l == "" || !keep(i) {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) > int(kbart.TitleID) && i%5 == 1 {
			f[kbart.TitleID] = ""
			if i%10 == 1 {
				f[kbart.PrintIdentifier], f[kbart.OnlineIdentifier] = "", ""
			}
		}
		out.WriteString(strings.Join(f, "\t"))
	}
	return []byte(out.String())
}

// rowNames returns the folded names of the file's data rows i keep(i)
// keeps.
func rowNames(t *testing.T, real []byte, keep func(i int) bool) map[string]bool {
	t.Helper()
	lines := strings.Split(strings.TrimRight(string(real), "\n"), "\n")
	names := map[string]bool{}
	for i, l := range lines[1:] {
		if keep(i) {
			names[kb.Fold(strings.TrimSpace(strings.Split(l, "\t")[kbart.PublicationTitle]))] = true
		}
	}
	return names
}

// selectedNames returns the folded names of the package's titles c1
// selects, and the custom coverage of each.
func selectedNames(t *testing.T, st feeds.Store) (map[string]bool, map[string][]kb.Coverage) {
	t.Helper()
	names, custom := map[string]bool{}, map[string][]kb.Coverage{}
	for _, ti := range packageTitles(t, st) {
		for _, r := range ti.Resources {
			if r.IsSelected {
				names[kb.Fold(ti.Name)] = true
				custom[kb.Fold(ti.Name)] = r.CustomCoverage
			}
		}
	}
	return names, custom
}

// selectedCount counts the package's titles c1 selects.
func selectedCount(t *testing.T, st feeds.Store) int {
	t.Helper()
	n := 0
	for _, ti := range packageTitles(t, st) {
		for _, r := range ti.Resources {
			if r.IsSelected {
				n++
			}
		}
	}
	return n
}

// TestRunHoldings serves versions of an institution's holdings file made
// from a real KBART file, and checks that each applied run leaves the
// customer with exactly the file's titles selected, matched by title_id,
// identifier or name, with the customisation of the titles that stay;
// then a held run, its preview and approval, faults, and the changes
// recorded as the feed's. Both stores (KBSERVER_TEST_STORE).
func TestRunHoldings(t *testing.T) {
	real := realKBART(t)
	st := directImport(t, real)
	srv := newServer(t)
	ctx := t.Context()
	d := feeds.Deps{Store: st, Client: srv.Client(), TempDir: t.TempDir(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	f, err := st.AddFeed(ctx, kb.Feed{Vendor: vendor, Package: pkg, URL: srv.URL + "/inst.txt?token=" + secret, CustomerID: "c1", Holdings: true, MaxRemoval: 20})
	if err != nil {
		t.Fatal(err)
	}
	const holder = "test"
	claim := func() kb.Feed { return claimFeed(t, st, f.ID, holder) }
	run := func(want kb.FeedOutcome) kb.FeedRun { return runFeedNow(t, d, claim(), holder, want) }
	// The names that occur once in the package: a row of a name several
	// titles share, without title_id or identifier, names none of them.
	count := map[string]int{}
	for _, ti := range packageTitles(t, st) {
		count[kb.Fold(ti.Name)]++
	}
	expect := func(keep func(int) bool) map[string]bool {
		want := rowNames(t, real, keep)
		lines := strings.Split(strings.TrimRight(string(real), "\n"), "\n")[1:]
		for i, l := range lines {
			n := kb.Fold(strings.TrimSpace(strings.Split(l, "\t")[kbart.PublicationTitle]))
			if keep(i) && i%10 == 1 && count[n] > 1 {
				delete(want, n) // matched by an ambiguous name: none
			}
		}
		return want
	}
	check := func(when string, want map[string]bool) map[string][]kb.Coverage {
		t.Helper()
		got, custom := selectedNames(t, st)
		if len(want) == 0 || !maps.Equal(got, want) {
			var missing, extra []string
			for n := range want {
				if !got[n] {
					missing = append(missing, n)
				}
			}
			for n := range got {
				if !want[n] {
					extra = append(extra, n)
				}
			}
			t.Fatalf("%s: %d titles selected, want %d; missing %.5q, extra %.5q", when, len(got), len(want), missing, extra)
		}
		return custom
	}

	keep1 := func(i int) bool { return i%10 < 8 }
	srv.serve(version{body: institutionFile(t, real, keep1), etag: `"i1"`})
	r := run(kb.FeedApplied)
	want1 := expect(keep1)
	check("first run", want1)
	if n := selectedCount(t, st); r.Added != n || r.Removed != 0 {
		t.Errorf("first run: %+v, want %d selected", r, n)
	}

	// The library's own coverage of a title that stays.
	p, _, err := st.FeedPackage(ctx, vendor, pkg)
	if err != nil {
		t.Fatal(err)
	}
	var kept kb.Title
	for _, x := range packageTitlesWithIDs(t, st) {
		if want1[kb.Fold(x.Name)] && count[kb.Fold(x.Name)] == 1 && strings.Contains(kb.Fold(x.Name), "journal") {
			kept = x
			break
		}
	}
	cov := []kb.Coverage{{Begin: "2001-01-01", End: "2002-12-31"}}
	if err := st.(kb.HoldingsWriter).UpdateResource(ctx, "c1", p.VendorID, p.PackageID, kept.ID, kb.ResourceUpdate{Selected: true, CustomCoverage: cov}); err != nil {
		t.Fatal(err)
	}

	keep2 := func(i int) bool { return i%10 >= 1 && i%10 <= 8 }
	srv.serve(version{body: institutionFile(t, real, keep2), etag: `"i2"`})
	r = run(kb.FeedApplied)
	want2 := expect(keep2)
	if r.Removed == 0 || r.Added == 0 {
		t.Errorf("second run: %+v, want some selected and some deselected", r)
	}
	custom := check("second run", want2)
	if !want2[kb.Fold(kept.Name)] {
		t.Fatalf("%q should stay selected", kept.Name)
	}
	if got := custom[kb.Fold(kept.Name)]; !slices.Equal(got, cov) {
		t.Errorf("the custom coverage of %q: %v, want %v kept", kept.Name, got, cov)
	}
	run(kb.FeedUnchanged)

	// Half the titles gone: held, previewed, then approved.
	keep3 := func(i int) bool { return i%10 >= 5 }
	srv.serve(version{body: institutionFile(t, real, keep3), etag: `"i3"`})
	held := run(kb.FeedHeld)
	if !held.Held || !strings.Contains(held.Message, "deselect") {
		t.Errorf("held run: %+v", held)
	}
	check("held", want2)
	pv, err := feeds.PreviewHeld(ctx, d, f, held.ID)
	if n := selectedCount(t, st); err != nil || len(pv.Deselected) != held.Removed || pv.WasSelected != n {
		t.Fatalf("preview: %v, %d deselected of %d, %v; want %d deselected of %d", pv.Counts, len(pv.Deselected), pv.WasSelected, err, held.Removed, n)
	}
	r, err = feeds.Approve(ctx, d, claim(), held.ID, holder)
	if err != nil || r.Outcome != kb.FeedApplied || r.Removed != held.Removed || !strings.Contains(r.Message, "approved run") {
		t.Fatalf("approve: %+v, %v", r, err)
	}
	want3 := expect(keep3)
	check("approved", want3)

	// Faults change nothing.
	for _, c := range []struct {
		name string
		v    version
	}{
		{"404", version{status: http.StatusNotFound}},
		{"HTML with 200", version{body: []byte("<html><body>Sign in</body></html>"), ctype: "text/html"}},
	} {
		srv.serve(c.v)
		run(kb.FeedFailed)
		check(c.name, want3)
	}
	// A file of another package's titles: held, as it would deselect all.
	other := []byte("publication_title\tprint_identifier\tonline_identifier\tdate_first_issue_online\tnum_first_vol_online\tnum_first_issue_online\tdate_last_issue_online\tnum_last_vol_online\tnum_last_issue_online\ttitle_url\tfirst_author\ttitle_id\tembargo_info\tcoverage_depth\tnotes\tpublisher_name\tpublication_type\n" +
		"Journal of Nothing Here\t\t\t\t\t\t\t\t\thttps://x.example/1\t\tx1\t\tfulltext\t\tNobody\tserial\n")
	srv.serve(version{body: other, etag: `"other"`})
	if r := run(kb.FeedHeld); !strings.Contains(r.Message, "deselect") {
		t.Errorf("another package's file: %+v", r)
	}
	check("another package's file", want3)

	// The changes are the feed's.
	cs, err := st.(kb.HoldingsWriter).Changes(ctx, kb.ChangeQuery{CustomerID: "c1", FeedID: f.ID, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 3 {
		t.Fatalf("%d changes recorded as the feed's, want 3 (two runs and an approval): %+v", len(cs), cs)
	}
	for _, c := range cs {
		if c.Action != kb.HoldingsFileAction || c.FeedID != f.ID || c.PackageID != p.PackageID {
			t.Errorf("change %+v", c)
		}
	}

	// The file names a title the package does not have yet; when an
	// import adds it, the unchanged file is applied again and selects it.
	newRow := "Brand New Journal\t\t\t2020-01-01\t\t\t\t\t\thttps://wiley.example/new\t\tnew-1\t\tfulltext\t\tWiley\tserial\n"
	srv.serve(version{body: append(institutionFile(t, real, keep3), newRow...), etag: `"i4"`})
	if r := run(kb.FeedApplied); r.Added+r.Removed != 0 || !strings.Contains(r.Message, "1 named no title") {
		t.Errorf("a file naming a title the package lacks: %+v", r)
	}
	run(kb.FeedUnchanged)
	kr, err := kbart.NewReader(bytes.NewReader(append(slices.Clone(real), newRow...)))
	if err != nil {
		t.Fatal(err)
	}
	src := kbart.NewSource(kbart.SourceFile{Name: "update", Reader: kr})
	if _, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: vendor, PackageName: pkg, ContentType: kb.ContentUnknown,
		PackageType: kb.PackageSelectable, ExtraColumns: src.ExtraColumns()}, src.Next); err != nil {
		t.Fatal(err)
	}
	if r := run(kb.FeedApplied); r.Added != 1 || r.Status != http.StatusOK {
		t.Errorf("after the import: %+v, want the file fetched whole and its new title selected", r)
	}
	want4 := expect(keep3)
	want4[kb.Fold("Brand New Journal")] = true
	check("after the import", want4)
	run(kb.FeedUnchanged)
}

// TestRunHoldingsPublicOnly: a holdings feed the library added itself
// fetches only from the public network: the test server's loopback
// address fails the run, and nothing changes.
func TestRunHoldingsPublicOnly(t *testing.T) {
	real := realKBART(t)
	st := directImport(t, real)
	srv := newServer(t)
	srv.serve(version{body: real})
	ctx := t.Context()
	f, err := st.AddFeed(ctx, kb.Feed{Vendor: vendor, Package: pkg, URL: srv.URL + "/inst.txt?token=" + secret, CustomerID: "c1", Holdings: true, ByCustomer: true})
	if err != nil {
		t.Fatal(err)
	}
	f, ok, err := st.ClaimFeed(ctx, f.ID, time.Now(), "test", time.Minute)
	if err != nil || !ok {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	d := feeds.Deps{Store: st, Client: srv.Client(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	r, err := feeds.Run(ctx, d, f, "test")
	if err != nil || r.Outcome != kb.FeedFailed || !strings.Contains(r.Message, "public network") {
		t.Errorf("run: %+v, %v; want failed, not on the public network", r, err)
	}
	if got, _ := selectedNames(t, st); len(got) != 0 {
		t.Errorf("%d titles selected", len(got))
	}
	if _, err := st.AddFeed(ctx, kb.Feed{Vendor: vendor, Package: pkg, URL: srv.URL, ByCustomer: true}); kb.ErrorCode(err) != kb.CodeInvalid {
		t.Errorf("a customer's package feed: %v, want refused", err)
	}
	if _, err := st.AddFeed(ctx, kb.Feed{Vendor: vendor, Package: pkg, URL: srv.URL, CustomerID: "nobody", Holdings: true}); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("an unknown customer's holdings feed: %v, want not found", err)
	}
}
