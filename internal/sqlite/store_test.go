package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
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

// TestConformanceIndexed runs the suite's searches with the title index in
// use, rebuilt inside any search that finds it stale: every title search
// is then answered from the index.
func TestConformanceIndexed(t *testing.T) {
	var lives []*search.Live
	storetest.RunSearches(t, func(t *testing.T) kb.Store {
		s := open(t)
		l := search.NewLive(t.Context(), s, search.Options{Inline: true})
		lives = append(lives, l)
		s.UseTitleIndex(l)
		return s
	})
	if len(lives) > 0 && search.AnsweredBy(lives) == 0 { // none when the suite was skipped
		t.Error("the index answered no search: the suite ran on the store's SQL alone")
	}
}
