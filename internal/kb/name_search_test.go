package kb

import (
	"slices"
	"testing"
)

func TestNameTest(t *testing.T) {
	pkg := func(s string, m PackageMatch) NameSearch { return NameSearch{Kind: NamePackages, Search: s, Match: m} }
	kw := func(s string, m PackageMatch) NameSearch {
		return NameSearch{Kind: NamePackages, Search: s, Match: m, Keyword: true}
	}
	cases := []struct {
		name         string
		q            NameSearch
		pkg, vendor  string // the names, unfolded
		want, noneOK bool
	}{
		{"words: every word a prefix of a word", pkg("jou alp", PackageMatchWords), "Alpha Journals", "", true, false},
		{"words: a prefix inside a word is not one", pkg("pha", PackageMatchWords), "Alpha Journals", "", false, false},
		{"words: every word is needed", pkg("alpha books", PackageMatchWords), "Alpha Journals", "", false, false},
		{"words: folded case, diacritics, punctuation", pkg("ÉCOLE x-ray", PackageMatchWords), "L'école des X Rays", "", true, false},
		{"words: punctuation splits the name's words", pkg("ray", PackageMatchWords), "X-Ray Journals", "", true, false},
		{"words: the vendor's name only with a keyword", pkg("elsev", PackageMatchWords), "Journals", "Elsevier", false, false},
		{"keyword: each word on the package or the vendor", kw("elsev jour", PackageMatchWords), "Journals", "Elsevier", true, false},
		{"vendors: words whatever the match asked", NameSearch{Kind: NameVendors, Search: "els", Match: PackageMatchExact}, "Elsevier", "", true, false},
		{"any: one word is enough", pkg("books jour", PackageMatchAny), "Alpha Journals", "", true, false},
		{"any: none of them", pkg("books complete", PackageMatchAny), "Alpha Journals", "", false, false},
		{"contains: substrings of the name", pkg("lpha urn", PackageMatchContains), "Alpha Journals", "", true, false},
		{"contains: every one", pkg("lpha ook", PackageMatchContains), "Alpha Journals", "", false, false},
		{"exact: the whole folded name", pkg("alpha  JOURNALS!", PackageMatchExact), "Alpha Journals", "", true, false},
		{"exact: not a part", pkg("alpha", PackageMatchExact), "Alpha Journals", "", false, false},
		{"exact: the vendor's with a keyword", kw("elsevier", PackageMatchExact), "Journals", "Elsevier", true, false},
		{"begins with", pkg("alpha jo", PackageMatchBeginsWith), "Alpha Journals", "", true, false},
		{"begins with: not inside", pkg("journals", PackageMatchBeginsWith), "Alpha Journals", "", false, false},
		{"phrase: whole words in order", pkg("alpha journals", PackageMatchPhrase), "The Alpha Journals Archive", "", true, false},
		{"phrase: not a prefix", pkg("alpha journ", PackageMatchPhrase), "The Alpha Journals Archive", "", false, false},
		{"phrase: not out of order", pkg("journals alpha", PackageMatchPhrase), "The Alpha Journals Archive", "", false, false},
		{"phrase: a later occurrence of whole words", pkg("alpha journals", PackageMatchPhrase), "Xalpha Journals Alpha Journals", "", true, false},
		{"phrase: at the end only inside a word", pkg("alpha journal", PackageMatchPhrase), "The Alpha Journals", "", false, false},
		{"phrase: the whole name", pkg("alpha", PackageMatchPhrase), "Alpha", "", true, false},
		{"keyword: any word on the vendor", kw("wiley zzz", PackageMatchAny), "Journals", "Wiley", true, false},
		{"keyword: each substring on either", kw("ourn ilé", PackageMatchContains), "Journals", "Wiley", true, false},
		{"keyword: a substring on neither", kw("ourn xyz", PackageMatchContains), "Journals", "Wiley", false, false},
		{"keyword: the vendor's beginning", kw("wil", PackageMatchBeginsWith), "Journals", "Wiley", true, false},
		{"keyword: a phrase on the vendor", kw("john wiley", PackageMatchPhrase), "Journals", "John Wiley & Sons", true, false},
		{"vendors: no keyword", NameSearch{Kind: NameVendors, Search: "jour", Keyword: true}, "Wiley", "Journals", false, false},
		// The store applies no condition for a blank search; a search of
		// punctuation alone lists nothing.
		{"punctuation alone: none", pkg("?!", PackageMatchWords), "Alpha", "", false, true},
		{"blank: none", pkg("  ", PackageMatchContains), "Alpha", "", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nt, none := CompileNameSearch(c.q)
			if none != c.noneOK {
				t.Fatalf("none = %v, want %v", none, c.noneOK)
			}
			if none {
				return
			}
			if got := nt.Matches(Fold(c.pkg), Fold(c.vendor)); got != c.want {
				t.Errorf("Matches(%q, %q) = %v, want %v", c.pkg, c.vendor, got, c.want)
			}
		})
	}
}

func TestNameListMatch(t *testing.T) {
	var l NameList
	l.AddVendor(1, Fold("Wiley"))
	l.AddVendor(2, Fold("Elsevier"))
	l.AddPackage(10, 2, Fold("Science Direct"))
	l.AddPackage(11, 1, Fold("Online Library"))
	l.AddPackage(12, 2, Fold("Scopus"))
	for _, c := range []struct {
		q             NameSearch
		match, others []int64
	}{
		{NameSearch{Kind: NamePackages, Search: "sc"}, []int64{10, 12}, []int64{11}},
		{NameSearch{Kind: NamePackages, Search: "elsevier", Keyword: true}, []int64{10, 12}, []int64{11}},
		{NameSearch{Kind: NameVendors, Search: "wil"}, []int64{1}, []int64{2}},
		{NameSearch{Kind: NamePackages, Search: "?"}, nil, []int64{10, 11, 12}},
	} {
		match, others := l.Match(c.q)
		if !slices.Equal(match, c.match) || !slices.Equal(others, c.others) {
			t.Errorf("Match(%+v) = %v, %v; want %v, %v", c.q, match, others, c.match, c.others)
		}
	}
}
