package gen

import (
	"bytes"
	"context"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// fakeImporter records what Generate sends; it stands in for a store in
// the generator's own unit tests.
type fakeImporter struct {
	discard bool // count rows without keeping them
	pkgs    []fakePackage
	rows    int
}

type fakePackage struct {
	spec kb.PackageSpec
	rows []kb.ImportRow
}

func (f *fakeImporter) ImportPackage(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	p := fakePackage{spec: spec}
	for {
		row, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return kb.ImportResult{}, err
		}
		f.rows++
		if !f.discard {
			p.rows = append(p.rows, row)
		}
	}
	f.pkgs = append(f.pkgs, p)
	return kb.ImportResult{PackageID: int64(len(f.pkgs)), Rows: len(p.rows)}, nil
}

func generate(t testing.TB, o Options) (*fakeImporter, Summary) {
	t.Helper()
	imp := &fakeImporter{}
	sum, err := Generate(context.Background(), imp, o, nil)
	if err != nil {
		t.Fatalf("Generate(%+v): %v", o, err)
	}
	return imp, sum
}

// titleIndex reads the pool index back from a generated title_id ("t42").
func titleIndex(t testing.TB, row kb.ImportRow) int {
	t.Helper()
	id := row.KBART[kbart.TitleID]
	n, err := strconv.Atoi(strings.TrimPrefix(id, "t"))
	if err != nil || !strings.HasPrefix(id, "t") {
		t.Fatalf("title_id %q is not generated", id)
	}
	return n - 1
}

func TestDeterminism(t *testing.T) {
	a, sa := generate(t, Options{Titles: 3000, Seed: 1})
	b, sb := generate(t, Options{Titles: 3000, Seed: 1})
	if !reflect.DeepEqual(a.pkgs, b.pkgs) {
		t.Fatal("same seed, different knowledge bases")
	}
	sa.Elapsed, sb.Elapsed = 0, 0
	if diff := cmp.Diff(sa, sb); diff != "" {
		t.Errorf("same seed, different summaries:\n%s", diff)
	}
	c, _ := generate(t, Options{Titles: 3000, Seed: 2})
	if reflect.DeepEqual(a.pkgs, c.pkgs) {
		t.Fatal("seeds 1 and 2 generate the same knowledge base")
	}
	if a.pkgs[0].rows[0].KBART == c.pkgs[0].rows[0].KBART {
		t.Error("seeds 1 and 2 start with the same row")
	}
}

func TestEveryTitleInAPackage(t *testing.T) {
	for _, o := range []Options{
		{Titles: 5000},
		{Titles: 777, Seed: 9},
		{Titles: 20000, Packages: 7, Vendors: 2},
		{Titles: 40, Packages: 3},
	} {
		imp, sum := generate(t, o)
		seen := make([]int, o.Titles)
		resources := 0
		for _, p := range imp.pkgs {
			inPkg := map[int]int{}
			for _, row := range p.rows {
				i := titleIndex(t, row)
				if i < 0 || i >= o.Titles {
					t.Fatalf("%+v: title index %d outside the pool", o, i)
				}
				if inPkg[i]++; inPkg[i] == 1 {
					seen[i]++
					resources++
				}
			}
			for i, n := range inPkg {
				if n > 2 {
					t.Errorf("%+v: title %d has %d rows in package %q", o, i, n, p.spec.PackageName)
				}
			}
		}
		for i, n := range seen {
			if n == 0 {
				t.Fatalf("%+v: title %d is in no package", o, i)
			}
		}
		if resources != sum.Resources || imp.rows != sum.Rows || len(imp.pkgs) != sum.Packages || sum.Titles != o.Titles {
			t.Errorf("%+v: summary %+v, counted %d resources, %d rows, %d packages", o, sum, resources, imp.rows, len(imp.pkgs))
		}
	}
}

func TestShape(t *testing.T) {
	const titles = 20000
	imp, sum := generate(t, Options{Titles: titles})
	if sum.Vendors != 8 || sum.Packages != 80 {
		t.Errorf("derived %d vendors and %d packages, want 8 and 80", sum.Vendors, sum.Packages)
	}
	if r := float64(sum.Resources) / titles; r < 1.5 || r > 2.6 {
		t.Errorf("%.2f resources per title, want about 2", r)
	}

	pubTypes := map[kb.ResourceType]int{}
	contents := map[kb.ContentType]int{}
	pkgTypes := map[kb.PackageType]int{}
	names := map[string]bool{}
	vendors := map[string]bool{}
	minSize, maxSize := 1<<30, 0
	noIDs, journals, peer, twoRanges, withSubjects, books, withAuthors := 0, 0, 0, 0, 0, 0, 0
	titleSeen := map[int]bool{}
	for _, p := range imp.pkgs {
		contents[p.spec.ContentType]++
		pkgTypes[p.spec.PackageType]++
		vendors[p.spec.VendorName] = true
		key := p.spec.VendorName + "\x00" + p.spec.PackageName
		if names[key] {
			t.Errorf("two packages named %q of %q", p.spec.PackageName, p.spec.VendorName)
		}
		names[key] = true

		serial, mono := 0, 0
		rowsOf := map[int]int{}
		for _, row := range p.rows {
			i := titleIndex(t, row)
			if rowsOf[i]++; rowsOf[i] == 2 {
				twoRanges++
			}
			if kb.IsSerialType(row.PubType) {
				serial++
				if row.KBART[kbart.PublicationType] != "serial" {
					t.Fatalf("%v title with publication_type %q", row.PubType, row.KBART[kbart.PublicationType])
				}
			} else if row.KBART[kbart.PublicationType] != "monograph" {
				t.Fatalf("%v title with publication_type %q", row.PubType, row.KBART[kbart.PublicationType])
			}
			if row.PubType == kb.ResourceBook || row.PubType == kb.ResourceAudioBook || row.PubType == kb.ResourceThesisDissertation {
				mono++
			}
			if titleSeen[i] {
				continue
			}
			titleSeen[i] = true
			pubTypes[row.PubType]++
			if row.KBART[kbart.PrintIdentifier] == "" && row.KBART[kbart.OnlineIdentifier] == "" {
				noIDs++
			}
			if row.PubType == kb.ResourceJournal {
				journals++
				if row.PeerReviewed {
					peer++
				}
			}
			if row.PubType == kb.ResourceBook {
				books++
				if len(row.Contributors) > 0 && (row.KBART[kbart.FirstAuthor] != "" || row.KBART[kbart.FirstEditor] != "") {
					withAuthors++
				}
			}
			if n := len(row.Subjects); n >= 1 && n <= 3 {
				withSubjects++
			}
			for _, f := range []kbart.Field{kbart.PublicationTitle, kbart.TitleURL, kbart.TitleID, kbart.PublisherName, kbart.PublicationType, kbart.AccessType, kbart.CoverageDepth} {
				if row.KBART[f] == "" {
					t.Fatalf("row without %v: %q", f, row.KBART)
				}
			}
		}
		n := len(rowsOf)
		minSize, maxSize = min(minSize, n), max(maxSize, n)
		switch p.spec.ContentType {
		case kb.ContentEBook:
			if mono*10 < len(p.rows)*8 {
				t.Errorf("ebook package %q: %d of %d rows are books", p.spec.PackageName, mono, len(p.rows))
			}
		case kb.ContentEJournal:
			if serial*10 < len(p.rows)*8 {
				t.Errorf("ejournal package %q: %d of %d rows are serials", p.spec.PackageName, serial, len(p.rows))
			}
		}
	}
	for rt := kb.ResourceJournal; rt <= kb.ResourceAudioBook; rt++ {
		if pubTypes[rt] == 0 {
			t.Errorf("no title of type %v", rt.Display())
		}
	}
	if pubTypes[kb.ResourceJournal]+pubTypes[kb.ResourceBook] < titles*7/10 {
		t.Errorf("journals and books are not dominant: %v", pubTypes)
	}
	for c := kb.ContentAggregatedFullText; c <= kb.ContentOnlineReference; c++ {
		if contents[c] == 0 {
			t.Errorf("no package of content type %v", c.Display())
		}
	}
	for _, pt := range []kb.PackageType{kb.PackageSelectable, kb.PackageComplete, kb.PackageVariable} {
		if pkgTypes[pt] == 0 {
			t.Errorf("no package of type %v", pt)
		}
	}
	if pkgTypes[kb.PackageCustom] != 0 || contents[kb.ContentAll] != 0 {
		t.Errorf("generated custom packages or content type All: %v %v", pkgTypes, contents)
	}
	if len(vendors) != sum.Vendors {
		t.Errorf("%d vendor names, summary says %d", len(vendors), sum.Vendors)
	}
	if minSize > 40 || maxSize < 1500 {
		t.Errorf("package sizes %d to %d: want a few tiny and a few large", minSize, maxSize)
	}
	if noIDs == 0 || noIDs > titles*8/100 {
		t.Errorf("%d of %d titles without identifiers: want a few percent", noIDs, titles)
	}
	if p := peer * 100 / journals; p < 50 || p > 70 {
		t.Errorf("%d%% of journals peer-reviewed, want about 60%%", p)
	}
	if withAuthors < books*9/10 {
		t.Errorf("%d of %d books have authors or editors", withAuthors, books)
	}
	if withSubjects != len(titleSeen) {
		t.Errorf("%d of %d titles have 1-3 subjects", withSubjects, len(titleSeen))
	}
	if twoRanges == 0 {
		t.Error("no title with two coverage ranges in a package")
	}
}

// TestIdentifiers checks that identifiers are valid, that a title keeps
// its identifiers in every package, and that no two titles share one.
func TestIdentifiers(t *testing.T) {
	imp, _ := generate(t, Options{Titles: 30000, Seed: 3})
	owner := map[string]int{}
	for _, p := range imp.pkgs {
		for _, row := range p.rows {
			i := titleIndex(t, row)
			for _, f := range []kbart.Field{kbart.PrintIdentifier, kbart.OnlineIdentifier} {
				id := row.KBART[f]
				if id == "" {
					continue
				}
				var ok bool
				if kb.IsSerialType(row.PubType) {
					_, ok = kb.NormalizeISSN(id)
				} else {
					var n string
					n, ok = kb.NormalizeISBN(id)
					ok = ok && n == id && strings.HasPrefix(id, "978")
				}
				if !ok {
					t.Fatalf("%v %v %q is not valid", row.PubType, f, id)
				}
				if o, seen := owner[id]; seen && o != i {
					t.Fatalf("titles %d and %d share %q", o, i, id)
				}
				owner[id] = i
			}
		}
	}
}

func TestTitlesStable(t *testing.T) {
	// A title's metadata does not depend on the package it is in.
	imp, _ := generate(t, Options{Titles: 4000})
	byTitle := map[int]kb.ImportRow{}
	for _, p := range imp.pkgs {
		for _, row := range p.rows {
			i := titleIndex(t, row)
			prev, ok := byTitle[i]
			if !ok {
				byTitle[i] = row
				continue
			}
			for _, f := range []kbart.Field{kbart.PublicationTitle, kbart.PrintIdentifier, kbart.OnlineIdentifier, kbart.PublisherName, kbart.FirstAuthor, kbart.PublicationType} {
				if prev.KBART[f] != row.KBART[f] {
					t.Fatalf("title %d: %v %q in one package, %q in another", i, f, prev.KBART[f], row.KBART[f])
				}
			}
			if diff := cmp.Diff(prev.Subjects, row.Subjects); diff != "" {
				t.Fatalf("title %d: subjects differ between packages:\n%s", i, diff)
			}
			if prev.Description != row.Description || prev.PeerReviewed != row.PeerReviewed || prev.PubType != row.PubType {
				t.Fatalf("title %d: metadata differs between packages", i)
			}
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := Generate(ctx, &fakeImporter{discard: true}, Options{Titles: 50000}, func(done, total int) {
		if calls++; done > 10000 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Generate after cancel: %v, want context.Canceled", err)
	}
}

func TestOptions(t *testing.T) {
	if _, err := Generate(context.Background(), &fakeImporter{}, Options{Titles: -1}, nil); err == nil {
		t.Error("negative titles accepted")
	}
	if _, err := Generate(context.Background(), &fakeImporter{}, Options{Titles: MaxTitles + 1}, nil); err == nil {
		t.Error("too many titles accepted")
	}
	o, err := Options{}.withDefaults()
	if err != nil || o.Titles != 100000 || o.Seed != 1 || o.Vendors != 40 || o.Packages != 400 {
		t.Errorf("defaults: %+v, %v", o, err)
	}
}

func TestWriteKBART(t *testing.T) {
	for _, n := range []int{0, 1, 2000} {
		var buf bytes.Buffer
		if err := WriteKBART(&buf, n, 7); err != nil {
			t.Fatal(err)
		}
		r, err := kbart.NewReader(&buf)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		rows, repaired := 0, 0
		for {
			row, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("n=%d: row %d: %v", n, rows+1, err)
			}
			rows++
			if len(row.Repairs) > 0 {
				repaired++
				if repaired <= 5 {
					t.Errorf("line %d repaired: %q", row.Line, row.Repairs)
				}
			}
		}
		if rows != n {
			t.Errorf("wrote %d rows, read %d", n, rows)
		}
		if notes := r.FileNotes(); len(notes) > 0 {
			t.Errorf("file notes: %q", notes)
		}
	}
	var a, b bytes.Buffer
	WriteKBART(&a, 100, 1)
	WriteKBART(&b, 100, 1)
	if a.String() != b.String() {
		t.Error("WriteKBART is not deterministic")
	}
}

func BenchmarkGenerate(b *testing.B) {
	imp := &fakeImporter{discard: true}
	rows := 0
	for b.Loop() {
		imp.rows = 0
		if _, err := Generate(context.Background(), imp, Options{Titles: 100000}, nil); err != nil {
			b.Fatal(err)
		}
		rows += imp.rows
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkWriteKBART(b *testing.B) {
	const n = 100000
	for b.Loop() {
		if err := WriteKBART(io.Discard, n, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestGenerateInParts checks that a knowledge base generated in two parts
// (Include, as serve --demo grows its demo) holds the packages of one
// generated whole, row for row, and that Stride chooses about the share
// of resources asked for.
func TestGenerateInParts(t *testing.T) {
	o := Options{Titles: 3000}
	whole, wsum := generate(t, o)
	sizes, err := PackageSizes(o)
	if err != nil {
		t.Fatal(err)
	}
	s := Stride(sizes, wsum.Resources/5)
	if s < 2 || s > 10 {
		t.Fatalf("Stride for a fifth of %d resources: %d", wsum.Resources, s)
	}
	// The plan index of each package imported, in order (Imported).
	var aIdx, bIdx []int
	first := o
	first.Include = func(p int) bool { return p%s == 0 }
	first.Imported = func(p int, _ int64) error { aIdx = append(aIdx, p); return nil }
	rest := o
	rest.Include = func(p int) bool { return p%s != 0 }
	rest.Imported = func(p int, _ int64) error { bIdx = append(bIdx, p); return nil }
	a, asum := generate(t, first)
	b, bsum := generate(t, rest)
	if asum.Resources+bsum.Resources != wsum.Resources || asum.Resources < wsum.Resources/5 || asum.Resources > wsum.Resources/2 {
		t.Errorf("the parts hold %d and %d resources, the whole %d", asum.Resources, bsum.Resources, wsum.Resources)
	}
	got := map[int]fakePackage{}
	for i, p := range aIdx {
		got[p] = a.pkgs[i]
	}
	for i, p := range bIdx {
		if _, ok := got[p]; ok {
			t.Fatalf("package %d generated in both parts", p)
		}
		got[p] = b.pkgs[i]
	}
	if len(got) != len(whole.pkgs) {
		t.Fatalf("the parts generated %d packages, the whole %d", len(got), len(whole.pkgs))
	}
	for p, want := range whole.pkgs {
		if diff := cmp.Diff(want, got[p], cmp.AllowUnexported(fakePackage{})); diff != "" {
			t.Fatalf("package %d differs (-whole +parts):\n%s", p, diff)
		}
	}
}

// fakeLoader is a fakeImporter that loads as one (kb.Loader); it fails
// its load with failAt's error once that many packages are in.
type fakeLoader struct {
	fakeImporter
	loads  int
	failAt int
}

func (f *fakeLoader) LoadPackages(ctx context.Context, fn func(kb.ImportFunc) error) (bool, error) {
	f.loads++
	return true, fn(func(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
		if f.failAt > 0 && len(f.pkgs) == f.failAt {
			return kb.ImportResult{}, errors.New("load failed")
		}
		return f.ImportPackage(ctx, spec, next)
	})
}

// TestGenerateAsLoad checks that a first load of a whole knowledge base
// goes through the store's Loader, with the packages Generate sends one by
// one, and that a part (Include), work after each package or the staged
// path (BulkOff) does not; a
// load that fails reports that none of its packages was kept.
func TestGenerateAsLoad(t *testing.T) {
	o := Options{Titles: 3000, FirstLoad: true}
	whole, _ := generate(t, o)
	ctx := context.Background()
	ld := &fakeLoader{}
	sum, err := Generate(ctx, ld, o, nil)
	if err != nil || !sum.Loaded || ld.loads != 1 || len(sum.PackageIDs) != len(whole.pkgs) {
		t.Fatalf("Generate: loaded %v (%d loads), %d packages, %v; want one load of %d", sum.Loaded, ld.loads, len(sum.PackageIDs), err, len(whole.pkgs))
	}
	if diff := cmp.Diff(whole.pkgs, ld.pkgs, cmp.AllowUnexported(fakePackage{})); diff != "" {
		t.Fatalf("the load's packages differ (-one by one +load):\n%s", diff)
	}
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"not a first load", Options{Titles: 3000}},
		{"a part", Options{Titles: 3000, FirstLoad: true, Include: func(p int) bool { return p%2 == 0 }}},
		{"work after each", Options{Titles: 3000, FirstLoad: true, Imported: func(int, int64) error { return nil }}},
		{"staged", Options{Titles: 3000, FirstLoad: true, Bulk: kb.BulkOff}},
	} {
		ld := &fakeLoader{}
		sum, err := Generate(ctx, ld, c.o, nil)
		if err != nil || sum.Loaded || ld.loads != 0 || len(ld.pkgs) == 0 {
			t.Errorf("%s: loaded %v (%d loads, %d packages), %v; want each package on its own", c.name, sum.Loaded, ld.loads, len(ld.pkgs), err)
		}
	}
	ld = &fakeLoader{failAt: 5}
	sum, err = Generate(ctx, ld, o, nil)
	if err == nil || !strings.Contains(err.Error(), "load failed") || !sum.Loaded || len(sum.PackageIDs) != 0 {
		t.Errorf("a failed load: %v, loaded %v, %d packages kept; want its error, loaded, none kept", err, sum.Loaded, len(sum.PackageIDs))
	}
}
