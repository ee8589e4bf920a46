package sqlite_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/sqlite"
	"github.com/kbserver/kbserver/internal/storetest"
)

// TestBulkLoad checks that a new package's bulk load leaves the store as
// the staged import does.
func TestBulkLoad(t *testing.T) {
	storetest.BulkLoad(t, openCompared)
}

// TestOwnKeys checks that the keys an import keeps of what it staged
// match its rows as reading them back from the staging tables does.
func TestOwnKeys(t *testing.T) {
	storetest.OwnKeys(t, openCompared)
}

// rawDB is storetest.DB over a second handle of the store's file.
type rawDB struct{ db *sql.DB }

func (r rawDB) Exec(q string) error {
	_, err := r.db.Exec(q)
	return err
}

func (r rawDB) Dump(q string) ([]string, error) {
	rows, err := r.db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		fs := make([]string, len(vals))
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			fs[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(fs, "|"))
	}
	return out, rows.Err()
}

// TestFirstLoad checks that a load into an empty knowledge base, whose
// indexes are built at its end, leaves the store as the staged import
// does, indexes and all.
func TestFirstLoad(t *testing.T) {
	storetest.FirstLoad(t, openCompared, indexesQuery)
}

// indexesQuery lists the store's indexes, for the comparisons.
const indexesQuery = `SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name`

// TestLoad checks that a load of many packages into an empty knowledge
// base (kb.Loader) leaves the store as importing them one at a time
// does, indexes and all, and that a failed load keeps nothing.
func TestLoad(t *testing.T) {
	storetest.Load(t, openCompared, indexesQuery)
}

// TestDeferUpkeep checks what a first load builds at its end: every
// secondary index of the loaded tables (not the primary keys, which
// SQLite's schema holds no text for).
func TestDeferUpkeep(t *testing.T) {
	s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "kb.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.DeferredUpkeep(t, func(tables []string) ([]string, error) { return sqlite.DeferUpkeep(s, tables) },
		[]string{"resources_by_title", "resources_package_sort", "resources_provider", "title_identifiers_norm", "titles_custom", "titles_match", "titles_sort"})
}

// openCompared opens a new store for the comparisons of storetest
// (BulkLoad, FirstLoad), with a second handle of its file for raw reads.
func openCompared(t *testing.T) (kb.Store, storetest.DB) {
	path := filepath.Join(t.TempDir(), "kb.db")
	s, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return storetest.Searched(t.Context(), s), rawDB{db}
}
