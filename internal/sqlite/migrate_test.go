package sqlite

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// TestMigrateKeysToProduction checks that the keys of a database made
// before environments existed become production keys.
func TestMigrateKeysToProduction(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "kb.db")
	db, err := sql.Open("sqlite", dsn(path, nil, ""))
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateUpTo(ctx, db, 11); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO vendors(id, name, sort_name, customer_id) VALUES (1, 'Lib', 'lib', 'lib')`,
		`INSERT INTO customers(id, name, vendor_id) VALUES ('lib', 'Lib', 1)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	h := kb.HashAPIKey("an-old-key")
	if _, err := db.ExecContext(ctx, `INSERT INTO api_keys(customer_id, prefix, hash, created) VALUES ('lib', ?, ?, '2020-01-01T00:00:00Z')`,
		kbsql.KeyPrefix(h), h[:]); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if k, err := s.LookupAPIKey(ctx, h); err != nil || k.CustomerID != "lib" || k.Environment != kb.Production {
		t.Errorf("key made before migration 12 = %+v, %v; want a production key of lib", k, err)
	}
}
