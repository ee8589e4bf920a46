package postgres_test

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/postgres"
	"github.com/kbserver/kbserver/internal/search"
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
	storetest.Run(t, func(t *testing.T) kb.Store {
		s := open(t)
		search.Use(t.Context(), s, search.Options{Inline: true})
		return s
	})
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
