package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
)

// OwnKeys checks that the keys an import keeps in memory of what it
// staged so far (kbimport's ownKeys) match its rows as reading them back
// from the staging tables did: two stores import the same rows by the
// staged path, one set as the reference (SetReference), 7 rows a batch
// on both so that nearly every match among the import's own rows crosses
// a batch. The rows are generated from small spaces of ISSNs and
// provider title_ids, and real publishers' files; the steps a new
// package, a second one and an update of the first; and rows made for
// the case where a title matched by its provider title_id is a later
// row's candidate, whose holder is the import's first row of it (an
// importer that stopped reading the store's titles for the rows a
// title_id matched got it wrong). Results and every table must be equal.
func OwnKeys(t *testing.T, open func(t *testing.T) (kb.Store, DB)) {
	for _, c := range []struct {
		seed       uint64
		issns, ids int
	}{{1, 800, 3000}, {2, 200, 500}, {3, 50, 100}} {
		t.Run(fmt.Sprintf("seed %d, %d ISSNs, %d title_ids", c.seed, c.issns, c.ids), func(t *testing.T) {
			g := bulkGen{r: rand.New(rand.NewPCG(c.seed, 1)), issns: c.issns, ids: c.ids}
			base := g.rows(3000, nil)
			second := g.rows(1500, base)
			update := append(g.rows(500, base), base[:2000]...)
			ownKeys(t, open, kbRows(base), kbRows(second), kbRows(update))
		})
	}
	t.Run("a title matched by title_id as a candidate", func(t *testing.T) {
		// T1 (title_id P1, ISSN X) is held by package First. In the
		// update, A0 (no title_id) matches T1 by X in the first batch of 7;
		// in the second, A matches T1 by P1 and brings it ISSN Y, and B
		// (title_id P2, no URL, Y) then has T1 as its candidate: T1's
		// holder is this import's first row of it (A0), whose key B's
		// does not contradict, so B is T1 too.
		const x, y = "1000-0011", "1000-002X"
		filler := func(i int) Row {
			return Row{Title: fmt.Sprintf("Filler %d", i), ID: fmt.Sprintf("F%d", i), Print: []string{"1000-0038", "1000-0046", "1000-0054",
				"1000-0062", "1000-0070", "1000-0089"}[i], URL: fmt.Sprintf("http://f/%d", i), Type: "serial"}
		}
		t1 := Row{Title: "Alpha Journal", ID: "P1", Print: x, URL: "http://a/1", Type: "serial"}
		first := []Row{t1, t1}
		for i := range 6 {
			first = append(first, filler(i))
		}
		second := []Row{{Title: "Alpha Journal", Print: x, URL: "http://w/1", Type: "serial"}, {Title: "Gamma", Print: "1000-0097", Type: "serial"}}
		update := []Row{{Title: "Alpha Journal", Print: x, URL: "http://a/0", Type: "serial"}}
		for i := range 6 {
			update = append(update, filler(i))
		}
		update = append(update,
			Row{Title: "Alpha Journal", ID: "P1", Print: x, Online: y, URL: "http://a/1b", Type: "serial"},
			Row{Title: "Alpha Journal", ID: "P2", Online: y, Type: "serial"},
			Row{Title: "Delta", ID: "P3", Print: "1000-0100", Type: "serial"})
		ownKeys(t, open, kbRows(first), kbRows(second), kbRows(update))
	})
	t.Run("real files", func(t *testing.T) {
		rows := realRows(t, 6000)
		n := len(rows)
		ownKeys(t, open, rows[:n/2], rows[n/2:], rows[n/4:n*3/4])
	})
}

func ownKeys(t *testing.T, open func(t *testing.T) (kb.Store, DB), first, second, update []kb.ImportRow) {
	ctx := context.Background()
	sides := openSides(t, open)
	for i, sd := range sides {
		st := sd.s
		if w, ok := st.(Store); ok {
			st = w.Store
		}
		b, ok := st.(interface {
			SetImportBatch(int)
			SetReference(bool)
		})
		if !ok {
			t.Fatalf("the store %T cannot set its imports' batch and reference", st)
		}
		b.SetImportBatch(7)
		b.SetReference(i == 0)
	}
	for k, step := range []struct {
		vendor, name string
		rows         []kb.ImportRow
	}{{"V", "First", first}, {"W", "Second", second}, {"V", "First", update}} {
		var res [2]kb.ImportResult
		for i, sd := range sides {
			spec := kb.PackageSpec{VendorName: step.vendor, PackageName: step.name, Bulk: kb.BulkOff}
			var err error
			if res[i], err = sd.s.ImportPackage(ctx, spec, RowsOf(len(step.rows), func(i int) kb.ImportRow { return step.rows[i] })); err != nil {
				t.Fatalf("step %d (%s), store %d: %v", k, step.name, i, err)
			}
			res[i].ImportID = 0
		}
		if diff := cmp.Diff(res[0], res[1]); diff != "" {
			t.Errorf("step %d (%s): results differ (-read back +kept):\n%s", k, step.name, diff)
		}
		if res[0].TitlesMatched == 0 || res[0].TitlesCreated == 0 {
			t.Fatalf("step %d (%s): matched %d titles, created %d", k, step.name, res[0].TitlesMatched, res[0].TitlesCreated)
		}
		sameTables(t, sides, fmt.Sprintf("step %d (%s)", k, step.name), "kept keys")
		if t.Failed() {
			return
		}
	}
}
