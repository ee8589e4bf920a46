package postgres_test

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/postgres"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// open opens a store over a new schema of the test database.
func open(t *testing.T) *postgres.Store {
	t.Helper()
	st, err := postgres.Open(t.Context(), testdb.NewPostgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestConformance runs the store conformance suite on PostgreSQL, title
// searches answered by an index rebuilt inside any search that finds it
// stale.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) kb.Store { return open(t) })
}

// TestMigrateTwice checks that a second store over a migrated schema finds
// it current.
func TestMigrateTwice(t *testing.T) {
	u := testdb.NewPostgres(t)
	for range 2 {
		st, err := postgres.Open(t.Context(), u)
		if err != nil {
			t.Fatal(err)
		}
		applied, known, err := st.SchemaVersion(t.Context())
		st.Close()
		if err != nil || applied != known || known == 0 {
			t.Fatalf("SchemaVersion = %d, %d, %v; want equal, non-zero", applied, known, err)
		}
	}
}

// TestNameSearchTwoInstances checks that a package created through one
// instance is found by a name search through another over the same
// database: each instance's engine follows the names version.
func TestNameSearchTwoInstances(t *testing.T) {
	dsn := testdb.NewPostgres(t)
	var st [2]storetest.Store
	for i := range st {
		s, err := postgres.Open(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		st[i] = storetest.Searched(t.Context(), s)
	}
	c, err := st[0].AddCustomer(t.Context(), "c1", "Customer One")
	if err != nil {
		t.Fatal(err)
	}
	find := func(s storetest.Store, search string) int {
		t.Helper()
		list, err := s.Packages(t.Context(), "c1", kb.PackageQuery{Search: search, Page: kb.Page{Count: 10, Number: 1}})
		if err != nil {
			t.Fatal(err)
		}
		return list.Total
	}
	if n := find(st[1], "zanzibar"); n != 0 { // the second instance reads the names now
		t.Fatalf("before: %d found", n)
	}
	if _, err := st[0].CreateCustomPackage(t.Context(), "c1", c.VendorID, kb.CustomPackage{Name: "Zanzibar Papers"}); err != nil {
		t.Fatal(err)
	}
	if n := find(st[1], "zanzibar"); n != 1 {
		t.Errorf("through the other instance: %d found, want 1", n)
	}
}
