package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// A prepared read is prepared once per store, the most recently used
// maxPrepared are kept, an evicted one is closed once no query is about to
// run it, and all are closed with the store.
func TestPreparedStatements(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "kb.db"))
	if err != nil {
		t.Fatal(err)
	}
	c := &s.reads
	const first = `SELECT count(*) FROM titles`
	a, err := c.take(ctx, s.r, first)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.take(ctx, s.r, first)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("the same query was prepared twice")
	}
	c.give(b)
	if _, err := c.take(ctx, s.r, `SELECT nonsense FROM nowhere`); err == nil {
		t.Error("a bad query prepared without error")
	}
	// maxPrepared other texts evict the first, which a query still holds.
	for i := range maxPrepared {
		cs, err := c.take(ctx, s.r, fmt.Sprintf("SELECT %d", i))
		if err != nil {
			t.Fatal(err)
		}
		c.give(cs)
	}
	if c.order.Len() != maxPrepared || c.lookup(first) != nil {
		t.Fatalf("cache holds %d statements, first still cached: %v", c.order.Len(), c.lookup(first) != nil)
	}
	if err := a.st.QueryRowContext(ctx).Scan(new(int)); err != nil {
		t.Errorf("an evicted statement still taken was closed: %v", err)
	}
	c.give(a)
	if err := a.st.QueryRowContext(ctx).Scan(new(int)); err == nil {
		t.Error("an evicted statement runs after its last use")
	}
	// The query itself still runs: prepared again.
	var n int
	rows, err := s.queryPrepared(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		rows.Scan(&n)
	}
	rows.Close()
	last, _ := c.take(ctx, s.r, first)
	c.give(last)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := last.st.QueryRowContext(ctx).Scan(new(int)); err == nil {
		t.Error("a prepared statement still runs after Close")
	}
}
