package main

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/store"
)

// Sizes of the named knowledge bases of gen --size.
var genSizes = map[string]genSize{
	"demo": {opts: gen.Options{Titles: 100_000}},
	"large": {
		opts: gen.Options{Titles: 3_000_000, Packages: 20_000, Vendors: 2_000, Resources: 10_000_000,
			LargePackages: []int{1_300_000, 1_100_000, 1_000_000}},
		customers: []gen.CustomerSpec{{ID: "big", Holdings: 1_500_000}, {ID: "medium", Holdings: 100_000}},
	},
}

type genSize struct {
	opts      gen.Options
	customers []gen.CustomerSpec
}

func genCommand() *command {
	return &command{
		name:    "gen",
		summary: "generate a demo knowledge base into --db",
		usesDB:  true,
		about: `Gen generates a deterministic knowledge base of invented vendors, packages
and titles (valid ISSNs and ISBNs, realistic KBART coverage, subjects,
contributors) and imports it into --db. The same options always give the
same knowledge base; running gen again updates the packages in place
(vendors and packages are matched by name) instead of duplicating them.
By default it makes about Titles/2500 vendors and Titles/250 packages, with
about two resources per title.

--customer ID=N creates customer ID (or reuses it) and selects generated
packages until it holds about N resources, with customisations as libraries
make them (hidden packages and titles, custom coverage, embargoes, coverage
statements, proxies, user-defined fields, titles selected one by one).

--size large is the knowledge base of the performance benchmarks
(BENCHMARKS.md): 3,000,000 titles, 10,000,000 resources, 20,000 packages of
which three hold 1,300,000, 1,100,000 and 1,000,000 titles, 2,000 vendors,
and customers big (1,500,000 holdings) and medium (100,000). It took 14
minutes, 2.7 GB of memory at its peak and 7.4 GB of disk on a 2-core
machine. Flags given with --size override its values.

Into an empty knowledge base the packages go in as one load: one
transaction, the indexes built once at its end, each package matched
against the titles of those before it in memory (memory grows with the
knowledge base). Until it commits, other writers of a SQLite store wait,
and readers of a PostgreSQL one; if it fails or is interrupted nothing
is kept. Into a knowledge base that has titles, or with --bulk off, each
package is imported on its own. See also 'kbserver gen kbart'.`,
		example: "kbserver gen --db demo.db\nkbserver gen --titles 2000 --seed 7 --db small.db\n" +
			"kbserver gen --titles 200000 --customer mylib=50000 --db mid.db\nkbserver gen --size large --db bench/large.db",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var o gen.Options
			var size, large, bulk string
			var only bool
			var customers []gen.CustomerSpec
			fs.StringVar(&size, "size", "demo", "named `size`: demo (100,000 titles) or large (the benchmark knowledge base)")
			fs.IntVar(&o.Titles, "titles", 0, "`number` of distinct titles (default: the size's)")
			fs.Int64Var(&o.Seed, "seed", 1, "random `seed`: another seed gives another knowledge base")
			fs.IntVar(&o.Vendors, "vendors", 0, "`number` of vendors (0: the size's, else about titles/2500, at least 5)")
			fs.IntVar(&o.Packages, "packages", 0, "`number` of packages (0: the size's, else about titles/250, at least 20)")
			fs.IntVar(&o.Resources, "resources", 0, "about how many `number` resources in all (0: the size's, else about 500 a package)")
			fs.StringVar(&large, "large-packages", "", "comma-separated `sizes` of extra large packages, e.g. 1300000,1000000")
			fs.BoolVar(&only, "customers-only", false, "only create the --customer customers, over the packages already in --db")
			fs.StringVar(&bulk, "bulk", "auto", "load each new package in one transaction, without staging (see import kbart): `mode` auto (on PostgreSQL, and on SQLite into a knowledge base no import has filled), on or off")
			fs.Func("customer", "create customer `ID=N` holding about N resources (repeatable)", func(v string) error {
				cs, err := gen.ParseCustomerSpec(v)
				if err != nil {
					return err
				}
				customers = append(customers, cs)
				return nil
			})
			return func(args []string) error {
				if len(args) > 0 {
					return usageErrorf("gen", "unexpected argument %q (did you mean 'kbserver gen kbart'?)", args[0])
				}
				sz, ok := genSizes[size]
				if !ok {
					return usageErrorf("gen", "--size must be demo or large, not %q", size)
				}
				var err error
				if o.Bulk, err = parseBulk("gen", bulk); err != nil {
					return err
				}
				set := map[string]bool{}
				fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
				if set["titles"] && (o.Titles < 1 || o.Titles > gen.MaxTitles) {
					return usageErrorf("gen", "--titles must be between 1 and %d", gen.MaxTitles)
				}
				def := sz.opts
				o.Titles = cmp.Or(o.Titles, def.Titles)
				o.Vendors = cmp.Or(o.Vendors, def.Vendors)
				o.Packages = cmp.Or(o.Packages, def.Packages)
				o.Resources = cmp.Or(o.Resources, def.Resources)
				o.LargePackages = def.LargePackages
				if large != "" {
					o.LargePackages = nil
					for _, f := range strings.Split(large, ",") {
						n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(f), "_", ""))
						if err != nil || n < 1 {
							return usageErrorf("gen", "--large-packages: %q is not a positive number of titles", f)
						}
						o.LargePackages = append(o.LargePackages, n)
					}
				}
				if customers == nil {
					customers = sz.customers
				}
				if o.Titles < 1 || o.Titles > gen.MaxTitles {
					return usageErrorf("gen", "--titles must be between 1 and %d", gen.MaxTitles)
				}
				if o.Vendors < 0 || o.Packages < 0 || o.Resources < 0 {
					return usageErrorf("gen", "--vendors, --packages and --resources must not be negative")
				}
				for _, n := range o.LargePackages {
					if n > o.Titles {
						return usageErrorf("gen", "--large-packages: a package of %d titles is larger than the pool of --titles %d", n, o.Titles)
					}
				}
				if only && len(customers) == 0 {
					return usageErrorf("gen", "--customers-only needs --customer ID=N (or --size large)")
				}
				return c.gen(o, customers, only)
			}
		},
	}
}

func (c *cli) gen(o gen.Options, customers []gen.CustomerSpec, customersOnly bool) error {
	st, err := c.createStore()
	if err != nil {
		return err
	}
	err = c.genInto(st, o, customers, customersOnly)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err == nil && !customersOnly && !store.IsPostgres(c.db) {
		// The size of a SQLite file once closed: a load's write-ahead
		// log, as large as the file, has gone into it by then. (A server
		// database has no one file.)
		fmt.Fprintf(c.stdout, "Database: %.2f GB\n", float64(dbSize(c.db))/1e9)
	}
	return err
}

// genInto generates the knowledge base of o, then the customers, into st.
func (c *cli) genInto(st kb.Store, o gen.Options, customers []gen.CustomerSpec, customersOnly bool) error {
	if !customersOnly {
		if err := c.genKB(st, o); err != nil {
			return err
		}
	}
	if len(customers) == 0 {
		return nil
	}
	w := c.stdout
	start := time.Now()
	progress, finish := countProgress(c.stderr, "selecting", "holdings")
	cs, err := gen.Customers(c.ctx, st, o.Seed, customers, progress)
	finish()
	for _, s := range cs {
		fmt.Fprintf(w, "Customer %s: %d packages selected, %d holdings, %d packages and %d titles customised\n",
			s.ID, s.Packages, s.Holdings, s.PackageChanges, s.ResourceChanges)
	}
	if err != nil {
		return c.interrupted(err, fmt.Sprintf("%d of %d customers done", max(len(cs)-1, 0), len(customers)))
	}
	fmt.Fprintf(w, "Customers done in %s.\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// genKB generates the knowledge base of o into st.
func (c *cli) genKB(st kb.Store, o gen.Options) error {
	if o.Bulk == kb.BulkAuto {
		// Into a knowledge base no import has filled yet, every package
		// takes the bulk path, on SQLite too: a first load.
		stats, err := st.Stats(c.ctx)
		if err != nil {
			return fmt.Errorf("gen: is the store empty: %w", err)
		}
		if stats.Imports == 0 {
			o.Bulk = kb.BulkOn
		}
	}
	o.FirstLoad = true
	progress, finish := countProgress(c.stderr, "generating", "resources")
	sum, err := gen.Generate(c.ctx, st, o, progress)
	finish()
	if err != nil {
		if sum.Loaded {
			return c.interrupted(err, "the load was rolled back: nothing was generated")
		}
		return c.interrupted(err, fmt.Sprintf("%d of %d packages generated", len(sum.PackageIDs), sum.Packages))
	}
	w := c.stdout
	fmt.Fprintf(w, "Generated into %s:\n", store.Redact(c.db))
	fmt.Fprintf(w, "  %-10s %10d\n", "vendors", sum.Vendors)
	fmt.Fprintf(w, "  %-10s %10d\n", "packages", sum.Packages)
	fmt.Fprintf(w, "  %-10s %10d\n", "titles", sum.Titles)
	fmt.Fprintf(w, "  %-10s %10d\n", "resources", sum.Resources)
	fmt.Fprintf(w, "  %-10s %10d\n", "rows", sum.Rows)
	fmt.Fprintf(w, "  %-10s %10s\n", "elapsed", sum.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "  %-10s %10.0f\n", "rows/s", float64(sum.Rows)/max(sum.Elapsed.Seconds(), 1e-9))
	return nil
}

// dbSize returns the bytes of the database file and its write-ahead log.
func dbSize(path string) int64 {
	var n int64
	for _, f := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}

func genKBARTCommand() *command {
	return &command{
		name:    "gen kbart",
		summary: "write a generated KBART file (for import tests and benchmarks)",
		about: `Gen kbart writes one package's title list of invented titles as a KBART
Phase II file: to standard output, or to the -o file (gzip-compressed when
its name ends in .gz). The same --rows and --seed always give the same file.`,
		example: "kbserver gen kbart --rows 1000 > titles.txt\nkbserver gen kbart --rows 1000000 -o big.txt.gz\nkbserver gen kbart --rows 50000 | kbserver import kbart --vendor V --package P -",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var rows int
			var seed int64
			var out string
			fs.IntVar(&rows, "rows", 10_000, "`number` of rows")
			fs.Int64Var(&seed, "seed", 1, "random `seed`")
			fs.StringVar(&out, "o", "", "output `file` (default: standard output)")
			return func(args []string) error {
				if len(args) > 0 {
					return usageErrorf("gen kbart", "unexpected argument %q (write to a file with -o FILE)", args[0])
				}
				if rows < 0 || rows > gen.MaxTitles {
					return usageErrorf("gen kbart", "--rows must be between 0 and %d", gen.MaxTitles)
				}
				return c.genKBART(rows, seed, out)
			}
		},
	}
}

func (c *cli) genKBART(rows int, seed int64, out string) error {
	if out == "" || out == "-" {
		return gen.WriteKBART(c.stdout, rows, seed)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	var w io.Writer = f
	var zw *gzip.Writer
	bw := bufio.NewWriterSize(f, 1<<16)
	w = bw
	if strings.HasSuffix(strings.ToLower(out), ".gz") {
		zw = gzip.NewWriter(bw)
		w = zw
	}
	err = gen.WriteKBART(w, rows, seed)
	if zw != nil {
		err = errors.Join(err, zw.Close())
	}
	err = errors.Join(err, bw.Flush(), f.Close())
	if err != nil {
		os.Remove(out)
		return err
	}
	fmt.Fprintf(c.stderr, "Wrote %d rows to %s.\n", rows, out)
	return nil
}
