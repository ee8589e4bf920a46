package store_test

import (
	"context"
	"testing"

	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestReopen: a store opened again finds what it held, its migrations
// already applied.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	s := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	if _, err := s.AddCustomer(ctx, "c", "C"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn)) // migrations already applied
	if _, err := s.Customer(ctx, "c"); err != nil {
		t.Errorf("customer lost on reopen: %v", err)
	}
}
