package main

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

func TestGen(t *testing.T) {
	db := tempDB(t)
	// The first run loads every package by the bulk path, the second
	// updates them in place by the staged one.
	r := kbs(t, "gen", "--titles", "2000", "--bulk", "on", "--db", db).mustSucceed(t, "gen")
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

func TestGenScaleAndCustomers(t *testing.T) {
	db := tempDB(t)
	r := kbs(t, "gen", "--titles", "6000", "--packages", "40", "--resources", "20000",
		"--large-packages", "3000", "--customer", "lib=10000", "--db", db).mustSucceed(t, "gen")
	resources := number(t, r.stdout, "resources")
	if resources < 19000 || resources > 21000 {
		t.Errorf("gen made %d resources, want about --resources 20000:\n%s", resources, r.stdout)
	}
	m := regexp.MustCompile(`Customer lib: (\d+) packages selected, (\d+) holdings, (\d+) packages and (\d+) titles customised`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no customer summary:\n%s", r.stdout)
	}
	selected, _ := strconv.Atoi(m[1])
	holdings, _ := strconv.Atoi(m[2])
	if holdings < 9800 || holdings > 10200 {
		t.Errorf("customer lib holds %d, want 10000 ± 2%%", holdings)
	}

	st := openDB(t, db)
	ctx := t.Context()
	all, err := st.Packages(ctx, "lib", kb.PackageQuery{Page: kb.Page{Count: 100, Number: 1}})
	if err != nil {
		t.Fatal(err)
	}
	largest, total, inSelected := 0, 0, 0
	for _, p := range all.Packages {
		largest = max(largest, p.TitleCount)
		total += p.TitleCount
		if p.IsSelected {
			inSelected += p.TitleCount
		}
	}
	if largest != 3000 || total != resources {
		t.Errorf("largest package %d titles (want 3000), packages hold %d (gen said %d)", largest, total, resources)
	}
	sel, err := st.Packages(ctx, "lib", kb.PackageQuery{Selection: kb.SelectionSelected, Page: kb.Page{Count: 100, Number: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if sel.Total == 0 || sel.Total > selected || inSelected > holdings {
		t.Errorf("store: %d packages selected holding %d titles; gen said %d packages, %d holdings", sel.Total, inSelected, selected, holdings)
	}
	proxies, err := st.Proxies(ctx, "lib")
	if err != nil {
		t.Fatal(err)
	}
	if len(proxies) < 2 {
		t.Errorf("customer lib has proxies %+v, want the generated ones", proxies)
	}
	// Customers alone, over the knowledge base already there; the same
	// customer again is reused.
	r = kbs(t, "gen", "--customers-only", "--customer", "lib=10000", "--customer", "small=2000", "--db", db).mustSucceed(t, "gen --customers-only")
	if strings.Contains(r.stdout, "Generated into") || !strings.Contains(r.stdout, "Customer small: ") || !strings.Contains(r.stdout, "Customer lib: ") {
		t.Errorf("gen --customers-only:\n%s", r.stdout)
	}
}

func TestGenUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--size", "huge"}, "--size must be demo or large"},
		{[]string{"--customer", "lib"}, "ID=HOLDINGS"},
		{[]string{"--customer", "lib=-5"}, "ID=HOLDINGS"},
		{[]string{"--large-packages", "10,x"}, `"x" is not a positive number`},
		{[]string{"--titles", "100", "--large-packages", "500"}, "larger than the pool"},
		{[]string{"--resources", "-1"}, "must not be negative"},
		{[]string{"--customers-only"}, "--customers-only needs --customer"},
	} {
		r := kbs(t, append([]string{"gen", "--db", tempDB(t)}, tc.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("gen %v: exit %d, stderr %q; want exit 2 and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}
