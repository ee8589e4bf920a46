// Package testindex opens test stores (internal/testdb) that answer title
// searches, as every server's store does: each with a title index in use
// (search.Use) that is rebuilt inside any search that finds it stale. The
// search package's own tests, which testdb serves too, cannot import it.
package testindex

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
	"github.com/kbserver/kbserver/internal/testdb"
)

// Open opens a store over a new database of the run's engine
// (testdb.Open) with a title index in use.
func Open(t testing.TB) kb.Store {
	t.Helper()
	st := testdb.Open(t)
	search.Use(t.Context(), st, search.Options{Inline: true})
	return st
}

// OpenDSN opens a store over dsn (testdb.OpenDSN) with a title index in
// use.
func OpenDSN(t testing.TB, dsn string) kb.Store {
	t.Helper()
	st := testdb.OpenDSN(t, dsn)
	search.Use(t.Context(), st, search.Options{Inline: true})
	return st
}
