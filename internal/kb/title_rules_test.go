package kb

import (
	"errors"
	"testing"
)

func TestLookupPubType(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ResourceType
		ok   bool
	}{
		{"journal", ResourceJournal, true},
		{" BookSeries ", ResourceBookSeries, true},
		{"AUDIOBOOK", ResourceAudioBook, true},
		{"thesisdissertation", ResourceThesisDissertation, true},
		{"all", ResourceAll, false},
		{"1", ResourceAll, false},
		{"Book Series", ResourceAll, false},
		{"podcast", ResourceAll, false},
		{"", ResourceAll, false},
	} {
		if got, ok := LookupPubType(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("LookupPubType(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	names := PubTypeNames()
	if len(names) != int(ResourceAudioBook) || names[0] != "journal" || names[len(names)-1] != "audiobook" {
		t.Errorf("PubTypeNames() = %q", names)
	}
	for _, n := range names {
		if _, ok := LookupPubType(n); !ok {
			t.Errorf("PubTypeNames() lists %q, which LookupPubType refuses", n)
		}
	}
}

func TestLookupContributorType(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"author", "Author", true},
		{" Editor ", "Editor", true},
		{"ILLUSTRATOR", "Illustrator", true},
		{"translator", "", false},
		{"", "", false},
	} {
		if got, ok := LookupContributorType(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("LookupContributorType(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestIdentifierTypesValid(t *testing.T) {
	for _, tc := range []struct {
		typ  IdentifierType
		want bool
	}{{IdentISSN, true}, {IdentISBN, true}, {2, false}, {-1, false}} {
		if got := tc.typ.Valid(); got != tc.want {
			t.Errorf("IdentifierType(%d).Valid() = %v, want %v", int(tc.typ), got, tc.want)
		}
	}
	for _, tc := range []struct {
		sub  IdentifierSubtype
		want bool
	}{{SubtypeEmpty, false}, {SubtypePrint, true}, {SubtypeOnline, true}, {3, false}, {-1, false}} {
		if got := tc.sub.Valid(); got != tc.want {
			t.Errorf("IdentifierSubtype(%d).Valid() = %v, want %v", int(tc.sub), got, tc.want)
		}
	}
}

func TestCheckCustomTitle(t *testing.T) {
	for _, tc := range []struct {
		name, pubType string
		want          error
	}{
		{"Local Notes", "journal", nil},
		{"Local Notes", "podcast", nil}, // a bad type is LookupPubType's to refuse
		{"", "journal", ErrTitleNameMissing},
		{" \t", "journal", ErrTitleNameMissing},
		{"", "", ErrTitleNameMissing},
		{"Local Notes", "", ErrPubTypeMissing},
		{"Local Notes", "  ", ErrPubTypeMissing},
	} {
		if err := CheckCustomTitle(tc.name, tc.pubType); !errors.Is(err, tc.want) {
			t.Errorf("CheckCustomTitle(%q, %q) = %v, want %v", tc.name, tc.pubType, err, tc.want)
		}
	}
}
