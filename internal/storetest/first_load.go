package storetest

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/realdata"
)

// FirstLoad checks that a load into an empty knowledge base (the bulk
// path with its indexes built at the end) leaves the store as the staged
// path does: for each set of rows, two empty stores import them as one
// package, one by each path, then a second package and an update of the
// first by the usual paths, which read the indexes the load built. Their
// results and every table they write must be equal, and so must the
// indexes the stores have (indexes lists them; nil skips the check). The
// sets are BulkLoad's generated rows and the rows of real publishers'
// files of ../shared/data/kbart, many files as one package.
func FirstLoad(t *testing.T, open func(t *testing.T) (kb.Store, DB), indexes string) {
	t.Run("generated", func(t *testing.T) {
		g := bulkGen{r: rand.New(rand.NewPCG(3, 1)), issns: 800, ids: 3000}
		first := g.rows(9000, nil)
		second := g.rows(3000, first)
		firstLoad(t, open, indexes, kbRows(first), kbRows(second), kbRows(append(g.rows(500, first), first[:6000]...)))
	})
	t.Run("real files", func(t *testing.T) {
		// 40,000 rows: enough for PostgreSQL's heap to come back out of
		// title order in the update's diff, the bug this test found
		// (20,000 were not).
		rows := realRows(t, 40_000)
		n := len(rows)
		firstLoad(t, open, indexes, rows[:n*3/4], rows[n*3/4:], rows[n/4:n/2])
	})
}

// kbRows returns the import rows of rows.
func kbRows(rows []Row) []kb.ImportRow {
	out := make([]kb.ImportRow, len(rows))
	for i, r := range rows {
		out[i] = r.KBART(i + 2)
	}
	return out
}

// realRows returns up to n rows of the corpus' files, in the order of
// their sorted paths, numbered as the lines of one file.
func realRows(t *testing.T, n int) []kb.ImportRow {
	dir := realdata.Dir(t)
	files := realdata.Files(t)
	slices.Sort(files)
	var rows []kb.ImportRow
	for _, f := range files {
		if len(rows) >= n {
			break
		}
		for _, r := range fileRows(filepath.Join(dir, f), n-len(rows)) {
			r.Line = len(rows) + 2
			rows = append(rows, r)
		}
	}
	if len(rows) < n/2 {
		t.Fatalf("the corpus gave %d rows, want at least %d", len(rows), n/2)
	}
	return rows
}

// fileRows returns up to n of the rows of a corpus file that the reader
// accepts (KBARTRows), numbered from 2 as they are read: none from a file
// the reader refuses as a whole.
func fileRows(path string, n int) []kb.ImportRow {
	r, err := openKBART(path)
	if err != nil {
		return nil
	}
	next := KBARTRows(r)
	var rows []kb.ImportRow
	for len(rows) < n {
		row, err := next()
		if err != nil {
			break
		}
		row.Line = len(rows) + 2
		rows = append(rows, row)
	}
	return rows
}

// openKBART opens a corpus file (gzipped or not) as a KBART reader; the
// file is read whole.
func openKBART(path string) (*kbart.Reader, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r io.Reader = bytes.NewReader(b)
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(r); err != nil {
			return nil, err
		}
	}
	return kbart.NewReader(r)
}

func firstLoad(t *testing.T, open func(t *testing.T) (kb.Store, DB), indexes string, first, second, update []kb.ImportRow) {
	ctx := context.Background()
	sides := openSides(t, open)
	modes := [2]kb.BulkMode{kb.BulkOff, kb.BulkAuto}
	for k, step := range []struct {
		vendor, name string
		rows         []kb.ImportRow
	}{
		{"V", "First", first},   // the first load
		{"W", "Second", second}, // a new package: staged on SQLite, bulk on PostgreSQL, on both sides
		{"V", "First", update},  // the first package's update
	} {
		var res [2]kb.ImportResult
		for i, sd := range sides {
			spec := kb.PackageSpec{VendorName: step.vendor, PackageName: step.name, Bulk: modes[i], FirstLoad: true}
			var err error
			res[i], err = sd.s.ImportPackage(ctx, spec, RowsOf(len(step.rows), func(i int) kb.ImportRow { return step.rows[i] }))
			if err != nil {
				t.Fatalf("step %d (%s), bulk mode %d: %v", k, step.name, modes[i], err)
			}
			if k == 0 && i == 1 && !res[i].Bulk {
				t.Errorf("the first load took the staged path")
			}
			res[i].ImportID, res[i].Bulk = 0, false
		}
		if diff := cmp.Diff(res[0], res[1]); diff != "" {
			t.Errorf("step %d (%s): results differ (-staged +first load):\n%s", k, step.name, diff)
		}
		if res[0].Rows == 0 || k < 2 && res[0].ResourcesAdded == 0 {
			t.Fatalf("step %d (%s): imported %d rows, added %d resources", k, step.name, res[0].Rows, res[0].ResourcesAdded)
		}
		sameTables(t, sides, fmt.Sprintf("step %d (%s)", k, step.name), "first load")
		if indexes != "" {
			sameIndexes(t, sides, indexes, fmt.Sprintf("step %d (%s)", k, step.name), "first load")
		}
		if t.Failed() {
			return
		}
	}
}

// DeferredUpkeep checks what a first load builds at its end
// (kbsql.ImportEngine.DeferUpkeep, run by deferUpkeep in a transaction
// it rolls back): want names every secondary index of the loaded tables
// and, on an engine that checks them by triggers, their foreign keys,
// and nothing that enforces a key. Each index is built before any
// foreign key is added.
func DeferredUpkeep(t *testing.T, deferUpkeep func(tables []string) ([]string, error), want []string) {
	builds, err := deferUpkeep([]string{"titles", "title_identifiers", "resources"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	keys := false
	for _, b := range builds {
		f := strings.Fields(b)
		switch {
		case len(f) > 2 && f[0] == "CREATE" && f[1] == "INDEX":
			if keys {
				t.Errorf("%q builds an index after a foreign key", b)
			}
			names = append(names, f[2])
		case len(f) > 6 && f[0] == "ALTER" && f[3] == "ADD" && f[4] == "CONSTRAINT" && f[6] == "FOREIGN":
			keys = true
			names = append(names, f[5])
		default:
			t.Errorf("%q is neither CREATE INDEX nor ADD CONSTRAINT … FOREIGN KEY", b)
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("deferred %q, want %q", names, want)
	}
}
