package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/testdb"
)

// exportFixture creates a database with the customer lib, who has
// selected a package of two titles imported by the command line, and
// returns its --db value.
func exportFixture(t *testing.T) string {
	t.Helper()
	db := tempDB(t)
	src := filepath.Join(t.TempDir(), "titles.txt")
	kbart := strings.Join(kb.HoldingColumns[:kb.KBARTFieldCount], "\t") + "\n" +
		"Journal of Exports\t1234-5679\t\t2001-01-01\t1\t1\t\t\t\thttps://ex.example/j\t\tj1\tP1Y\tfulltext\t\tEx Press\tserial\t\t\t\t\t\t\t\tF\n" +
		"Book of Exports\t\t978-0-306-40615-7\t\t\t\t\t\t\thttps://ex.example/b\tAuthor, An\tb1\t\tfulltext\t\tEx Press\tmonograph\t2010\t2011\t\t2\t\t\t\t\n"
	if err := os.WriteFile(src, []byte(kbart), 0o644); err != nil {
		t.Fatal(err)
	}
	kbs(t, "customer", "add", "lib", "--db", db).mustSucceed(t, "customer add")
	kbs(t, "import", "kbart", "--vendor", "Ex Press", "--package", "Ex Package", src, "--db", db).mustSucceed(t, "import")
	st := openDB(t, db)
	l, err := st.Packages(t.Context(), "lib", kb.PackageQuery{Search: "Ex Package", Page: kb.Page{Count: 10, Number: 1}})
	if err != nil || len(l.Packages) != 1 {
		t.Fatalf("packages %+v, %v", l, err)
	}
	pkg := l.Packages[0]
	if err := st.UpdatePackage(t.Context(), "lib", pkg.VendorID, pkg.ID, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	return db
}

// checkExport checks the file exportFixture's customer exports, but for
// the ids of the package and vendor.
func checkExport(t *testing.T, got string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 3 || lines[0] != strings.Join(kb.HoldingColumns[:], "\t") {
		t.Fatalf("export:\n%s", got)
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != kb.HoldingFieldCount || f[25] != "Ex Package" || f[27] != "Ex Press" {
			t.Errorf("row %q", f)
		}
	}
	if !strings.HasPrefix(lines[1], "Journal of Exports\t1234-5679\t\t2001-01-01\t1\t1\t\t\t\thttps://ex.example/j\t\tj1\tP1Y\tfulltext\t\tEx Press\tserial\t\t\t\t\t\t\t\tF\t") ||
		!strings.HasPrefix(lines[2], "Book of Exports\t\t978-0-306-40615-7\t\t\t\t\t\t\thttps://ex.example/b\tAuthor, An\tb1\t\tfulltext\t\tEx Press\tmonograph\t2010\t2011\t\t2\t\t\t\tP\t") {
		t.Errorf("rows:\n%s\n%s", lines[1], lines[2])
	}
	if !strings.HasSuffix(lines[1], "\tJournal") || !strings.HasSuffix(lines[2], "\tBook") {
		t.Errorf("resource types:\n%s\n%s", lines[1], lines[2])
	}
}

func TestExportHoldings(t *testing.T) {
	db := exportFixture(t)

	r := kbs(t, "export", "holdings", "lib", "--db", db).mustSucceed(t, "export to stdout")
	checkExport(t, r.stdout)
	if !strings.Contains(r.stderr, `Wrote 2 holdings of customer "lib"`) || !strings.Contains(r.stderr, "to standard output") {
		t.Errorf("stderr %q", r.stderr)
	}

	out := filepath.Join(t.TempDir(), "sub", "lib.txt")
	r = kbs(t, "--db", db, "export", "holdings", "-o", out, "lib").mustSucceed(t, "export to a file")
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkExport(t, string(b))
	if !strings.Contains(r.stderr, "Wrote 2 holdings") || !strings.Contains(r.stderr, out) || r.stdout != "" {
		t.Errorf("stdout %q, stderr %q", r.stdout, r.stderr)
	}

	dir := t.TempDir() + string(filepath.Separator)
	r = kbs(t, "export", "holdings", "lib", "-o", dir, "--db", db).mustSucceed(t, "export to a directory")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 1 || !strings.HasPrefix(filepath.Base(files[0]), "kbserver_Global_lib-holdings_20") || !strings.HasSuffix(files[0], ".txt") {
		t.Fatalf("files in the directory: %v", files)
	}
	if !strings.Contains(r.stderr, files[0]) {
		t.Errorf("stderr %q does not name %s", r.stderr, files[0])
	}
}

// TestExportAfterInterruptedBuild: a build that a stopped server left in
// progress does not block the export: opening the store resumes it, and
// the export then builds and writes the customer's holdings.
func TestExportAfterInterruptedBuild(t *testing.T) {
	db := exportFixture(t)
	st := openDB(t, db)
	if err := st.StartSnapshot(t.Context(), "lib", false); err != nil {
		t.Fatal(err)
	}
	if s, err := st.WaitSnapshot(t.Context(), "lib"); err != nil || s.Status != kb.SnapshotCompleted {
		t.Fatalf("snapshot %+v, %v", s, err)
	}
	// Back to the moment the server stopped: frozen, not built. No store
	// API can stop a build half-way, so the test writes the tables.
	for _, q := range []string{`UPDATE snapshots SET status = 'In Progress', total = 0`, `DELETE FROM snapshot_marks`} {
		testdb.Exec(t, db, q)
	}
	r := kbs(t, "export", "holdings", "lib", "--wait", "1m", "--db", db).mustSucceed(t, "export")
	checkExport(t, r.stdout)
}

func TestExportUsageErrors(t *testing.T) {
	db := tempDB(t)
	if r := kbs(t, "--db", db, "customer", "add", "somebody"); r.code != 0 {
		t.Fatalf("customer add: %s", r.stderr)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"export", "holdings"}, 2, "CUSTID is missing"},
		{[]string{"export", "holdings", "a", "b"}, 2, `unexpected argument "b"`},
		{[]string{"export", "holdings", "a", "--wait", "-1s"}, 2, "--wait -1s is negative"},
		{[]string{"export", "holdings", "a", "--wait", "soon"}, 2, "invalid value"},
		{[]string{"export", "titles"}, 2, `unknown subcommand "titles" of export: use holdings`},
		{[]string{"export", "holdings", "nobody"}, 1, `customer "nobody" does not exist`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := kbs(t, append(c.args, "--db", db)...)
			if r.code != c.code || !strings.Contains(r.stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, c.code, c.want)
			}
		})
	}
}

// TestExportExtraColumns: a KBART file's non-standard columns are kept by
// the import and come back in the export, after the standard ones and
// kbserver's own, with the values of each row; a package imported again
// without them gives them up.
func TestExportExtraColumns(t *testing.T) {
	db := tempDB(t)
	header := strings.Join(kb.HoldingColumns[:kb.KBARTFieldCount], "\t") + "\tzdb_id\tdoi_identifier\n"
	row := func(title, id, zdb, doi string) string {
		var f [kb.KBARTFieldCount]string
		f[0], f[9], f[11], f[16] = title, "https://ex.example/"+id, id, "serial"
		return strings.Join(f[:], "\t") + "\t" + zdb + "\t" + doi + "\n"
	}
	src := filepath.Join(t.TempDir(), "extra.txt")
	if err := os.WriteFile(src, []byte(header+row("Zeitschrift", "z1", "2345678-9", "10.1000/z1")+row("Revue", "r1", "", "10.1000/r1")), 0o644); err != nil {
		t.Fatal(err)
	}
	kbs(t, "customer", "add", "lib", "--db", db).mustSucceed(t, "customer add")
	kbs(t, "import", "kbart", "--vendor", "Ex Press", "--package", "Extra", src, "--db", db).mustSucceed(t, "import")
	st := openDB(t, db)
	l, err := st.Packages(t.Context(), "lib", kb.PackageQuery{Search: "Extra", Page: kb.Page{Count: 10, Number: 1}})
	if err != nil || len(l.Packages) != 1 {
		t.Fatalf("packages %+v, %v", l, err)
	}
	if err := st.UpdatePackage(t.Context(), "lib", l.Packages[0].VendorID, l.Packages[0].ID, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	out := kbs(t, "export", "holdings", "lib", "--db", db).mustSucceed(t, "export").stdout
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if want := strings.Join(kb.HoldingColumns[:], "\t") + "\tzdb_id\tdoi_identifier"; len(lines) != 3 || lines[0] != want {
		t.Fatalf("export:\n%s", out)
	}
	for i, want := range []string{"\tJournal\t2345678-9\t10.1000/z1", "\tJournal\t\t10.1000/r1"} {
		if !strings.HasSuffix(lines[i+1], want) {
			t.Errorf("row %d = %q, want it to end %q", i+1, lines[i+1], want)
		}
	}
}
