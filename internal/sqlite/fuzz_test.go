package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/kbserver/kbserver/internal/sqlite"
	"github.com/kbserver/kbserver/internal/storetest"
)

// FuzzSearch runs every search of a SQLite store with arbitrary strings
// (storetest.FuzzSearch).
func FuzzSearch(f *testing.F) {
	s, err := sqlite.Open(context.Background(), filepath.Join(f.TempDir(), "kb.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	storetest.FuzzSearch(f, s)
}
