package testdb

import (
	"context"
	"database/sql"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver of database/sql
	_ "modernc.org/sqlite"             // the "sqlite" driver of database/sql
)

// DB opens the database of the store at dsn (made by NewDSN) with
// database/sql, for the few tests that must read what no store method
// returns (a package's stored KBART rows, a customer's title-level rows).
// Write queries both engines accept: $1, $2… placeholders, standard SQL,
// and flags tested as conditions (CASE WHEN hidden …), since SQLite
// stores them as integers and PostgreSQL as booleans. The database is
// closed when the test ends.
func DB(t testing.TB, dsn string) *sql.DB {
	t.Helper()
	driver, source := "sqlite", dsn+"?_pragma=busy_timeout(10000)" // wait for the store's writer as the store does
	if Kind() == "postgres" {
		driver, source = "pgx", dsn
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		t.Fatalf("open %s: %v", dsn, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// EachRow calls fn with every row of query (on a database from DB).
func EachRow(ctx context.Context, db *sql.DB, query string, fn func(*sql.Rows) error, args ...any) error {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
