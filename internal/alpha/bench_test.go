package alpha

import (
	"strings"
	"testing"
)

var (
	asciiWords = []string{
		"journal", "of", "applied", "physics", "review", "international", "studies",
		"history", "modern", "quarterly", "annals", "science", "library", "economic",
		"bulletin", "medicine", "zoology", "yearbook", "x-ray", "vascular", "urban",
		"1984", "21st", "century", "quantum", "kinetics", "law", "nursing", "optics",
	}
	otherWords = []string{
		"études", "économie", "Ärzteblatt", "Zeitschrift", "für", "Straße", "Œuvres",
		"Россия", "история", "中国", "科学", "Ελληνικά", "Ångström", "naïve", "Łódź",
		"L'Express", "Les", "Der", "Die", "«Revue»",
	}
	articles = []string{"", "", "", "The ", "A ", "An ", "Le ", "La ", "Der ", "Die ", "...", "'"}
)

// benchTitles returns n titles generated deterministically from the word
// lists above; with nonASCII, about a third of the words are not ASCII.
func benchTitles(n int, nonASCII bool) []string {
	titles := make([]string, n)
	x := uint32(2463534242)
	next := func(m int) int { // xorshift
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		return int(x % uint32(m))
	}
	var b strings.Builder
	for i := range titles {
		b.Reset()
		b.WriteString(articles[next(len(articles))])
		for w := range 2 + next(4) {
			if w > 0 {
				b.WriteByte(' ')
			}
			word := asciiWords[next(len(asciiWords))]
			if nonASCII && next(3) == 0 {
				word = otherWords[next(len(otherWords))]
			}
			if w == 0 && next(2) == 0 {
				word = strings.ToUpper(word[:1]) + word[1:]
			}
			b.WriteString(word)
		}
		titles[i] = b.String()
	}
	return titles
}

func BenchmarkMenuAdd(b *testing.B) {
	for _, bm := range []struct {
		name     string
		nonASCII bool
		menuID   int
	}{
		{"ascii/level1", false, 2},
		{"ascii/level3", false, 21502},
		{"mixed/level1", true, 2},
		{"mixed/level3", true, 21502},
	} {
		b.Run(bm.name, func(b *testing.B) {
			titles := benchTitles(10000, bm.nonASCII)
			l := mustLocale(b, "en")
			m, err := l.NewMenu(bm.menuID)
			if err != nil {
				b.Fatal(err)
			}
			for _, s := range titles {
				m.Add(s)
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				m.Add(titles[i%len(titles)])
			}
		})
	}
}

func BenchmarkKey(b *testing.B) {
	for _, bm := range []struct {
		name     string
		nonASCII bool
	}{
		{"ascii", false},
		{"mixed", true},
	} {
		b.Run(bm.name, func(b *testing.B) {
			titles := benchTitles(10000, bm.nonASCII)
			l := mustLocale(b, "en")
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				l.Key(titles[i%len(titles)])
			}
		})
	}
}

func BenchmarkParseLocale(b *testing.B) {
	mustLocale(b, "en_US")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseLocale("en_US"); err != nil {
			b.Fatal(err)
		}
	}
}
