package kb

import (
	"reflect"
	"testing"
)

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Journal of Testing":         "journal of testing",
		"  Éclair — Études, Vol. 2 ": "eclair etudes vol 2",
		"Ångström":                   "angstrom",
		"C++/C#":                     "c c",
		"Straße":                     "straße",
		"":                           "",
		"---":                        "",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
	// Hangul syllables decompose into their letters: a folded name may be
	// three times as long in bytes as the name.
	if got := Fold("한국"); len(got) != 18 || len("한국") != 6 {
		t.Errorf("Fold(한국) = %q, %d bytes; want the 6 letters, 18 bytes", got, len(got))
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"journal of testing": {"journal", "of", "testing"},
		"\"C++\" (2nd ed.)":  {"C", "2nd", "ed"},
		"Éclair":             {"Éclair"},
		"  ":                 {},
	} {
		if got := Words(in); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}
