package store_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/realdata"
	"github.com/kbserver/kbserver/internal/resolver"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// resolverRealFiles are the real KBART files the resolver test imports:
// serials with coverage dates, volumes and moving walls, and monographs
// by ISBN (one of them with every value quoted).
var resolverRealFiles = []string{
	"ezpaarse-platforms/cairn/CAIRN_GLOBAL_ALLJOURNALS_2026-03-23.txt",
	"ezpaarse-platforms/oej/oej_AllTitles_2016-05-04.txt",
	"ezpaarse-platforms/jstor/JSTOR_GLOBAL_ALLJOURNALS_2024-03-12.txt",
	"ezpaarse-platforms/wiley/WILEY_COUPERIN_ST-AND-SSH_2018-03-06.txt",
	"ezpaarse-platforms/oup/OUP_GLOBAL_ALLTITLES_2018-01-22.txt",
	"ezpaarse-platforms/cyberlibris/CYBERLIBRIS_COUPERIN_INFORMATIQUE_2019-03-05.txt",
	"gokb/ebooks/askews/KB_20160120210644.csv",
}

// resolverRealToday is the resolver's date in the test: after every
// file's date.
var resolverRealToday = time.Date(2026, 4, 15, 0, 0, 0, 0, time.UTC)

// realRow is a row of a real file as the reader gave it, with the
// identifiers as the file writes them.
type realRow struct {
	v             [kbart.NumFields]string
	print, online string // as written
}

// readRealRows reads a KBART file's rows, each with its identifiers as
// the file writes them (the reader normalises the values).
func readRealRows(t *testing.T, path string) []realRow {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\r", "\n"), "\n")
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], "\t") {
		col[strings.Trim(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")), `"`)] = i
	}
	written := func(line int, name, norm string) string {
		i, ok := col[name]
		if !ok || line < 1 || line > len(lines) {
			return norm
		}
		f := strings.Split(lines[line-1], "\t")
		if i >= len(f) {
			return norm
		}
		s := strings.Trim(strings.TrimSpace(f[i]), `"`)
		sig := func(s string) string {
			return strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(s))
		}
		if sig(s) != sig(norm) {
			return norm // not the same value: the reader moved or repaired it
		}
		return s
	}
	kr, err := kbart.NewReader(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var rows []realRow
	for {
		row, err := kr.Next()
		var re *kbart.RowError
		if errors.As(err, &re) {
			continue
		}
		if err != nil {
			break
		}
		rows = append(rows, realRow{v: row.Values,
			print:  written(row.Line, "print_identifier", row.Values[kbart.PrintIdentifier]),
			online: written(row.Line, "online_identifier", row.Values[kbart.OnlineIdentifier])})
	}
	return rows
}

// realDay reads a KBART date (yyyy, yyyy-mm or yyyy-mm-dd) as its first
// day, or with last its last day; ok is false for anything else.
func realDay(s string, last bool) (time.Time, bool) {
	var y, m, d int
	var err error
	switch len(s) {
	case 4:
		y, err = strconv.Atoi(s)
		m, d = 1, 1
		if last {
			m, d = 12, 31
		}
	case 7:
		if y, err = strconv.Atoi(s[:4]); err == nil {
			m, err = strconv.Atoi(s[5:])
		}
		d = 1
		if last {
			d = time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
		}
	case 10:
		t, err := time.Parse(time.DateOnly, s)
		return t, err == nil
	default:
		return time.Time{}, false
	}
	if err != nil || m < 1 || m > 12 {
		return time.Time{}, false
	}
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC), true
}

var movingWall = regexp.MustCompile(`^[Pp]([0-9]+)([DdWwMmYy])$`)

// realCutoff is the last day a KBART moving wall ("P1Y") leaves
// available; ok is false for no moving wall (or one not of that form).
func realCutoff(embargo string, today time.Time) (time.Time, bool) {
	m := movingWall.FindStringSubmatch(strings.TrimSpace(embargo))
	if m == nil {
		return time.Time{}, false
	}
	n, _ := strconv.Atoi(m[1])
	if n == 0 {
		return time.Time{}, false
	}
	switch strings.ToUpper(m[2]) {
	case "D":
		return today.AddDate(0, 0, -n), true
	case "W":
		return today.AddDate(0, 0, -7*n), true
	}
	months := n
	if strings.ToUpper(m[2]) == "Y" {
		months *= 12
	}
	first := time.Date(today.Year(), today.Month()-time.Month(months), 1, 0, 0, 0, 0, time.UTC)
	return time.Date(first.Year(), first.Month(), min(today.Day(), first.AddDate(0, 1, -1).Day()), 0, 0, 0, 0, time.UTC), true
}

// realCheck is a citation built from a row and what the resolver must
// answer for the row's package.
type realCheck struct {
	file, what string
	values     url.Values
	title      string // the row's title, to tell results in one package apart
	want       kb.Reason
}

// realChecks builds the citations of a file's rows: the row's ISSN or
// ISBN as written (its title when it has neither), with a date inside
// its coverage, one before it, and one in its moving wall when it has
// one; a book without coverage dates, without a date. Rows of one title
// in the file count together (they are one resource); titles whose rows
// disagree on the address or the moving wall are left out, as are rows
// whose dates are not dates.
func realChecks(file string, rows []realRow, today time.Time) (checks []realCheck, skipped int) {
	type group struct {
		rows        []realRow
		urls, walls map[string]bool
	}
	key := func(r realRow) string {
		return r.v[kbart.PrintIdentifier] + "|" + r.v[kbart.OnlineIdentifier] + "|" + kb.Fold(r.v[kbart.PublicationTitle])
	}
	groups := map[string]*group{}
	var order []string
	for _, r := range rows {
		k := key(r)
		g := groups[k]
		if g == nil {
			g = &group{urls: map[string]bool{}, walls: map[string]bool{}}
			groups[k] = g
			order = append(order, k)
		}
		g.rows = append(g.rows, r)
		g.urls[strings.TrimSpace(r.v[kbart.TitleURL])] = true
		g.walls[strings.ToUpper(strings.TrimSpace(r.v[kbart.EmbargoInfo]))] = true
	}
	for _, k := range order {
		g := groups[k]
		r := g.rows[0]
		if len(g.urls) != 1 || len(g.walls) != 1 {
			skipped++
			continue
		}
		v := url.Values{}
		switch id := firstNonEmpty(r.print, r.online); {
		case kb.ISSNShaped(id):
			v.Set("issn", id)
		case kb.ISBNShaped(id):
			v.Set("isbn", id)
		default:
			v.Set("title", r.v[kbart.PublicationTitle])
		}
		noURL := strings.TrimSpace(r.v[kbart.TitleURL]) == ""
		covered := func() kb.Reason {
			if noURL {
				return kb.ReasonNoURL
			}
			return kb.ReasonCovered
		}
		// The ranges of the title's rows.
		type span struct{ b, e time.Time }
		var spans []span
		bad := false
		for _, x := range g.rows {
			if x.v[kbart.DateFirstIssueOnline] == "" {
				continue
			}
			b, ok1 := realDay(x.v[kbart.DateFirstIssueOnline], false)
			e, ok2 := today, true
			if x.v[kbart.DateLastIssueOnline] != "" {
				e, ok2 = realDay(x.v[kbart.DateLastIssueOnline], true)
			}
			if !ok1 || !ok2 || e.Before(b) {
				bad = true
			}
			spans = append(spans, span{b, e})
		}
		if bad {
			skipped++
			continue
		}
		cutoff, wall := realCutoff(r.v[kbart.EmbargoInfo], today)
		add := func(what string, d time.Time, want kb.Reason) {
			c := realCheck{file: file, what: what, values: url.Values{}, title: r.v[kbart.PublicationTitle], want: want}
			for k, vs := range v {
				c.values[k] = vs
			}
			if !d.IsZero() {
				c.values.Set("date", d.Format(time.DateOnly))
			}
			checks = append(checks, c)
		}
		if len(spans) == 0 {
			add("no coverage dates, no date", time.Time{}, covered())
			continue
		}
		inside := func(d time.Time) bool {
			for _, s := range spans {
				if !d.Before(s.b) && !d.After(s.e) {
					return true
				}
			}
			return false
		}
		// Inside the first row's range, before its moving wall.
		s := spans[0]
		d := s.b.Add(s.e.Sub(s.b) / 2).Truncate(24 * time.Hour)
		if wall && d.After(cutoff) {
			d = cutoff
		}
		if !d.Before(s.b) {
			add("inside the coverage", d, covered())
		}
		// The day before the first row's range: before every range, or
		// inside or between others.
		before := s.b.AddDate(0, 0, -1)
		switch {
		case inside(before):
			add("the day before a range, inside another", before, covered())
		default:
			want := kb.ReasonBefore
			for _, x := range spans {
				if x.e.Before(before) {
					want = kb.ReasonGap
				}
			}
			add("the day before the coverage", before, want)
		}
		// In the moving wall, inside the coverage.
		if wall {
			d := cutoff.AddDate(0, 0, 1)
			if inside(d) {
				add("the day after the moving wall's cutoff", d, kb.ReasonEmbargo)
			}
			if inside(today) {
				add("today, in the moving wall", today, kb.ReasonEmbargo)
			}
		}
	}
	return checks, skipped
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// TestResolverRealKBART imports real KBART files (serials and monographs)
// as packages a customer selects, and resolves citations built from their
// rows (the identifiers as the files write them, dates inside the rows'
// coverage, before it and in their moving walls): each must find the
// row's title in its package, covered or not for the right reason.
func TestResolverRealKBART(t *testing.T) {
	dir := realdata.Dir(t)
	ctx := context.Background()
	s := storetest.Searched(t.Context(), testdb.Open(t))
	if _, err := s.AddCustomer(ctx, "lib", "A Library"); err != nil {
		t.Fatal(err)
	}
	rs, ok := storetest.Raw(s).(kb.ResolverStore)
	if !ok {
		t.Fatalf("%T does not read resources' KBART rows", storetest.Raw(s))
	}
	res := resolver.New(storetest.SearchOf(ctx, s), rs, nil).WithClock(func() time.Time { return resolverRealToday })
	var checks []realCheck
	pkgs := map[string]int64{}
	for _, f := range resolverRealFiles {
		rows := readRealRows(t, filepath.Join(dir, f))
		imp, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: filepath.Dir(f), PackageName: filepath.Base(f)},
			storetest.RowsOf(len(rows), func(i int) kb.ImportRow { return kb.ImportRow{Line: i + 2, KBART: rows[i].v} }))
		if err != nil {
			t.Fatalf("import %s: %v", f, err)
		}
		if err := s.UpdatePackage(ctx, "lib", imp.VendorID, imp.PackageID, kb.PackageUpdate{Selected: true}); err != nil {
			t.Fatal(err)
		}
		pkgs[f] = imp.PackageID
		cs, skipped := realChecks(f, rows, resolverRealToday)
		t.Logf("%s: %d rows, %d citations, %d titles left out", f, len(rows), len(cs), skipped)
		checks = append(checks, cs...)
	}
	counts := map[string]int{}
	failed := 0
	for _, c := range checks {
		cit, err := kb.ParseCitation(c.values, resolverRealToday)
		if err != nil {
			t.Fatalf("%s: %s: %v", c.file, c.values.Encode(), err)
		}
		ans, err := res.Resolve(ctx, "lib", cit)
		if err != nil {
			t.Fatalf("%s: %s: %v", c.file, c.values.Encode(), err)
		}
		// The result of the row's package; of its title, when the
		// citation found several titles there (the same ISSN on two).
		var got, named []kb.Resolved
		for _, r := range ans.Results {
			if r.Resource.PackageID == pkgs[c.file] {
				got = append(got, r)
				if kb.Fold(r.Title.Name) == kb.Fold(c.title) {
					named = append(named, r)
				}
			}
		}
		if len(got) > 1 {
			got = named
		}
		var msg string
		switch {
		case len(got) != 1:
			msg = fmt.Sprintf("%d results of the row's title in its package, want 1 (results: %d, matched by %q)", len(got), len(ans.Results), ans.MatchedBy)
		case got[0].Reason != c.want:
			msg = fmt.Sprintf("reason %q, want %q (coverage %v, custom %v, embargo %v, URL %q)", got[0].Reason, c.want,
				got[0].Resource.ManagedCoverage, got[0].Resource.CustomCoverage, kb.EffectiveEmbargo(got[0].Resource), got[0].Resource.URL)
		case c.want == kb.ReasonCovered && !ans.FullText():
			msg = "covered, but the resolution says no full text"
		}
		if msg != "" {
			failed++
			if failed <= 20 {
				t.Errorf("%s, %s (%s): %s", c.file, c.what, c.values.Encode(), msg)
			}
			continue
		}
		counts[string(c.want)]++
	}
	t.Logf("%d citations from real rows: %d failed; reasons %v", len(checks), failed, counts)
	if failed > 0 {
		t.Errorf("%d of %d citations from real rows failed", failed, len(checks))
	}
	for _, r := range []kb.Reason{kb.ReasonCovered, kb.ReasonBefore, kb.ReasonEmbargo} {
		if counts[string(r)] < 10 {
			t.Errorf("only %d citations answered %q", counts[string(r)], r)
		}
	}
}
