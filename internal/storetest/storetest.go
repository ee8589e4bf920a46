// Package storetest is the conformance suite every kb.Store must pass. A
// store's own tests call Run with a function that opens a new, empty store.
package storetest

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/kbserver/kbserver/internal/finder"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/search"
)

// Opener returns a new, empty store for one test; it registers its own
// cleanup with t. The suite puts the search service over it (Searched).
type Opener func(t *testing.T) kb.Store

// part is one part of the suite.
type part struct {
	name string
	run  func(t *testing.T, open Opener)
}

// on adapts a test of one new store, with the search service over it, to
// a part.
func on(test func(t *testing.T, s Store)) func(t *testing.T, open Opener) {
	return func(t *testing.T, open Opener) { test(t, Searched(t.Context(), open(t))) }
}

// parts is the suite, in order.
var parts = []part{
	{"Customers", on(testCustomers)},
	{"APIKeys", on(testAPIKeys)},
	{"KeyEnvironments", on(testKeyEnvironments)},
	{"Ready", on(testReady)},
	{"Stats", on(testStats)},
	{"Profiles", on(testProfiles)},
	{"Sessions", on(testSessions)},
	{"ListCustomersAndKeys", on(testListCustomersAndKeys)},
	{"Notes", on(testNotes)},
	{"Import", on(testImport)},
	{"Reimport", on(testReimport)},
	{"ImportRollback", on(testImportRollback)},
	{"ImportCheck", on(testImportCheck)},
	{"KBUpdates", on(testKBUpdates)},
	{"ImportIdentity", on(testImportIdentity)},
	{"Vendors", on(testVendors)},
	{"Packages", on(testPackages)},
	{"PackageLists", on(testPackageLists)},
	{"NameSearchWrites", on(testNameSearchWrites)},
	{"TitleSearch", on(testTitleSearch)},
	{"Selection", on(testSelection)},
	{"Isolation", on(testIsolation)},
	{"Writes", testWrites},
	{"Snapshot", on(testSnapshot)},
	{"Reports", on(testReports)},
	{"ReportDeltas", on(testReportDeltas)},
	{"LinkOut", on(testLinkOut)},
	{"ResolverStats", on(testResolverStats)},
	{"Publications", on(testPublications)},
	{"Scholar", on(testScholar)},
	{"Versions", on(testVersions)},
	{"ERM", on(testERM)},
	{"Limits", on(testLimits)},
	{"Resolver", on(testResolver)},
	{"Feeds", on(testFeeds)},
	{"HoldingsFeed", on(testHoldingsFeed)},
	{"LinkUse", on(testLinkUse)},
	{"Coverage", on(testCoverage)},
}

// Run runs the whole suite against stores made by open.
func Run(t *testing.T, open Opener) {
	for _, p := range parts {
		t.Run(p.name, func(t *testing.T) { p.run(t, open) })
	}
}

// Row describes one KBART row of a test package.
type Row struct {
	Title, Print, Online, First, Last, URL, Publisher, Type, Embargo string
	ID                                                               string // the provider's title_id
	Subjects                                                         []string
	Rejected                                                         bool // a row the reader rejected
}

// KBART returns the row as an import row.
func (r Row) KBART(line int) kb.ImportRow {
	var v [kb.KBARTFieldCount]string
	v[0], v[1], v[2], v[3], v[6], v[9], v[11], v[12], v[15], v[16] = r.Title, r.Print, r.Online, r.First, r.Last, r.URL, r.ID, r.Embargo, r.Publisher, r.Type
	ir := kb.ImportRow{Line: line, KBART: v, Rejected: r.Rejected}
	for _, s := range r.Subjects {
		ir.Subjects = append(ir.Subjects, kb.Subject{Type: "TLI", Name: s})
	}
	return ir
}

// Rows returns a row source over rows, numbered from line 2 (after a
// KBART header).
func Rows(rows []Row) func() (kb.ImportRow, error) {
	return RowsOf(len(rows), func(i int) kb.ImportRow { return rows[i].KBART(i + 2) })
}

// RowsOf returns the row source that ImportPackage reads of n rows, row(i)
// giving the i-th, from 0.
func RowsOf(n int, row func(i int) kb.ImportRow) func() (kb.ImportRow, error) {
	i := 0
	return func() (kb.ImportRow, error) {
		if i == n {
			return kb.ImportRow{}, io.EOF
		}
		i++
		return row(i - 1), nil
	}
}

// KBARTRows returns the row source of a KBART file's rows; the rows the
// reader rejects are skipped.
func KBARTRows(r *kbart.Reader) func() (kb.ImportRow, error) {
	return func() (kb.ImportRow, error) {
		for {
			row, err := r.Next()
			var re *kbart.RowError
			if errors.As(err, &re) {
				continue
			}
			if err != nil {
				return kb.ImportRow{}, err
			}
			return kb.ImportRow{Line: row.Line, KBART: row.Values}, nil
		}
	}
}

// Import imports rows as a package and fails the test on error.
func Import(t testing.TB, s kb.Store, vendor, pkg string, ct kb.ContentType, rows []Row) kb.ImportResult {
	t.Helper()
	res, err := s.ImportPackage(context.Background(), kb.PackageSpec{VendorName: vendor, PackageName: pkg, ContentType: ct}, Rows(rows))
	if err != nil {
		t.Fatalf("ImportPackage(%s, %s): %v", vendor, pkg, err)
	}
	return res
}

// wantCode fails the test unless err carries code.
func wantCode(t *testing.T, err error, code kb.Code) {
	t.Helper()
	if kb.ErrorCode(err) != code {
		t.Fatalf("error = %v (code %d), want code %d", err, kb.ErrorCode(err), code)
	}
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

var errStop = errors.New("source failed")

// Store is a store under test with the search service over it, as a
// server wires them: its vendor, package and title lists and its
// publication matches go through the service (package search), which
// asks the store for the rows it found; every other method is the
// store's own. The suite's cases take one (on).
type Store struct {
	kb.Store
	Search *finder.Service
}

// Searched returns st with a new search service over it whose index is
// built inside the searches that find it stale (search.Options.Inline);
// its background work ends with ctx.
func Searched(ctx context.Context, st kb.Store) Store {
	if s, ok := st.(Store); ok {
		return s
	}
	return Store{Store: st, Search: finder.New(ctx, st, search.Options{Inline: true})}
}

// Vendors lists vendors through the search service.
func (s Store) Vendors(ctx context.Context, custID string, q kb.VendorQuery) (kb.VendorList, error) {
	return s.Search.Vendors(ctx, custID, q)
}

// Packages lists packages through the search service.
func (s Store) Packages(ctx context.Context, custID string, q kb.PackageQuery) (kb.PackageList, error) {
	return s.Search.Packages(ctx, custID, q)
}

// CollectionPackages lists the collection's packages through the search
// service.
func (s Store) CollectionPackages(ctx context.Context, custID string, q kb.CollectionPackageQuery) (kb.PackageList, error) {
	return s.Search.CollectionPackages(ctx, custID, q)
}

// Titles lists titles through the search service.
func (s Store) Titles(ctx context.Context, custID string, q kb.TitleQuery) (kb.TitleList, error) {
	return s.Search.Titles(ctx, custID, q)
}

// TitleMatches calls fn with the titles q's search matches, through the
// search service.
func (s Store) TitleMatches(ctx context.Context, custID string, q kb.PubQuery, fn func(id int64, rank float64)) error {
	return s.Search.TitleMatches(ctx, custID, q, fn)
}

// SearchOf returns the search service over st: st's own when st is a
// Store (Searched), else a new one as Searched makes.
func SearchOf(ctx context.Context, st kb.Store) *finder.Service {
	return Searched(ctx, st).Search
}

// Raw returns the store under st when st is a Store (Searched), else st:
// what the store implements beyond kb.Store (kb.RateStore, its statistics)
// shows only on the store itself, as a server is given it.
func Raw(st kb.Store) kb.Store {
	if s, ok := st.(Store); ok {
		return s.Store
	}
	return st
}
