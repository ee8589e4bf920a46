package main

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

func TestGen(t *testing.T) {
	db := tempDB(t)
	r := kbs(t, "gen", "--titles", "2000", "--db", db).mustSucceed(t, "gen")
	vendors, packages := number(t, r.stdout, "vendors"), number(t, r.stdout, "packages")
	resources := number(t, r.stdout, "resources")
	if number(t, r.stdout, "titles") != 2000 || vendors != 5 || packages != 20 || resources < 2000 {
		t.Errorf("gen summary:\n%s", r.stdout)
	}
	for _, w := range []string{"elapsed", "rows/s"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("gen summary lacks %q:\n%s", w, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "generating: 100%") {
		t.Errorf("no progress on stderr:\n%s", r.stderr)
	}

	count := func() (int, int) {
		st := openDB(t, db)
		defer st.Close()
		vl, err := st.Vendors(t.Context(), checker, kb.VendorQuery{Page: kb.Page{Count: 100, Number: 1}})
		if err != nil {
			t.Fatal(err)
		}
		pl, err := st.Packages(t.Context(), checker, kb.PackageQuery{Page: kb.Page{Count: 100, Number: 1}})
		if err != nil {
			t.Fatal(err)
		}
		titles := 0
		for _, p := range pl.Packages {
			titles += p.TitleCount
		}
		if titles != resources {
			t.Errorf("packages hold %d titles, gen said %d resources", titles, resources)
		}
		tl, err := st.Titles(t.Context(), checker, kb.TitleQuery{Page: kb.Page{Count: 1, Number: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if tl.Total != 2000 {
			t.Errorf("store has %d titles, want the 2000 of the pool", tl.Total)
		}
		return vl.Total - 1, pl.Total // without checker's own vendor
	}
	v1, p1 := count()
	if v1 != vendors || p1 != packages {
		t.Errorf("store has %d vendors and %d packages, gen said %d and %d", v1, p1, vendors, packages)
	}
	// Running it again updates in place.
	kbs(t, "--db", db, "gen", "--titles", "2000").mustSucceed(t, "second gen")
	if v2, p2 := count(); v2 != v1 || p2 != p1 {
		t.Errorf("second gen: %d vendors and %d packages, want %d and %d", v2, p2, v1, p1)
	}
}

func TestGenKBART(t *testing.T) {
	read := func(t *testing.T, in io.Reader) int {
		r, err := kbart.NewReader(in)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				return n
			}
			if err != nil {
				t.Fatalf("row %d: %v", n+1, err)
			}
			n++
		}
	}
	r := kbs(t, "gen", "kbart", "--rows", "250", "--seed", "3").mustSucceed(t, "gen kbart")
	if n := read(t, strings.NewReader(r.stdout)); n != 250 {
		t.Errorf("stdout has %d rows, want 250", n)
	}
	if again := kbs(t, "gen", "kbart", "--rows", "250", "--seed", "3"); again.stdout != r.stdout {
		t.Error("gen kbart is not deterministic")
	}

	path := filepath.Join(t.TempDir(), "out.txt.gz")
	kbs(t, "gen", "kbart", "--rows", "300", "-o", path).mustSucceed(t, "gen kbart -o")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if n := read(t, zr); n != 300 {
		t.Errorf("%s has %d rows, want 300", path, n)
	}

	// The file imports cleanly.
	db := tempDB(t)
	out := kbs(t, "--db", db, "import", "kbart", "--vendor", "V", "--package", "P", path).mustSucceed(t, "import generated file")
	if number(t, out.stdout, "rows imported") != 300 || number(t, out.stdout, "rows repaired") != 0 || number(t, out.stdout, "rows rejected") != 0 {
		t.Errorf("import of a generated file:\n%s\n%s", out.stdout, out.stderr)
	}
}
