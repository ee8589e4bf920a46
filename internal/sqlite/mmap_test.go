package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/kbserver/kbserver/internal/sqlite"
)

// TestMemoryMapped checks that MemoryMapped has the writer and the
// readers read through memory-mapped I/O, and that a store opened
// without it does not (serve's: the title searches are slower mapped).
func TestMemoryMapped(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []sqlite.Option
		want int64
	}{
		{"plain", nil, 0},
		{"memory-mapped", []sqlite.Option{sqlite.MemoryMapped()}, 2147418112},
	} {
		s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "kb.db"), c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		var w, r int64
		if err := s.Writer().QueryRow("PRAGMA mmap_size").Scan(&w); err != nil {
			t.Fatal(err)
		}
		if err := s.Reader().QueryRow("PRAGMA mmap_size").Scan(&r); err != nil {
			t.Fatal(err)
		}
		if w != c.want || r != c.want {
			t.Errorf("%s: mmap_size %d (writer), %d (reader), want %d", c.name, w, r, c.want)
		}
		s.Close()
	}
}
