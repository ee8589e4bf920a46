package sqlite_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/sqlite"
)

// TestReadyFails checks that Ready says what is wrong when the database
// file is deleted or replaced under the store, when its schema is not
// this build's, and after Close.
func TestReadyFails(t *testing.T) {
	cases := []struct {
		name   string
		change func(t *testing.T, s *sqlite.Store, path string)
		want   string
		// namesPath: the error names the database file.
		namesPath bool
	}{
		{"file removed", func(t *testing.T, s *sqlite.Store, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, "is gone (deleted or replaced", true},
		{"file replaced", func(t *testing.T, s *sqlite.Store, path string) {
			other := filepath.Join(t.TempDir(), "other.db")
			if err := os.WriteFile(other, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(other, path); err != nil {
				t.Fatal(err)
			}
		}, "is gone (deleted or replaced", true},
		{"migration missing", func(t *testing.T, s *sqlite.Store, path string) {
			execSQL(t, path, `DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)`)
		}, "this build needs", false},
		{"newer migration", func(t *testing.T, s *sqlite.Store, path string) {
			execSQL(t, path, `INSERT INTO schema_migrations(version, name, applied) VALUES (9999, '9999_future.sql', '')`)
		}, "a newer kbserver migrated the database", false},
		{"closed", func(t *testing.T, s *sqlite.Store, path string) {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}, "closed", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "kb.db")
			s, err := sqlite.Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			if err := s.Ready(ctx); err != nil {
				t.Fatalf("Ready before the change: %v", err)
			}
			c.change(t, s, path)
			err = s.Ready(ctx)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Ready = %v, want an error with %q", err, c.want)
			}
			if c.namesPath && !strings.Contains(err.Error(), path) {
				t.Errorf("Ready = %v, want the error to name %s", err, path)
			}
			t.Logf("Ready: %v", err)
		})
	}
}

// execSQL runs a statement on the database file at path beside the store.
func execSQL(t *testing.T, path, query string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
