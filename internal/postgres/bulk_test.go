package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/postgres"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
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

// TestFirstLoad checks that a load into an empty knowledge base, whose
// indexes and foreign keys are built at its end, leaves the store as the
// staged import does, indexes and constraints all.
func TestFirstLoad(t *testing.T) {
	storetest.FirstLoad(t, openCompared, indexesQuery)
}

// indexesQuery lists the store's indexes and constraints, for the
// comparisons.
const indexesQuery = `SELECT name, tbl, def FROM (
	SELECT indexname AS name, tablename AS tbl, replace(indexdef, schemaname || '.', '') AS def FROM pg_indexes WHERE schemaname = current_schema()
	UNION ALL
	SELECT k.conname, t.relname, pg_get_constraintdef(k.oid) FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
	WHERE k.connamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())) d ORDER BY name, tbl, def`

// TestLoad checks that a load of many packages into an empty knowledge
// base (kb.Loader) leaves the store as importing them one at a time
// does, indexes and constraints all, and that a failed load keeps
// nothing.
func TestLoad(t *testing.T) {
	storetest.Load(t, openCompared, indexesQuery)
}

// rawDB is storetest.DB over a connection of its own to the store's schema.
type rawDB struct{ conn *pgx.Conn }

func (r rawDB) Exec(q string) error {
	_, err := r.conn.Exec(context.Background(), q)
	return err
}

func (r rawDB) Dump(q string) ([]string, error) {
	rows, err := r.conn.Query(context.Background(), q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		fs := make([]string, len(vals))
		for i, v := range vals {
			fs[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(fs, "|"))
	}
	return out, rows.Err()
}

// TestBulkLoadBesideWriters checks that a bulk load, taken by default on
// PostgreSQL, holds no customer's write back while it runs, and shows its
// package only when it ends.
func TestBulkLoadBesideWriters(t *testing.T) {
	st := storetest.Searched(t.Context(), open(t))
	f := storetest.LoadFixture(t, st)
	const n = 5000 // more than a batch: the first is written when the source stalls
	held, release := make(chan struct{}), make(chan struct{})
	rows := storetest.RowsOf(n, func(i int) kb.ImportRow {
		return storetest.Row{Title: fmt.Sprintf("Bulk Title %d", i), ID: fmt.Sprint(i), First: "2001", Type: "serial"}.KBART(i + 2)
	})
	next := func() (kb.ImportRow, error) {
		r, err := rows()
		if r.Line == n+1 { // the last row: the first batch is written, the transaction open
			close(held)
			<-release
		}
		return r, err
	}
	done := make(chan error, 1)
	go func() {
		_, err := st.ImportPackage(context.Background(), kb.PackageSpec{VendorName: "Bulk Vendor", PackageName: "Bulk New"}, next)
		done <- err
	}()
	select {
	case <-held:
	case err := <-done:
		t.Fatalf("import ended early: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := st.SetPackageState(ctx, "c1", f.AlphaJournals, kb.PackageState{Selected: true}); err != nil {
		t.Errorf("a selection beside the bulk load: %v", err)
	}
	if _, err := st.AddCustomer(ctx, "c3", "Customer Three"); err != nil {
		t.Errorf("a new customer beside the bulk load: %v", err)
	}
	list, err := st.Packages(ctx, "c1", kb.PackageQuery{Search: "Bulk New", Page: kb.Page{Count: 10, Number: 1}})
	if err != nil || list.Total != 0 {
		t.Errorf("the package shows before the load ends: %+v, %v", list, err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	list, err = st.Packages(t.Context(), "c1", kb.PackageQuery{Search: "Bulk New", Page: kb.Page{Count: 10, Number: 1}})
	if err != nil || len(list.Packages) != 1 || list.Packages[0].TitleCount != n {
		t.Errorf("after the load: %+v, %v", list, err)
	}
}

// TestBulkLoadOneConnection checks that a store with a pool of one
// connection stages a new package: a bulk load reads through the pool
// beside its transaction, and would wait for itself.
func TestBulkLoadOneConnection(t *testing.T) {
	s, err := postgres.Open(t.Context(), testdb.NewPostgres(t)+"&pool_max_conns=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for _, mode := range []kb.BulkMode{kb.BulkAuto, kb.BulkOn} {
		res, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: "V", PackageName: fmt.Sprint("P", mode), Bulk: mode},
			storetest.Rows([]storetest.Row{{Title: "One", Print: "0317-8471", First: "2001"}}))
		if err != nil || res.Bulk || res.ResourcesAdded != 1 {
			t.Errorf("bulk mode %d: %+v, %v; want staged, one resource", mode, res, err)
		}
	}
}

// TestDeferUpkeep checks what a first load builds at its end: every
// secondary index of the loaded tables, then their foreign keys.
func TestDeferUpkeep(t *testing.T) {
	s, err := postgres.Open(t.Context(), testdb.NewPostgres(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.DeferredUpkeep(t, func(tables []string) ([]string, error) { return postgres.DeferUpkeep(s, tables) },
		[]string{"resources_package_sort", "resources_provider", "resources_title", "title_identifiers_norm", "titles_custom", "titles_match", "titles_sort",
			"resources_package_id_fkey", "resources_title_id_fkey", "title_identifiers_title_id_fkey"})
}

// openCompared opens a new store in a database of its own for the
// comparisons of storetest (BulkLoad, FirstLoad), with a connection of
// its own for raw reads.
func openCompared(t *testing.T) (kb.Store, storetest.DB) {
	dsn := testdb.NewPostgres(t)
	s, err := postgres.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	conn, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return storetest.Searched(t.Context(), s), rawDB{conn}
}
