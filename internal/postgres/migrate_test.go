package postgres_test

import (
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
	"github.com/kbserver/kbserver/internal/postgres"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestMigrateKeysToProduction checks that the keys of a database made
// before environments existed become production keys.
func TestMigrateKeysToProduction(t *testing.T) {
	ctx := t.Context()
	u := testdb.NewPostgres(t)
	pool, err := pgxpool.New(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	if err := postgres.MigrateUpTo(ctx, pool, 4); err != nil {
		pool.Close()
		t.Fatal(err)
	}
	h := kb.HashAPIKey("an-old-key")
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO vendors(id, name, sort_name) VALUES (1, 'Lib', 'lib')`, nil},
		{`INSERT INTO customers(id, name, vendor_id) VALUES ('lib', 'Lib', 1)`, nil},
		{`INSERT INTO api_keys(customer_id, prefix, hash) VALUES ('lib', $1, $2)`, []any{kbsql.KeyPrefix(h), h[:]}},
	} {
		if _, err := pool.Exec(ctx, q.sql, q.args...); err != nil {
			pool.Close()
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	pool.Close()
	st, err := postgres.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if k, err := st.LookupAPIKey(ctx, h); err != nil || k.CustomerID != "lib" || k.Environment != kb.Production {
		t.Errorf("key made before migration 5 = %+v, %v; want a production key of lib", k, err)
	}
}
