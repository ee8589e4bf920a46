package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/sqlite"
	"github.com/kbserver/kbserver/internal/storetest"
)

func open(t *testing.T) kb.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "kb.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) { storetest.Run(t, open) }

func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kb.db")
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddCustomer(ctx, "c", "C"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = sqlite.Open(ctx, path) // migrations already applied
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Customer(ctx, "c"); err != nil {
		t.Errorf("customer lost on reopen: %v", err)
	}
}
