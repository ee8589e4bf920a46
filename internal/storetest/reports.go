package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/kb"
)

// StartTransaction starts a holdings transaction of the customer and waits
// until it is no longer in progress; it fails the test unless it is
// Complete.
func StartTransaction(t testing.TB, s kb.Store, cust string) kb.Transaction {
	t.Helper()
	tr, running, err := s.StartTransaction(context.Background(), cust)
	if err != nil {
		t.Fatal(err)
	}
	if running {
		t.Fatalf("a transaction of %s is already running: %s", cust, tr.ID)
	}
	return WaitTransaction(t, s, cust, tr.ID)
}

// WaitTransaction polls a transaction until it is no longer in progress
// (30 s at most) and fails the test unless it is Complete.
func WaitTransaction(t testing.TB, s kb.Store, cust, id string) kb.Transaction {
	t.Helper()
	return waitReport(t, "transaction", id, kb.TransactionInProgress, kb.TransactionComplete, func() (kb.Transaction, string, error) {
		tr, err := s.Transaction(context.Background(), cust, id)
		return tr, tr.Status, err
	})
}

// waitDelta is WaitTransaction for a delta.
func waitDelta(t testing.TB, s kb.Store, cust, id string) kb.Delta {
	t.Helper()
	return waitReport(t, "delta", id, kb.DeltaInProgress, kb.DeltaCompleted, func() (kb.Delta, string, error) {
		d, err := s.Delta(context.Background(), cust, id)
		return d, d.Status, err
	})
}

// waitReport polls a report with read until its status is no longer
// inProgress (30 s at most) and fails the test unless it is done.
func waitReport[R any](t testing.TB, what, id, inProgress, done string, read func() (R, string, error)) R {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		r, status, err := read()
		if err != nil {
			t.Fatal(err)
		}
		if status != inProgress {
			if status != done {
				t.Fatalf("%s %s: status %s, want %s", what, id, status, done)
			}
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s %s still in progress after 30 s", what, id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func transactionRows(t *testing.T, s kb.Store, cust, id string, offset, count int) []kb.ReportHolding {
	t.Helper()
	return reportRows(t, s.TransactionHoldings, cust, id, offset, count)
}

// reportRows collects count rows (all when count <= 0) of a report from
// the row offset, read with read (kb.ReportStore's TransactionHoldings or
// DeltaHoldings); it fails the test on an error.
func reportRows(t *testing.T, read func(context.Context, string, string, int, int, func(*kb.ReportHolding) error) error,
	cust, id string, offset, count int) []kb.ReportHolding {
	t.Helper()
	var rows []kb.ReportHolding
	if err := read(context.Background(), cust, id, offset, count, func(h *kb.ReportHolding) error {
		rows = append(rows, *h)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return rows
}

// testReports: a transaction holds the rows the customer's snapshot would
// serve at its POST, with the package content type, in resource order,
// pages by row, belongs to its customer, and keeps its rows when the
// customer's holdings change.
func testReports(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	if ts, err := s.Transactions(ctx, "c1"); err != nil || len(ts) != 0 {
		t.Fatalf("transactions before any = %v, %v", ts, err)
	}
	_, _, err := s.StartTransaction(ctx, "nobody")
	wantCode(t, err, kb.CodeNotFound)
	must0 := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must0(s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true}))
	gl := titleID(t, s, GoISBN13)
	must0(s.UpdateResource(ctx, "c1", f.BetaVendor, f.BetaFull, titleID(t, s, "03178471"), kb.ResourceUpdate{Selected: true}))
	asq := titleID(t, s, "2049-3630")
	must0(s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, asq, kb.ResourceUpdate{Selected: true,
		CustomCoverage: []kb.Coverage{{Begin: "2015-01-01"}, {Begin: "2002-01-01", End: "2009-12-31"}}}))

	tr := StartTransaction(t, s, "c1")
	buildSnapshot(t, s, "c1")
	snap := holdings(t, s, "c1", 1, 0)
	rows := transactionRows(t, s, "c1", tr.ID, 1, 0)
	if tr.Total != len(snap) || len(rows) != len(snap) || len(rows) != 6 {
		t.Fatalf("transaction total %d, %d rows; the snapshot has %d rows; want 6", tr.Total, len(rows), len(snap))
	}
	for i := range rows {
		if rows[i].Values != snap[i].Values || rows[i].TitleID != snap[i].TitleID || rows[i].Change != kb.ChangeNone {
			t.Errorf("row %d = %q (title %d), the snapshot's = %q (title %d)", i+1, rows[i].Values, rows[i].TitleID,
				snap[i].Values, snap[i].TitleID)
		}
		want := "EJournal"
		if rows[i].Values[26] == itoa(f.BetaFull) {
			want = "AggregatedFullText"
		}
		if rows[i].ContentType != want {
			t.Errorf("row %d (%s): content type %q, want %q", i+1, rows[i].Values[0], rows[i].ContentType, want)
		}
	}
	if rows[2].TitleID != asq || rows[2].Values[3] != "2015-01-01" {
		t.Errorf("row 3 = title %d %q, want Annals' first custom range", rows[2].TitleID, rows[2].Values[:7])
	}
	if page := transactionRows(t, s, "c1", tr.ID, 3, 2); len(page) != 2 || page[0].Values != rows[2].Values || page[1].Values != rows[3].Values {
		t.Errorf("rows 3-4 = %v", page)
	}
	if page := transactionRows(t, s, "c1", tr.ID, 7, 5); len(page) != 0 {
		t.Errorf("past the end: %d rows", len(page))
	}

	// Listed, with status and dates; another customer's is not found.
	ts, err := s.Transactions(ctx, "c1")
	if err != nil || len(ts) != 1 || ts[0].ID != tr.ID || ts[0].Status != kb.TransactionComplete || ts[0].Total != 6 ||
		!ts[0].Expires.Equal(ts[0].Created.Add(kb.DefaultReportRetention)) {
		t.Errorf("transactions = %+v, %v", ts, err)
	}
	_, err = s.Transaction(ctx, "c2", tr.ID)
	wantCode(t, err, kb.CodeNotFound)
	wantCode(t, s.TransactionHoldings(ctx, "c2", tr.ID, 1, 10, func(*kb.ReportHolding) error { return nil }), kb.CodeNotFound)
	_, err = s.Transaction(ctx, "c1", "no-such-id")
	wantCode(t, err, kb.CodeNotFound)

	// Materialised: later changes of the customer's holdings and of the
	// knowledge base leave it as it was.
	must0(s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: false}))
	must0(s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaBooks, gl, kb.ResourceUpdate{Selected: true}))
	Import(t, s, "Beta Aggregator", "Beta Complete", kb.ContentAggregatedFullText, []Row{
		{Title: "Journal of Testing, renamed", Print: "03178471", First: "1995", URL: "https://beta.example/jot2", Publisher: "Alpha Press", Type: "serial"},
	})
	if diff := cmp.Diff(rows, transactionRows(t, s, "c1", tr.ID, 1, 0)); diff != "" {
		t.Errorf("the transaction changed after the customer and the knowledge base did (-before +after):\n%s", diff)
	}
	tr2 := StartTransaction(t, s, "c1")
	if rows2 := transactionRows(t, s, "c1", tr2.ID, 1, 0); len(rows2) != 2 || rows2[0].Values[0] != "Learning Go" ||
		rows2[1].Values[0] != "Journal of Testing, renamed" {
		t.Errorf("second transaction rows = %v, want Learning Go and the renamed Journal of Testing", rows2)
	}
	if ts, _ := s.Transactions(ctx, "c1"); len(ts) != 2 || ts[0].ID != tr2.ID {
		t.Errorf("transactions, newest first = %+v", ts)
	}

	// Deltas need two complete transactions of the customer.
	for _, c := range []struct {
		current, previous string
		code              kb.Code
	}{
		{"", tr.ID, kb.CodeMissing},
		{tr2.ID, "", kb.CodeMissing},
		{"no-such-id", tr.ID, kb.CodeInvalid},
		{tr2.ID, "no-such-id", kb.CodeInvalid},
	} {
		_, err := s.StartDelta(ctx, "c1", c.current, c.previous)
		wantCode(t, err, c.code)
	}
	_, err = s.StartDelta(ctx, "c2", tr2.ID, tr.ID)
	wantCode(t, err, kb.CodeInvalid)
	d, err := s.StartDelta(ctx, "c1", tr2.ID, tr.ID)
	must0(err)
	d = waitDelta(t, s, "c1", d.ID)
	// Alpha Journals' 3 titles deleted (5 rows), Learning Go added, the
	// renamed Journal of Testing updated.
	if d.Current != tr2.ID || d.Previous != tr.ID || d.Total != 7 {
		t.Errorf("delta = %+v, want 7 rows", d)
	}
	_, err = s.Delta(ctx, "c2", d.ID)
	wantCode(t, err, kb.CodeNotFound)

	// Expiry: a purge deletes expired transactions with their rows and
	// the deltas between them, nothing else.
	// Three seconds: the delta below must be built before it expires,
	// also on a loaded machine (one second failed beside go test ./...).
	const retention = 3 * time.Second
	s.SetReportRetention(retention)
	tr3 := StartTransaction(t, s, "c1")
	if !tr3.Expires.Equal(tr3.Created.Add(retention)) {
		t.Errorf("retention %v: created %v expires %v", retention, tr3.Created, tr3.Expires)
	}
	d3, err := s.StartDelta(ctx, "c1", tr3.ID, tr2.ID)
	must0(err)
	waitDelta(t, s, "c1", d3.ID)
	time.Sleep(time.Until(tr3.Expires) + 10*time.Millisecond)
	n, err := s.PurgeReports(ctx)
	if err != nil || n != 2 {
		t.Errorf("purge = %d, %v; want the expired transaction and its delta", n, err)
	}
	_, err = s.Transaction(ctx, "c1", tr3.ID)
	wantCode(t, err, kb.CodeNotFound)
	_, err = s.Delta(ctx, "c1", d3.ID)
	wantCode(t, err, kb.CodeNotFound)
	if ts, _ := s.Transactions(ctx, "c1"); len(ts) != 2 {
		t.Errorf("after the purge: %d transactions, want 2", len(ts))
	}
	s.SetReportRetention(0)
}

// testReportDeltas is the delta test: two transactions around a
// knowledge-base update (a title added, one removed, a coverage range added
// to a title, one removed from another, a URL changed) and customer changes
// (a package selected, a title selected, a title deselected, custom
// coverage), and every change type checked against what changed.
func testReportDeltas(t *testing.T, s Store) {
	ctx := context.Background()
	if _, err := s.AddCustomer(ctx, "c1", "Customer One"); err != nil {
		t.Fatal(err)
	}
	row := func(name, id, first, last string) Row {
		return Row{Title: name, ID: id, Print: ISSN(len(id)*1000 + int(id[0])), First: first, Last: last,
			URL: "https://delta.example/" + id, Publisher: "Delta Press", Type: "serial"}
	}
	before := []Row{
		row("Alpha Unchanged", "a", "2000-01-01", ""),
		row("Charlie Gains Coverage", "c", "2000-01-01", "2004-12-31"),
		row("Delta Loses Coverage", "d", "1990-01-01", "1994-12-31"),
		row("Delta Loses Coverage", "d", "2000-01-01", ""),
		row("Echo New URL", "e", "2000-01-01", ""),
		row("Foxtrot Removed", "f", "2000-01-01", ""),
		row("Hotel Custom Coverage", "h", "2000-01-01", ""),
		row("India Deselected", "i", "2000-01-01", ""),
	}
	journals := Import(t, s, "Delta Press", "Delta Journals", kb.ContentEJournal, before)
	books := Import(t, s, "Delta Press", "Lima Books", kb.ContentEBook, []Row{
		row("Lima One", "l1", "", ""), row("Lima Two", "l2", "", ""),
	})
	mixed := Import(t, s, "Delta Press", "Mike Mixed", kb.ContentEJournal, []Row{
		row("Mike Selected", "m1", "2001-01-01", ""), row("November Not Selected", "m2", "2001-01-01", ""),
	})
	if err := s.UpdatePackage(ctx, "c1", journals.VendorID, journals.PackageID, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	tr1 := StartTransaction(t, s, "c1")
	ids := map[string]int64{}
	for _, h := range transactionRows(t, s, "c1", tr1.ID, 1, 0) {
		ids[h.Values[0]] = h.TitleID
	}
	if len(ids) != 7 {
		t.Fatalf("first transaction has titles %v, want the 7 of Delta Journals", ids)
	}

	// The knowledge-base update.
	after := []Row{
		row("Alpha Unchanged", "a", "2000-01-01", ""),
		row("Charlie Gains Coverage", "c", "2000-01-01", "2004-12-31"),
		row("Charlie Gains Coverage", "c", "2010-01-01", ""),
		row("Delta Loses Coverage", "d", "2000-01-01", ""),
		row("Echo New URL", "e", "2000-01-01", ""),
		row("Golf Added", "g", "2000-01-01", ""),
		row("Hotel Custom Coverage", "h", "2000-01-01", ""),
		row("India Deselected", "i", "2000-01-01", ""),
	}
	after[4].URL = "https://delta.example/e-moved"
	Import(t, s, "Delta Press", "Delta Journals", kb.ContentEJournal, after)
	// The customer's changes.
	for _, err := range []error{
		s.UpdatePackage(ctx, "c1", books.VendorID, books.PackageID, kb.PackageUpdate{Selected: true}),
		s.UpdateResource(ctx, "c1", mixed.VendorID, mixed.PackageID, titleByName(t, s, "Mike Selected"), kb.ResourceUpdate{Selected: true}),
		s.UpdateResource(ctx, "c1", journals.VendorID, journals.PackageID, ids["India Deselected"], kb.ResourceUpdate{Selected: false}),
		s.UpdateResource(ctx, "c1", journals.VendorID, journals.PackageID, ids["Hotel Custom Coverage"], kb.ResourceUpdate{Selected: true,
			CustomCoverage: []kb.Coverage{{Begin: "2003-01-01", End: "2006-12-31"}}}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	tr2 := StartTransaction(t, s, "c1")
	d, err := s.StartDelta(ctx, "c1", tr2.ID, tr1.ID)
	if err != nil {
		t.Fatal(err)
	}
	d = waitDelta(t, s, "c1", d.ID)

	drows := reportRows(t, s.DeltaHoldings, "c1", d.ID, 1, 0)
	got := map[string][]string{}
	for _, h := range drows {
		got[h.Values[0]] = append(got[h.Values[0]], fmt.Sprintf("%s %s-%s", h.Change, h.Values[3], h.Values[6]))
	}
	want := map[string][]string{
		"Charlie Gains Coverage": {"HOLDING_UPDATED_ADDED_COVERAGE 2000-01-01-2004-12-31", "HOLDING_UPDATED_ADDED_COVERAGE 2010-01-01-"},
		"Delta Loses Coverage":   {"HOLDING_UPDATED_DELETED_COVERAGE 2000-01-01-"},
		"Echo New URL":           {"HOLDING_UPDATED 2000-01-01-"},
		"Foxtrot Removed":        {"HOLDING_DELETED 2000-01-01-"},
		"Golf Added":             {"HOLDING_ADDED 2000-01-01-"},
		"Hotel Custom Coverage":  {"HOLDING_UPDATED 2003-01-01-2006-12-31"},
		"India Deselected":       {"HOLDING_DELETED 2000-01-01-"},
		"Lima One":               {"HOLDING_ADDED -"},
		"Lima Two":               {"HOLDING_ADDED -"},
		"Mike Selected":          {"HOLDING_ADDED 2001-01-01-"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("delta rows by title (-want +got):\n%s", diff)
	}
	if d.Total != len(drows) || len(drows) != 11 {
		t.Errorf("delta total %d, %d rows, want 11", d.Total, len(drows))
	}
	for _, h := range drows {
		if h.Values[0] == "Echo New URL" && h.Values[9] != "https://delta.example/e-moved" {
			t.Errorf("updated row carries URL %q, want the current one", h.Values[9])
		}
		if h.Values[0] == "Foxtrot Removed" && h.TitleID != ids["Foxtrot Removed"] {
			t.Errorf("deleted row: title %d, want %d", h.TitleID, ids["Foxtrot Removed"])
		}
	}
	// A page of the delta: rows 2-3 in the same order.
	if page := reportRows(t, s.DeltaHoldings, "c1", d.ID, 2, 2); len(page) != 2 || page[0].Values != drows[1].Values || page[1].Values != drows[2].Values {
		t.Errorf("delta rows 2-3 = %v", page)
	}
	// A delta of a transaction with itself is empty.
	same, err := s.StartDelta(ctx, "c1", tr2.ID, tr2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if same = waitDelta(t, s, "c1", same.ID); same.Total != 0 {
		t.Errorf("delta of a transaction with itself: %d rows", same.Total)
	}
}

// titleByName returns the id of the one title named name.
func titleByName(t *testing.T, s kb.Store, name string) int64 {
	t.Helper()
	l, err := s.Titles(context.Background(), "c1", kb.TitleQuery{Search: name, Field: kb.FieldTitleName, Type: kb.SearchExactMatch, Page: page(5)})
	if err != nil || l.Total != 1 {
		t.Fatalf("title %q: %d found, %v", name, l.Total, err)
	}
	return l.Titles[0].ID
}

// ReportResume checks that a transaction whose build a closing store
// interrupted is built, completely, by the next store that opens the
// database and resumes reports. reopen opens a store over the same
// database each time it is called; the test closes what it opens. The
// build may also have ended before the close: the outcome must be the
// same.
func ReportResume(t *testing.T, reopen func() kb.Store) {
	ctx := context.Background()
	s := reopen()
	LoadFixture(t, s)
	const n = 20000
	res, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: "Resume Press", PackageName: "Resume Journals", ContentType: kb.ContentEJournal},
		RowsOf(n, func(i int) kb.ImportRow {
			return Row{Title: fmt.Sprintf("Resume Journal %05d", i), Print: ISSN(500000 + i), First: "2001-01-01",
				URL: fmt.Sprintf("https://resume.example/%d", i), Publisher: "Resume Press", Type: "serial"}.KBART(i + 2)
		}))
	if err != nil {
		s.Close()
		t.Fatal(err)
	}
	if err := s.UpdatePackage(ctx, "c1", res.VendorID, res.PackageID, kb.PackageUpdate{Selected: true}); err != nil {
		s.Close()
		t.Fatal(err)
	}
	tr, running, err := s.StartTransaction(ctx, "c1")
	if err != nil || running {
		s.Close()
		t.Fatalf("start: %v (running %v)", err, running)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = reopen()
	defer s.Close()
	if before, err := s.Transaction(ctx, "c1", tr.ID); err == nil {
		t.Logf("status when the store reopened: %s", before.Status)
	}
	if err := s.ResumeReports(ctx); err != nil {
		t.Fatal(err)
	}
	tr = WaitTransaction(t, s, "c1", tr.ID)
	buildSnapshot(t, s, "c1")
	snap := holdings(t, s, "c1", 1, 0)
	rows := transactionRows(t, s, "c1", tr.ID, 1, 0)
	if tr.Total != n || len(rows) != n || len(snap) != n {
		t.Fatalf("resumed transaction: total %d, %d rows; snapshot %d rows; want %d", tr.Total, len(rows), len(snap), n)
	}
	for i := range rows {
		if rows[i].Values != snap[i].Values {
			t.Fatalf("row %d = %q, snapshot %q", i+1, rows[i].Values, snap[i].Values)
		}
	}
	// Pages that start and end inside the stored chunks give the same rows.
	const count = 1500
	for offset := 1; offset <= n; offset += count {
		page := transactionRows(t, s, "c1", tr.ID, offset, count)
		if want := min(count, n-offset+1); len(page) != want {
			t.Fatalf("rows %d-: %d rows, want %d", offset, len(page), want)
		}
		for i := range page {
			if page[i].Values != rows[offset-1+i].Values {
				t.Fatalf("row %d of the page from %d = %q, want %q", i+1, offset, page[i].Values[0], rows[offset-1+i].Values[0])
			}
		}
	}
}
