package kb

import (
	"errors"
	"strconv"
	"strings"
)

// The rules of the package lists and the package record of the hosted
// service's v2 operations (/rm/rmaccounts/v2/{custid}/lists), which the
// specification does not describe and which clients of the hosted service
// use. kbserver's model lacks some of their concepts; the rules below say
// how each is read.

// PackageMatch says how a package search matches. Every match compares
// folded text (Fold): case, diacritics and punctuation do not count.
type PackageMatch int

// Package matches.
const (
	// PackageMatchWords: every word of the search is a word prefix of the
	// name, ranked by relevance. The specification's package lists search
	// so.
	PackageMatchWords PackageMatch = iota
	// PackageMatchAny: at least one word is a word prefix of the name.
	PackageMatchAny
	// PackageMatchContains: every word is a substring of the name.
	PackageMatchContains
	// PackageMatchExact: the whole name is the search.
	PackageMatchExact
	// PackageMatchBeginsWith: the name begins with the search.
	PackageMatchBeginsWith
	// PackageMatchPhrase: the words of the search appear in the name, in
	// order and next to each other, as whole words.
	PackageMatchPhrase
)

// PackageMatchOf maps a search type onto the package match that serves
// it: any, contains, exactmatch, beginswith and exactphrase have their own;
// advanced and proximity are PackageMatchWords (a package name is short:
// all the words near each other is all the words; the boolean syntax of
// advanced title searches is not parsed for package names, its words are
// simply required).
func PackageMatchOf(t SearchType) PackageMatch {
	switch t {
	case SearchAny:
		return PackageMatchAny
	case SearchContains:
		return PackageMatchContains
	case SearchExactMatch:
		return PackageMatchExact
	case SearchBeginsWith:
		return PackageMatchBeginsWith
	case SearchExactPhrase:
		return PackageMatchPhrase
	}
	return PackageMatchWords
}

// VisibilityFilter keeps the hidden or the visible packages of a list.
type VisibilityFilter int

// Visibility filters.
const (
	VisibilityAny VisibilityFilter = iota
	VisibilityShown
	VisibilityHidden
)

// visibilityTypes are the hosted service's visibility filters in their
// order. kbserver keeps one hidden flag per package, which hides it from
// the publication finder (PF), the full text finder (FTF) and MARC records
// alike: every "visible" filter keeps the packages that are not hidden,
// every "hidden" one those that are.
var visibilityTypes = []struct {
	name   string
	filter VisibilityFilter
}{
	{"visibleSomewhere", VisibilityShown},
	{"visibleInPF", VisibilityShown},
	{"visibleInFTF", VisibilityShown},
	{"includedInMARC", VisibilityShown},
	{"hiddenSomewhere", VisibilityHidden},
	{"hiddenInPF", VisibilityHidden},
	{"hiddenInFTF", VisibilityHidden},
	{"excludedFromMARC", VisibilityHidden},
}

// LookupVisibilityType finds a visibility filter by its name, in any
// case; ok is false for anything else.
func LookupVisibilityType(s string) (f VisibilityFilter, ok bool) {
	s = strings.TrimSpace(s)
	for _, v := range visibilityTypes {
		if strings.EqualFold(s, v.name) {
			return v.filter, true
		}
	}
	return VisibilityAny, false
}

// VisibilityTypeNames lists the names of the visibility filters.
func VisibilityTypeNames() []string {
	out := make([]string, len(visibilityTypes))
	for i, v := range visibilityTypes {
		out[i] = v.name
	}
	return out
}

// Passes reports whether a package that is hidden (or not) passes f.
func (f VisibilityFilter) Passes(hidden bool) bool {
	switch f {
	case VisibilityShown:
		return !hidden
	case VisibilityHidden:
		return hidden
	}
	return true
}

// VisibilityCategories are the places a package is shown in, as the hosted
// wire names them: the publication finder, the full text finder and MARC
// records. The one hidden flag of kbserver applies to all three.
func VisibilityCategories() []string { return []string{"PF", "FTF", "MARC"} }

// LookupVisibilityCategory finds a visibility category by its name in any
// case and returns its wire form (upper case).
func LookupVisibilityCategory(s string) (string, bool) {
	for _, c := range VisibilityCategories() {
		if strings.EqualFold(strings.TrimSpace(s), c) {
			return c, true
		}
	}
	return "", false
}

// ErrHiddenDisagree is OneHiddenFlag's error for categories that ask for
// different hidden values.
var ErrHiddenDisagree = errors.New("the visibility categories disagree")

// OneHiddenFlag reads per-category hidden values (nil: not given) into the
// one hidden flag kbserver keeps. given is false when no category gives a
// value; values that disagree are ErrHiddenDisagree, since kbserver cannot
// hide a package from one place and show it in another.
func OneHiddenFlag(values []*bool) (hidden, given bool, err error) {
	for _, v := range values {
		switch {
		case v == nil:
		case !given:
			hidden, given = *v, true
		case *v != hidden:
			return false, false, ErrHiddenDisagree
		}
	}
	return hidden, given, nil
}

// The package flags of the hosted wire that kbserver has no concept for,
// with the value every package has: no package is free to read (all are
// "controlled"), none is ordered through the operator (kbserver takes no
// orders), each is its own primary package (there are no package
// families) and each may be selected.
const (
	PackageFreeAccess             = false
	PackageOrderedThroughOperator = false
	PackageIsPrimary              = true
	PackageAvailableForSelection  = true
)

// FlagFilterPasses reports whether a package whose flag has the value has
// passes a filter that wants want (nil: no filter).
func FlagFilterPasses(want *bool, has bool) bool { return want == nil || *want == has }

// hostedOnlyContentTypes are the package content types of the hosted
// service's clients that kbserver lacks, numbered after kbserver's seven:
// 8 streaming media and 9 mixed content.
var hostedOnlyContentTypes = []string{"streamingmedia", "mixedcontent"}

// LookupHostedContentType finds a package content type as the hosted
// service's clients write it: a name in any case (ejournal) or a number,
// 0 (all) to 9. other is true for a type kbserver lacks
// (hostedOnlyContentTypes): no package has it, and c is then ContentAll.
func LookupHostedContentType(s string) (c ContentType, other, ok bool) {
	if c, ok := LookupContentType(s); ok {
		return c, false, true
	}
	t := strings.TrimSpace(s)
	for i, n := range hostedOnlyContentTypes {
		if strings.EqualFold(t, n) || t == strconv.Itoa(int(ContentOnlineReference)+1+i) {
			return ContentAll, true, true
		}
	}
	return ContentAll, false, false
}

// HostedContentTypeNames lists the content type names the hosted
// service's clients send, "all" first, in the order of their numbers.
func HostedContentTypeNames() []string {
	return append(ContentTypeNames(), hostedOnlyContentTypes...)
}
