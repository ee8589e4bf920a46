// Package testdb gives tests new, empty stores of the kind the test run
// asks for, so that one suite runs against both stores:
//
//	go test ./...                                        SQLite files
//	KBSERVER_TEST_STORE=postgres KBSERVER_TEST_POSTGRES=postgres://127.0.0.1:5432/kbtest go test ./...
//
// On PostgreSQL each store is a new schema of the database
// KBSERVER_TEST_POSTGRES names, dropped when the test ends; .ci/run creates
// that database for the run and drops it afterwards. Without the variable
// the PostgreSQL tests skip with a message, except under CI=true, where
// they fail.
package testdb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/store"
)

// The environment variables that choose the store of a test run.
const (
	EnvStore    = "KBSERVER_TEST_STORE"    // "sqlite" (default) or "postgres"
	EnvPostgres = "KBSERVER_TEST_POSTGRES" // URL of a database the tests may fill
)

// Kind returns the store kind of this test run: "sqlite" or "postgres".
// Any other value of KBSERVER_TEST_STORE stops the test binary: a mistyped
// engine must not pass as a SQLite run.
func Kind() string {
	switch v := os.Getenv(EnvStore); v {
	case "", "sqlite":
		return "sqlite"
	case "postgres":
		return "postgres"
	default:
		panic(fmt.Sprintf("%s=%q: use sqlite or postgres", EnvStore, v))
	}
}

// PostgresURL returns the URL of the test database. Without one it skips
// the test, or fails it under CI=true.
func PostgresURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(EnvPostgres)
	if u == "" {
		msg := EnvPostgres + " is not set: skipping the PostgreSQL run (set it to a database URL such as postgres://127.0.0.1:5432/test; .ci/run does)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return u
}

// NewPostgres creates a new, empty schema in the test database and returns
// a URL whose connections use it. The schema is dropped when the test ends.
func NewPostgres(t testing.TB) string {
	t.Helper()
	base := PostgresURL(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %v", EnvPostgres, err)
	}
	defer conn.Close(ctx)
	b := make([]byte, 8)
	rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	// The schemas' first migrations would each create pg_trgm, and two
	// creating it at once collide: the suite creates it first, once,
	// under a lock of the whole database.
	// (Three statements, not one: one would be one transaction, unlocked
	// before the extension commits.)
	for _, q := range []string{`SELECT pg_advisory_lock(hashtextextended('kbserver testdb extensions', 0))`,
		`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`,
		`SELECT pg_advisory_unlock(hashtextextended('kbserver testdb extensions', 0))`} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("create extension pg_trgm: %v", err)
		}
	}
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(context.Background(), base)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvPostgres, err)
	}
	q := u.Query()
	q.Set("search_path", schema+",public")
	u.RawQuery = q.Encode()
	return u.String()
}

// NewDSN returns the --db value of a new, empty store of this run's kind:
// a file path in the test's temporary directory, or a new schema's URL.
func NewDSN(t testing.TB) string {
	t.Helper()
	if Kind() == "postgres" {
		return NewPostgres(t)
	}
	return filepath.Join(t.TempDir(), "kb.db")
}

// Open opens a new, empty store of this run's kind, closed when the test
// ends.
func Open(t testing.TB) kb.Store {
	t.Helper()
	return OpenDSN(t, NewDSN(t))
}

// OpenDSN opens the store at dsn (made by NewDSN), closed when the test
// ends.
func OpenDSN(t testing.TB, dsn string) kb.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
