package kb

import (
	"errors"
	"testing"
)

func TestPackageMatchOf(t *testing.T) {
	for _, tc := range []struct {
		in   SearchType
		want PackageMatch
	}{
		{SearchAny, PackageMatchAny},
		{SearchContains, PackageMatchContains},
		{SearchExactMatch, PackageMatchExact},
		{SearchBeginsWith, PackageMatchBeginsWith},
		{SearchExactPhrase, PackageMatchPhrase},
		{SearchAdvanced, PackageMatchWords},
		{SearchProximity, PackageMatchWords},
	} {
		if got := PackageMatchOf(tc.in); got != tc.want {
			t.Errorf("PackageMatchOf(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestVisibilityFilters(t *testing.T) {
	for _, tc := range []struct {
		in       string
		want     VisibilityFilter
		ok       bool
		hidden   bool // a hidden package passes
		unhidden bool // a visible package passes
	}{
		{"visibleSomewhere", VisibilityShown, true, false, true},
		{"visibleInPF", VisibilityShown, true, false, true},
		{"VISIBLEINFTF", VisibilityShown, true, false, true},
		{"includedInMARC", VisibilityShown, true, false, true},
		{"hiddenSomewhere", VisibilityHidden, true, true, false},
		{"hiddenInPF", VisibilityHidden, true, true, false},
		{" hiddenInFTF ", VisibilityHidden, true, true, false},
		{"excludedFromMARC", VisibilityHidden, true, true, false},
		{"hidden", VisibilityAny, false, true, true},
		{"", VisibilityAny, false, true, true},
	} {
		f, ok := LookupVisibilityType(tc.in)
		if f != tc.want || ok != tc.ok {
			t.Errorf("LookupVisibilityType(%q) = %v, %v; want %v, %v", tc.in, f, ok, tc.want, tc.ok)
		}
		if f.Passes(true) != tc.hidden || f.Passes(false) != tc.unhidden {
			t.Errorf("%q: Passes(hidden) = %v, Passes(visible) = %v; want %v, %v", tc.in, f.Passes(true), f.Passes(false), tc.hidden, tc.unhidden)
		}
	}
	if n := len(VisibilityTypeNames()); n != 8 {
		t.Errorf("%d visibility type names, want 8", n)
	}
}

func TestVisibilityCategory(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"PF", "PF", true}, {"ftf", "FTF", true}, {" Marc ", "MARC", true}, {"OPAC", "", false}, {"", "", false},
	} {
		if got, ok := LookupVisibilityCategory(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("LookupVisibilityCategory(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestOneHiddenFlag(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		name          string
		in            []*bool
		hidden, given bool
		err           error
	}{
		{"nothing", nil, false, false, nil},
		{"all null", []*bool{nil, nil, nil}, false, false, nil},
		{"all hidden", []*bool{&yes, &yes, &yes}, true, true, nil},
		{"all shown", []*bool{&no, &no, &no}, false, true, nil},
		{"one given", []*bool{nil, &yes, nil}, true, true, nil},
		{"disagree", []*bool{&yes, &no, &yes}, false, false, ErrHiddenDisagree},
		{"disagree after null", []*bool{nil, &no, &yes}, false, false, ErrHiddenDisagree},
	} {
		hidden, given, err := OneHiddenFlag(tc.in)
		if hidden != tc.hidden || given != tc.given || !errors.Is(err, tc.err) {
			t.Errorf("%s: got %v, %v, %v; want %v, %v, %v", tc.name, hidden, given, err, tc.hidden, tc.given, tc.err)
		}
	}
}

func TestFlagFilterPasses(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		want *bool
		has  bool
		pass bool
	}{
		{nil, true, true}, {nil, false, true}, {&yes, true, true}, {&yes, false, false}, {&no, false, true}, {&no, true, false},
	} {
		if got := FlagFilterPasses(tc.want, tc.has); got != tc.pass {
			t.Errorf("FlagFilterPasses(%v, %v) = %v, want %v", tc.want, tc.has, got, tc.pass)
		}
	}
}

func TestLookupHostedContentType(t *testing.T) {
	for _, tc := range []struct {
		in        string
		want      ContentType
		other, ok bool
	}{
		{"ejournal", ContentEJournal, false, true},
		{"EJournal", ContentEJournal, false, true},
		{"7", ContentOnlineReference, false, true},
		{"all", ContentAll, false, true},
		{"streamingmedia", ContentAll, true, true},
		{"MixedContent", ContentAll, true, true},
		{"8", ContentAll, true, true},
		{"9", ContentAll, true, true},
		{"10", ContentAll, false, false},
		{"journal", ContentAll, false, false},
	} {
		c, other, ok := LookupHostedContentType(tc.in)
		if c != tc.want || other != tc.other || ok != tc.ok {
			t.Errorf("LookupHostedContentType(%q) = %v, %v, %v; want %v, %v, %v", tc.in, c, other, ok, tc.want, tc.other, tc.ok)
		}
	}
	if names := HostedContentTypeNames(); len(names) != 10 || names[8] != "streamingmedia" || names[9] != "mixedcontent" {
		t.Errorf("HostedContentTypeNames() = %v", names)
	}
}
