package testdb

import (
	"context"
	"testing"
)

// Exec runs one SQL statement with args directly on the database of the
// store at dsn, for the few tests that must put a store in a state no store
// method makes (a build stopped midway, knowledge-base columns no import
// path sets yet). Write statements both engines accept: $1, $2…
// placeholders and standard SQL (INSERT … ON CONFLICT rather than SQLite's
// INSERT OR REPLACE). A failing statement fails the test.
func Exec(t testing.TB, dsn, query string, args ...any) {
	t.Helper()
	if _, err := DB(t, dsn).ExecContext(context.Background(), query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
