package storetest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// testImportCheck: an import's Check sees what it would do once every row
// is matched, and an error from it applies nothing, on the staged path
// and on the bulk path alike; without an error the import goes on.
func testImportCheck(t *testing.T, s Store) {
	ctx := t.Context()
	rows := func(n int) []Row {
		var rs []Row
		for i := range n {
			rs = append(rs, Row{ID: fmt.Sprintf("c%d", i), Title: fmt.Sprintf("Checked Journal %d", i), Print: ISSN(8100 + i),
				URL: fmt.Sprintf("https://c.example/%d", i), Publisher: "Check Press", Type: "serial"})
		}
		return rs
	}
	must[kb.Customer](t)(s.AddCustomer(ctx, "checker", "Checker"))
	stop := errors.New("stop")
	for _, bulk := range []kb.BulkMode{kb.BulkOff, kb.BulkOn} {
		name := fmt.Sprintf("Checked %d", bulk)
		var seen kb.ImportResult
		spec := kb.PackageSpec{VendorName: "Check Press", PackageName: name, Bulk: bulk,
			Check: func(r kb.ImportResult) error { seen = r; return stop }}
		if _, err := s.ImportPackage(ctx, spec, Rows(rows(10))); !errors.Is(err, stop) {
			t.Fatalf("bulk %d: a new package stopped by its check: %v", bulk, err)
		}
		if seen.ResourcesAdded != 10 {
			t.Errorf("bulk %d: the check saw %+v, want 10 titles added", bulk, seen)
		}
		if _, ok, err := s.Store.(kb.FeedStore).FeedPackage(ctx, "Check Press", name); ok || err != nil {
			t.Fatalf("bulk %d: the stopped import created its package (%v, %v)", bulk, ok, err)
		}
		spec.Check = nil
		first := must[kb.ImportResult](t)(s.ImportPackage(ctx, spec, Rows(rows(10))))
		spec.Check = func(r kb.ImportResult) error { seen = r; return stop }
		if _, err := s.ImportPackage(ctx, spec, Rows(rows(7))); !errors.Is(err, stop) {
			t.Fatalf("bulk %d: a re-import stopped by its check: %v", bulk, err)
		}
		if seen.ResourcesRemoved != 3 {
			t.Errorf("bulk %d: the re-import's check saw %+v, want 3 removed", bulk, seen)
		}
		p := must[kb.Package](t)(s.Package(ctx, "checker", first.VendorID, first.PackageID))
		if p.TitleCount != 10 {
			t.Errorf("bulk %d: the stopped re-import changed the package: %d titles", bulk, p.TitleCount)
		}
		spec.Check = func(kb.ImportResult) error { return nil }
		if r := must[kb.ImportResult](t)(s.ImportPackage(ctx, spec, Rows(rows(7)))); r.ResourcesRemoved != 3 {
			t.Errorf("bulk %d: a re-import its check let through: %+v", bulk, r)
		}
	}
}
