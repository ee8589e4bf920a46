package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/realdata"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// roundTripFiles are the real KBART files of the round trip: serials and
// monographs, with embargoes, notes and the monograph fields, from several
// publishers and encodings.
var roundTripFiles = []string{
	"ezpaarse-platforms/cbo/CambridgeBooks_GlobalTitleList_2014-07-16.txt", // books, UTF-8 with BOM
	"gokb/ebooks/CambridgeBooks_EdinburghUniversityPress.tsv",              // books, UTF-16LE
	"ezpaarse-platforms/jstor/JSTOR_GLOBAL_ALLEBOOKS_2021-04-22.txt",       // 6,000 ebooks, monograph fields
	"ezpaarse-platforms/cup/CUP_COUPERIN_ALLJOURNALS_2026-03-08.txt",       // BACON journals
	"ezpaarse-platforms/silverchair/OUP_GLOBAL_ALLJOURNALS_2025-02-19.txt", // journals with notes
	"ezpaarse-platforms/jstor/JSTOR_COUPERIN_ALLJOURNALS_2026-03-24.txt",   // journals with embargo_info
	"ezpaarse-platforms/cairn/CAIRN_GLOBAL_ALLJOURNALS_2025-09-25.txt",     // French journals with embargoes
	// Journals without access_type, and a repeated row.
	"ezpaarse-platforms/springer/Springer_Global_Complete_Journals_Archive__pre-1997_2016-01-01.txt",
	// Handbooks with repeated rows.
	"ezpaarse-platforms/silverchair/OUP_GLOBAL_OXFORD-CLINICAL-PSYCHOLOGY_2021-01-22.txt",
}

// readKBART reads every row of a KBART file, normalised by the reader,
// skipping the rows it rejects.
func readKBART(t *testing.T, path string) [][kbart.NumFields]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := kbart.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out [][kbart.NumFields]string
	for {
		row, err := r.Next()
		var re *kbart.RowError
		switch {
		case errors.Is(err, io.EOF):
			return out
		case errors.As(err, &re):
			continue
		case err != nil:
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, row.Values)
	}
}

// TestExportRoundTrip imports real KBART files, each as a package that a
// customer selects, exports the customer's holdings with `kbserver export
// holdings`, and compares the exported rows with the source rows as the
// reader normalised them, field for field. The documented differences are
// applied to the source first: an empty access_type is P, and rows that
// repeat another row of the file field for field are dropped. Rows are
// compared as sets, since the export is ordered by title.
func TestExportRoundTrip(t *testing.T) {
	dir := realdata.Dir(t)
	var mu sync.Mutex
	var total roundTripStats
	t.Run("files", func(t *testing.T) {
		for _, rel := range roundTripFiles {
			t.Run(filepath.Base(rel), func(t *testing.T) {
				t.Parallel()
				s := roundTrip(t, filepath.Join(dir, rel))
				mu.Lock()
				defer mu.Unlock()
				total.add(s)
			})
		}
	})
	t.Logf("all files: %+v", total)
	// The files must exercise what the round trip is meant to show.
	if total.serials == 0 || total.monographs == 0 || total.embargoes == 0 || total.notes == 0 ||
		total.monographFields == 0 || total.noAccessType == 0 || total.authors == 0 {
		t.Errorf("the files leave a kind of row untested: %+v", total)
	}
}

// roundTripStats counts source rows by what they exercise.
type roundTripStats struct {
	rows, serials, monographs, embargoes, notes, monographFields, noAccessType, authors int
}

func (s *roundTripStats) add(o roundTripStats) {
	s.rows += o.rows
	s.serials += o.serials
	s.monographs += o.monographs
	s.embargoes += o.embargoes
	s.notes += o.notes
	s.monographFields += o.monographFields
	s.noAccessType += o.noAccessType
	s.authors += o.authors
}

// count counts one source row.
func (s *roundTripStats) count(v *[kbart.NumFields]string) {
	s.rows++
	if v[kbart.PublicationType] == "serial" {
		s.serials++
	} else {
		s.monographs++
	}
	inc := func(n *int, cond bool) {
		if cond {
			*n++
		}
	}
	inc(&s.embargoes, v[kbart.EmbargoInfo] != "")
	inc(&s.notes, v[kbart.Notes] != "")
	inc(&s.monographFields, v[kbart.DateMonographPublishedPrint] != "" || v[kbart.DateMonographPublishedOnline] != "" ||
		v[kbart.MonographEdition] != "" || v[kbart.MonographVolume] != "" || v[kbart.FirstEditor] != "")
	inc(&s.noAccessType, v[kbart.AccessType] == "")
	inc(&s.authors, v[kbart.FirstAuthor] != "")
}

func roundTrip(t *testing.T, path string) (stats roundTripStats) {
	source := readKBART(t, path)
	for i := range source {
		stats.count(&source[i])
	}
	db := tempDB(t)
	const vendor, pkg = "Round Trip Press", "Round Trip Package"
	st := storetest.Searched(t.Context(), testdb.OpenDSN(t, db))
	if _, err := st.AddCustomer(t.Context(), "lib", "Library"); err != nil {
		t.Fatal(err)
	}
	res, err := st.ImportPackage(t.Context(), kb.PackageSpec{VendorName: vendor, PackageName: pkg},
		storetest.RowsOf(len(source), func(i int) kb.ImportRow { return kb.ImportRow{Line: i + 1, KBART: source[i]} }))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.UpdatePackage(t.Context(), "lib", res.VendorID, res.PackageID, kb.PackageUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	out := t.TempDir()
	r := kbs(t, "export", "holdings", "lib", "-o", out, "--db", db).mustSucceed(t, "export holdings")
	files, err := filepath.Glob(filepath.Join(out, "kbserver_Global_lib-holdings_*.txt"))
	if err != nil || len(files) != 1 {
		t.Fatalf("export wrote %v (%v); stderr %s", files, err, r.stderr)
	}
	exported := readKBART(t, files[0])
	if !strings.Contains(r.stderr, fmt.Sprintf("Wrote %d holdings", len(exported))) {
		t.Errorf("stderr %q does not give the %d rows", r.stderr, len(exported))
	}
	checkExtraColumns(t, files[0], fmt.Sprint(res.PackageID), fmt.Sprint(res.VendorID), pkg, vendor)

	// The source after the documented normalisations, as a set.
	want := map[string]bool{}
	for _, v := range source {
		if v[kbart.AccessType] == "" {
			v[kbart.AccessType] = "P"
		}
		want[strings.Join(v[:], "\t")] = true
	}
	got := map[string]int{}
	for _, v := range exported {
		got[strings.Join(v[:], "\t")]++
	}
	var missing, extra []string
	for k := range want {
		if got[k] == 0 {
			missing = append(missing, k)
		}
	}
	for k, n := range got {
		if !want[k] || n > 1 {
			extra = append(extra, fmt.Sprintf("%s (×%d)", k, n))
		}
	}
	t.Logf("%d source rows (%d after dropping repeated rows), %d exported; %+v", len(source), len(want), len(exported), stats)
	if len(missing) > 0 || len(extra) > 0 {
		slices.Sort(missing)
		slices.Sort(extra)
		t.Errorf("%d source rows not exported, %d exported rows not in the source (or repeated); first differences:\n%s",
			len(missing), len(extra), describeDifferences(missing, extra))
	}
	return stats
}

// checkExtraColumns checks the five columns after the standard ones: the
// header names them, and every row has the package, the vendor and a
// resource type.
func checkExtraColumns(t *testing.T, path, packageID, vendorID, pkg, vendor string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if lines[0] != strings.Join(kb.HoldingColumns[:], "\t") {
		t.Fatalf("header %q", lines[0])
	}
	for i, l := range lines[1:] {
		fs := strings.Split(l, "\t")
		if len(fs) != kb.HoldingFieldCount {
			t.Fatalf("line %d: %d fields", i+2, len(fs))
		}
		if got := fs[kb.KBARTFieldCount:]; got[0] != pkg || got[1] != packageID || got[2] != vendor || got[3] != vendorID || got[4] == "" {
			t.Fatalf("line %d: package, vendor and type columns %q", i+2, got)
		}
	}
}

// describeDifferences lists the first missing and extra rows; for a
// missing row, the fields in which the extra row of the same title
// differs.
func describeDifferences(missing, extra []string) string {
	var b strings.Builder
	for i, m := range missing {
		if i == 5 {
			break
		}
		mf := strings.Split(m, "\t")
		fmt.Fprintf(&b, "  source row %q\n", mf[0])
		for _, e := range extra {
			ef := strings.Split(strings.SplitN(e, " (×", 2)[0], "\t")
			if ef[0] != mf[0] || len(ef) != len(mf) {
				continue
			}
			for f := range mf {
				if mf[f] != ef[f] {
					fmt.Fprintf(&b, "    %s: source %q, exported %q\n", kbart.Header[f], mf[f], ef[f])
				}
			}
			break
		}
	}
	for i, e := range extra {
		if i == 5 {
			break
		}
		fmt.Fprintf(&b, "  exported row %q\n", e)
	}
	return b.String()
}
