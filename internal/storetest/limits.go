package storetest

import (
	"context"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// testLimits: a store refuses, whoever calls it, the values that would
// break one of its indexes (PostgreSQL's B-tree rows hold at most 2,704
// bytes), and keeps the longest values the limits allow.
func testLimits(t *testing.T, s Store) {
	ctx := context.Background()
	f := LoadFixture(t, s)
	name := func(n int) string { return strings.Repeat("abcdefghij", n/10+1)[:n] }
	hangul := func(n int) string { return strings.Repeat("한", n) } // 3 bytes, 9 once folded
	for _, tc := range []struct {
		what string
		err  error
	}{
		{"a custom package name of 2,800 letters", func() error {
			_, err := s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: name(2800)})
			return err
		}()},
		{"a custom package name of 700 Hangul syllables", func() error {
			_, err := s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: hangul(700)})
			return err
		}()},
		{"a customer id of 101 letters", func() error { _, err := s.AddCustomer(ctx, name(101), ""); return err }()},
		{"a proxy id of 101 letters", s.AddProxy(ctx, "c1", kb.Proxy{ID: name(101), Name: "P", URLMask: "{targetUrl}"})},
		{"a vendor name of 1,001 letters", func() error {
			_, err := s.ImportPackage(ctx, kb.PackageSpec{VendorName: name(1001), PackageName: "P"}, RowsOf(0, nil))
			return err
		}()},
	} {
		if kb.ErrorCode(tc.err) != kb.CodeInvalid {
			t.Errorf("%s: %v, want CodeInvalid", tc.what, tc.err)
		}
	}
	// Searches: too many words, or parentheses nested too deep, are
	// refused before they reach a query parser (PostgreSQL's recursed
	// out of its stack at 20,000 words).
	words := strings.Repeat("w ", kb.MaxSearchWords+1)
	nest := func(n int) string { return strings.Repeat("(", n) + "zebra" + strings.Repeat(")", n) }
	titleSearch := func(search string, typ kb.SearchType) error {
		_, err := s.Titles(ctx, "c1", kb.TitleQuery{Search: search, Field: kb.FieldTitleName, Type: typ, Page: page(5)})
		return err
	}
	for _, tc := range []struct {
		what string
		err  error
	}{
		{"a title search of 101 words", titleSearch(words, kb.SearchContains)},
		{"an advanced title search of 101 words", titleSearch(words, kb.SearchAdvanced)},
		{"an advanced title search nested 11 deep", titleSearch(nest(kb.MaxSearchDepth+1), kb.SearchAdvanced)},
		{"a vendor search of 101 words", func() error {
			_, err := s.Vendors(ctx, "c1", kb.VendorQuery{Search: words, Page: page(5)})
			return err
		}()},
		{"a package search of 101 words", func() error {
			_, err := s.Packages(ctx, "c1", kb.PackageQuery{Search: words, Page: page(5)})
			return err
		}()},
		{"a publication search of 101 words", s.TitleMatches(ctx, "c1", kb.PubQuery{Search: words}, func(int64, float64) {})},
	} {
		if kb.ErrorCode(tc.err) != kb.CodeInvalid {
			t.Errorf("%s: %v, want CodeInvalid", tc.what, tc.err)
		}
	}
	if err := titleSearch(nest(kb.MaxSearchDepth), kb.SearchAdvanced); err != nil {
		t.Errorf("an advanced title search nested 10 deep: %v", err)
	}
	if err := titleSearch(strings.Repeat("w ", kb.MaxSearchWords), kb.SearchAny); err != nil {
		t.Errorf("a title search of 100 words: %v", err)
	}

	// The longest names the limits allow are kept, read back and found.
	long := name(1000)
	id, err := s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: long})
	if err != nil {
		t.Fatalf("a custom package name of 1,000 letters: %v", err)
	}
	if p, err := s.Package(ctx, "c1", f.C1Vendor, id); err != nil || p.Name != long {
		t.Errorf("the package of 1,000 letters reads back as %.40q…, %v", p.Name, err)
	}
	if _, err := s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: hangul(222)}); err != nil {
		t.Errorf("a custom package name of 222 Hangul syllables (1,998 bytes folded): %v", err)
	}
	title, publisher := name(1000), hangul(222)
	res := Import(t, s, "Long Names", "Long Titles", kb.ContentEBook, []Row{{Title: title, Publisher: publisher, Type: "monograph"}})
	l, err := s.Titles(ctx, "c1", kb.TitleQuery{PackageID: res.PackageID, VendorID: res.VendorID, Page: page(5)})
	if err != nil || l.Total != 1 || l.Titles[0].Name != title || l.Titles[0].Publisher != publisher {
		t.Errorf("an imported title of 1,000 letters from a publisher of 222 syllables: %+v, %v", l, err)
	}
	if err := s.CreateERMObject(ctx, kb.ERMObject{ID: "l1", CustomerID: "c1", Kind: kb.KindLicense, Status: kb.StatusActive,
		Description: "L", Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	for _, a := range []kb.Assignment{{RelativeURL: "/" + name(2000)}, {LinkURL: "https://x/" + name(1991)}} {
		a.ID, a.CustomerID, a.ObjectID, a.Body = "a"+itoa(int64(len(a.RelativeURL))), "c1", "l1", []byte(`{}`)
		if _, err := s.CreateAssignment(ctx, a); kb.ErrorCode(err) != kb.CodeInvalid {
			t.Errorf("an assignment URL of 2,001 bytes: %v, want CodeInvalid", err)
		}
	}
	if _, err := s.CreateAssignment(ctx, kb.Assignment{ID: "ok", CustomerID: "c1", ObjectID: "l1", RelativeURL: "/" + name(1999),
		LinkURL: "https://x/" + name(1990), Body: []byte(`{}`)}); err != nil {
		t.Errorf("an assignment with URLs of 2,000 bytes: %v", err)
	}
}
