package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/sqlite"
	"github.com/kbserver/kbserver/internal/storetest"
)

// TestReportResume: a transaction build that a store's Close interrupts is
// finished by the next store over the file.
func TestReportResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kb.db")
	storetest.ReportResume(t, func() kb.Store {
		s, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
