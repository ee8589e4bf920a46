package kb

import (
	"context"
	"strings"
)

// The rules of vendor and package name searches, which the search service
// (package finder) applies to every name. Names are compared in their
// folded form (Fold), whose words are separated by single spaces.

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
		return hasPhrase(name, t.whole) || (t.keyword && hasPhrase(vendor, t.whole))
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

// hasPhrase reports whether the folded name n holds the whole words of
// the phrase sp, given between spaces (" a b "): " "+n+" " contains sp,
// without building that string for every name.
func hasPhrase(n, sp string) bool {
	p := sp[1 : len(sp)-1]
	for i := 0; i+len(p) <= len(n); {
		k := strings.Index(n[i:], p)
		if k < 0 {
			return false
		}
		at, end := i+k, i+k+len(p)
		if (at == 0 || n[at-1] == ' ') && (end == len(n) || n[end] == ' ') {
			return true
		}
		i = at + 1
	}
	return false
}

// NameList is every vendor's and package's folded name, in id order, with
// each package's vendor's: what a name search tests.
type NameList struct {
	VendorIDs      []int64
	VendorNames    []string
	PackageIDs     []int64
	PackageNames   []string
	PackageVendors []string // the folded name of each package's vendor
	vendorOf       map[int64]string
}

// AddVendor adds a vendor; vendors come before packages.
func (l *NameList) AddVendor(id int64, folded string) {
	if l.vendorOf == nil {
		l.vendorOf = map[int64]string{}
	}
	l.VendorIDs, l.VendorNames = append(l.VendorIDs, id), append(l.VendorNames, folded)
	l.vendorOf[id] = folded
}

// AddPackage adds a package of a vendor added before.
func (l *NameList) AddPackage(id, vendorID int64, folded string) {
	l.PackageIDs, l.PackageNames = append(l.PackageIDs, id), append(l.PackageNames, folded)
	l.PackageVendors = append(l.PackageVendors, l.vendorOf[vendorID])
}

// NameMatches are the ids of the vendors or packages whose names a name
// search matches and of the others, each in ascending order (NameList.Match
// over every name, every customer's included).
type NameMatches struct {
	Match, Others []int64
}

// Match returns, in id order, the ids of the vendors or packages (q.Kind)
// whose names q matches and the ids of the others.
func (l *NameList) Match(q NameSearch) (match, others []int64) {
	t, none := CompileNameSearch(q)
	ids, names, owners := l.PackageIDs, l.PackageNames, l.PackageVendors
	if q.Kind == NameVendors {
		ids, names, owners = l.VendorIDs, l.VendorNames, nil
	}
	for i, n := range names {
		owner := ""
		if owners != nil {
			owner = owners[i]
		}
		if !none && t.Matches(n, owner) {
			match = append(match, ids[i])
		} else {
			others = append(others, ids[i])
		}
	}
	return match, others
}

// wordPrefix reports whether a word of the folded name n begins with the
// folded word sw, given after a space (" word").
func wordPrefix(n, sw string) bool {
	return strings.HasPrefix(n, sw[1:]) || strings.Contains(n, sw)
}

// NameFeed reads the vendors' and packages' names that name searches
// match (the search service keeps them in memory).
type NameFeed interface {
	// NamesVersion returns the version of the vendors' and packages'
	// names: every write that creates, renames or deletes a vendor or a
	// package moves it.
	NamesVersion(ctx context.Context) (int64, error)
	// FeedEntityNames calls vendor with the id and folded name (Fold) of
	// every vendor, then pkg with those of every package and its
	// vendor's id, in id order, every customer's own included, and
	// returns a names version that the rows are at least as new as.
	FeedEntityNames(ctx context.Context, vendor func(id int64, folded string), pkg func(id, vendorID int64, folded string)) (version int64, err error)
}
