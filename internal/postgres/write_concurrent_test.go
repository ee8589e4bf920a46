package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/postgres"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestConcurrentWrites runs one customer's writes at once from two stores
// over the same schema (two server instances) and checks that nothing is
// lost: every request is one change in the history, each object's history
// is a chain (a change's before is the previous change's after, which only
// holds if the customer's writes applied one after another), the final
// state is the last change's after, and the custom package counts every
// title created in it.
func TestConcurrentWrites(t *testing.T) {
	ctx := context.Background()
	u := testdb.NewPostgres(t)
	var stores [2]*postgres.Store
	for i := range stores {
		st, err := postgres.Open(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		stores[i] = st
	}
	a := stores[0]
	f := storetest.LoadFixture(t, a)
	// The package is selected first: selecting it later would clear its
	// titles' selections without a change of theirs.
	if err := a.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	custom, err := a.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: "Concurrent"})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := a.Pool().Query(ctx, `SELECT title_id FROM resources WHERE package_id = $1 ORDER BY title_id`, f.AlphaJournals)
	titles, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil || len(titles) != 3 {
		t.Fatalf("titles of Alpha Journals: %v, %v", titles, err)
	}
	before, err := a.Changes(ctx, kb.ChangeQuery{CustomerID: "c1", Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	versionBefore := writesVersion(t, a)

	const n = 24
	start := make(chan struct{})
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			s := stores[i%2]
			ctx := kb.WithActor(ctx, int64(i+1))
			<-start
			switch i % 4 {
			case 0:
				errs[i] = s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true, Hidden: i%8 == 0,
					CustomCoverage: kb.Coverage{Begin: fmt.Sprintf("20%02d-01-01", i)}})
			case 1, 2:
				errs[i] = s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, titles[i%3], kb.ResourceUpdate{Selected: true,
					Hidden: i%3 == 0, CoverageStatement: fmt.Sprintf("statement %d", i)})
			case 3:
				_, errs[i] = s.CreateCustomTitle(ctx, "c1", f.C1Vendor, custom, kb.CustomTitle{TitleFields: kb.TitleFields{
					Name: fmt.Sprintf("Title %d", i), PubType: kb.ResourceJournal}})
			}
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("write %d: %v", i, err)
		}
	}

	all, err := a.Changes(ctx, kb.ChangeQuery{CustomerID: "c1", Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(before)+n {
		t.Fatalf("%d changes after %d writes, want %d", len(all), n, len(before)+n)
	}
	seen := map[int64]bool{}
	for _, c := range all[:n] {
		seen[c.KeyID] = true
	}
	for i := range n {
		if !seen[int64(i+1)] {
			t.Errorf("write %d has no change", i)
		}
	}
	if v := writesVersion(t, a); v != versionBefore+n {
		t.Errorf("customer version %d after %d writes, want %d", v, n, versionBefore+n)
	}

	// Each object's history, oldest first, is a chain. A package's state
	// counts its title-level exceptions, which resource changes change.
	last := map[string]kb.Change{}
	for i := len(all) - 1; i >= 0; i-- {
		c := all[i]
		if prev, ok := last[c.Object]; ok && ownState(c.Before) != ownState(prev.After) {
			t.Errorf("%s: change %d starts from %s, but change %d left %s", c.Object, c.ID, c.Before, prev.ID, prev.After)
		}
		last[c.Object] = c
	}

	// The final state is the last change's after.
	var pkg struct {
		Hidden   int       `json:"hidden"`
		Coverage [2]string `json:"coverage"`
	}
	decodeState(t, last[fmt.Sprintf("package %d", f.AlphaJournals)].After, &pkg)
	var hidden bool
	var begin string
	if err := a.Pool().QueryRow(ctx, `SELECT hidden, cov_begin FROM customer_packages WHERE customer_id = 'c1' AND package_id = $1`,
		f.AlphaJournals).Scan(&hidden, &begin); err != nil {
		t.Fatal(err)
	}
	if hidden != (pkg.Hidden == 1) || begin != pkg.Coverage[0] {
		t.Errorf("package state hidden %v begin %s; its last change says %+v", hidden, begin, pkg)
	}
	for _, id := range titles {
		var res struct {
			Hidden    int    `json:"hidden"`
			Statement string `json:"coverageStatement"`
		}
		decodeState(t, last[fmt.Sprintf("resource %d/%d", f.AlphaJournals, id)].After, &res)
		var statement string
		if err := a.Pool().QueryRow(ctx, `SELECT hidden, coverage_statement FROM customer_resources
			WHERE customer_id = 'c1' AND package_id = $1 AND title_id = $2`, f.AlphaJournals, id).Scan(&hidden, &statement); err != nil {
			t.Fatal(err)
		}
		if hidden != (res.Hidden == 1) || statement != res.Statement || !strings.HasPrefix(statement, "statement ") {
			t.Errorf("resource %d: hidden %v statement %q; its last change says %+v", id, hidden, statement, res)
		}
	}
	var count, resources int
	if err := a.Pool().QueryRow(ctx, `SELECT title_count, (SELECT count(*) FROM resources WHERE package_id = p.id) FROM packages p WHERE id = $1`,
		custom).Scan(&count, &resources); err != nil {
		t.Fatal(err)
	}
	if count != n/4 || resources != n/4 {
		t.Errorf("custom package: title_count %d, %d resources; want %d", count, resources, n/4)
	}
}

// writesVersion returns the c1 part of the collection version.
func writesVersion(t *testing.T, s *postgres.Store) int {
	t.Helper()
	v, err := s.CollectionVersion(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	var kbv, cv int
	if _, err := fmt.Sscanf(v, "%d.%d", &kbv, &cv); err != nil {
		t.Fatalf("collection version %q: %v", v, err)
	}
	return cv
}

var exceptions = regexp.MustCompile(`,"titleExceptions":[0-9]+`)

// ownState returns a change's state without what other objects' changes
// change.
func ownState(s string) string { return exceptions.ReplaceAllString(s, "") }

func decodeState(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("change state %q: %v", s, err)
	}
}
