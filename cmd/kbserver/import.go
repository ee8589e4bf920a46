package main

import (
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// contentTypeNames lists the content types import accepts.
func contentTypeNames() []string {
	return []string{"ejournal", "ebook", "aggregatedfulltext", "abstractandindex", "print", "unknown", "onlinereference"}
}

// packageTypeNames lists the package types import accepts.
func packageTypeNames() []string { return []string{"Complete", "Selectable", "Variable"} }

type importOptions struct {
	vendor        string
	pkg           string
	contentType   string
	packageType   string
	quiet         bool
	dryRun        bool
	allowRejected bool
	report        string
	bulk          string
}

// exitRejected is the exit status of an import that applied its rows but
// had rows the reader rejected (without --allow-rejected).
const exitRejected = 3

func importKBARTCommand() *command {
	return &command{
		name:    "import kbart",
		args:    "FILE...",
		summary: "import KBART title lists into a package",
		usesDB:  true,
		about: `Import kbart makes the titles of one package the rows of the given KBART
files, keeping every customer's work. The vendor and the package are created
when missing and reused by name. Several files are read in turn as one title
list. FILE "-" reads standard input; a name ending in .gz is decompressed.

Each row is matched to the package's titles by its title_id, then by ISSN or
ISBN, then by name, publisher and type; a title_id (or, without one, a URL)
that differs from the one the package holds tells distinct items of one
name apart. New titles are added, changed ones updated (a rename or a
corrected identifier reaches the title itself when this package created
it), and titles no longer listed leave the package: the customers' selection
and customisation of them are kept aside for 400 days and come back with the
title. A row the reader rejects changes nothing and keeps the title it
stands for; when it matches none, no title is removed. Every change is
recorded (see kbserver changes).

Every file is checked first: when one is not a KBART file (for example a
comma-separated export), nothing is imported. Rows the reader repairs are
imported; repaired and rejected rows are listed on stderr (the first 50;
--report FILE writes all of them). The package changes in one short
transaction at the end, so a running server's readers see it before or
after, and its writers wait at most that long.

A package's first import (the package does not exist yet) may take the bulk
path instead: its rows go straight into the store in one transaction, two to
three times as fast on SQLite (a quarter faster on PostgreSQL), with the same
result. Readers still see the package whole or not at all, but on SQLite
that transaction holds the store's one writer until the last row, so a
running server answers its writes 503 meanwhile. --bulk auto (the default)
takes it on PostgreSQL, whose writers go on beside it, and not on SQLite
(but see below); --bulk on takes it on both (for a first load before the
server runs), --bulk off on neither.

Into a knowledge base with no title at all (a first load), --bulk auto takes
the bulk path on SQLite too, and the load builds its indexes (on PostgreSQL
also its foreign keys) once, after its last row, instead of keeping them up
row by row. On PostgreSQL a first load locks the titles, their identifiers,
the resources and the packages until it commits: a server's requests that
read them wait. An import keeps the keys of the rows it read so far in
memory (about 400 bytes a row at its peak: 450 MB for a million rows).

Exit status: 0 when every row was imported; 3 when the import was applied
but rows were rejected (0 with --allow-rejected); 1 when nothing was
imported; 2 for a usage error.`,
		example: `kbserver import kbart --vendor "Example Press" --package "Example Journals" --content-type ejournal titles.txt
kbserver import kbart --vendor V --package P --dry-run titles-2026-12.txt
kbserver import kbart --vendor V --package P --report problems.tsv --allow-rejected part1.txt part2.txt.gz
zcat list.txt.gz | kbserver import kbart --vendor V --package P --quiet -
kbserver import kbart --db kb.db --vendor V --package "All Titles" --bulk on all-titles.txt`,
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var o importOptions
			fs.StringVar(&o.vendor, "vendor", "", "vendor `name` (required)")
			fs.StringVar(&o.pkg, "package", "", "package `name` (required)")
			fs.StringVar(&o.contentType, "content-type", "unknown", "content `type`: "+strings.Join(contentTypeNames(), ", "))
			fs.StringVar(&o.packageType, "package-type", "Selectable", "package `type`: "+strings.Join(packageTypeNames(), ", "))
			fs.BoolVar(&o.quiet, "quiet", false, "do not list the problems of single rows (counts are still printed)")
			fs.BoolVar(&o.dryRun, "dry-run", false, "read and match the rows and print what the import would do, changing nothing")
			fs.BoolVar(&o.allowRejected, "allow-rejected", false, "exit 0, not 3, when rows were rejected")
			fs.StringVar(&o.report, "report", "", "write every repaired, flagged and rejected row to `FILE` (tab-separated)")
			fs.StringVar(&o.bulk, "bulk", "auto", "a new package's first import in one transaction, without staging: `mode` auto (on PostgreSQL, and on SQLite into an empty knowledge base), on or off")
			return func(files []string) error { return c.importKBART(o, files) }
		},
	}
}

// importSpec checks the flags and returns the package they name.
func (o importOptions) spec(files []string) (kb.PackageSpec, error) {
	const cmd = "import kbart"
	var spec kb.PackageSpec
	spec.VendorName, spec.PackageName = strings.TrimSpace(o.vendor), strings.TrimSpace(o.pkg)
	switch {
	case spec.VendorName == "":
		return spec, usageErrorf(cmd, "--vendor is required: the name of the package's vendor")
	case spec.PackageName == "":
		return spec, usageErrorf(cmd, "--package is required: the name of the package to fill")
	case len(files) == 0:
		return spec, usageErrorf(cmd, "no FILE given: name one or more KBART files, or - for standard input")
	}
	ct, ok := kb.LookupContentType(o.contentType)
	if !ok || !slices.Contains(contentTypeNames(), strings.ToLower(strings.TrimSpace(o.contentType))) {
		return spec, usageErrorf(cmd, "--content-type %q is not valid: use one of %s", o.contentType, strings.Join(contentTypeNames(), ", "))
	}
	ptNames := packageTypeNames()
	pt, ok := kb.LookupPackageType(o.packageType)
	if !ok || !slices.ContainsFunc(ptNames, func(n string) bool { return strings.EqualFold(n, strings.TrimSpace(o.packageType)) }) {
		return spec, usageErrorf(cmd, "--package-type %q is not valid: use one of %s", o.packageType, strings.Join(ptNames, ", "))
	}
	stdins := 0
	for _, f := range files {
		if f == "-" {
			stdins++
		}
	}
	if stdins > 1 {
		return spec, usageErrorf(cmd, "standard input (-) can be read only once")
	}
	bulk, err := parseBulk(cmd, o.bulk)
	if err != nil {
		return spec, err
	}
	spec.ContentType, spec.PackageType, spec.Bulk, spec.FirstLoad = ct, pt, bulk, true
	return spec, nil
}

// parseBulk reads a --bulk flag of command cmd.
func parseBulk(cmd, v string) (kb.BulkMode, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "auto", "":
		return kb.BulkAuto, nil
	case "on":
		return kb.BulkOn, nil
	case "off":
		return kb.BulkOff, nil
	}
	return kb.BulkAuto, usageErrorf(cmd, "--bulk %q is not valid: use auto, on or off", v)
}

// source is one input file.
type source struct {
	name   string
	closer io.Closer // nil for standard input
	r      *kbart.Reader
}

func (c *cli) importKBART(o importOptions, files []string) error {
	spec, err := o.spec(files)
	if err != nil {
		return err
	}
	spec.DryRun = o.dryRun
	start := time.Now()

	// Open every file and read its header before importing anything.
	var bar *progressbar.ProgressBar // on a terminal only, once importing
	var readBytes int64
	count := func(n int) {
		readBytes += int64(n)
		if bar != nil {
			bar.Add(n)
		}
	}
	var srcs []*source
	defer func() {
		for _, s := range srcs {
			if s.closer != nil {
				s.closer.Close()
			}
		}
	}()
	refused := 0
	for _, name := range files {
		s, err := c.openSource(name, count)
		if s != nil {
			srcs = append(srcs, s)
		}
		if errors.Is(err, kbart.ErrNotKBART) {
			fmt.Fprintf(c.stderr, "%s: refused: %v\n", s.name, err)
			refused++
			continue
		}
		if err != nil {
			return err
		}
	}
	if refused > 0 {
		return fmt.Errorf("nothing imported: %d of %d files refused", refused, len(files))
	}
	for _, s := range srcs {
		for _, note := range s.r.FileNotes() {
			fmt.Fprintf(c.stderr, "%s: %s\n", s.name, note)
		}
	}
	var report *problemReport
	if o.report != "" {
		if report, err = createReport(o.report); err != nil {
			return err
		}
		defer report.close()
	}

	st, err := c.loadStore()
	if err != nil {
		return err
	}
	defer st.Close()
	if isTerminal(c.stderr) {
		bar = newBar(c.stderr, totalSize(files, c.stdin), "importing", true)
		bar.Add64(readBytes)
	}
	rs := newRowSource(srcs, newProblems(), report)
	spec.ExtraColumns = rs.ExtraColumns()
	res, err := st.ImportPackage(c.ctx, spec, rs.Next)
	if bar != nil {
		bar.Finish()
		bar.Exit()
	}
	rs.probs.print(c.stderr, o.quiet)
	if report != nil {
		if rerr := report.close(); rerr != nil && err == nil {
			err = rerr
		}
	}
	if errors.Is(err, kbart.ErrNoRows) {
		return fmt.Errorf("nothing imported: no importable rows (%d read, %d rejected); the package was left unchanged", rs.Read(), rs.probs.rejected)
	}
	if err != nil {
		return c.interrupted(fmt.Errorf("nothing imported: %w", err), "nothing imported")
	}
	c.printImport(o, spec, res, rs, len(files), time.Since(start))
	if rs.probs.rejected > 0 && !o.allowRejected && !o.dryRun {
		return &exitError{code: exitRejected, msg: fmt.Sprintf("imported, but %d rows were rejected and changed nothing (listed above%s); "+
			"--allow-rejected exits 0 for this", rs.probs.rejected, reportHint(o.report))}
	}
	return nil
}

// reportHint points at the report file, when one was written.
func reportHint(path string) string {
	if path == "" {
		return "; --report FILE lists them all"
	}
	return "; all of them in " + path
}

// printImport prints what the import did, or with --dry-run would do.
func (c *cli) printImport(o importOptions, spec kb.PackageSpec, res kb.ImportResult, rs *rowSource, files int, elapsed time.Duration) {
	w := c.stdout
	if o.dryRun {
		fmt.Fprintf(w, "Dry run: nothing was changed. Importing %d file(s) into package %q of vendor %q would:\n", files, spec.PackageName, spec.VendorName)
	} else {
		fmt.Fprintf(w, "Imported %d file(s) into package %q (id %d) of vendor %q (id %d); its changes are import %d.\n",
			files, spec.PackageName, res.PackageID, spec.VendorName, res.VendorID, res.ImportID)
		if res.Bulk {
			fmt.Fprintf(w, "The package was new: its rows went straight into the store in one transaction (--bulk).\n")
		}
	}
	for _, l := range []struct {
		label string
		n     int
	}{
		{"rows read", rs.Read()},
		{"rows imported", res.Rows - res.RowsRejected},
		{"rows repaired", rs.probs.repaired},
		{"rows normalised", rs.probs.normalized},
		{"rows rejected", rs.probs.rejected},
		{"titles created", res.TitlesCreated},
		{"titles matched", res.TitlesMatched},
		{"titles renamed", res.TitlesRenamed},
		{"titles re-identified", res.TitlesReidentified},
		{"resources added", res.ResourcesAdded},
		{"resources restored", res.ResourcesRestored},
		{"resources updated", res.ResourcesUpdated},
		{"resources removed", res.ResourcesRemoved},
		{"resources kept", res.ResourcesKept},
		{"customers affected", res.CustomersAffected},
	} {
		fmt.Fprintf(w, "  %-20s %9d\n", l.label, l.n)
	}
	fmt.Fprintf(w, "  %-20s %9s (%.0f rows/s)\n", "elapsed", elapsed.Round(time.Millisecond), float64(rs.Read())/max(elapsed.Seconds(), 1e-9))
	if res.CustomersAffected > 0 {
		fmt.Fprintf(w, "The %d customers who had selected or customised a removed title keep that state; it comes back if the title does.\n",
			res.CustomersAffected)
	}
	if res.RemovalsHeld {
		fmt.Fprintf(w, "No title was removed: a rejected row matched none of the package's titles, and may stand for any of them.\n")
	}
}

// totalSize returns the bytes the files hold, or -1 when one is not a
// regular file (a pipe).
func totalSize(files []string, stdin io.Reader) int64 {
	var total int64
	for _, name := range files {
		var fi os.FileInfo
		var err error
		if name == "-" {
			f, ok := stdin.(*os.File)
			if !ok {
				return -1
			}
			fi, err = f.Stat()
		} else {
			fi, err = os.Stat(name)
		}
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		total += fi.Size()
	}
	return total
}

// openSource opens a file, gunzipping it when its name ends in .gz, and
// reads its KBART header. The error wraps kbart.ErrNotKBART when the file
// is refused; the source is returned whenever the file was opened, so
// that the caller closes it.
func (c *cli) openSource(name string, count func(int)) (*source, error) {
	s := &source{name: name}
	var in io.Reader
	if name == "-" {
		s.name = "stdin"
		in = c.stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		s.closer, in = f, f
	}
	in = &countingReader{r: in, count: count}
	if strings.HasSuffix(strings.ToLower(name), ".gz") {
		zr, err := gzip.NewReader(in)
		if err != nil {
			return s, fmt.Errorf("%s: not a gzip file: %w", s.name, err)
		}
		in = zr
	}
	r, err := kbart.NewReader(in)
	if err != nil {
		if errors.Is(err, kbart.ErrNotKBART) {
			return s, err
		}
		return s, fmt.Errorf("%s: %w", s.name, err)
	}
	s.r = r
	return s, nil
}

// countingReader reports the bytes read through it.
type countingReader struct {
	r     io.Reader
	count func(int)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.count(n)
	return n, err
}

// newRowSource returns the rows of the files in turn (kbart.Source), the
// rejected ones included (marked Rejected: they keep the titles they stand
// for), counting their problems in probs and writing them to report
// (nil without --report).
func newRowSource(srcs []*source, probs *problems, report *problemReport) *rowSource {
	files := make([]kbart.SourceFile, len(srcs))
	for i, s := range srcs {
		files[i] = kbart.SourceFile{Name: s.name, Reader: s.r}
	}
	rs := &rowSource{Source: kbart.NewSource(files...), probs: probs}
	rs.OnReject = func(file string, e *kbart.RowError) error {
		probs.reject(file, e)
		return report.reject(file, e)
	}
	rs.OnRow = func(file string, row kbart.Row) error {
		probs.row(file, row)
		return report.row(file, row)
	}
	return rs
}

// rowSource is an import's kbart.Source with the problems it met.
type rowSource struct {
	*kbart.Source
	probs *problems
}
