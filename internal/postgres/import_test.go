package postgres_test

import (
	"compress/gzip"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/realdata"
	"github.com/kbserver/kbserver/internal/sqlite"
	"github.com/kbserver/kbserver/internal/storetest"
)

// importRows returns a row source reading a KBART file; rejected rows are
// skipped.
func importRows(t testing.TB, path string) func() (kb.ImportRow, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	kr, err := kbart.NewReader(r)
	if err != nil {
		return storetest.RowsOf(0, nil)
	}
	return storetest.KBARTRows(kr)
}

// importStep is one import of a sequence: a file as a package.
type importStep struct{ file, vendor, pkg string }

// realImports returns a sequence of imports of real files that covers
// new titles, titles shared between packages, re-imports that change
// nothing and re-imports of another file's content under a package's name
// (updated, added and removed resources, orphaned titles).
func realImports(t testing.TB) []importStep {
	dir := realdata.Dir(t)
	var files []string
	for _, f := range realdata.Files(t) {
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil && fi.Size() < 1<<20 && fi.Size() > 1<<10 {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	var steps []importStep
	for i := 0; i < len(files) && len(steps) < 24; i += 1 + len(files)/24 {
		steps = append(steps, importStep{filepath.Join(dir, files[i]), "V" + fmt.Sprint(i%3), "P" + fmt.Sprint(i)})
	}
	n := len(steps)
	if n < 4 {
		if os.Getenv("CI") == "true" {
			t.Fatal("too few corpus files for the comparison")
		}
		t.Skip("too few corpus files")
	}
	steps = append(steps,
		steps[0], // unchanged
		importStep{steps[2].file, steps[1].vendor, steps[1].pkg}, // replaced content
		importStep{steps[1].file, steps[1].vendor, steps[1].pkg}, // and back
		importStep{steps[3].file, steps[0].vendor, steps[0].pkg},
	)
	return steps
}

// TestImportSameAsSQLite imports real KBART files into both stores and
// compares the import results and the rows they wrote.
func TestImportSameAsSQLite(t *testing.T) {
	ctx := context.Background()
	steps := realImports(t)
	pg := open(t)
	path := filepath.Join(t.TempDir(), "kb.db")
	lite, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var rows int
	var litePer, pgPer time.Duration
	for _, st := range steps {
		spec := kb.PackageSpec{VendorName: st.vendor, PackageName: st.pkg}
		t0 := time.Now()
		want, werr := lite.ImportPackage(ctx, spec, importRows(t, st.file))
		t1 := time.Now()
		got, gerr := pg.ImportPackage(ctx, spec, importRows(t, st.file))
		t2 := time.Now()
		litePer, pgPer = litePer+t1.Sub(t0), pgPer+t2.Sub(t1)
		rows += want.Rows
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: errors differ: SQLite %v, PostgreSQL %v", st.file, werr, gerr)
		}
		want.ImportID, got.ImportID = 0, 0 // random
		// PostgreSQL loads a new package by the bulk path, SQLite stages
		// it: the results must not differ otherwise.
		want.Bulk, got.Bulk = false, false
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s as %s/%s: result (-sqlite +postgres):\n%s", st.file, st.vendor, st.pkg, diff)
		}
	}
	t.Logf("%d imports, %d rows: SQLite %v, PostgreSQL %v", len(steps), rows, litePer, pgPer)
	lite.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := pg.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for _, q := range []struct{ lite, pg string }{
		{`SELECT id, vendor_id, name, sort_name, content_type, package_type, title_count, import_gen FROM packages ORDER BY id`,
			`SELECT id::text, vendor_id::text, name, sort_name, content_type::text, package_type::text, title_count::text, import_gen::text FROM packages p ORDER BY p.id`},
		{`SELECT id, name, sort_name FROM vendors ORDER BY id`, `SELECT id::text, name, sort_name FROM vendors v ORDER BY v.id`},
		{`SELECT id, name, sort_name, publisher, sort_publisher, pub_type, description, peer_reviewed, subjects, contributors, match_hash FROM titles ORDER BY id`,
			`SELECT id::text, name, sort_name, publisher, sort_publisher, pub_type::text, description, peer_reviewed::int::text, subjects, contributors, match_hash::text FROM titles t ORDER BY t.id`},
		{`SELECT title_id, type, subtype, value, norm, valid FROM title_identifiers ORDER BY title_id, type, subtype, value`,
			`SELECT title_id::text, type::text, subtype::text, value, norm, valid::int::text FROM title_identifiers i ORDER BY i.title_id, i.type, i.subtype, i.value COLLATE "C"`},
		{`SELECT package_id, title_id, sort_name, url, coverage, embargo_unit, embargo_value, kbart, kbart_hash, gen, pub_type, prev_hash IS NULL FROM resources ORDER BY package_id, title_id`,
			`SELECT package_id::text, title_id::text, sort_name, url, coverage, embargo_unit::text, embargo_value::text, kbart, kbart_hash::text, gen::text, pub_type::text, (prev_hash IS NULL)::int::text FROM resources r ORDER BY r.package_id, r.title_id`},
	} {
		want := dumpSQL(t, db, q.lite)
		got := dumpPG(t, conn.Conn(), q.pg)
		if len(want) != len(got) {
			t.Errorf("%s: %d rows on SQLite, %d on PostgreSQL", q.pg, len(want), len(got))
		}
		for i := 0; i < len(want) && i < len(got); i++ {
			if want[i] != got[i] {
				t.Errorf("%s: row %d differs:\nsqlite   %q\npostgres %q", q.pg, i, want[i], got[i])
				break
			}
		}
	}
}

func dumpSQL(t *testing.T, db *sql.DB, q string) []string {
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vs := make([]sql.NullString, len(cols))
		ps := make([]any, len(cols))
		for i := range vs {
			ps[i] = &vs[i]
		}
		if err := rows.Scan(ps...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, v := range vs {
			b.WriteString(v.String)
			b.WriteByte('|')
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func dumpPG(t *testing.T, c *pgx.Conn, q string) []string {
	rows, err := c.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vs := make([]*string, len(rows.FieldDescriptions()))
		ps := make([]any, len(vs))
		for i := range vs {
			ps[i] = &vs[i]
		}
		if err := rows.Scan(ps...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, v := range vs {
			if v != nil {
				b.WriteString(*v)
			}
			b.WriteByte('|')
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
