package postgres_test

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/postgres"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestReportResume: a transaction build that a store's Close interrupts is
// finished by the next store over the schema.
func TestReportResume(t *testing.T) {
	u := testdb.NewPostgres(t)
	storetest.ReportResume(t, func() kb.Store {
		s, err := postgres.Open(t.Context(), u)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
