package kb

import "testing"

// asInt adapts the lookup of one enumeration to the table of
// TestEnumLookups.
func asInt[T ~int](lookup func(string) (T, bool)) func(string) (int, bool) {
	return func(s string) (int, bool) {
		v, ok := lookup(s)
		return int(v), ok
	}
}

func TestEnumLookups(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lookup func(string) (int, bool)
		in     string
		want   int
		ok     bool
	}{
		{"content type by name", asInt(LookupContentType), "ejournal", int(ContentEJournal), true},
		{"content type in any case, trimmed", asInt(LookupContentType), " EJournal ", int(ContentEJournal), true},
		{"content type by number", asInt(LookupContentType), "7", int(ContentOnlineReference), true},
		{"content type all", asInt(LookupContentType), "all", int(ContentAll), true},
		{"content type number out of range", asInt(LookupContentType), "8", 0, false},
		{"content type negative", asInt(LookupContentType), "-1", 0, false},
		{"content type unknown", asInt(LookupContentType), "journal", 0, false},
		{"selection", asInt(LookupSelection), "NotSelected", int(SelectionNotSelected), true},
		{"selection by number", asInt(LookupSelection), "3", int(SelectionOrderedThroughOperator), true},
		{"selection unknown", asInt(LookupSelection), "bogus", 0, false},
		{"selection branded alias", asInt(LookupSelection), "OrderedThroughEBSCO", int(SelectionOrderedThroughOperator), true},
		{"resource type", asInt(LookupResourceType), "BookSeries", int(ResourceBookSeries), true},
		{"resource type by number", asInt(LookupResourceType), "14", int(ResourceAudioBook), true},
		{"resource type display form with a space", asInt(LookupResourceType), "Book Series", 0, false},
		{"search field", asInt(LookupSearchField), "ISXN", int(FieldISXN), true},
		{"search field unknown", asInt(LookupSearchField), "4", 0, false},
		{"search type", asInt(LookupSearchType), "exactmatch", int(SearchExactMatch), true},
		{"search type unknown", asInt(LookupSearchType), "fuzzy", 0, false},
		{"package type", asInt(LookupPackageType), "Variable", int(PackageVariable), true},
		{"package type by number", asInt(LookupPackageType), "3", int(PackageCustom), true},
		{"package type unknown", asInt(LookupPackageType), "partial", 0, false},
		{"embargo unit", asInt(lookupEmbargoUnit), " months ", int(EmbargoMonths), true},
		{"embargo unit display form", asInt(lookupEmbargoUnit), "Years", int(EmbargoYears), true},
		{"embargo unit empty", asInt(lookupEmbargoUnit), "", 0, false},
		{"embargo unit not by number", asInt(lookupEmbargoUnit), "1", 0, false},
		{"embargo unit unknown", asInt(lookupEmbargoUnit), "Seconds", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.lookup(tc.in)
			if got != tc.want || ok != tc.ok {
				t.Errorf("lookup(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestEnumNames(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{ContentEJournal.String(), "ejournal"},
		{ContentEJournal.Display(), "EJournal"},
		{ContentType(9).String(), "ContentType(9)"},
		{SelectionNotSelected.String(), "notselected"},
		{ResourceBookSeries.Display(), "BookSeries"},
		{ResourceType(-1).Display(), "ResourceType(-1)"},
		{FieldISXN.String(), "isxn"},
		{SearchExactMatch.String(), "exactmatch"},
		{PackageCustom.String(), "Custom"},
		{EmbargoWeeks.String(), "Weeks"},
		{EmbargoNone.String(), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if got := SelectionNames(); len(got) != 4 || got[0] != "all" {
		t.Errorf("SelectionNames() = %q", got)
	}
	if got := SearchFieldNames(); len(got) != 4 || got[2] != "isxn" {
		t.Errorf("SearchFieldNames() = %q", got)
	}
}
