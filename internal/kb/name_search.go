package kb

import "strings"

// The rules of vendor and package name searches, which the search engine
// applies to every name (kb.TitleIndex.MatchNames). Names are compared in
// their folded form (Fold), whose words are separated by single spaces.

// NameKind says whose names a name search looks through.
type NameKind int

// Name kinds.
const (
	NameVendors NameKind = iota
	NamePackages
)

// NameSearch is a search of vendor or package names.
type NameSearch struct {
	Kind   NameKind
	Search string
	// Match says how; a vendor search matches PackageMatchWords.
	Match PackageMatch
	// Keyword: each condition on a package's name may hold on its
	// vendor's name instead.
	Keyword bool
}

// NameTest is a name search made ready to test names.
type NameTest struct {
	match   PackageMatch
	keyword bool
	words   []string // the folded words, each after a space: " word"
	whole   string   // the folded words joined, between spaces: " a b "
	folded  string   // the folded search
}

// CompileNameSearch readies q to test names. none is true when q has no
// word (blank, or punctuation alone): it matches no name.
func CompileNameSearch(q NameSearch) (t NameTest, none bool) {
	t = NameTest{match: q.Match, keyword: q.Keyword && q.Kind == NamePackages, folded: Fold(q.Search)}
	if q.Kind == NameVendors {
		t.match = PackageMatchWords
	}
	var words []string
	for _, w := range Words(q.Search) {
		if f := Fold(w); f != "" {
			words = append(words, f)
			t.words = append(t.words, " "+f)
		}
	}
	t.whole = " " + strings.Join(words, " ") + " "
	return t, len(words) == 0
}

// Matches reports whether a name matches, given the folded name and, for a
// package, its vendor's folded name.
func (t *NameTest) Matches(name, vendor string) bool {
	switch t.match {
	case PackageMatchExact:
		return name == t.folded || (t.keyword && vendor == t.folded)
	case PackageMatchBeginsWith:
		return strings.HasPrefix(name, t.folded) || (t.keyword && strings.HasPrefix(vendor, t.folded))
	case PackageMatchPhrase:
		return strings.Contains(" "+name+" ", t.whole) || (t.keyword && strings.Contains(" "+vendor+" ", t.whole))
	case PackageMatchAny:
		for _, w := range t.words {
			if wordPrefix(name, w) || (t.keyword && wordPrefix(vendor, w)) {
				return true
			}
		}
		return false
	case PackageMatchContains:
		for _, w := range t.words {
			if !strings.Contains(name, w[1:]) && !(t.keyword && strings.Contains(vendor, w[1:])) {
				return false
			}
		}
		return true
	}
	for _, w := range t.words {
		if !wordPrefix(name, w) && !(t.keyword && wordPrefix(vendor, w)) {
			return false
		}
	}
	return true
}

// wordPrefix reports whether a word of the folded name n begins with the
// folded word sw, given after a space (" word").
func wordPrefix(n, sw string) bool {
	return strings.HasPrefix(n, sw[1:]) || strings.Contains(n, sw)
}
