package search

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestSelectedLikeStore derives customer c1's selected titles from its
// selection state (Index.Selected) after rounds of random selection
// changes (packages selected whole, selected without their titles and
// deselected; titles selected and deselected one by one) and requires the
// same sets, across all packages and in each changed package, as the
// store's own SQL (kbsql.SQLSelectedTitleIDs and SQLResourceSelected).
func TestSelectedLikeStore(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 600
	}
	p := newPropertyKB(t, n, 11)
	ctx := context.Background()
	changes := newSelectionChanges(t, p)
	r := rand.New(rand.NewPCG(5, 6))
	check := func(round int, pkgs map[int64]bool) {
		t.Helper()
		state, err := p.store.SelectionOf(ctx, "c1")
		if err != nil {
			t.Fatal(err)
		}
		pkgs[0] = true
		for pkg := range pkgs {
			want, err := selectedSet(ctx, p.db, p.x, "c1", pkg)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.x.Selected(state, pkg); !got.Equals(want) {
				t.Errorf("round %d, package %d: derived %d titles, the store selects %d (%d in one only)",
					round, pkg, got.GetCardinality(), want.GetCardinality(), got.GetCardinality()+want.GetCardinality()-2*got.AndCardinality(want))
			}
		}
	}
	applied := 0
	for round := range 8 {
		changed, n := changes.apply(t, r, 25)
		applied += n
		check(round, changed)
	}
	if applied < 50 {
		t.Errorf("only %d of 200 selection changes were applied: the test tests too little", applied)
	}
}

// selectionChanges makes random selection changes for customer c1 of a
// property test's knowledge base.
type selectionChanges struct {
	p         *propertyKB
	resources []struct{ pkg, title int64 }
}

// newSelectionChanges reads the resources c1 may change.
func newSelectionChanges(t *testing.T, p *propertyKB) *selectionChanges {
	t.Helper()
	c := &selectionChanges{p: p}
	err := testdb.EachRow(context.Background(), p.db, `SELECT package_id, title_id FROM resources ORDER BY package_id, title_id`, func(r *sql.Rows) error {
		var x struct{ pkg, title int64 }
		if err := r.Scan(&x.pkg, &x.title); err != nil {
			return err
		}
		if !p.othersPackage[x.pkg] {
			c.resources = append(c.resources, x)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// apply tries n random changes (packages selected whole, selected without
// their titles and deselected; titles selected and deselected one by
// one) and returns the packages changed and how many changes the rules
// allowed.
func (c *selectionChanges) apply(t *testing.T, r *rand.Rand, n int) (changed map[int64]bool, applied int) {
	t.Helper()
	ctx := context.Background()
	changed = map[int64]bool{}
	for range n {
		x := c.resources[r.IntN(len(c.resources))]
		var err error
		switch k := r.IntN(5); k {
		case 0, 1:
			u := kb.PackageUpdate{Selected: k == 0}
			if k == 0 && r.IntN(3) == 0 {
				no := false
				u.FullPackage = &no
			}
			err = c.p.store.UpdatePackage(ctx, "c1", c.p.vendorOf[x.pkg], x.pkg, u)
		default:
			err = c.p.store.UpdateResource(ctx, "c1", c.p.vendorOf[x.pkg], x.pkg, x.title, kb.ResourceUpdate{Selected: k != 4})
		}
		switch kb.ErrorCode(err) {
		case 0:
			applied++
			changed[x.pkg] = true
		case kb.CodeInvalid, kb.CodeNotAllowed:
			// A state change the rules refuse (e.g. a title of a
			// package that is not selected, or a custom package).
		default:
			t.Fatal(err)
		}
	}
	return changed, applied
}
