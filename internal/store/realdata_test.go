package store_test

import (
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/realdata"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// importFile imports one KBART file as a package. refused reports a file
// the reader does not accept as KBART.
func importFile(ctx context.Context, s kb.Store, path, vendor, pkg string) (res kb.ImportResult, rejected int, refused error, err error) {
	f, err := os.Open(path)
	if err != nil {
		return res, 0, nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return res, 0, nil, err
		}
		r = gz
	}
	kr, err := kbart.NewReader(r)
	if errors.Is(err, kbart.ErrNotKBART) {
		return res, 0, err, nil
	}
	if err != nil {
		return res, 0, nil, err
	}
	res, err = s.ImportPackage(ctx, kb.PackageSpec{VendorName: vendor, PackageName: pkg}, func() (kb.ImportRow, error) {
		for {
			row, err := kr.Next()
			var re *kbart.RowError
			if errors.As(err, &re) {
				rejected++
				continue
			}
			if err != nil {
				return kb.ImportRow{}, err
			}
			return kb.ImportRow{Line: row.Line, KBART: row.Values}, nil
		}
	})
	return res, rejected, nil, err
}

// TestImportRealCorpus imports every file of the real corpus into one
// store: each file is imported (perhaps with rejected rows) or refused as
// not KBART; none fails otherwise.
func TestImportRealCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 513,000 rows; skipped with -short")
	}
	dir := realdata.Dir(t)
	files := realdata.Files(t)
	ctx := context.Background()
	s := storetest.Searched(t.Context(), testdb.Open(t))
	var imported, refused, rows, rejectedRows int
	refusedSet := map[string]bool{}
	for _, rel := range files {
		if strings.HasSuffix(rel, ".md") || strings.HasSuffix(rel, ".tsv") && strings.HasPrefix(rel, "real_manifest") {
			continue
		}
		vendor, pkg := filepath.Dir(rel), filepath.Base(rel)
		res, rejected, why, err := importFile(ctx, s, filepath.Join(dir, rel), vendor, pkg)
		switch {
		case err != nil:
			t.Errorf("%s: import failed: %v", rel, err)
		case why != nil:
			refused++
			refusedSet[rel] = true
		default:
			imported++
			rows += res.Rows
			rejectedRows += rejected
		}
	}
	t.Logf("%d files imported (%d rows, %d rows rejected), %d refused", imported, rows, rejectedRows, refused)
	for _, f := range []string{
		"nyu-awdl/nyu_global_awdl_2021-08-11.csv",
		"gokb/clean_gsa_master_2013_2013.csv",
		"ezpaarse-platforms/wiley/wiley_Journals_corrections_2014-08-18.txt",
		"ezpaarse-platforms/brgm/brgm-Alltitiles-20-01-2016.txt",
		"ezpaarse-platforms/aip/aip_journals_2016-11-01.txt",
	} {
		if !refusedSet[f] {
			t.Errorf("%s was not refused as not KBART", f)
		}
	}
	if imported < 640 {
		t.Errorf("only %d files imported; the corpus has 653 KBART files", imported)
	}
	if rows < 480_000 {
		t.Errorf("only %d rows imported; the corpus has 513,259 KBART rows", rows)
	}
	// Spot checks of defective files, through the read side.
	if _, err := s.AddCustomer(ctx, "t", "Test"); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		q         kb.TitleQuery
		wantTitle string
		wantPub   string
	}{
		// chocula Portico: every row shifted one column right.
		{"shifted columns", kb.TitleQuery{Search: "1873-4502", Field: kb.FieldISXN}, "Journal of Cataract and Refractive Surgery", "Wolters Kluwer Health"},
		// Cambridge Books: UTF-16LE with BOM.
		{"utf-16", kb.TitleQuery{Search: "9780748633807", Field: kb.FieldISXN}, "911 and the War on Terror", "Edinburgh University Press"},
	}
	for _, c := range checks {
		c.q.Page = kb.Page{Count: 10, Number: 1}
		l, err := s.Titles(ctx, "t", c.q)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if l.Total < 1 || l.Titles[0].Name != c.wantTitle || l.Titles[0].Publisher != c.wantPub {
			t.Errorf("%s: %d titles, first %+v; want %q by %q", c.name, l.Total, l.Titles, c.wantTitle, c.wantPub)
		}
	}
}
