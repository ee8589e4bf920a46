package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/testdb"
)

// kbartFile returns a KBART file of the given rows, each a map from field
// to value.
func kbartFile(rows ...map[kbart.Field]string) string {
	var b strings.Builder
	b.WriteString(strings.Join(kbart.Header[:], "\t") + "\n")
	for _, row := range rows {
		var v [kbart.NumFields]string
		for f, s := range row {
			v[f] = s
		}
		b.WriteString(strings.Join(v[:], "\t") + "\n")
	}
	return b.String()
}

func journal(name, issn, eissn, begin string) map[kbart.Field]string {
	return map[kbart.Field]string{
		kbart.PublicationTitle:     name,
		kbart.PrintIdentifier:      issn,
		kbart.OnlineIdentifier:     eissn,
		kbart.DateFirstIssueOnline: begin,
		kbart.TitleURL:             "https://press.example/" + eissn,
		kbart.PublisherName:        "Test Press",
		kbart.PublicationType:      "serial",
		kbart.CoverageDepth:        "fulltext",
	}
}

// The fixture: three good rows, one the reader repairs (a slash date) and
// one it rejects (no tab at all).
func fixture() string {
	s := kbartFile(
		journal("Journal of Tests", "0317-8471", "1050-124X", "2001-01-01"),
		journal("Annals of Fixtures", "0000-0019", "2049-3630", "1999-01-01"),
		journal("Review of Examples", "1234-5679", "0028-0836", "2005/03/01"),
		map[kbart.Field]string{kbart.PublicationTitle: "A Book of Tests", kbart.OnlineIdentifier: "978-0-306-40615-7", kbart.PublicationType: "monograph"},
	)
	return s + "this line has no tab\n"
}

func writeFile(t *testing.T, name, content string, gz bool) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	data := []byte(content)
	if gz {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		data = buf.Bytes()
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// packageByName finds an imported package.
func packageByName(t *testing.T, st kb.Store, name string) (kb.Package, bool) {
	t.Helper()
	list, err := st.Packages(t.Context(), checker, kb.PackageQuery{Search: name, Page: kb.Page{Count: 100, Number: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range list.Packages {
		if p.Name == name {
			return p, true
		}
	}
	return kb.Package{}, false
}

func TestImport(t *testing.T) {
	plain := writeFile(t, "titles.txt", fixture(), false)
	gz := writeFile(t, "titles.txt.gz", fixture(), true)
	more := writeFile(t, "more.tsv", kbartFile(journal("Letters in Parsing", "2434-561X", "", "2010-01-01")), false)
	cases := []struct {
		name     string
		files    []string
		stdin    string
		extra    []string
		read     int
		imported int
		rejected int
		repaired int
		content  kb.ContentType
		ptype    kb.PackageType
	}{
		{name: "file", files: []string{plain}, read: 5, imported: 4, rejected: 1, repaired: 1, content: kb.ContentUnknown, ptype: kb.PackageSelectable},
		{name: "stdin", files: []string{"-"}, stdin: fixture(), read: 5, imported: 4, rejected: 1, repaired: 1,
			extra: []string{"--content-type", "EJournal", "--package-type", "complete"}, content: kb.ContentEJournal, ptype: kb.PackageComplete},
		{name: "gzip", files: []string{gz}, read: 5, imported: 4, rejected: 1, repaired: 1,
			extra: []string{"--content-type", "ebook", "--package-type", "Variable"}, content: kb.ContentEBook, ptype: kb.PackageVariable},
		{name: "two files", files: []string{plain, more}, read: 6, imported: 5, rejected: 1, repaired: 1, content: kb.ContentUnknown, ptype: kb.PackageSelectable},
		{name: "bulk on", files: []string{plain, more}, extra: []string{"--bulk", "on"}, read: 6, imported: 5, rejected: 1, repaired: 1,
			content: kb.ContentUnknown, ptype: kb.PackageSelectable},
		{name: "bulk off", files: []string{plain, more}, extra: []string{"--bulk", "OFF"}, read: 6, imported: 5, rejected: 1, repaired: 1,
			content: kb.ContentUnknown, ptype: kb.PackageSelectable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			db := tempDB(t)
			args := append([]string{"--db", db, "import", "kbart", "--vendor", "Test Vendor", "--package", "Test Package", "--allow-rejected"}, c.extra...)
			args = append(args, c.files...)
			r := runCLI(t, invocation{args: args, stdin: c.stdin}).mustSucceed(t, "import")
			for label, want := range map[string]int{
				"rows read": c.read, "rows imported": c.imported, "rows rejected": c.rejected, "rows repaired": c.repaired,
				"titles created": c.imported, "titles matched": 0, "resources added": c.imported, "resources removed": 0,
			} {
				if got := number(t, r.stdout, label); got != want {
					t.Errorf("%s = %d, want %d\n%s", label, got, want, r.stdout)
				}
			}
			if !strings.Contains(r.stdout, "rows/s") {
				t.Errorf("no speed in summary:\n%s", r.stdout)
			}
			// Into an empty store every import takes the bulk path (a
			// first load) unless told not to.
			want := c.name != "bulk off"
			if bulk := strings.Contains(r.stdout, "went straight into the store"); bulk != want {
				t.Errorf("bulk path taken: %v\n%s", bulk, r.stdout)
			}
			for _, w := range []string{"Rejected rows (1):", ":6: line has no tab", "Repaired rows (1):", `:4: date_first_issue_online "2005/03/01"`, "Problems by kind", `1 × date_first_issue_online "…" read as N-N-N`} {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			st := openDB(t, db)
			p, ok := packageByName(t, st, "Test Package")
			if !ok {
				t.Fatal("package not created")
			}
			if p.TitleCount != c.imported || p.VendorName != "Test Vendor" || p.ContentType != c.content || p.PackageType != c.ptype {
				t.Errorf("package %+v", p)
			}

			// Importing again matches every title and changes nothing.
			r = runCLI(t, invocation{args: append(args, "--quiet"), stdin: c.stdin}).mustSucceed(t, "second import")
			if got := number(t, r.stdout, "titles matched"); got != c.imported {
				t.Errorf("second import matched %d titles, want %d", got, c.imported)
			}
			if strings.Contains(r.stderr, "Rejected rows") || !strings.Contains(r.stderr, "Problems by kind") {
				t.Errorf("--quiet stderr:\n%s", r.stderr)
			}
		})
	}
}

func TestImportRefused(t *testing.T) {
	db := tempDB(t)
	good := writeFile(t, "good.txt", fixture(), false)
	csv := writeFile(t, "export.csv", "publication_title,print_identifier\nJournal of Tests,0317-8471\n", false)
	html := writeFile(t, "page.txt", "<!DOCTYPE html>\n<html><body>Login</body></html>\n", false)
	r := kbs(t, "--db", db, "import", "kbart", "--vendor", "V", "--package", "Refused", good, csv, html)
	if r.code != 1 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, w := range []string{csv + ": refused: not a KBART file", html + ": refused: not a KBART file", "nothing imported: 2 of 3 files refused"} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if r.stdout != "" {
		t.Errorf("stdout: %q", r.stdout)
	}
	if _, ok := packageByName(t, openDB(t, db), "Refused"); ok {
		t.Error("a refused import created the package")
	}
}

func TestImportBadBulk(t *testing.T) {
	good := writeFile(t, "good.txt", fixture(), false)
	r := kbs(t, "--db", tempDB(t), "import", "kbart", "--vendor", "V", "--package", "P", "--bulk", "yes", good)
	if r.code != 2 || !strings.Contains(r.stderr, `--bulk "yes" is not valid: use auto, on or off`) {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

func TestImportNoRows(t *testing.T) {
	db := tempDB(t)
	kbs(t, "--db", db, "import", "kbart", "--vendor", "V", "--package", "Kept", "--allow-rejected", writeFile(t, "a.txt", fixture(), false)).mustSucceed(t, "import")
	// A file with only a header (or only rejected rows) must not empty the package.
	empty := writeFile(t, "empty.txt", kbartFile()+"no tab here\n", false)
	r := kbs(t, "--db", db, "import", "kbart", "--vendor", "V", "--package", "Kept", empty)
	if r.code != 1 || !strings.Contains(r.stderr, "no importable rows") {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if p, _ := packageByName(t, openDB(t, db), "Kept"); p.TitleCount != 4 {
		t.Errorf("package has %d titles after a failed import, want 4", p.TitleCount)
	}
}

// TestImportRejectedExit: an import with rejected rows is applied, and says
// so with exit status 3; the report lists every repaired and rejected row.
func TestImportRejectedExit(t *testing.T) {
	db := tempDB(t)
	report := filepath.Join(t.TempDir(), "problems.tsv")
	r := kbs(t, "--db", db, "import", "kbart", "--vendor", "V", "--package", "P", "--report", report, writeFile(t, "a.txt", fixture(), false))
	if r.code != exitRejected || !strings.Contains(r.stderr, "1 rows were rejected") || number(t, r.stdout, "rows imported") != 4 {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, exitRejected, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	want := []string{
		"file\tline\tkind\tfield\toriginal\taction\treason",
		"\t4\trepaired\tdate_first_issue_online\t2005/03/01\t",
		"\t6\trejected\t",
	}
	if len(lines) != len(want) {
		t.Fatalf("report has %d lines, want %d:\n%s", len(lines), len(want), b)
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("report line %d = %q, want it to contain %q", i+1, lines[i], w)
		}
	}
}

// TestImportDryRun: a dry run changes nothing and counts what the import
// then does.
func TestImportDryRun(t *testing.T) {
	db := tempDB(t)
	first := writeFile(t, "first.txt", kbartFile(journal("Journal of Tests", "0317-8471", "1050-124X", "2001-01-01"),
		journal("Annals of Fixtures", "0000-0019", "2049-3630", "1999-01-01")), false)
	kbs(t, "--db", db, "import", "kbart", "--vendor", "V", "--package", "P", first).mustSucceed(t, "import")
	second := writeFile(t, "second.txt", kbartFile(journal("Journal of Tests", "0317-8471", "1050-124X", "2003-01-01"),
		journal("Letters in Parsing", "2434-561X", "", "2010-01-01")), false)
	dry := kbs(t, "--db", db, "import", "kbart", "--vendor", "V", "--package", "P", "--dry-run", second).mustSucceed(t, "dry run")
	if !strings.HasPrefix(dry.stdout, "Dry run: nothing was changed.") {
		t.Errorf("dry run output:\n%s", dry.stdout)
	}
	if p, _ := packageByName(t, openDB(t, db), "P"); p.TitleCount != 2 {
		t.Fatalf("title count after a dry run = %d", p.TitleCount)
	}
	real := kbs(t, "--db", db, "import", "kbart", "--vendor", "V", "--package", "P", second).mustSucceed(t, "import")
	for _, label := range []string{"rows imported", "titles created", "titles matched", "resources added", "resources updated", "resources removed"} {
		if d, r := number(t, dry.stdout, label), number(t, real.stdout, label); d != r {
			t.Errorf("%s: dry run %d, import %d", label, d, r)
		}
	}
	for label, want := range map[string]int{"resources added": 1, "resources updated": 1, "resources removed": 1} {
		if got := number(t, real.stdout, label); got != want {
			t.Errorf("%s = %d, want %d\n%s", label, got, want, real.stdout)
		}
	}
}

func TestImportMissingFile(t *testing.T) {
	r := kbs(t, "--db", tempDB(t), "import", "kbart", "--vendor", "V", "--package", "P", filepath.Join(t.TempDir(), "missing.txt"))
	if r.code != 1 || !strings.Contains(r.stderr, "no such file") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestKindOf(t *testing.T) {
	for in, want := range map[string]string{
		`date_first_issue_online "2001/01/01" read as 2001-01-01`:            `date_first_issue_online "…" read as N-N-N`,
		`print_identifier "1234-5678": invalid ISSN check digit (kept)`:      `print_identifier "…": invalid ISSN check digit (kept)`,
		"date_last_issue_online 1850 is before date_first_issue_online 1851": "date_last_issue_online N is before date_first_issue_online N",
		"repeated header line skipped":                                       "repeated header line skipped",
	} {
		if got := kindOf(in); got != want {
			t.Errorf("kindOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestImportIntoFilledStore checks that a new package's import into a
// store that holds titles already is no first load: SQLite stages it by
// default (its one writer stays free for a running server), PostgreSQL
// takes the bulk path.
func TestImportIntoFilledStore(t *testing.T) {
	db := tempDB(t)
	first := writeFile(t, "first.tsv", kbartFile(journal("Letters in Parsing", "2434-561X", "", "2010-01-01")), false)
	second := writeFile(t, "second.tsv", kbartFile(journal("Annals of Lexing", "1234-5679", "", "2011-01-01")), false)
	for i, f := range []string{first, second} {
		r := runCLI(t, invocation{args: []string{"--db", db, "import", "kbart", "--vendor", "V", "--package", fmt.Sprint("P", i), f}}).mustSucceed(t, "import")
		want := i == 0 || testdb.Kind() == "postgres"
		if bulk := strings.Contains(r.stdout, "went straight into the store"); bulk != want {
			t.Errorf("import %d: bulk path taken: %v, want %v\n%s", i, bulk, want, r.stdout)
		}
	}
}
