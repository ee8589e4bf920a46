package postgres_test

import (
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/postgres"
)

// TestReadyFails checks that Ready says what is wrong when the schema is
// dropped or its migrations are not this build's, and after Close.
func TestReadyFails(t *testing.T) {
	exec := func(t *testing.T, st *postgres.Store, q string) {
		t.Helper()
		if _, err := st.Pool().Exec(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	cases := []struct {
		name   string
		change func(t *testing.T, st *postgres.Store)
		want   string
	}{
		{"schema dropped", func(t *testing.T, st *postgres.Store) {
			var schema string
			if err := st.Pool().QueryRow(t.Context(), `SELECT current_schema()`).Scan(&schema); err != nil {
				t.Fatal(err)
			}
			// Dropped, then made again empty, for the test's cleanup to drop.
			exec(t, st, `DROP SCHEMA `+schema+` CASCADE`)
			exec(t, st, `CREATE SCHEMA `+schema)
		}, "has no kbserver schema"},
		{"migration rows deleted", func(t *testing.T, st *postgres.Store) {
			exec(t, st, `DELETE FROM schema_migrations`)
		}, "schema at migration 0, this build needs"},
		{"newer migration", func(t *testing.T, st *postgres.Store) {
			exec(t, st, `INSERT INTO schema_migrations(version, name) VALUES (9999, '9999_future.sql')`)
		}, "a newer kbserver migrated the database"},
		{"closed", func(t *testing.T, st *postgres.Store) {
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
		}, "closed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := open(t)
			if err := st.Ready(t.Context()); err != nil {
				t.Fatalf("Ready before the change: %v", err)
			}
			c.change(t, st)
			err := st.Ready(t.Context())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Ready = %v, want an error with %q", err, c.want)
			}
			t.Logf("Ready: %v", err)
		})
	}
}
