package postgres_test

import (
	"testing"

	"github.com/kbserver/kbserver/internal/postgres"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// FuzzSearch runs every search of a PostgreSQL store with arbitrary
// strings (storetest.FuzzSearch).
func FuzzSearch(f *testing.F) {
	s, err := postgres.Open(f.Context(), testdb.NewPostgres(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	storetest.FuzzSearch(f, s)
}
