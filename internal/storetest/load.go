package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/realdata"
)

// loadPackage is one package of a load.
type loadPackage struct {
	vendor, name string
	rows         []kb.ImportRow
}

// Load checks that a load of many packages into an empty knowledge base
// (kb.Loader) leaves the store as importing them one by one by the staged
// path does: two empty stores are given the same packages, one a package
// at a time, the other as one load; then both a new package and an
// update of the load's first package by the usual paths, which read the
// indexes the load built. Results and every table must be equal, and so
// must the indexes (indexes lists them). The packages are generated from
// small spaces of ISSNs and provider title_ids, so that they share many
// titles, and are the real publishers' files of ../shared/data/kbart, a
// package each. It also checks that a load that fails keeps nothing and
// frees the import lock, and that a load into a knowledge base that is not
// empty imports each package on its own.
func Load(t *testing.T, open func(t *testing.T) (kb.Store, DB), indexes string) {
	t.Run("generated", func(t *testing.T) {
		g := bulkGen{r: rand.New(rand.NewPCG(4, 1)), issns: 600, ids: 2000}
		var pkgs []loadPackage
		var known []Row
		for i := range 7 {
			rows := g.rows(700+300*i, known)
			known = append(known, rows...)
			pkgs = append(pkgs, loadPackage{vendor: fmt.Sprintf("V%d", i%3), name: fmt.Sprintf("P%d", i), rows: kbRows(rows)})
		}
		// An aggregator of rows of the others.
		pkgs = append(pkgs, loadPackage{vendor: "V0", name: "All", rows: kbRows(append(g.rows(300, known), known[1000:4000]...))})
		extra := loadPackage{vendor: "W", name: "Later", rows: kbRows(g.rows(1500, known))}
		update := loadPackage{vendor: pkgs[0].vendor, name: pkgs[0].name, rows: kbRows(append(g.rows(200, known), known[:500]...))}
		load(t, open, indexes, pkgs, extra, update)
	})
	t.Run("real files", func(t *testing.T) {
		pkgs := realPackages(t, 30_000, 2_000)
		n := len(pkgs)
		if n < 4 {
			t.Fatalf("the corpus gave %d packages", n)
		}
		var mixed []kb.ImportRow
		for _, p := range pkgs[n/3 : n/2] {
			mixed = append(mixed, p.rows...)
		}
		extra := loadPackage{vendor: "W", name: "Later", rows: mixed}
		update := loadPackage{vendor: pkgs[0].vendor, name: pkgs[0].name, rows: pkgs[1].rows}
		load(t, open, indexes, pkgs, extra, update)
	})
	t.Run("failed", func(t *testing.T) {
		loadFails(t, open)
	})
	t.Run("not empty", func(t *testing.T) {
		g := bulkGen{r: rand.New(rand.NewPCG(5, 1)), issns: 600, ids: 2000}
		first := g.rows(1000, nil)
		before := kbRows(first[:300])
		pkgs := []loadPackage{{"V", "First", kbRows(first)}, {"V", "Second", kbRows(g.rows(1000, first))}}
		ctx := context.Background()
		sides := openSides(t, open)
		for i, sd := range sides {
			if _, err := sd.s.ImportPackage(ctx, kb.PackageSpec{VendorName: "V", PackageName: "Before", FirstLoad: true},
				RowsOf(len(before), func(i int) kb.ImportRow { return before[i] })); err != nil {
				t.Fatal(err)
			}
			res, one, err := loadSide(ctx, sd.s, i == 1, pkgs)
			if err != nil {
				t.Fatal(err)
			}
			if one {
				t.Fatal("a load into a knowledge base with a package loaded it as one")
			}
			if len(res) != 2 || res[1].Rows != 1000 {
				t.Fatalf("results %+v", res)
			}
		}
		sameTables(t, sides, "a load into a knowledge base not empty", "load")
	})
}

// load gives two empty stores pkgs, the first one package at a time
// (staged), the second as one load, then extra and update by the usual
// paths, and compares them after each step.
func load(t *testing.T, open func(t *testing.T) (kb.Store, DB), indexes string, pkgs []loadPackage, extra, update loadPackage) {
	ctx := context.Background()
	sides := openSides(t, open)
	var res [2][]kb.ImportResult
	for i, sd := range sides {
		var one bool
		var err error
		if res[i], one, err = loadSide(ctx, sd.s, i == 1, pkgs); err != nil {
			t.Fatalf("store %d: %v", i, err)
		}
		if i == 1 && !one {
			t.Fatal("the load into an empty knowledge base did not load its packages as one")
		}
	}
	if diff := cmp.Diff(res[0], res[1]); diff != "" {
		t.Errorf("results differ (-one by one +load):\n%s", diff)
	}
	matched := 0
	for _, r := range res[0] {
		matched += r.TitlesMatched
	}
	if matched == 0 || len(res[0]) != len(pkgs) {
		t.Fatalf("%d packages matched %d titles", len(res[0]), matched)
	}
	sameTables(t, sides, "the load", "load")
	sameIndexes(t, sides, indexes, "the load", "load")
	for k, p := range []loadPackage{extra, update} {
		var r [2]kb.ImportResult
		for i, sd := range sides {
			var err error
			r[i], err = sd.s.ImportPackage(ctx, kb.PackageSpec{VendorName: p.vendor, PackageName: p.name},
				RowsOf(len(p.rows), func(i int) kb.ImportRow { return p.rows[i] }))
			if err != nil {
				t.Fatalf("step %d, store %d: %v", k, i, err)
			}
			r[i].ImportID = 0
		}
		if diff := cmp.Diff(r[0], r[1]); diff != "" {
			t.Errorf("after the load, step %d: results differ:\n%s", k, diff)
		}
		sameTables(t, sides, fmt.Sprintf("after the load, step %d", k), "load")
	}
}

// loadSide gives st the packages: as one load (asLoad), or one at a time
// by the staged path. The results leave out what differs between the two
// (the import's id, its path).
func loadSide(ctx context.Context, st kb.Store, asLoad bool, pkgs []loadPackage) ([]kb.ImportResult, bool, error) {
	var res []kb.ImportResult
	all := func(importPackage kb.ImportFunc) error {
		for _, p := range pkgs {
			bulk := kb.BulkOff
			if asLoad {
				bulk = kb.BulkAuto
			}
			r, err := importPackage(ctx, kb.PackageSpec{VendorName: p.vendor, PackageName: p.name, Bulk: bulk, FirstLoad: asLoad},
				RowsOf(len(p.rows), func(i int) kb.ImportRow { return p.rows[i] }))
			if err != nil {
				return err
			}
			r.ImportID, r.Bulk = 0, false
			res = append(res, r)
		}
		return nil
	}
	if !asLoad {
		return res, false, all(st.ImportPackage)
	}
	one, err := st.LoadPackages(ctx, all)
	return res, one, err
}

// sameIndexes fails the test when the two stores' indexes (the rows of
// the query indexes) differ after step; the second imported by path.
func sameIndexes(t *testing.T, sides [2]side, indexes, step, path string) {
	t.Helper()
	a, err := sides[0].db.Dump(indexes)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sides[1].db.Dump(indexes)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) == 0 {
		t.Fatalf("%s: found no index", indexes)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("%s: the indexes differ (-staged +%s):\n%s", step, path, diff)
	}
}

// loadFails checks that a load that fails, after some packages, keeps
// nothing, and that an import can run after it: when fn fails, when an
// import's rows fail (also when fn goes on as if they had not), when a
// package's check refuses it, when a package comes twice, and when one
// asks for a dry run.
func loadFails(t *testing.T, open func(t *testing.T) (kb.Store, DB)) {
	ctx := context.Background()
	g := bulkGen{r: rand.New(rand.NewPCG(6, 1)), issns: 600, ids: 2000}
	rows := kbRows(g.rows(1200, nil))
	of := func(rs []kb.ImportRow) func() (kb.ImportRow, error) {
		return RowsOf(len(rs), func(i int) kb.ImportRow { return rs[i] })
	}
	errStop := errors.New("stop")
	for _, c := range []struct {
		name string
		last func(kb.ImportFunc) error // after two packages
		want string
	}{
		{"fn fails", func(kb.ImportFunc) error { return errStop }, "stop"},
		{"rows fail", func(imp kb.ImportFunc) error {
			n := 0
			_, err := imp(ctx, kb.PackageSpec{VendorName: "V", PackageName: "Third"}, func() (kb.ImportRow, error) {
				if n++; n > 500 {
					return kb.ImportRow{}, errStop
				}
				return rows[n], nil
			})
			return err
		}, "stop"},
		{"fn ignores a failure", func(imp kb.ImportFunc) error {
			imp(ctx, kb.PackageSpec{VendorName: "V", PackageName: "Third"}, func() (kb.ImportRow, error) { return kb.ImportRow{}, errStop })
			_, err := imp(ctx, kb.PackageSpec{VendorName: "V", PackageName: "Fourth"}, of(rows[600:700]))
			if err == nil || !strings.Contains(err.Error(), "an earlier package of the load failed") {
				return fmt.Errorf("an import after a failed one: %v", err)
			}
			return nil
		}, "stop"},
		{"a check refuses", func(imp kb.ImportFunc) error {
			refuse := func(kb.ImportResult) error { return errors.New("refused") }
			_, err := imp(ctx, kb.PackageSpec{VendorName: "V", PackageName: "Third", Check: refuse}, of(rows[600:]))
			return err
		}, "refused"},
		{"a package twice", func(imp kb.ImportFunc) error {
			_, err := imp(ctx, kb.PackageSpec{VendorName: "v", PackageName: " first "}, of(rows[:10]))
			return err
		}, "a package comes once in a load"},
		{"a dry run", func(imp kb.ImportFunc) error {
			_, err := imp(ctx, kb.PackageSpec{VendorName: "V", PackageName: "Dry", DryRun: true}, of(rows[:10]))
			return err
		}, "does not dry-run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sides := openSides(t, open)
			st := sides[0].s
			empty := dump(t, sides[1].db)
			one, err := st.LoadPackages(ctx, func(imp kb.ImportFunc) error {
				for _, name := range []string{"First", "Second"} {
					if _, err := imp(ctx, kb.PackageSpec{VendorName: "V", PackageName: name}, of(rows[:600])); err != nil {
						return err
					}
				}
				return c.last(imp)
			})
			if !one || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("load: one %v, error %v; want one, and an error with %q", one, err, c.want)
			}
			if diff := cmp.Diff(empty, dump(t, sides[0].db)); diff != "" {
				t.Errorf("a failed load kept (-empty +after):\n%s", diff)
			}
			res, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: "V", PackageName: "First", FirstLoad: true}, of(rows))
			if err != nil || res.ResourcesAdded == 0 {
				t.Fatalf("an import after the failed load: %+v, %v", res, err)
			}
		})
	}
}

// realPackages returns the corpus' files as packages, in the order of
// their sorted paths, each of at most perFile of its first rows, until
// they hold n rows: the vendor is the file's folder, the package its name.
func realPackages(t *testing.T, n, perFile int) []loadPackage {
	dir := realdata.Dir(t)
	files := realdata.Files(t)
	slices.Sort(files)
	var pkgs []loadPackage
	total := 0
	for _, f := range files {
		if total >= n {
			break
		}
		rows := fileRows(filepath.Join(dir, f), perFile)
		if len(rows) == 0 {
			continue
		}
		folder, name := filepath.Split(f)
		pkgs = append(pkgs, loadPackage{vendor: strings.Trim(folder, "/"), name: name, rows: rows})
		total += len(rows)
	}
	return pkgs
}
