package store_test

import (
	"context"
	"testing"

	"github.com/kbserver/kbserver/internal/testdb"
	"github.com/kbserver/kbserver/internal/testindex"
)

// TestReopen: a store opened again finds what it held, its migrations
// already applied.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	s := testindex.OpenDSN(t, dsn)
	if _, err := s.AddCustomer(ctx, "c", "C"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = testindex.OpenDSN(t, dsn) // migrations already applied
	if _, err := s.Customer(ctx, "c"); err != nil {
		t.Errorf("customer lost on reopen: %v", err)
	}
}
