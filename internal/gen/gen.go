// Package gen generates a deterministic demo knowledge base: invented
// vendors, packages and titles with valid identifiers, realistic KBART
// fields and the metadata a KBART file cannot carry (subjects,
// contributors, descriptions).
//
// Generation streams: every title is a pure function of the seed and its
// index, and packages draw title indices from fixed permutations, so memory
// does not grow with the size of the knowledge base (only with the number
// of packages). Nothing is downloaded and no name is taken from real data.
package gen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// MaxTitles is the largest title pool Generate accepts: beyond it the
// generated ISSNs would no longer be unique.
const MaxTitles = 9_000_000

// Options size the generated knowledge base. Zero values take defaults.
type Options struct {
	Titles   int   // distinct titles in the pool (default 100000)
	Seed     int64 // default 1
	Vendors  int   // 0: derived (about Titles/2500, at least 5)
	Packages int   // 0: derived (about Titles/250, at least 20)
	// Resources is about how many title-package pairs the packages hold in
	// all; 0 lets package sizes fall as drawn (a mean of about 500). The
	// packages that tile the pool always hold every title once.
	Resources int
	// LargePackages are the sizes of extra aggregator packages (a real
	// knowledge base has a few of a million titles or more), each at most
	// Titles. They are generated last.
	LargePackages []int
	// Bulk says whether a new package takes the import's bulk path.
	Bulk kb.BulkMode
	// FirstLoad asks for a first load (kb.PackageSpec.FirstLoad): the
	// first package into an empty knowledge base is loaded as databases
	// load.
	FirstLoad bool
	// Include, when not nil, chooses the packages to generate by their
	// index in the plan (0 to Summary.Packages-1): the others are left
	// out. A knowledge base generated in parts (each package in one part)
	// equals one generated whole.
	Include func(p int) bool
	// Imported, when not nil, is called after each package's import with
	// its index in the plan and its id in the store; an error from it
	// ends Generate.
	Imported func(p int, id int64) error
}

// PackageSizes returns the number of resources of each package of o's
// knowledge base, in plan order.
func PackageSizes(o Options) ([]int, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	pl := newPlan(newGenerator(o.Seed, o.Titles), o)
	sizes := make([]int, len(pl.pkgs))
	for p := range pl.pkgs {
		sizes[p] = pl.pkgs[p].size()
	}
	return sizes, nil
}

// Stride returns the largest stride s for which the packages p with
// p%s == 0 hold at least the given number of resources, given each
// package's (PackageSizes); 1, every package, when no larger one does.
func Stride(sizes []int, resources int) int {
	for s := len(sizes); s > 1; s-- {
		n := 0
		for p := 0; p < len(sizes); p += s {
			n += sizes[p]
		}
		if n >= resources {
			return s
		}
	}
	return 1
}

// Summary reports what Generate produced.
type Summary struct {
	Vendors    int
	Packages   int // in the plan, generated or not (Options.Include)
	Titles     int
	Resources  int     // title-package pairs of the packages generated
	Rows       int     // rows sent to the importer: a resource with two coverage ranges takes two
	PackageIDs []int64 // the store's ids of the packages generated, in generation order
	// Loaded says the packages went in as one load (kb.Loader): readers
	// saw none of them until all, and on an error none was kept.
	Loaded  bool
	Elapsed time.Duration
}

// withDefaults fills in the defaults and checks the ranges.
func (o Options) withDefaults() (Options, error) {
	if o.Titles < 0 || o.Vendors < 0 || o.Packages < 0 {
		return o, errors.New("gen: titles, vendors and packages must not be negative")
	}
	if o.Titles == 0 {
		o.Titles = 100_000
	}
	if o.Titles > MaxTitles {
		return o, fmt.Errorf("gen: at most %d titles", MaxTitles)
	}
	if o.Packages == 0 {
		o.Packages = max(20, o.Titles/250)
	}
	o.Packages = max(o.Packages, len(packageTypes))
	for _, n := range o.LargePackages {
		if n < 1 || n > o.Titles {
			return o, fmt.Errorf("gen: a large package must hold between 1 and %d titles (the pool), not %d", o.Titles, n)
		}
	}
	if len(o.LargePackages) > o.Packages/2 {
		return o, fmt.Errorf("gen: at most half the packages (%d) can be large, not %d", o.Packages/2, len(o.LargePackages))
	}
	if o.Resources < 0 {
		return o, errors.New("gen: resources must not be negative")
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Vendors == 0 {
		o.Vendors = max(5, o.Titles/2500)
	}
	o.Vendors = min(o.Vendors, o.Packages)
	return o, nil
}

// Generate streams the knowledge base into imp, one ImportPackage call per
// package. progress, when not nil, is called from time to time with the
// number of resources generated so far and the total. Running it twice
// with the same options into the same store updates the packages in place
// (the importer reuses vendors and packages by name).
func Generate(ctx context.Context, imp kb.Importer, opts Options, progress func(done, total int)) (Summary, error) {
	start := time.Now()
	o, err := opts.withDefaults()
	if err != nil {
		return Summary{}, err
	}
	g := newGenerator(o.Seed, o.Titles)
	pl := newPlan(g, o)
	total := pl.resources
	if o.Include != nil {
		total = 0
		for p := range pl.pkgs {
			if o.Include(p) {
				total += pl.pkgs[p].size()
			}
		}
	}
	sum := Summary{
		Vendors:    pl.vendors,
		Packages:   len(pl.pkgs),
		Titles:     o.Titles,
		Resources:  total,
		PackageIDs: make([]int64, 0, len(pl.pkgs)),
	}
	if progress == nil {
		progress = func(int, int) {}
	}
	done := 0
	progress(0, total)
	genAll := func(importPackage kb.ImportFunc) error {
		for p := range pl.pkgs {
			if o.Include != nil && !o.Include(p) {
				continue
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			pp := &pl.pkgs[p]
			spec := kb.PackageSpec{
				VendorName:  vendorName(g.seed, pp.vendor),
				PackageName: packageName(g.seed, p, pp.content),
				ContentType: pp.content,
				PackageType: pp.ptype,
				Bulk:        o.Bulk,
				FirstLoad:   o.FirstLoad,
			}
			it := &pkgRows{
				g:      g,
				pl:     pp,
				rc:     resCtx{pkg: mix(uint64(p) + 0x9ac0000), agg: pp.agg, content: pp.content, line: 1},
				second: -1,
				tick: func() error {
					done++
					if done%4096 == 0 {
						progress(done, total)
						return ctx.Err()
					}
					return nil
				},
			}
			res, err := importPackage(ctx, spec, it.next)
			sum.Rows += it.rows
			if err != nil {
				return fmt.Errorf("gen: package %q of %q: %w", spec.PackageName, spec.VendorName, err)
			}
			sum.PackageIDs = append(sum.PackageIDs, res.PackageID)
			if o.Imported != nil {
				if err := o.Imported(p, res.PackageID); err != nil {
					return fmt.Errorf("gen: package %q of %q: %w", spec.PackageName, spec.VendorName, err)
				}
			}
			progress(done, total)
		}
		return nil
	}
	// A whole knowledge base into an empty store goes in as one load
	// (kb.Loader): its packages match each other's titles in memory, and
	// the indexes are built once. Generating in parts, with work after
	// each package, or staged (kb.BulkOff) imports package by package.
	if ld, ok := imp.(kb.Loader); ok && o.FirstLoad && o.Bulk != kb.BulkOff && o.Include == nil && o.Imported == nil {
		one, err := ld.LoadPackages(ctx, genAll)
		if err != nil && one {
			sum.PackageIDs = sum.PackageIDs[:0] // none was kept
		}
		sum.Loaded = one
		sum.Elapsed = time.Since(start)
		return sum, err
	}
	err = genAll(imp.ImportPackage)
	sum.Elapsed = time.Since(start)
	return sum, err
}

// pkgRows yields the rows of one package.
type pkgRows struct {
	g      *generator
	pl     *pkgPlan
	rc     resCtx
	seg    int
	pos    int
	second int // index of the title whose second coverage row is due, or -1
	rows   int
	tick   func() error // called once per resource
}

func (it *pkgRows) next() (kb.ImportRow, error) {
	if i := it.second; i >= 0 {
		it.second = -1
		it.rc.line++
		it.rows++
		row, _ := it.g.row(i, it.rc, 2)
		return row, nil
	}
	for it.seg < it.pl.nseg && it.pos >= it.pl.segs[it.seg].size {
		it.seg, it.pos = it.seg+1, 0
	}
	if it.seg >= it.pl.nseg {
		return kb.ImportRow{}, io.EOF
	}
	s := &it.pl.segs[it.seg]
	k := s.perm.at((s.start + it.pos) % int(s.perm.n))
	it.pos++
	if err := it.tick(); err != nil {
		return kb.ImportRow{}, err
	}
	i := it.g.index(s.fam, k)
	it.rc.line++
	it.rows++
	row, two := it.g.row(i, it.rc, 0)
	if two {
		it.second = i
	}
	return row, nil
}
