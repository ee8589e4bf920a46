package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// testVersions: CollectionVersion, which keys the holdings service's cache
// of answers, moves with every kind of write that can change an answer in
// the customer's context (each of the customer's own writes, proxies
// included, and every import), and a customer's writes leave another
// customer's version alone.
func testVersions(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	jot := titleID(t, s, TestingPrintISSN) // in Alpha Journals and Beta Complete
	var custom int64
	version := func(cust string) string {
		t.Helper()
		return must[string](t)(s.CollectionVersion(ctx, cust))
	}
	steps := []struct {
		name       string
		write      func() error
		sharedData bool // a knowledge-base write: every customer's version moves
	}{
		{"proxy added", func() error {
			return s.AddProxy(ctx, "c1", kb.Proxy{ID: "EZ", Name: "EZ", URLMask: "https://ez.example/?u={targetURL}"})
		}, false},
		{"proxy mask replaced", func() error {
			return s.AddProxy(ctx, "c1", kb.Proxy{ID: "EZ", Name: "EZ", URLMask: "https://other.example/?u={targetURL}"})
		}, false},
		{"root proxy", func() error { return s.UpdateRoot(ctx, "c1", kb.RootSettings{ProxyID: "EZ"}) }, false},
		{"labels", func() error {
			return s.UpdateRoot(ctx, "c1", kb.RootSettings{ProxyID: "EZ", Labels: [5]kb.Label{{DisplayLabel: "Shelf"}}})
		}, false},
		{"vendor proxy", func() error {
			return s.UpdateVendor(ctx, "c1", f.AlphaVendor, kb.VendorUpdate{Proxy: kb.ProxyRef{ID: "EZ"}})
		}, false},
		{"package state", func() error {
			return s.SetPackageState(ctx, "c1", f.AlphaJournals, kb.PackageState{Selected: true})
		}, false},
		{"package update", func() error {
			return s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true, Hidden: true})
		}, false},
		{"resource state", func() error {
			return s.SetResourceState(ctx, "c1", f.BetaFull, jot, kb.ResourceState{Hidden: true})
		}, false},
		{"resource update", func() error {
			return s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{Selected: true, CoverageStatement: "Some"})
		}, false},
		{"custom package", func() error {
			var err error
			custom, err = s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: "Local", ContentType: kb.ContentEBook})
			return err
		}, false},
		{"custom title", func() error {
			_, err := s.CreateCustomTitle(ctx, "c1", f.C1Vendor, custom, kb.CustomTitle{TitleFields: kb.TitleFields{Name: "Mine", PubType: kb.ResourceBook}})
			return err
		}, false},
		{"custom package deleted", func() error { return s.DeleteCustomPackage(ctx, "c1", f.C1Vendor, custom) }, false},
		{"proxy removed", func() error { return s.RemoveProxy(ctx, "c1", "EZ") }, false},
		{"import", func() error {
			Import(t, s, "Alpha Press", "Alpha Books", kb.ContentEBook, []Row{
				{Title: "Learning Go", Online: GoISBN13, URL: "https://alpha.example/go2", Publisher: "Gopher Books", Type: "monograph"},
			})
			return nil
		}, true},
	}
	for _, step := range steps {
		before1, before2 := version("c1"), version("c2")
		if err := step.write(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if v := version("c1"); v == before1 {
			t.Errorf("%s: c1's version stayed %s", step.name, v)
		}
		if v := version("c2"); (v != before2) != step.sharedData {
			t.Errorf("%s: c2's version %s, then %s (a knowledge-base write: %v)", step.name, before2, v, step.sharedData)
		}
	}
	// Purging retired state changes no answer: no version need move, and
	// the purge must not fail.
	if _, err := s.PurgeRetired(ctx, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
}
