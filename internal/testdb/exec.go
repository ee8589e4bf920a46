package testdb

import (
	"context"
	"database/sql"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // the "sqlite" driver of database/sql
)

// Exec runs one SQL statement with args directly on the database of the
// store at dsn, for the few tests that must put a store in a state no store
// method makes (a build stopped midway, knowledge-base columns no import
// path sets yet). Write statements both engines accept: $1, $2…
// placeholders and standard SQL (INSERT … ON CONFLICT rather than SQLite's
// INSERT OR REPLACE). A failing statement fails the test.
func Exec(t testing.TB, dsn, query string, args ...any) {
	t.Helper()
	ctx := context.Background()
	if Kind() == "postgres" {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatalf("connect to the test database: %v", err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, query, args...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatalf("open %s: %v", dsn, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
