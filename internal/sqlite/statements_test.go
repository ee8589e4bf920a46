package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// A prepared read is prepared once per store and closed with the store.
func TestPreparedStatements(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "kb.db"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.prepared(ctx, `SELECT count(*) FROM titles`)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.prepared(ctx, `SELECT count(*) FROM titles`)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("the same query was prepared twice")
	}
	if _, err := s.prepared(ctx, `SELECT nonsense FROM nowhere`); err == nil {
		t.Error("a bad query prepared without error")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.QueryRowContext(ctx).Scan(new(int)); err == nil {
		t.Error("a prepared statement still runs after Close")
	}
}
