package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestReportTakeover: while a holdings transaction builds on one store,
// its lease is made to lapse (as a pause longer than the lease would) and
// a second store over the same database takes the build over, again and
// again. Whichever build ends it, the transaction must be Complete with
// every row once, as the customer's snapshot has them: a build that lost
// its lease writes nothing more, and a takeover never fails the report.
func TestReportTakeover(t *testing.T) {
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	a := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	storetest.LoadFixture(t, a)
	const n = 60000
	res, err := a.ImportPackage(ctx, kb.PackageSpec{VendorName: "Takeover Press", PackageName: "Takeover Journals", ContentType: kb.ContentEJournal},
		storetest.RowsOf(n, func(i int) kb.ImportRow {
			return storetest.Row{Title: fmt.Sprintf("Takeover Journal %05d", i), Print: storetest.ISSN(600000 + i), First: "2001-01-01",
				URL: fmt.Sprintf("https://takeover.example/%d", i), Publisher: "Takeover Press", Type: "serial"}.KBART(i + 2)
		}))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.UpdatePackage(ctx, "c1", res.VendorID, res.PackageID, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	b := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	tr, running, err := a.StartTransaction(ctx, "c1")
	if err != nil || running {
		t.Fatalf("start: %v (running %v)", err, running)
	}
	takeovers := 0
	for i := 0; i < 20; i++ {
		cur, err := b.Transaction(ctx, "c1", tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cur.Status != kb.TransactionInProgress {
			break
		}
		testdb.Exec(t, dsn, `UPDATE report_transactions SET lease = $1 WHERE id = $2`, time.Unix(0, 0).UTC(), tr.ID)
		if err := b.ResumeReports(ctx); err != nil {
			t.Fatal(err)
		}
		takeovers++
		time.Sleep(time.Duration(i*5) * time.Millisecond)
	}
	t.Logf("%d takeovers", takeovers)
	tr = storetest.WaitTransaction(t, b, "c1", tr.ID)
	if tr.Status != kb.TransactionComplete {
		t.Fatalf("status %s, want %s", tr.Status, kb.TransactionComplete)
	}
	if err := b.StartSnapshot(ctx, "c1", false); err != nil {
		t.Fatal(err)
	}
	if _, err := b.WaitSnapshot(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	var snap []kb.Holding
	if err := b.Holdings(ctx, "c1", 1, 0, func(h *kb.Holding) error { snap = append(snap, *h); return nil }); err != nil {
		t.Fatal(err)
	}
	var rows []kb.ReportHolding
	if err := b.TransactionHoldings(ctx, "c1", tr.ID, 1, 0, func(h *kb.ReportHolding) error { rows = append(rows, *h); return nil }); err != nil {
		t.Fatal(err)
	}
	if tr.Total != len(snap) || len(rows) != len(snap) {
		t.Fatalf("transaction total %d, %d rows; the snapshot has %d", tr.Total, len(rows), len(snap))
	}
	for i := range rows {
		if rows[i].Values != snap[i].Values {
			t.Fatalf("row %d = %q, snapshot %q", i+1, rows[i].Values[0], snap[i].Values[0])
		}
	}
}
