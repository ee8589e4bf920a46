package kbart

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/realdata"
)

// The real-world corpus lives outside the repository, in
// shared/data/kbart/real next to the repository root. It is never copied
// into the repository.

// corpusDir returns shared/data/kbart, the directory of the corpus and its
// manifest (skipped when absent, failed on CI).
func corpusDir(t *testing.T) string {
	t.Helper()
	return filepath.Dir(realdata.Dir(t))
}

// corpusFile is one file of the corpus as read by the Reader.
type corpusFile struct {
	refused error // non-nil when NewReader refused the file
	result
	repeats int      // rejected rows that are repeated header lines
	extra   []string // Reader.ExtraColumns
}

// readCorpusFile reads one file (gunzipping .gz files) to the end.
func readCorpusFile(path string) (*corpusFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		defer gz.Close()
		in = gz
	}
	r, err := NewReader(in)
	if err != nil {
		if errors.Is(err, ErrNotKBART) {
			return &corpusFile{refused: err}, nil
		}
		return nil, err
	}
	res, err := readResult(r)
	if err != nil {
		return nil, err
	}
	cf := &corpusFile{result: *res, extra: r.ExtraColumns()}
	for _, re := range res.rejected {
		if re.Reason == reasonRepeatedHeader {
			cf.repeats++
		}
	}
	return cf, nil
}

// manifestEntry is one line of real_manifest.tsv.
type manifestEntry struct {
	kind string
	rows int
}

func readManifest(t *testing.T, dir string) map[string]manifestEntry {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "real_manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := make(map[string]manifestEntry)
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for first := true; sc.Scan(); first = false {
		if first {
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 3 {
			t.Fatalf("manifest line %q", sc.Text())
		}
		n, err := strconv.Atoi(cols[2])
		if err != nil {
			t.Fatalf("manifest rows %q: %v", cols[2], err)
		}
		m[cols[0]] = manifestEntry{kind: cols[1], rows: n}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// readCorpus reads every file of the corpus once per test binary run.
var corpusCache struct {
	files map[string]*corpusFile
	errs  map[string]error
}

func readCorpus(t *testing.T, dir string) (map[string]*corpusFile, map[string]error) {
	t.Helper()
	if corpusCache.files != nil {
		return corpusCache.files, corpusCache.errs
	}
	files := make(map[string]*corpusFile)
	errs := make(map[string]error)
	root := filepath.Join(dir, "real")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		cf, err := readCorpusFile(path)
		if err != nil {
			errs[rel] = err
			return nil
		}
		files[rel] = cf
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	corpusCache.files, corpusCache.errs = files, errs
	return files, errs
}

// repairKind reduces a repair note to its kind by blanking quoted values
// and numbers, for the statistics.
var (
	quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	numberRE = regexp.MustCompile(`[0-9][0-9X-]*`)
)

func repairKind(s string) string {
	s = quotedRE.ReplaceAllString(s, `"…"`)
	return numberRE.ReplaceAllString(s, "N")
}

// TestRealCorpus reads every file of the real corpus: each must be read to
// the end or refused with ErrNotKBART, the files known not to be KBART must
// be refused, and the row counts must match the manifest.
func TestRealCorpus(t *testing.T) {
	dir := corpusDir(t)
	manifest := readManifest(t, dir)
	files, errs := readCorpus(t, dir)
	for name, err := range errs {
		t.Errorf("%s: fatal error: %v", name, err)
	}
	if len(files)+len(errs) != len(manifest) {
		t.Errorf("read %d files, the manifest lists %d", len(files)+len(errs), len(manifest))
	}
	var nRead, nRefused, nRows, nRejected, nRepeats, nJoined int
	kinds := make(map[string]int)
	rejectKinds := make(map[string]int)
	refusals := make(map[string]int)
	for name, cf := range files {
		me, ok := manifest[name]
		if !ok {
			t.Errorf("%s: not in the manifest", name)
			continue
		}
		if cf.refused != nil {
			nRefused++
			reason := strings.TrimPrefix(cf.refused.Error(), ErrNotKBART.Error()+": ")
			if i := strings.IndexAny(reason, "(\""); i > 0 {
				reason = reason[:i]
			}
			refusals[reason]++
			if me.kind == "kbart-tsv" {
				t.Errorf("%s: a KBART file was refused: %v", name, cf.refused)
			}
			continue
		}
		nRead++
		if me.kind != "kbart-tsv" {
			t.Errorf("%s (%s): read as KBART (%d rows), want refused", name, me.kind, len(cf.rows))
			continue
		}
		// The manifest counts non-blank physical lines; a quoted value that
		// spans lines makes one row of several lines.
		joined := 0
		for _, row := range cf.rows {
			for _, rep := range row.Repairs {
				var a, b int
				if _, err := fmt.Sscanf(rep, "line break inside a quoted value: lines %d to %d joined", &a, &b); err == nil {
					joined += b - a
				}
			}
		}
		got := len(cf.rows) + len(cf.rejected) + joined
		if got != me.rows {
			t.Errorf("%s: %d rows + %d rejected (%d repeated headers) + %d joined lines = %d, manifest says %d",
				name, len(cf.rows), len(cf.rejected), cf.repeats, joined, got, me.rows)
		}
		nJoined += joined
		nRows += len(cf.rows)
		nRejected += len(cf.rejected) - cf.repeats
		nRepeats += cf.repeats
		for _, row := range cf.rows {
			if row.Values[PublicationTitle] == "" {
				t.Errorf("%s line %d: empty title", name, row.Line)
			}
			for _, rep := range row.Repairs {
				kinds[repairKind(rep)]++
			}
		}
		for _, re := range cf.rejected {
			rejectKinds[repairKind(re.Reason)]++
		}
	}
	t.Logf("files: %d read, %d refused; rows: %d read, %d rejected, %d repeated header lines, %d continuation lines of quoted values",
		nRead, nRefused, nRows, nRejected, nRepeats, nJoined)
	logTop(t, "refusals", refusals, 10)
	logTop(t, "rejections", rejectKinds, 10)
	logTop(t, "repairs", kinds, 40)
}

func logTop(t *testing.T, title string, m map[string]int, n int) {
	type kv struct {
		k string
		v int
	}
	var s []kv
	for k, v := range m {
		s = append(s, kv{k, v})
	}
	sort.Slice(s, func(i, j int) bool { return s[i].v > s[j].v || s[i].v == s[j].v && s[i].k < s[j].k })
	var b strings.Builder
	for i, e := range s {
		if i == n {
			break
		}
		fmt.Fprintf(&b, "\n%8d  %s", e.v, e.k)
	}
	t.Logf("top %s:%s", title, b.String())
}

// TestRealCorpusRefusals checks that the files known not to be KBART are
// refused, with the reason expected for each.
func TestRealCorpusRefusals(t *testing.T) {
	dir := corpusDir(t)
	files, _ := readCorpus(t, dir)
	want := map[string]string{
		"nyu-awdl/nyu_global_awdl_2021-08-11.csv":                            "comma-separated",
		"gokb/clean_gsa_master_2013_2013.csv":                                "comma-separated",
		"ezpaarse-platforms/wiley/wiley_Journals_corrections_2014-08-18.txt": "not tab-separated (fixed-width or space-separated)",
		"ezpaarse-platforms/brgm/brgm-Alltitiles-20-01-2016.txt":             "not tab-separated (fixed-width or space-separated)",
		"ezpaarse-platforms/aip/aip_journals_2016-11-01.txt":                 "an HTML page",
	}
	for name, kind := range readManifest(t, dir) {
		if kind.kind == "kbplus-csv" {
			want[name] = "comma-separated (KBART files are tab-separated)"
		}
	}
	if n := len(want); n != 120 {
		t.Errorf("%d files expected to be refused, want 5 + 115 KB+ CSVs", n)
	}
	for name, reason := range want {
		cf := files[name]
		switch {
		case cf == nil:
			t.Errorf("%s: missing or fatal error", name)
		case cf.refused == nil:
			t.Errorf("%s: read (%d rows), want refused", name, len(cf.rows))
		case !strings.Contains(cf.refused.Error(), reason):
			t.Errorf("%s: refused with %q, want %q", name, cf.refused, reason)
		}
	}
}

// TestRealCorpusFiles checks the values read from files with known
// defects.
func TestRealCorpusFiles(t *testing.T) {
	dir := corpusDir(t)
	files, _ := readCorpus(t, dir)
	file := func(name string) *corpusFile {
		t.Helper()
		cf := files[name]
		if cf == nil || cf.refused != nil {
			t.Fatalf("%s: not read", name)
		}
		return cf
	}
	rowAt := func(cf *corpusFile, line int) Row {
		t.Helper()
		for _, row := range cf.rows {
			if row.Line == line {
				return row
			}
		}
		t.Fatalf("no row at line %d", line)
		return Row{}
	}
	type check struct {
		file     string
		line     int
		values   map[Field]string
		repairs  []string  // each must be among the row's repairs
		problems []Problem // each must be among the row's problems (see hasProblem)
	}
	checks := []check{
		{ // Every data row shifted one column to the right by an empty field.
			file: "chocula/kbart_Portico.txt", line: 2,
			values: map[Field]string{PublicationTitle: "Journal of Cataract and Refractive Surgery",
				PrintIdentifier: "1873-4502", OnlineIdentifier: "0886-3350", TitleID: "ISSN_18734502_74",
				CoverageDepth: "fulltext", Notes: "Queued", PublisherName: "Wolters Kluwer Health", PublicationType: "serial"},
			repairs:  []string{"row starts with an extra empty field: values moved one column to the left"},
			problems: []Problem{{Kind: Normalized, Field: "publication_type", Original: "Serial", Action: "read as serial"}},
		},
		{
			file: "chocula/kbart_Portico.txt", line: 6,
			values: map[Field]string{PublicationTitle: "Agrosystems, Geosciences & Environment", OnlineIdentifier: "2639-6696",
				DateFirstIssueOnline: "2018-12-01", DateLastIssueOnline: "2019-01-01", PublicationType: "serial"},
		},
		{ // UTF-16LE with a BOM, timestamps in the date fields.
			file: "gokb/ebooks/CambridgeBooks_EdinburghUniversityPress.tsv", line: 2,
			values: map[Field]string{PublicationTitle: "911 and the War on Terror", PrintIdentifier: "9780748633807",
				OnlineIdentifier: "9780748632411", FirstAuthor: "Holloway", PublicationType: "monograph",
				DateMonographPublishedPrint: "2008-05-19", DateMonographPublishedOnline: "2013-08-05", AccessType: "P"},
			problems: []Problem{{Kind: Normalized, Field: "date_monograph_published_print", Original: "2008-05-19 00:00:00", Action: "read as 2008-05-19"}},
		},
		{ // CR-only line endings, quoted values, Phase I header.
			file: "gokb/os_test/AnnualReviews_SciencesCollection34_2011-04-27.txt", line: 15,
			values: map[Field]string{PublicationTitle: "Annual Review of Ecology, Evolution and Systematics",
				PrintIdentifier: "1543-592X", OnlineIdentifier: "1545-2069", DateFirstIssueOnline: "2003", NumFirstVolOnline: "34",
				TitleURL: "http://www.annualreviews.org/journal/ecolsys", TitleID: "ecolsys", PublicationType: "serial"},
			problems: []Problem{{Kind: Normalized, Field: "publication_type", Action: "inferred serial", Reason: "the file has no publication_type column: ISSN identifier"}},
		},
		{
			file: "gokb/os_test/AnnualReviews_SciencesCollection34_2011-04-27.txt", line: 48,
			values: map[Field]string{PublicationTitle: "Annual Review of Sociology", PrintIdentifier: "0360-0572", OnlineIdentifier: "1545-2115"},
		},
		{ // Concatenated file: the header comes again on line 5.
			file: "ezpaarse-platforms/jstor/jstor_AllTitles_2016-01-20.txt", line: 2,
			values: map[Field]string{PublicationTitle: "The Cactus and Succulent Journal of Great Britain",
				PrintIdentifier: "0007-9375", OnlineIdentifier: "2057-0317", DateFirstIssueOnline: "1946-07-01",
				DateLastIssueOnline: "1982-12-31", PublicationType: "serial"},
		},
		{ // Askews: every value quoted, one tab more than the header.
			file: "gokb/ebooks/askews/KB_20151028145707.csv", line: 2,
			values: map[Field]string{PublicationTitle: "Maverick Heart: Between love and life", PrintIdentifier: "9789382473008",
				OnlineIdentifier: "9789382473008", PublisherName: "Leadstart Publishing", PublicationType: "monograph",
				TitleURL: "http://www.vlebooks.com/vleweb/product/openreader?id=none&isbn=9789382473008&uid=none"},
		},
		{ // Sage: dd/mm/yyyy dates.
			file: "ezpaarse-platforms/sk/Sage_AllTitles_2018-01-24.txt", line: 2,
			values: map[Field]string{PublicationTitle: "Osula - 10 Winning Strategies for Leaders in the Classroom: A Transformational Approach",
				OnlineIdentifier: "9781446270288", DateMonographPublishedPrint: "2010-11-15", DateMonographPublishedOnline: "2013-01-18",
				PublicationType: "monograph", AccessType: "F"},
			repairs: []string{`date_monograph_published_print "15/11/2010" read as 2010-11-15`},
		},
		{ // Sage: Windows-1252 bytes.
			file: "ezpaarse-platforms/sk/Sage_AllTitles_2018-01-24.txt", line: 301,
			values: map[Field]string{PublicationTitle: "Nevills - Build the Brain for Reading, Grades 4–12",
				DateMonographPublishedPrint: "2010-10-18"},
			repairs: []string{"publication_title is not valid UTF-8: read as Windows-1252"},
		},
		{ // Lyell: a title with a line break inside quotes, Mac OS Roman, m/d/yy.
			file: "ezpaarse-platforms/lc/geolsoc_lyell_xlsx_2021-09-16.txt", line: 63,
			values: map[Field]string{PublicationTitle: "The Andaman–Nicobar Accretionary Ridge: Geology, Tectonics and Hazards",
				PrintIdentifier: "978-1-78620-281-9", DateMonographPublishedPrint: "2017-02-21", DateMonographPublishedOnline: "2017-02-02"},
			repairs: []string{"line break inside a quoted value: lines 63 to 64 joined", "read as Mac OS Roman"},
		},
		{ // Double-encoded UTF-8.
			file: "ezpaarse-platforms/springer/SPRINGER_GLOBAL_ALLJOURNALS_2026-02-02.txt", line: 11,
			values:  map[Field]string{PublicationTitle: "Monatshefte für Mathematik"},
			repairs: []string{"double-encoded UTF-8 repaired"},
		},
		{ // Excel serial numbers.
			file: "ezpaarse-platforms/pe/ProjectEuclid_Global_2021AllTitles_2021-02-12.txt", line: 24,
			values:  map[Field]string{DateMonographPublishedOnline: "2018-04-24"},
			repairs: []string{`date_monograph_published_online "43214.0" read as an Excel serial day number: 2018-04-24`},
		},
	}
	for _, c := range checks {
		t.Run(fmt.Sprintf("%s:%d", filepath.Base(c.file), c.line), func(t *testing.T) {
			row := rowAt(file(c.file), c.line)
			for f, want := range c.values {
				if got := row.Values[f]; got != want {
					t.Errorf("%s = %q, want %q", f, got, want)
				}
			}
			for _, want := range c.repairs {
				if !hasNote(row.Repairs, want) {
					t.Errorf("repairs %q lack %q", row.Repairs, want)
				}
			}
			for _, want := range c.problems {
				if !hasProblem(row.Problems, want) {
					t.Errorf("problems %+v lack %+v", row.Problems, want)
				}
			}
		})
	}

	// File-level facts.
	if cf := file("ezpaarse-platforms/jstor/jstor_AllTitles_2016-01-20.txt"); len(cf.rows) != 3 || cf.repeats != 1 || cf.rejected[0].Line != 5 {
		t.Errorf("jstor: %d rows, rejected %v", len(cf.rows), cf.rejected)
	}
	if cf := file("gokb/os_test/AnnualReviews_SciencesCollection34_2011-04-27.txt"); len(cf.rows) != 47 ||
		!hasNote(cf.notes, "4 empty column names at the end of the header ignored") || !hasNote(cf.notes, "KBART Phase I header") {
		t.Errorf("AnnualReviews: %d rows, notes %q", len(cf.rows), cf.notes)
	}
	if cf := file("gokb/ebooks/askews/KB_20151028145707.csv"); len(cf.rows) != 12769 ||
		!hasNote(cf.notes, "non-standard columns kept as extra columns: DOI, title_image") || !hasNote(cf.notes, "CSV-style double quotes") {
		t.Errorf("askews: %d rows, notes %q", len(cf.rows), cf.notes)
	}
	if cf := file("chocula/kbart_Portico.txt"); len(cf.rejected) != 0 {
		t.Errorf("Portico: rejected %v", cf.rejected)
	}
	if cf := file("span/kbart.txt.gz"); len(cf.rows) != 72056 {
		t.Errorf("span: %d rows", len(cf.rows))
	}

	// The UTF-16 file and its UTF-8 twin must read the same.
	u16 := file("gokb/ebooks/CambridgeBooks_EdinburghUniversityPress.tsv")
	u8 := file("gokb/ebooks/CambridgeBooks_EdinburghUniversityPress_utf8.tsv")
	if !hasNote(u16.notes, "file is UTF-16LE (with byte order mark): transcoded to UTF-8") {
		t.Errorf("UTF-16 notes %q", u16.notes)
	}
	if len(u16.rows) != len(u8.rows) || len(u16.rows) == 0 {
		t.Fatalf("UTF-16: %d rows, UTF-8: %d rows", len(u16.rows), len(u8.rows))
	}
	for i := range u16.rows {
		if u16.rows[i].Values != u8.rows[i].Values {
			t.Errorf("row %d differs:\nUTF-16 %q\nUTF-8  %q", i, u16.rows[i].Values, u8.rows[i].Values)
			break
		}
	}
}
