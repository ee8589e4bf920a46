package alpha

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/text/language"
)

func mustLocale(t testing.TB, id string) *Locale {
	t.Helper()
	l, err := ParseLocale(id)
	if err != nil {
		t.Fatalf("ParseLocale(%q): %v", id, err)
	}
	return l
}

func TestParseLocale(t *testing.T) {
	tests := []struct {
		id      string
		tag     string
		wantErr string
	}{
		{id: "en", tag: "en"},
		{id: "en-US", tag: "en-US"},
		{id: "en_US", tag: "en-US"},
		{id: "EN-us", tag: "en-US"},
		{id: "fr-FR", tag: "fr-FR"},
		{id: "fr_CA", tag: "fr-CA"},
		{id: "de-DE", tag: "de-DE"},
		{id: "es", tag: "es"},
		{id: "sv-SE", tag: "sv-SE"},
		{id: "de-u-co-phonebk", tag: "de-u-co-phonebk"},
		{id: "x!y", wantErr: `localeid "x!y" is not a language tag such as en-US, fr-FR or de-DE.`},
		{id: "en US", wantErr: `localeid "en US" is not a language tag`},
		{id: "en--US", wantErr: `localeid "en--US" is not a language tag`},
		{id: "english-united-states", wantErr: `is not a language tag`},
		{id: strings.Repeat("a", 100), wantErr: `localeid "` + strings.Repeat("a", 40) + `"… is not a language tag`},
		{id: "", wantErr: "localeid is empty: it must be a language tag such as en-US, fr-FR or de-DE."},
		{id: "  ", wantErr: "localeid is empty"},
	}
	for _, tt := range tests {
		l, err := ParseLocale(tt.id)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseLocale(%q) error = %v, want one containing %q", tt.id, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseLocale(%q): %v", tt.id, err)
			continue
		}
		if got := l.Tag(); got != tt.tag {
			t.Errorf("ParseLocale(%q).Tag() = %q, want %q", tt.id, got, tt.tag)
		}
	}
}

func TestParseLocaleCache(t *testing.T) {
	a, b, c := mustLocale(t, "en-US"), mustLocale(t, "en_US"), mustLocale(t, "en-US")
	if a != b || a != c {
		t.Errorf("ParseLocale returned different Locales for en-US, en_US and en-US: %p %p %p", a, b, c)
	}
	if d := mustLocale(t, "en-GB"); d == a {
		t.Errorf("ParseLocale returned the same Locale for en-GB as for en-US")
	}
}

// TestOrder sorts titles shuffled by Key and expects them in order.
func TestOrder(t *testing.T) {
	tests := []struct {
		locale string
		want   []string
	}{
		{"en-US", []string{
			"2001: A Space Odyssey",
			"The 39 Steps",
			"A",
			"...And Justice for All",
			"Apple",
			"An Apple Tree",
			"Applesauce",
			"The Beatles",
			"Die Hard",
			"Eagle",
			"Éclair",
			"ezra",
			"The",
			"Yak",
			"the Zebra",
			"Россия",
		}},
		{"fr-FR", []string{
			"La Croix",
			"Élan",
			"L’Équipe",
			"L'Express",
			"Le Figaro",
			"Les",
			"Les Misérables",
			"Le Monde",
			"LA PRESSE",
			"The Guardian",
			"Zadig",
		}},
		{"de-DE", []string{
			"Apotheke",
			"Ärzte Zeitung",
			"Das Boot",
			"Die",
			"Der Spiegel",
			"Straße",
			"The Times",
			"Über",
			"DIE ZEIT",
			"Zeitgeist",
		}},
		{"cs", []string{ // ch is a letter between h and i.
			"Cesta",
			"Hrad",
			"Chata",
			"Ivan",
		}},
		{"es", []string{
			"El País", // Spanish articles are kept.
			"La Nación",
			"Niño",
			"Ñandú",
			"Oro",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.locale, func(t *testing.T) {
			l := mustLocale(t, tt.locale)
			// Shuffle deterministically: reverse, then rotate by a third.
			got := slices.Clone(tt.want)
			slices.Reverse(got)
			k := len(got) / 3
			got = append(got[k:], got[:k]...)
			slices.SortStableFunc(got, func(a, b string) int {
				return bytes.Compare(l.Key(a), l.Key(b))
			})
			if !slices.Equal(got, tt.want) {
				t.Errorf("sorted by Key:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestKeyEqual(t *testing.T) {
	tests := []struct {
		locale string
		a, b   string
		equal  bool
	}{
		{"en", "ÉCLAIR", "eclair", true},
		{"en", "The Zebra", "zebra", true},
		{"en", "  'Zebra", "Zebra", true},
		{"en", "Die Zeit", "Zeit", false},
		{"de", "Die Zeit", "zeit", true},
		{"de", "Ärzte", "Arzte", true},
		{"fr", "L'Express", "express", true},
		{"fr", "L’Express", "Express", true},
		{"fr", "Les Misérables", "miserables", true},
		{"en", "Les Misérables", "miserables", false},
		{"en", "The", "the", true},
		{"en", "The", "", false},
		{"sv", "Åland", "Aland", false},
		{"en", "Åland", "Aland", true},
	}
	for _, tt := range tests {
		l := mustLocale(t, tt.locale)
		if got := bytes.Equal(l.Key(tt.a), l.Key(tt.b)); got != tt.equal {
			t.Errorf("%s: Key(%q) == Key(%q) is %v, want %v", tt.locale, tt.a, tt.b, got, tt.equal)
		}
	}
}

// TestKeyASCII checks that the keys of ASCII names, built from the keys of
// their characters, equal the keys of the collator.
func TestKeyASCII(t *testing.T) {
	names := benchTitles(300, false)
	for i := range 500 { // every ASCII character in various pairs
		names = append(names, string([]byte{byte(i % 128), byte(i * 7 % 128), 'x', byte(i * 13 % 128)}))
	}
	tests := []struct {
		locale string
		fast   bool
	}{
		{"en", true}, {"en-GB", true}, {"fr-FR", true}, {"de", true}, {"es", true},
		{"sv", true}, {"pl", true}, {"und", true},
		{"cs", false}, {"da", false}, {"de-u-co-phonebk", false}, {"en-u-kn-true", false}, {"es-u-co-trad", false},
	}
	for _, tt := range tests {
		l := mustLocale(t, tt.locale)
		if got := l.ascii != nil; got != tt.fast {
			t.Errorf("%s: ASCII keys from characters is %v, want %v", tt.locale, got, tt.fast)
		}
		k := l.keyers.Get().(*keyer)
		for _, name := range names {
			k.buf.Reset()
			want := k.c.KeyFromString(&k.buf, l.strip(name))
			if got := l.Key(name); !bytes.Equal(got, want) {
				t.Errorf("%s: Key(%q) = %x, want %x", tt.locale, name, got, want)
			}
		}
		l.keyers.Put(k)
	}
}

func TestKeyNotAliased(t *testing.T) {
	l := mustLocale(t, "en")
	a := l.Key("Apple")
	a0 := slices.Clone(a)
	l.Key("Zebra crossing at the end of a long road")
	if !bytes.Equal(a, a0) {
		t.Errorf("Key result changed after another call: %x, was %x", a, a0)
	}
	if k := l.Key(""); k == nil {
		t.Errorf("Key(\"\") = nil, want an empty key")
	}
}

func TestTop(t *testing.T) {
	tests := []struct {
		locale, name, want string
	}{
		{"en", "Apple", "A"},
		{"en", "apple", "A"},
		{"en", "zebra", "Z"},
		{"en", "The Zebra", "Z"},
		{"en", "the zebra", "Z"},
		{"en", "THE ZEBRA", "Z"},
		{"en", "The\tZebra", "Z"},
		{"en", "The-Zebra", "T"},
		{"en", "Thezebra", "T"},
		{"en", "The", "T"},
		{"en", "The ", "T"},
		{"en", "The !!!", "T"},
		{"en", "A", "A"},
		{"en", "An", "A"},
		{"en", "A Tale", "T"},
		{"en", "An Owl", "O"},
		{"en", "A.I.", "A"},
		{"en", "A 2 Z", "0-9"},
		{"es", "A 2 Z", "A"},
		{"en", "The 39 Steps", "0-9"},
		{"en", "The Россия", "Other"},
		{"en", " 'Hello'", "H"},
		{"en", "...And", "A"},
		{"en", "«Quoted»", "Q"},
		{"en", "$100 Bill", "0-9"},
		{"en", "1984", "0-9"},
		{"en", "0", "0-9"},
		{"en", "Россия", "Other"},
		{"en", "中国", "Other"},
		{"en", "Ελλάδα", "Other"},
		{"en", "", "Other"},
		{"en", "   ", "Other"},
		{"en", "!!!", "Other"},
		{"en", "\xff\xfe", "Other"},
		{"en", "Éclair", "E"},
		{"en", "éclair", "E"},
		{"en", "e\u0301tude", "E"},
		{"en", "\u0301etude", "E"},
		{"en", "Ärzte", "A"},
		{"en", "Åland", "A"},
		{"en", "Æsop", "A"},
		{"en", "Œuvres", "O"},
		{"en", "ﬁnal", "F"},
		{"en", "Ｆull width", "F"},
		{"en", "Ørsted", "O"},
		{"en", "Ðe", "D"},
		{"en", "Łódź", "L"},
		{"en", "٣ Cups", "0-9"},
		{"en", "½ Price", "0-9"},
		{"en", "ʻOhana", "O"},
		{"en", "\u00adSoft", "S"},
		{"en", "\u200bZero width", "Z"},
		{"en", "Die Zeit", "D"},
		{"en", "Die Hard", "D"},
		{"en", "Der Spiegel", "D"},
		{"en", "L'Express", "L"},
		{"en", "Les Misérables", "L"},
		{"fr", "Les Misérables", "M"},
		{"fr", "les misérables", "M"},
		{"fr", "L'Express", "E"},
		{"fr", "L’Express", "E"},
		{"fr", "l'express", "E"},
		{"fr", "L' Express", "E"},
		{"fr", "La Croix", "C"},
		{"fr", "Le Monde", "M"},
		{"fr", "Le 14 Juillet", "0-9"},
		{"fr", "L'", "L"},
		{"fr", "Le", "L"},
		{"fr", "Les", "L"},
		{"fr", "Lesbos", "L"},
		{"fr", "The Zebra", "T"},
		{"fr-CA", "L'Actualité", "A"},
		{"de", "Der Spiegel", "S"},
		{"de", "Die Zeit", "Z"},
		{"de", "die zeit", "Z"},
		{"de", "Das Boot", "B"},
		{"de", "Die", "D"},
		{"de", "The Times", "T"},
		{"de", "Ärzte", "A"},
		{"de", "Über", "U"},
		{"de-u-co-phonebk", "Über", "U"},
		{"sv", "Åland", "Other"},
		{"sv", "Örebro", "Other"},
		{"sv", "Ängel", "Other"},
		{"sv", "Eagle", "E"},
		{"es", "Ñandú", "Other"},
		{"es", "Niño", "N"},
		{"es", "El País", "E"},
		{"es", "The Zebra", "T"},
		{"und", "The Zebra", "T"},
		{"en-u-kn-true", "1984", "0-9"},
		{"en-u-kn-true", "٣ Cups", "0-9"},
	}
	for _, tt := range tests {
		l := mustLocale(t, tt.locale)
		if got := l.Top(tt.name); got != tt.want {
			t.Errorf("%s: Top(%q) = %q, want %q", tt.locale, tt.name, got, tt.want)
		}
	}
}

// TestKeyFollowsTop checks that sorting by Key keeps the first-level entries
// in menu order, for titles outside "Other".
func TestKeyFollowsTop(t *testing.T) {
	for _, id := range []string{"en", "fr", "de"} {
		l := mustLocale(t, id)
		var titles []string
		for _, s := range benchTitles(2000, true) {
			if l.Top(s) != "Other" {
				titles = append(titles, s)
			}
		}
		slices.SortFunc(titles, func(a, b string) int { return bytes.Compare(l.Key(a), l.Key(b)) })
		rank := map[string]int{}
		for i, e := range TopEntries() {
			rank[e] = i
		}
		for i := 1; i < len(titles); i++ {
			a, b := titles[i-1], titles[i]
			if rank[l.Top(a)] > rank[l.Top(b)] {
				t.Errorf("%s: %q (%s) sorts before %q (%s)", id, a, l.Top(a), b, l.Top(b))
			}
		}
	}
}

// TestConcurrent uses a new Locale from several goroutines, so that its
// collators and tables are built concurrently, and compares with the results
// of one goroutine.
func TestConcurrent(t *testing.T) {
	titles := benchTitles(500, true)
	ref := newLocale(language.MustParse("fr"))
	wantKeys := make([][]byte, len(titles))
	wantTops := make([]string, len(titles))
	for i, s := range titles {
		wantKeys[i], wantTops[i] = ref.Key(s), ref.Top(s)
	}
	l := newLocale(language.MustParse("fr"))
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for j := range titles {
				i := (j + g*61) % len(titles)
				if k := l.Key(titles[i]); !bytes.Equal(k, wantKeys[i]) {
					errs <- "Key(" + titles[i] + ") differs"
					return
				}
				if top := l.Top(titles[i]); top != wantTops[i] {
					errs <- "Top(" + titles[i] + ") = " + top + ", want " + wantTops[i]
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
