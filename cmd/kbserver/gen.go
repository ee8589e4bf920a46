package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/gen"
)

func genCommand() *command {
	return &command{
		name:    "gen",
		summary: "generate a demo knowledge base into --db",
		usesDB:  true,
		about: `Gen generates a deterministic knowledge base of invented vendors, packages
and titles (valid ISSNs and ISBNs, realistic KBART coverage, subjects,
contributors) and imports it into --db. The same --titles and --seed always
give the same knowledge base; running gen again updates the packages in place
(vendors and packages are matched by name) instead of duplicating them.
By default it makes about Titles/2500 vendors and Titles/250 packages, with
about two resources per title. See also 'kbserver gen kbart'.`,
		example: "kbserver gen --db demo.db\nkbserver gen --titles 2000 --seed 7 --db small.db\nkbserver gen --titles 3000000 --packages 20000 --db big.db",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var o gen.Options
			fs.IntVar(&o.Titles, "titles", 100_000, "`number` of distinct titles")
			fs.Int64Var(&o.Seed, "seed", 1, "random `seed`: another seed gives another knowledge base")
			fs.IntVar(&o.Vendors, "vendors", 0, "`number` of vendors (0: about titles/2500, at least 5)")
			fs.IntVar(&o.Packages, "packages", 0, "`number` of packages (0: about titles/250, at least 20)")
			return func(args []string) error {
				if len(args) > 0 {
					return usageErrorf("gen", "unexpected argument %q (did you mean 'kbserver gen kbart'?)", args[0])
				}
				if o.Titles < 1 || o.Titles > gen.MaxTitles {
					return usageErrorf("gen", "--titles must be between 1 and %d", gen.MaxTitles)
				}
				if o.Vendors < 0 || o.Packages < 0 {
					return usageErrorf("gen", "--vendors and --packages must not be negative")
				}
				return c.gen(o)
			}
		},
	}
}

func (c *cli) gen(o gen.Options) error {
	st, err := c.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	progress, finish := countProgress(c.stderr, "generating", "resources")
	sum, err := gen.Generate(c.ctx, st, o, progress)
	finish()
	if err != nil {
		return c.interrupted(err, fmt.Sprintf("%d of %d packages generated", len(sum.PackageIDs), sum.Packages))
	}
	w := c.stdout
	fmt.Fprintf(w, "Generated into %s:\n", c.db)
	fmt.Fprintf(w, "  %-10s %10d\n", "vendors", sum.Vendors)
	fmt.Fprintf(w, "  %-10s %10d\n", "packages", sum.Packages)
	fmt.Fprintf(w, "  %-10s %10d\n", "titles", sum.Titles)
	fmt.Fprintf(w, "  %-10s %10d\n", "resources", sum.Resources)
	fmt.Fprintf(w, "  %-10s %10d\n", "rows", sum.Rows)
	fmt.Fprintf(w, "  %-10s %10s\n", "elapsed", sum.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "  %-10s %10.0f\n", "rows/s", float64(sum.Rows)/max(sum.Elapsed.Seconds(), 1e-9))
	return nil
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
