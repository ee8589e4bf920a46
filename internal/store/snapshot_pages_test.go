package store_test

import (
	stdcmp "cmp"
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// markEvery is the stores' number of resources between two offset marks
// of a snapshot (kbsnapshot.MarkEvery): the
// test places its exceptions around the marks.
const markEvery = 256

// TestHoldingsPagesMatchWholeSnapshot: any page of a snapshot is the same
// slice of the whole snapshot, wherever it starts (on a mark, between
// marks, inside a resource's rows, at a segment's edge). The snapshot has
// every segment kind: a package selected whole with no exclusion (marks
// from the import), one with deselected, hidden and custom-coverage titles
// (marks from the build), titles selected one by one, and a custom
// package.
func TestHoldingsPagesMatchWholeSnapshot(t *testing.T) {
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	s := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	db := testdb.DB(t, dsn)
	sum, err := gen.Generate(ctx, s, gen.Options{Titles: 3000, Packages: 6, Vendors: 2, Seed: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows <= sum.Resources {
		t.Fatalf("generated %d rows for %d resources: the test needs resources of several rows", sum.Rows, sum.Resources)
	}
	if _, err := s.AddCustomer(ctx, "c", ""); err != nil {
		t.Fatal(err)
	}
	vendorOf := func(p int64) (v int64) {
		if err := db.QueryRowContext(ctx, `SELECT vendor_id FROM packages WHERE id = $1`, p).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	titlesOf := func(p int64) (ids []int64) {
		rows, err := db.QueryContext(ctx, `SELECT title_id FROM resources WHERE package_id = $1 ORDER BY title_id`, p)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			rows.Scan(&id)
			ids = append(ids, id)
		}
		return ids
	}
	// The excepted package takes title-level deselections: not of type
	// Complete; the largest such.
	var excepted int64
	if err := db.QueryRowContext(ctx, `SELECT id FROM packages WHERE package_type <> $1 ORDER BY title_count DESC, id LIMIT 1`,
		kb.PackageComplete).Scan(&excepted); err != nil {
		t.Fatal(err)
	}
	var whole, single int64
	if err := db.QueryRowContext(ctx, `SELECT id FROM packages WHERE package_type <> $1 AND id <> $2 ORDER BY id LIMIT 1`,
		kb.PackageComplete, excepted).Scan(&single); err != nil {
		t.Fatal(err)
	}
	for _, p := range sum.PackageIDs {
		if p != excepted && p != single {
			whole = p
			break
		}
	}
	for _, p := range []int64{whole, excepted} {
		if err := s.UpdatePackage(ctx, "c", vendorOf(p), p, kb.PackageUpdate{Selected: true}); err != nil {
			t.Fatal(err)
		}
	}
	ex := titlesOf(excepted)
	if len(ex) < 3*markEvery {
		t.Fatalf("package %d has %d titles: the test needs several marks", excepted, len(ex))
	}
	twoRanges := []kb.Coverage{{Begin: "2015-01-01", End: "2019-12-31"}, {Begin: "2001-01-01", End: "2004-12-31"}}
	for i, u := range map[int]kb.ResourceUpdate{
		0:           {Selected: false},
		10:          {Selected: true, Hidden: true},
		255:         {Selected: true, CustomCoverage: twoRanges},
		256:         {Selected: false},
		300:         {Selected: true, CustomCoverage: twoRanges, CustomEmbargo: kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}},
		len(ex) - 1: {Selected: false},
	} {
		if err := s.UpdateResource(ctx, "c", vendorOf(excepted), excepted, ex[i], u); err != nil {
			t.Fatal(err)
		}
	}
	for _, tid := range titlesOf(single)[5:9] {
		if err := s.UpdateResource(ctx, "c", vendorOf(single), single, tid, kb.ResourceUpdate{Selected: true}); err != nil {
			t.Fatal(err)
		}
	}
	cust, err := s.Customer(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	own := cust.VendorID
	custom, err := s.CreateCustomPackage(ctx, "c", own, kb.CustomPackage{Name: "Local", ContentType: kb.ContentEBook})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Local One", "Local Two"} {
		if _, err := s.CreateCustomTitle(ctx, "c", own, custom, kb.CustomTitle{TitleFields: kb.TitleFields{Name: name, PubType: kb.ResourceBook}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.StartSnapshot(ctx, "c", false); err != nil {
		t.Fatal(err)
	}
	total := waitCompleted(t, s, "c").Total

	read := func(offset, count int) []kb.Holding {
		var out []kb.Holding
		if err := s.Holdings(ctx, "c", offset, count, func(h *kb.Holding) error {
			out = append(out, *h)
			return nil
		}); err != nil {
			t.Fatalf("Holdings(%d, %d): %v", offset, count, err)
		}
		return out
	}
	all := read(1, 0)
	if len(all) != total {
		t.Fatalf("%d rows read, status says %d", len(all), total)
	}
	// Rows come in package id, then title id order (title_id is column 11
	// of a managed row; the custom titles' rows carry theirs too).
	type key struct{ p, t int }
	var keys []key
	for _, h := range all {
		p, _ := strconv.Atoi(h.Values[26])
		tid, _ := strconv.Atoi(h.Values[11])
		keys = append(keys, key{p, tid})
	}
	if !slices.IsSortedFunc(keys, func(a, b key) int { return stdcmp.Or(a.p-b.p, a.t-b.t) }) {
		t.Error("rows are not in package id, title id order")
	}
	// The expected row count, counted here from the resources' KBART rows
	// (rows joined by newlines, passed as $2: SQLite has no chr, PostgreSQL
	// no char).
	want := 0
	for _, p := range []int64{whole, excepted} {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT SUM(length(kbart) - length(replace(kbart, $2, '')) + 1) FROM resources WHERE package_id = $1`,
			p, "\n").Scan(&n); err != nil {
			t.Fatal(err)
		}
		want += n
	}
	rowsOf := func(p, tid int64) (n int) {
		if err := db.QueryRowContext(ctx, `SELECT length(kbart) - length(replace(kbart, $3, '')) + 1 FROM resources WHERE package_id = $1 AND title_id = $2`,
			p, tid, "\n").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, i := range []int{0, 10, 256, len(ex) - 1} {
		want -= rowsOf(excepted, ex[i])
	}
	want += 2 - rowsOf(excepted, ex[255]) + 2 - rowsOf(excepted, ex[300])
	for _, tid := range titlesOf(single)[5:9] {
		want += rowsOf(single, tid)
	}
	want += 2 // the custom titles
	if total != want {
		t.Errorf("snapshot of %d rows, want %d", total, want)
	}

	offsets := []int{1, 2, 3, total - 1, total}
	for o := 1; o <= total; o += 97 {
		offsets = append(offsets, o)
	}
	for i := 1; i < len(all); i++ { // every segment's first row and its neighbours
		if all[i].Values[26] != all[i-1].Values[26] {
			offsets = append(offsets, i, i+1, i+2)
		}
	}
	for _, o := range offsets {
		for _, n := range []int{1, 3, 600} {
			end := min(o-1+n, total)
			if diff := cmp.Diff(all[o-1:end], read(o, n)); diff != "" {
				t.Fatalf("page at %d of %d rows differs from the whole (-whole +page):\n%s", o, n, diff)
			}
		}
	}
	if got := read(total+1, 10); len(got) != 0 {
		t.Errorf("a page past the end has %d rows", len(got))
	}
}
