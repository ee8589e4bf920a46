package alpha

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// menuTitles and their paths in the English menu (for reference):
var menuTitles = []string{
	"Abacus",      // A, Ab, Aba, Abac
	"Abbey Road",  // A, Ab, Abb, Abbe
	"The Abbot",   // A, Ab, Abb, Abbo
	"Ab",          // A, Ab
	"Ab 12 Rules", // A, Ab, Ab0-9, Ab1, Ab12
	"A2 Level",    // A, A0-9, A2
	"Á 2 Z",       // A, A0-9, A2 (in English "A 2 Z" is "2 Z")
	"A23",         // A, A0-9, A2, A23
	"Ärzte",       // A, Ar, Arz, Arzt
	"Aßa",         // A, As, Ass, Assa
	"AЯ",          // A
	"A",           // A
	"Bob",         // B, Bo, Bob
	"1984",        // 0-9, 1, 19, 198
	"1A",          // 0-9, 1
	"10 Things",   // 0-9, 1, 10
	"Россия",      // Other
	"",            // Other
	"Zebra",       // Z, Ze, Zeb, Zebr
}

// nonZero lists the entries of a position with a count, as "characters:count".
func nonZero(items []Item) []string {
	var s []string
	for _, it := range items {
		if it.Count != 0 {
			s = append(s, fmt.Sprintf("%s:%d", it.Characters, it.Count))
		}
	}
	return s
}

func TestMenu(t *testing.T) {
	top := []string{"0-9:3", "A:12", "B:1", "Z:1", "Other:2"}
	underA := []string{"A0-9:3", "Ab:5", "Ar:1", "As:1"}
	underAb := []string{"Ab0-9:1", "Aba:1", "Abb:2"}
	tests := []struct {
		menuID int
		want   [4][]string // non-zero entries of each position
		sizes  [4]int      // number of entries of each position
	}{
		{1, [4][]string{top, {"1:3"}, nil, nil}, [4]int{28, 10, 0, 0}},
		{2, [4][]string{top, underA, nil, nil}, [4]int{28, 27, 0, 0}},
		{3, [4][]string{top, {"Bo:1"}, nil, nil}, [4]int{28, 27, 0, 0}},
		{27, [4][]string{top, {"Ze:1"}, nil, nil}, [4]int{28, 27, 0, 0}},
		{28, [4][]string{top, nil, nil, nil}, [4]int{28, 0, 0, 0}},
		{102, [4][]string{top, {"1:3"}, {"10:1", "19:1"}, nil}, [4]int{28, 10, 10, 0}},
		{201, [4][]string{top, underA, {"A2:3"}, nil}, [4]int{28, 27, 10, 0}},
		{203, [4][]string{top, underA, underAb, nil}, [4]int{28, 27, 27, 0}},
		{218, [4][]string{top, underA, nil, nil}, [4]int{28, 27, 27, 0}},
		{219, [4][]string{top, underA, {"Arz:1"}, nil}, [4]int{28, 27, 27, 0}},
		{220, [4][]string{top, underA, {"Ass:1"}, nil}, [4]int{28, 27, 27, 0}},
		{10210, [4][]string{top, {"1:3"}, {"10:1", "19:1"}, {"198:1"}}, [4]int{28, 10, 10, 10}},
		{10202, [4][]string{top, {"1:3"}, {"10:1", "19:1"}, nil}, [4]int{28, 10, 10, 10}},
		{20103, [4][]string{top, underA, {"A2:3"}, {"A23:1"}}, [4]int{28, 27, 10, 10}},
		{20301, [4][]string{top, underA, underAb, {"Ab1:1"}}, [4]int{28, 27, 27, 10}},
		{20302, [4][]string{top, underA, underAb, {"Abac:1"}}, [4]int{28, 27, 27, 27}},
		{20303, [4][]string{top, underA, underAb, {"Abbe:1", "Abbo:1"}}, [4]int{28, 27, 27, 27}},
		{20304, [4][]string{top, underA, underAb, nil}, [4]int{28, 27, 27, 27}},
		{21920, [4][]string{top, underA, {"Arz:1"}, nil}, [4]int{28, 27, 27, 27}},
		{21927, [4][]string{top, underA, {"Arz:1"}, {"Arzt:1"}}, [4]int{28, 27, 27, 27}},
		{20220, [4][]string{top, underA, nil, nil}, [4]int{28, 27, 27, 27}},
	}
	l := mustLocale(t, "en")
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.menuID), func(t *testing.T) {
			m, err := l.NewMenu(tt.menuID)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range menuTitles {
				m.Add(s)
			}
			r := m.Result()
			for p := range r {
				if r[p] == nil {
					t.Errorf("position %d is nil, want a slice", p)
				}
				if len(r[p]) != tt.sizes[p] {
					t.Errorf("position %d has %d entries, want %d", p, len(r[p]), tt.sizes[p])
				}
				if got := nonZero(r[p]); !slices.Equal(got, tt.want[p]) {
					t.Errorf("position %d counts = %q, want %q", p, got, tt.want[p])
				}
			}
			checkStructure(t, tt.menuID, r)
		})
	}
}

// checkStructure checks the ids, orders and characters of a result against
// the ancestors of menuID.
func checkStructure(t *testing.T, menuID int, r Result) {
	t.Helper()
	var ancestors []int
	for id := menuID; id > 0; id /= 100 {
		ancestors = append([]int{id}, ancestors...)
	}
	for i, it := range r[0] {
		if it.MenuID != i+1 || it.Order != i+1 {
			t.Errorf("position 0 entry %d = %+v, want menu id and order %d", i, it, i+1)
		}
	}
	for p := 1; p <= 3; p++ {
		if p > len(ancestors) {
			continue
		}
		parent := ancestors[p-1]
		var parentChars string
		for _, it := range r[p-1] {
			if it.MenuID == parent {
				parentChars = it.Characters
			}
		}
		if parentChars == "" {
			t.Errorf("position %d: parent %d is not in position %d", p, parent, p-1)
		}
		prefix := strings.TrimSuffix(parentChars, "0-9")
		for i, it := range r[p] {
			if it.MenuID != parent*100+i+1 || it.Order != i+1 {
				t.Errorf("position %d entry %d = %+v, want menu id %d and order %d", p, i, it, parent*100+i+1, i+1)
			}
			if !strings.HasPrefix(it.Characters, prefix) || it.Characters == prefix {
				t.Errorf("position %d entry %+v does not extend %q", p, it, prefix)
			}
		}
	}
}

func TestMenuCharacters(t *testing.T) {
	l := mustLocale(t, "en")
	tests := []struct {
		menuID   int
		position int
		index    int
		want     Item
	}{
		{20303, 0, 0, Item{1, "0-9", 1, 0}},
		{20303, 0, 1, Item{2, "A", 2, 0}},
		{20303, 0, 26, Item{27, "Z", 27, 0}},
		{20303, 0, 27, Item{28, "Other", 28, 0}},
		{20303, 1, 0, Item{201, "A0-9", 1, 0}},
		{20303, 1, 1, Item{202, "Aa", 2, 0}},
		{20303, 1, 26, Item{227, "Az", 27, 0}},
		{20303, 2, 0, Item{20301, "Ab0-9", 1, 0}},
		{20303, 2, 2, Item{20303, "Abb", 3, 0}},
		{20303, 3, 0, Item{2030301, "Abb0-9", 1, 0}},
		{20303, 3, 26, Item{2030327, "Abbz", 27, 0}},
		{1, 1, 0, Item{101, "0", 1, 0}},
		{1, 1, 9, Item{110, "9", 10, 0}},
		{10210, 2, 0, Item{10201, "10", 1, 0}},
		{10210, 3, 9, Item{1021010, "199", 10, 0}},
		{20101, 2, 9, Item{20110, "A9", 10, 0}},
		{20101, 3, 0, Item{2010101, "A00", 1, 0}},
		{272727, 3, 26, Item{27272727, "Zzzz", 27, 0}},
	}
	for _, tt := range tests {
		m, err := l.NewMenu(tt.menuID)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Result()[tt.position][tt.index]; got != tt.want {
			t.Errorf("menu %d position %d entry %d = %+v, want %+v", tt.menuID, tt.position, tt.index, got, tt.want)
		}
	}
}

// TestMenuLocale checks that the menu follows the locale's articles and
// letters.
func TestMenuLocale(t *testing.T) {
	titles := []string{"Die Zeit", "Der Spiegel", "Les Misérables", "L'Express", "The Zebra", "Åland", "Ärzte"}
	tests := []struct {
		locale string
		want   []string
	}{
		{"en", []string{"A:2", "D:2", "L:2", "Z:1"}},
		{"fr", []string{"A:2", "D:2", "E:1", "M:1", "T:1"}},
		{"de", []string{"A:2", "L:2", "S:1", "T:1", "Z:1"}},
		{"sv", []string{"D:2", "L:2", "T:1", "Other:2"}},
	}
	for _, tt := range tests {
		l := mustLocale(t, tt.locale)
		m, err := l.NewMenu(2)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range titles {
			m.Add(s)
		}
		if got := nonZero(m.Result()[0]); !slices.Equal(got, tt.want) {
			t.Errorf("%s: position 0 = %q, want %q", tt.locale, got, tt.want)
		}
	}
}

func TestNewMenu(t *testing.T) {
	valid := []int{1, 2, 27, 28, 101, 110, 201, 202, 227, 2701, 2727, 10101, 10110, 11010, 20101, 20110, 20327, 272727}
	invalid := []struct {
		id   int
		want string
	}{
		{0, "menuid 0 is not an alpha menu entry: it must be a positive number"},
		{-1, "menuid -1 is not an alpha menu entry"},
		{29, "menuid 29 is not an alpha menu entry: the first level is 1 (0-9)"},
		{99, "menuid 99 is not"},
		{100, "menuid 100 is not an alpha menu entry: the entries below 1 (0-9) are 101 to 110."},
		{111, "the entries below 1 (0-9) are 101 to 110."},
		{200, "the entries below 2 (A) are 201 to 227."},
		{228, "the entries below 2 (A) are 201 to 227."},
		{2801, "menuid 2801 is not an alpha menu entry: 28 (Other) has no entries below it."},
		{2901, "menuid 2901 is not"},
		{2999, "menuid 2999 is not"},
		{9999, "menuid 9999 is not"},
		{10011, "menuid 10011 is not an alpha menu entry: the entries below 1 (0-9) are 101 to 110."},
		{10211, "the entries below 102 (1) are 10201 to 10210."},
		{20111, "the entries below 201 (A0-9) are 20101 to 20110."},
		{20328, "the entries below 203 (Ab) are 20301 to 20327."},
		{280101, "28 (Other) has no entries below it."},
		{290101, "menuid 290101 is not"},
		{2030301, "the menu can be asked for an entry of the first three levels"},
		{1 << 40, "is not an alpha menu entry"},
	}
	l := mustLocale(t, "en")
	for _, id := range valid {
		if _, err := l.NewMenu(id); err != nil {
			t.Errorf("NewMenu(%d): %v", id, err)
		}
	}
	for _, tt := range invalid {
		m, err := l.NewMenu(tt.id)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewMenu(%d) = %v, %v; want an error containing %q", tt.id, m, err, tt.want)
		}
	}
}

func TestParseMenuID(t *testing.T) {
	tests := []struct {
		s       string
		want    int
		wantErr bool
	}{
		{"1", 1, false},
		{"28", 28, false},
		{"203", 203, false},
		{"020302", 20302, false},
		{"999999999", 999999999, false},
		{"0", 0, true},
		{"000", 0, true},
		{"-1", 0, true},
		{"+1", 0, true},
		{" 1", 0, true},
		{"1.5", 0, true},
		{"1e3", 0, true},
		{"A", 0, true},
		{"", 0, true},
		{"99999999999999999999", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseMenuID(tt.s)
		if tt.wantErr {
			want := fmt.Sprintf("Parameter menuid must be a positive number such as 1 (0-9), 2 (A) … 28 (Other) or 203 (Ab) (got %q).", tt.s)
			if err == nil || err.Error() != want {
				t.Errorf("ParseMenuID(%q) = %d, %v; want error %q", tt.s, got, err, want)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseMenuID(%q) = %d, %v; want %d", tt.s, got, err, tt.want)
		}
	}
}

func TestTopEntries(t *testing.T) {
	e := TopEntries()
	want := []string{"0-9"}
	for c := 'A'; c <= 'Z'; c++ {
		want = append(want, string(c))
	}
	want = append(want, "Other")
	if !slices.Equal(e, want) {
		t.Fatalf("TopEntries() = %q, want %q", e, want)
	}
	e[0] = "changed"
	if TopEntries()[0] != "0-9" {
		t.Errorf("changing the result of TopEntries changed the next result")
	}
	for i, s := range want {
		if got, err := ParseEntry(s); err != nil || got.String() != s || got.TopIndex() != i || got.Level() != 1 {
			t.Errorf("ParseEntry(%q) = %q (top %d, level %d), %v; want it unchanged, first level", s, got.String(), got.TopIndex(), got.Level(), err)
		}
	}
}

func TestMenuAddDoesNotAllocate(t *testing.T) {
	l := mustLocale(t, "de")
	m, err := l.NewMenu(20303)
	if err != nil {
		t.Fatal(err)
	}
	titles := []string{"Die Abbey", "Ab 12", "Ärzte Zeitung", "Straße", "Œuvres", "Россия", "中国", "1984"}
	for _, s := range titles { // Warm up the locale's tables.
		m.Add(s)
	}
	allocs := testing.AllocsPerRun(100, func() {
		for _, s := range titles {
			m.Add(s)
		}
	})
	if allocs != 0 {
		t.Errorf("Add allocates %v times per call of the titles, want 0", allocs)
	}
}
