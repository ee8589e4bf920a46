package storetest

import (
	"context"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// SearchSeeds are the seed corpus of FuzzSearch: the searches that once
// broke a store (PostgreSQL's query parser ran out of stack on 20,000
// words; an ISSN form cut a character in two) and the syntax of the advanced search at its edges.
var SearchSeeds = []string{
	"zebra",
	"journal of testing",
	"2049-3630",
	"0-306-40615-2",
	`(zebra OR annals) AND studies`,
	`go NOT practice`,
	`"weekly news"* OR zeb*`,
	`"unclosed`,
	`(((`,
	`()`,
	`NOT zebra`,
	`a AND OR b`,
	`"" * ( ) " "`,
	`**"`,
	`'; DROP TABLE titles; --`,
	`\ % _ ' " : ^ ~ & | ! < > @ # NEAR(a b) {name}: col:x`,
	"한국어 ﬁ Straße ΣΊΣΥΦΟΣ İstanbul",
	strings.Repeat("(", kb.MaxSearchDepth+1) + "a" + strings.Repeat(")", kb.MaxSearchDepth+1),
	strings.Repeat("w ", kb.MaxSearchWords+1),
	strings.Repeat("word ", 20000),
	strings.Repeat("x", kb.LimitSearch.Chars+1),
	"bad \xff utf-8",
	"nul \x00 here",
	"000з", // an ISSN's hyphen once split the two bytes of з
}

// FuzzSearch runs every search of s (titles in each field with each search
// type, ordered by relevance and by name; vendors; packages; the
// collection's packages; publication matches) with the fuzzer's string,
// over the fixture. Whatever the string, each search answers or refuses
// it with CodeInvalid: no string makes a query of either engine fail.
func FuzzSearch(f *testing.F, st kb.Store) {
	s := Searched(f.Context(), st)
	LoadFixture(f, s)
	for _, seed := range SearchSeeds {
		f.Add(seed)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, search string) {
		check := func(what string, err error) {
			t.Helper()
			if err != nil && kb.ErrorCode(err) != kb.CodeInvalid {
				t.Fatalf("%s of %q: %v (code %d), want success or CodeInvalid", what, search, err, kb.ErrorCode(err))
			}
		}
		for field := range kb.FieldSubject + 1 {
			for typ := range kb.SearchAdvanced + 1 {
				what := field.String() + " " + typ.String()
				for _, byName := range []bool{false, true} {
					order := kb.OrderRelevance
					if byName {
						order = kb.OrderName
					}
					_, err := s.Titles(ctx, "c1", kb.TitleQuery{Search: search, Field: field, Type: typ, OrderBy: order, Page: page(5)})
					check("title search "+what, err)
					err = s.TitleMatches(ctx, "c1", kb.PubQuery{Search: search, Field: field, Type: typ, ByName: byName}, func(int64, float64) {})
					check("publication search "+what, err)
				}
			}
		}
		_, err := s.Vendors(ctx, "c1", kb.VendorQuery{Search: search, Page: page(5)})
		check("vendor search", err)
		_, err = s.Packages(ctx, "c1", kb.PackageQuery{Search: search, Page: page(5)})
		check("package search", err)
		_, err = s.CollectionPackages(ctx, "c1", kb.CollectionPackageQuery{Search: search, Page: page(5)})
		check("collection package search", err)
	})
}
