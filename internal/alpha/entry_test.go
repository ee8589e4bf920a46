package alpha

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEntriesOfMenus: every entry a menu hands out, at every position and
// level, is a valid alphamenufacet value, reads back to its characters,
// and matches exactly the names the menu counted under it.
func TestEntriesOfMenus(t *testing.T) {
	loc, err := ParseLocale("en")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "b", "ab", "aa", "z", "0", "1", "12", "9", "é", "ß", "The ", "ö", "-", " ", "x1", "ø", "中"}
	names := make([]string, 3000)
	paths := make([]Path, len(names))
	for i := range names {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		names[i] = b.String()
		paths[i] = loc.Path(names[i])
	}
	seen := 0
	for _, id := range []int{1, 2, 3, 27, 28, 102, 203, 201, 20302, 20301, 10203, 10201} {
		m, err := loc.NewMenu(id)
		if err != nil {
			t.Fatalf("menu %d: %v", id, err)
		}
		for _, n := range names {
			m.Add(n)
		}
		for pos, items := range m.Result() {
			for _, it := range items {
				e, err := ParseEntry(it.Characters)
				if err != nil {
					t.Errorf("menu %d position %d: entry %q refused: %v", id, pos, it.Characters, err)
					continue
				}
				if e.String() != it.Characters || e.Level() != pos+1 {
					t.Errorf("entry %q reads back as %q at level %d, want level %d", it.Characters, e.String(), e.Level(), pos+1)
				}
				if lower, err := ParseEntry(strings.ToLower(it.Characters)); err != nil || lower != e {
					t.Errorf("entry %q in lower case: %v, %v", it.Characters, lower, err)
				}
				count := 0
				for _, p := range paths {
					if e.Match(p) {
						count++
					}
				}
				if count != it.Count {
					t.Errorf("menu %d: entry %q matches %d names, the menu counted %d", id, it.Characters, count, it.Count)
				}
				seen++
			}
		}
	}
	if seen < 500 {
		t.Errorf("only %d entries checked", seen)
	}
}

func TestParseEntryRefuses(t *testing.T) {
	for _, s := range []string{"", " ", "AB0", "Abcde", "0-9a", "1a", "A0-9b", "A0-91", "Otherx", "!", "A-", "0-90", "\u212a", "A\u212a", "\u0130"} {
		if e, err := ParseEntry(s); err == nil && s != "AB0" {
			t.Errorf("ParseEntry(%q) = %v, want an error", s, e)
		}
	}
	// "AB0" is A, then B, then the digit 0 (below Ab's digit group): an
	// entry of the fourth level.
	if e, err := ParseEntry("AB0"); err != nil || e.String() != "Ab0" || e.Level() != 4 {
		t.Errorf("ParseEntry(AB0) = %v (%s, level %d), %v", e, e.String(), e.Level(), err)
	}
}
